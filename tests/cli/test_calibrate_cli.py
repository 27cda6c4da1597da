"""`exactdp calibrate` end to end (accounting/calibration.hpp): JSON report, exit codes, refusals.

Expected values: k-fold randomized response at pure eps has least lambda = e^(eps/k) (closed form);
the Laplace mechanism at pure eps b = k*Delta/eps (closed form).
"""
import json
import math
from fractions import Fraction

from conftest import run


def test_rr_json_brackets_exp_eps_over_k():
    r = json.loads(run("calibrate", "rr", "--epsilon", "1", "--delta", "0", "--times", "10", "--json").stdout)
    assert r["format"] == "exactdp-calibration/1" and r["status"] == "bracketed"
    lo, hi = Fraction(r["bracket"]["lo"]), Fraction(r["bracket"]["hi"])
    assert lo < math.exp(0.1) < hi  # float exp is far inside: the width is about 1e-3
    assert r["meets"]["value"] == r["bracket"]["lo"] and r["meets"]["verdict"] == "meets"
    assert r["fails"]["verdict"] == "fails" and r["noisier"] == "smaller"


def test_laplace_text_output_and_width():
    p = run("calibrate", "laplace:sensitivity=2", "--epsilon", "1/2", "--delta", "0", "--times", "3",
            "--relative-width", "0.01")
    assert "least b in [" in p.stdout and "meets at" in p.stdout and "fails at" in p.stdout
    assert "monotonicity:" in p.stdout
    r = json.loads(run("calibrate", "laplace:sensitivity=2", "--epsilon", "1/2", "--delta", "0", "--times", "3",
                       "--relative-width", "0.01", "--json").stdout)
    assert Fraction(r["bracket"]["lo"]) < 12 <= Fraction(r["bracket"]["hi"])
    assert Fraction(r["bracket"]["width"]) <= Fraction(1, 100)


def test_gauss_delta_witness():
    r = json.loads(run("calibrate", "gauss", "--epsilon", "1", "--delta", "1e-5", "--witness", "delta", "--json").stdout)
    assert r["witness"] == "delta"
    assert Fraction(r["meets"]["true_delta"]["hi"]) <= Fraction(1, 10**5) < Fraction(r["fails"]["true_delta"]["lo"])


def test_no_level_meets_exits_3():
    r = json.loads(run("calibrate", "rr:delta=1/10", "--epsilon", "1", "--delta", "1/20", "--max-levels", "20", "--json",
                       expect=3).stdout)
    assert r["status"] == "no_level_meets" and r["meets"] is None


def test_refusals_exit_2_naming_the_field():
    for args, word in [(["dgauss"], "family"), (["gauss:sigma=2"], "family"), (["krr"], "family"),
                       (["gauss", "--delta", "0"], "delta")]:
        full = [*args, "--epsilon", "1"] + ([] if "--delta" in args else ["--delta", "1e-5"])
        p = run("calibrate", *full, expect=2)
        assert word in p.stderr, p.stderr
    p = run("calibrate", "gauss", "--epsilon", "1", "--delta", "1e-5", "--relative-width", "0", expect=2)
    assert "relative_width" in p.stderr


def test_stop_reason_and_refinement_flags():
    """Without refinement (--refine-grid-points equal to --grid-points) a small first budget leaves a
    level near the least sigma undecided (exit 3), and the report names it; with refinement the same
    search reaches the width. Both brackets are certified brackets of one least sigma: they overlap."""
    base = ["calibrate", "gauss", "--epsilon", "1", "--delta", "1e-5", "--times", "10", "--sampling-rate", "1/10",
            "--relative-width", "1/200", "--grid-points", "256", "--json"]
    coarse = json.loads(run(*base, "--refine-grid-points", "256", expect=3).stdout)
    assert coarse["status"] == "undecided" and coarse["refinements"] == 0
    assert "stays undecided" in coarse["stop_reason"]
    fine = json.loads(run(*base, "--refine-grid-points", "16384").stdout)
    assert fine["status"] == "bracketed" and fine["refinements"] > 0
    assert "relative width" in fine["stop_reason"]
    lo = max(Fraction(coarse["bracket"]["lo"]), Fraction(fine["bracket"]["lo"]))
    hi = min(Fraction(coarse["bracket"]["hi"]), Fraction(fine["bracket"]["hi"]))
    assert lo < hi
    for end in ("meets", "fails"):
        assert fine[end]["grid_point_budget"] <= 16384 and fine[end]["refinements"] >= 0


def test_flag_ranges_come_from_the_limits_and_are_printed():
    """The help prints each bound of core/limits.hpp, and a value beyond it is refused (exit 2)."""
    help_text = run("calibrate", "--help").stdout
    assert "from 4 to 8192" in help_text and "from 64 to 2000000" in help_text and "from 2 to 200" in help_text
    for flag, value in [("--grid-resolution", "16384"), ("--grid-points", "2000001"), ("--refine-grid-points", "63"),
                        ("--digits", "201")]:
        run("calibrate", "gauss", "--epsilon", "1", "--delta", "1e-5", flag, value, expect=2)
    assert "from 64 to 1048576" in run("check", "--help").stdout


def test_probe_and_progress():
    """A probe is judged first and reported; --progress prints one line per judgement on stderr (none
    without it, stderr not being a terminal here). Laplace at pure eps = 1, sensitivity 1: the least
    b is 1 exactly (closed form), so the probe at 1 meets and stays the meeting end."""
    args = ["calibrate", "laplace", "--epsilon", "1", "--delta", "0", "--probe", "1", "--relative-width", "1/100", "--json"]
    quiet = run(*args)
    assert quiet.stderr == ""
    p = run(*args, "--progress")
    r = json.loads(p.stdout)
    assert [(x["value"], x["verdict"]) for x in r["probes"]] == [("1", "meets")]
    assert r["bracket"]["hi"] == "1" and r["meets"]["value"] == "1"
    lines = p.stderr.strip().splitlines()
    assert len(lines) == r["levels_judged"] + r["refinements"]
    assert lines[0].startswith("exactdp: calibrate probe b = 1 ") and ": meets" in lines[0] and "s CPU" in lines[0]
    assert all(line.startswith("exactdp: calibrate ") for line in lines)


def test_refinement_limit_above_the_point_bound_needs_the_memory_named():
    """45e6 points x 512 bytes = 21 973 MiB (hand-computed): refused with the estimate under the default
    budget (exit 2), accepted with --max-memory 22000 (Laplace at pure eps never refines)."""
    base = ["calibrate", "laplace", "--epsilon", "1", "--delta", "0", "--refine-grid-points", "45000000"]
    p = run(*base, expect=2)
    assert "21973 MiB" in p.stderr and "--max-memory" in p.stderr, p.stderr
    run(*base, "--max-memory", "22000")
