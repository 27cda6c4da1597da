"""`exactdp check SPEC --lambda EXPR --for-all r` (issue 19, docs/parametric.md): a pure-DP claim for
every value of a spec's parameter.

Expected values are derived by hand in each test: RR with p = r has per-answer ratio r/(1−r); the
bundled clamped-DLap example answers RR with p = 1/(1+r), ratio 1/r per answer.
"""
import json
from fractions import Fraction
from pathlib import Path

from conftest import run

ROOT = Path(__file__).resolve().parents[2]
RR = ROOT / "spec" / "mechanisms" / "rr-parametric.json"
DLAP = ROOT / "spec" / "mechanisms" / "dlap-counter-parametric.json"


def test_holds_for_every_r():
    # three clamped-DLap answers about one bit: (1/r)^3 exactly
    p = run("check", DLAP, "--lambda", "1/r^3", "--for-all", "r")
    assert p.stdout.startswith("HOLDS for every r in (0, 1)")
    assert "Cross-check: the numeric engine confirms the claim at r = 1/2." in p.stdout


def test_refuted_with_exact_subrange_and_witness_json():
    # 2/r² ≥ 1/r³ iff r ≥ 1/2: the claim fails exactly on (0, 1/2), open at 1/2 (equality there)
    p = run("check", DLAP, "--lambda", "2/r^2", "--for-all", "r", "--json", expect=1)
    r = json.loads(p.stdout)
    assert r["verdict"] == "refuted"
    assert r["parameter"] == "r" and r["horizon"] == 3
    [f] = r["failing"]
    assert f["lower"] == {"rational": "0"} and f["upper"] == {"rational": "1/2"}
    assert not f["lower_closed"] and not f["upper_closed"]
    w = f["witness"]
    assert w["verdict"] == "refuted" and w["parameter_value"] == f["samples"][0]
    # at the sample r = 1/3: λ = 18 < 27 = 1/r³, so some δ > 0 is reached
    assert f["samples"] == ["1/3"] and w["lambda_used"] == "18"
    assert [c["verdict"] for c in r["cross_checks"]] == ["holds"]


def test_algebraic_endpoint():
    # event-level RR with p = r, λ = 1 + r: fails iff r/(1−r) > 1 + r iff r² + r − 1 > 0 iff
    # r > (√5 − 1)/2 ≈ 0.618034 (the root of r² + r − 1)
    p = run("check", RR, "--lambda", "1+r", "--for-all", "r", "--json", expect=1)
    [f] = json.loads(p.stdout)["failing"]
    assert f["lower"]["polynomial"] == ["-1", "1", "1"]
    assert f["lower"]["approx"].startswith("0.618033")
    lo, hi = (Fraction(x) for x in f["lower"]["interval"])
    # the interval must contain (√5 − 1)/2 ∈ (0.6180339887, 0.6180339888), not the other root
    # (−1 − √5)/2 < 0, and r² + r − 1 must change sign across it
    assert Fraction(0) < lo < Fraction("0.6180339888") and Fraction("0.6180339887") < hi
    q = lambda x: x * x + x - 1
    assert q(lo) < 0 < q(hi)
    assert f["upper"] == {"rational": "1"}


def test_bad_input_is_exit_2_naming_the_problem():
    p = run("check", DLAP, "--lambda", "1/q", "--for-all", "r", expect=2)
    assert "unknown name `q`" in p.stderr
    p = run("check", DLAP, "--lambda", "1/r", "--for-all", "s", expect=2)
    assert "the spec's parameter is `r`" in p.stderr
    p = run("check", DLAP, "--lambda", "r", "--for-all", "r", expect=2)
    assert "λ must be at least 1" in p.stderr
    p = run("check", DLAP, "--lambda", "1/r^3", "--delta", "11/10", "--for-all", "r", expect=2)
    assert "1 − δ must be at least 0" in p.stderr


def test_bad_table_names_file_pointer_and_value(tmp_path):
    spec = json.loads(DLAP.read_text())
    spec["mechanism"]["states"]["x0"]["count"][1]["p"] = "r/(1+r) + r/10"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(spec))
    p = run("check", f, "--lambda", "1/r^3", "--for-all", "r", expect=2)
    assert "bad.json" in p.stderr and "/mechanism/states/x0/count" in p.stderr
    assert "at r = 1/2 they sum to 21/20" in p.stderr
    p = run("lint", f, expect=2)
    assert "sum to 1 for every r" in p.stdout


def test_lint_clean():
    run("lint", RR, DLAP, expect=0)


def test_profile_parametric_piecewise_ratio():
    # the clamped-DLap example: worst ratio (1/r)^3 on the whole range (by hand); RR with p = r: r/(1−r)
    r = json.loads(run("profile", DLAP, "--parametric", "--json").stdout)
    assert not r["infinite"]
    [piece] = r["pieces"]
    assert piece["ratio"] == "1/r^3" and piece["lower"] == {"rational": "0"} and piece["upper"] == {"rational": "1"}
    assert piece["sample"] == "1/2" and piece["ratio_at_sample"] == "8"
    p = run("profile", RR, "--parametric")
    assert "r in (1/2, 1):  r/(1-r)" in p.stdout


def test_profile_parametric_where_the_worst_function_changes(tmp_path):
    # message a answers RR with p = r (ratio r/(1−r)), message b RR with p = 3/4 (ratio 3): the
    # worst ratio is 3 up to r = 3/4 (where r/(1−r) = 3) and r/(1−r) above it (by hand)
    rows = lambda p, q: [{"p": p, "answer": "0", "next": "h"}, {"p": q, "answer": "1", "next": "h"}]
    spec = {"format": "exactdp/1", "name": "two kinds of RR", "horizon": 1,
            "parameters": {"r": {"interval": ["1/2", "1"], "open": True}},
            "neighbours": {"type": "static", "worlds": ["x", "x'"]},
            "mechanism": {"type": "table", "initial": {"x": "b0", "x'": "b1"}, "messages": ["a", "b"],
                          "states": {"b0": {"a": rows("r", "1-r"), "b": rows("3/4", "1/4")},
                                     "b1": {"a": rows("1-r", "r"), "b": rows("1/4", "3/4")}, "h": {}}}}
    f = tmp_path / "two.json"
    f.write_text(json.dumps(spec))
    pieces = json.loads(run("profile", f, "--parametric", "--json").stdout)["pieces"]
    assert [p["ratio"] for p in pieces] == ["3", "r/(1-r)"]
    assert pieces[0]["upper"] == {"rational": "3/4"} and pieces[0]["upper_closed"]
    assert pieces[1]["lower"] == {"rational": "3/4"} and not pieces[1]["lower_closed"]
    # and the claim λ = 3 fails exactly on (3/4, 1)
    r = json.loads(run("check", f, "--lambda", "3", "--for-all", "r", "--json", expect=1).stdout)
    [fail] = r["failing"]
    assert fail["lower"] == {"rational": "3/4"} and fail["upper"] == {"rational": "1"} and not fail["lower_closed"]


def test_numeric_commands_point_to_the_parametric_ones():
    p = run("check", RR, "--lambda", "3", expect=2)
    assert "/parameters" in p.stderr and "--for-all" in p.stderr and "--parametric" in p.stderr


def test_approximate_claim_for_every_r():
    # the event-level stream at λ = 2: δ = max(0, r − 2(1 − r)) = (3r − 2)⁺ (one differing use of RR,
    # by hand); δ = r/4 fails exactly where 3r − 2 > r/4, i.e. on (8/11, 1)
    p = run("check", RR, "--lambda", "2", "--delta", "r/4", "--for-all", "r", "--json", expect=1)
    r = json.loads(p.stdout)
    assert r["claim"] == {"lambda": "2", "delta": "r/4"}
    [f] = r["failing"]
    assert f["lower"] == {"rational": "8/11"} and f["upper"] == {"rational": "1"} and not f["lower_closed"]
    assert Fraction(f["witness"]["parameter_value"]) > Fraction(8, 11)
    assert r["delta_checks"], "the numeric δ is compared at every piece's sample"
    for c in r["delta_checks"]:
        x = Fraction(c["value"])
        assert Fraction(c["delta_forward"]) == max(Fraction(0), 3 * x - 2)
    p = run("check", RR, "--lambda", "2", "--delta", "r", "--for-all", "r")
    assert p.stdout.startswith("HOLDS for every r in (1/2, 1)") and "(δ = r, both directions)" in p.stdout


def test_profile_parametric_delta_pieces():
    # one use of RR with p = r at λ = 2: 0 on (1/2, 2/3], 3r − 2 on (2/3, 1) (by hand)
    p = run("profile", RR, "--parametric", "--lambda", "2", "--horizon", "1", "--json")
    r = json.loads(p.stdout)
    assert r["lambda"] == "2"
    assert [(x["lower"], x["upper"], x["upper_closed"], x["delta"]) for x in r["pieces"]] == [
        ({"rational": "1/2"}, {"rational": "2/3"}, True, "0"),
        ({"rational": "2/3"}, {"rational": "1"}, False, "-2+3*r"),
    ]
    text = run("profile", RR, "--parametric", "--lambda", "2", "--horizon", "1").stdout
    assert "r in (2/3, 1):  -2+3*r" in text
    # a δ above 1 or below 0 is refused, naming the flag
    bad = run("check", RR, "--lambda", "2", "--delta", "r-3/4", "--for-all", "r", expect=2)
    assert "--delta" in bad.stderr and "δ must be at least 0" in bad.stderr


def svt_counter_spec(tmp_path, horizon):
    # the library's svt-counter with both noise parameters equal to the spec's parameter
    spec = {"format": "exactdp/1", "name": "svt", "horizon": horizon,
            "parameters": {"r": {"interval": ["0", "1"], "open": True}},
            "mechanism": {"type": "library", "name": "svt-counter",
                          "params": {"r_threshold": "r", "r_query": "r", "thresholds": [0, 1, 2]}}}
    path = tmp_path / "svt.json"
    path.write_text(json.dumps(spec))
    return path


def test_library_svt_counter_for_every_r(tmp_path):
    # HSV L7.4 with cutoff 1: 1/(r_threshold·r_query²) = 1/r³ for every r
    p = run("check", svt_counter_spec(tmp_path, 2), "--lambda", "1/r^3", "--for-all", "r")
    assert p.stdout.startswith("HOLDS for every r in (0, 1)")


def test_library_svt_counter_refuted_with_witness(tmp_path):
    # a constant λ = 3 fails for small r (the worst ratio grows like 1/r); the witness at a rational
    # point of the failing interval is the numeric engine's, described on the game it ran on, and
    # its δ is exactly the numeric check's on the spec written with that r
    path = svt_counter_spec(tmp_path, 2)
    p = run("check", path, "--lambda", "3", "--for-all", "r", "--json", expect=1)
    r = json.loads(p.stdout)
    [f] = r["failing"]
    assert f["lower"] == {"rational": "0"} and "polynomial" in f["upper"]
    w = f["witness"]
    at = w["parameter_value"]
    spec = json.loads(path.read_text())
    del spec["parameters"]
    spec["mechanism"]["params"].update({"r_threshold": at, "r_query": at})
    inst = tmp_path / "inst.json"
    inst.write_text(json.dumps(spec))
    numeric = json.loads(run("check", inst, "--lambda", "3", "--json", expect=1).stdout)
    assert w["delta"] == numeric["delta"]
    text = run("check", path, "--lambda", "3", "--for-all", "r", expect=1).stdout
    assert f"Witness at r = {at}" in text and "adversary" in text


def test_library_parameter_errors_name_the_pointer(tmp_path):
    path = svt_counter_spec(tmp_path, 2)
    spec = json.loads(path.read_text())
    spec["mechanism"]["params"]["r_query"] = "2*r"
    path.write_text(json.dumps(spec))
    p = run("check", path, "--lambda", "3", "--for-all", "r", expect=2)
    assert 'field "/mechanism/params/r_query": value "2*r"' in p.stderr
    assert "at r = 1/2" in p.stderr
