"""End-to-end tests of the composition spec types ("concurrent", "parallel", "filter", "odometer",
"postprocess") and of `--adversary`, `--alpha` (non-integer) and `--stats` peak memory.

Expected values: THEOREMS.md E.7 (MP ⊗ MP, hand-derived table), E.9 F3/F4 (hand-derived), and the
closed form 1 − (1 − δ)^ℓ of HSV Thm 5.2; each test says which.
"""
import json
import math
from pathlib import Path

from conftest import run

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"


def profile(spec, *args):
    return json.loads(run("profile", str(spec), *args, "--json").stdout)


def test_concurrent_mp_matches_e7():
    # E.7: (direction 0, direction 1) at λ = 1, 2, 8, 16, 64; Φ₂ = (3721/576, 3025/144); pure level 64
    r = profile(SPECS / "concurrent-mp.json", "--lambda", "1", "--lambda", "2", "--lambda", "8", "--lambda", "16",
                "--lambda", "64", "--alpha", "2")
    assert [(e["delta_forward"], e["delta_backward"]) for e in r["at"]] == [
        ("49/75", "49/75"), ("982/2025", "118/225"), ("8/81", "56/225"), ("0", "16/75"), ("0", "0")]
    assert (r["renyi"][0]["moment_forward"], r["renyi"][0]["moment_backward"]) == ("3721/576", "3025/144")
    assert r["pure"]["ratio"] == "64"
    assert r["adversary"] == "adaptive"


def test_adversary_classes_on_concurrent_mp():
    # E.7 says the sequential composition gives the same values; oblivious adversaries can only do worse
    seq = profile(SPECS / "concurrent-mp.json", "--lambda", "2", "--adversary", "sequential")
    assert seq["adversary"] == "sequential"
    assert (seq["at"][0]["delta_forward"], seq["at"][0]["delta_backward"]) == ("982/2025", "118/225")
    obl = profile(SPECS / "concurrent-mp.json", "--lambda", "2", "--adversary", "oblivious")
    from fractions import Fraction
    assert Fraction(obl["at"][0]["delta"]) <= Fraction("118/225")
    p = run("profile", str(SPECS / "concurrent-mp.json"), "--adversary", "clairvoyant", expect=2)
    assert "clairvoyant" in p.stderr


def test_check_with_sequential_adversary_and_stats():
    p = run("check", str(SPECS / "concurrent-mp.json"), "--lambda", "64", "--adversary", "sequential", "--stats")
    assert "HOLDS" in p.stdout and "peak memory" in p.stdout and "KiB" in p.stdout
    r = json.loads(run("check", str(SPECS / "concurrent-mp.json"), "--lambda", "16", "--delta", "1/5",
                       "--adversary", "oblivious", "--json", "--stats", expect=1).stdout)
    assert r["verdict"] == "refuted" and r["adversary"] == "oblivious" and r["stats"]["peak_rss_kib"] > 0


def test_non_integer_alpha_is_certified():
    # Φ_{3/2} of the filter's best single RR₄ (E.9 F4 menu) is enclosed, not exact
    r = profile(SPECS / "concurrent-mp.json", "--alpha", "3/2", "--horizon", "2")
    e = r["renyi"][0]
    assert e["alpha"] == "3/2" and e["certified"] is True and e["moment"].startswith("[")
    run("profile", str(SPECS / "mp.json"), "--alpha", "1", expect=2)


def test_filter_matches_e9_f4_and_odometer_agrees():
    # E.9 F4: sup H_λ = 0, 1/12, 1/6, 1/4, 2/5, 3/5 at λ = 6, 5, 4, 3, 2, 1 (both directions);
    # the truncated odometer (HSTVVXZ23 L2.19) gives the same values
    lambdas = ["6", "5", "4", "3", "2", "1"]
    expected = ["0", "1/12", "1/6", "1/4", "2/5", "3/5"]
    args = [a for l in lambdas for a in ("--lambda", l)]
    for spec in ("filter-rr.json", "odometer-rr.json"):
        r = profile(SPECS / spec, *args)
        assert [e["delta_forward"] for e in r["at"]] == expected, spec
        assert [e["delta_backward"] for e in r["at"]] == expected, spec


def test_parallel_m_delta_reproduces_hsv_t5_2():
    # HSV Thm 5.2: two copies of M_δ (δ = 1/4) under 1-sparse parallel composition: 1 − (3/4)² = 7/16
    r = json.loads(run("check", str(SPECS / "parallel-mdelta.json"), "--lambda", "1", "--delta", "1/4", "--json",
                       expect=1).stdout)
    assert r["delta"] == "7/16" and r["verdict"] == "refuted" and "witness" in r


def test_postprocess_and_matches_e9_f3():
    # E.9 F3: AND of two RR₃ answers attains sup H₃(V₁‖V₀) = 3/8
    r = profile(SPECS / "postprocess-and.json", "--lambda", "3")
    assert r["at"][0]["delta_backward"] == "3/8"


def test_bad_composition_spec_names_the_path(tmp_path):
    doc = json.loads((SPECS / "filter-rr.json").read_text())
    doc["mechanism"]["rule"] = {"type": "most_generous", "lambda": "6"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    p = run("profile", str(bad), expect=2)
    assert "/mechanism/rule/type" in p.stderr and "most_generous" in p.stderr
    doc = json.loads((SPECS / "concurrent-mp.json").read_text())
    doc["neighbours"] = {"type": "pairs", "allowed": [["0:0", "7:0"]]}
    doc["mechanism"]["components"][0]["initial"] = "x"
    doc["mechanism"]["components"][1]["initial"] = "x"
    bad.write_text(json.dumps(doc))
    p = run("profile", str(bad), expect=2)
    assert "7:0" in p.stderr


def test_the_optimal_bound_beside_a_long_composition_is_skipped_with_a_note():
    # the exact KOV15 bound grows faster than linearly in the uses (20 000 uses took 43 s): beyond
    # 2 000 uses it is listed as not computed, while basic composition (k·ε₀, hand-derived: 20 000 ·
    # ln(3/2) = 8109.3021…) and advanced composition are still printed
    out = json.loads(run("compose", "-m", "rr:lambda=3/2", "--times", "20000", "--delta", "1e-5", "--json").stdout)
    names = {b["name"]: b for b in out["bounds"]}
    assert "not computed beyond 2000 uses" in names["optimal composition (KOV15/MV16)"]["note"]
    assert "delta" not in names["optimal composition (KOV15/MV16)"]
    basic = names["basic composition (DKMMN06)"]["epsilon"]
    assert float(basic["lo"]) <= 20000 * math.log(1.5) <= float(basic["hi"])
    assert "advanced composition (DRV10)" in names
    # at 2 000 uses it is still computed
    out = json.loads(run("compose", "-m", "rr:lambda=3/2", "--times", "2000", "--delta", "1e-5", "--json").stdout)
    assert "epsilon" in {b["name"]: b for b in out["bounds"]}["optimal composition (KOV15/MV16)"]


def test_basic_composition_of_disjoint_pairs_is_capped_at_delta_one():
    # a disjoint pair (no noise) is (0, 1)-DP and nothing better; three uses add their δ to 3, which
    # says nothing: the bound is printed as δ = 1, labelled vacuous. Two uses of RR_3 (hand-derived:
    # (ln 3 + ln 3, 0)) keep their sum.
    out = json.loads(run("compose", "-m", "dlaplace:r=0", "--times", "3", "--delta", "1/10", "--json").stdout)
    basic = {b["name"]: b for b in out["bounds"]}["basic composition (DKMMN06)"]
    assert basic["delta"] == "1" and basic["epsilon"] == {"lo": "0", "hi": "0"}
    assert basic["note"].startswith("vacuous") and "add up to 3" in basic["note"]
    assert "δ = 1" in run("compose", "-m", "dlaplace:r=0", "--times", "3", "--delta", "1/10").stdout
    out = json.loads(run("compose", "-m", "rr:lambda=3", "--times", "2", "--delta", "1/10", "--json").stdout)
    basic = {b["name"]: b for b in out["bounds"]}["basic composition (DKMMN06)"]
    assert basic["delta"] == "0" and "note" not in basic
    lo, hi = float(basic["epsilon"]["lo"]), float(basic["epsilon"]["hi"])
    assert lo <= 2 * math.log(3) <= hi


# --- issue 20 item 3: every mechanism on every route ----------------------------------------------

def compose(*args, expect=0):
    return json.loads(run("compose", *args, "--json", expect=expect).stdout)


def lo_hi(v):
    return float(v["lo"]), float(v["hi"])


def test_alpha_inf_is_the_max_divergence():
    # 4 uses of RR with lambda = 3: D_inf = 4 ln 3 (hand-derived); 3 uses of Laplace b = 1/2 (eps0 = 2)
    # subsampled at q = 1/5: 3 ln(e^2/5 + 4/5) (Balle, Barthe & Gaboardi 2018, Thm 8; dp-accounting's test_poisson_subsampled_laplace
    # expects 2.46964); a Gaussian or RR with delta > 0: infinite
    r = compose("-m", "rr:lambda=3", "-k", "4", "--alpha", "inf")
    lo, hi = lo_hi(next(e for e in r["renyi"] if e["alpha"] == "inf")["epsilon"])
    assert lo <= 4 * math.log(3) <= hi
    r = compose("-m", "laplace:b=1/2", "--sampling", "poisson:q=1/5", "-k", "3", "--alpha", "inf")
    lo, hi = lo_hi(r["renyi"][-1]["epsilon"])
    assert lo <= 3 * math.log(math.exp(2) / 5 + 4 / 5) <= hi
    assert compose("-m", "gauss:sigma=1", "--alpha", "inf")["renyi"][-1]["epsilon"] == "inf"
    assert compose("-m", "rr:lambda=3,delta=1/10", "--alpha", "inf")["renyi"][-1]["epsilon"] == "inf"


def test_k_fold_laplace_by_the_grid_and_one_subsampled_use_in_closed_form():
    # k uses of Laplace are k*eps0-DP, so delta(3) = 0 for 3 uses with eps0 = 1 and the least epsilon at
    # delta = 1e-5 is below 3 (hand-derived); the bracket must respect both
    r = compose("-m", "laplace:b=1", "-k", "3", "--epsilon", "3", "--delta", "1e-5")
    assert r["plan"]["route"] == "grid_bracket"
    lo, hi = lo_hi(r["at"][0]["delta"])
    assert lo == 0 and hi < 1e-20
    lo, hi = lo_hi(r["least"][0]["epsilon"])
    assert 2.9 < lo <= hi <= 3
    # one subsampled use (b = 1, q = 1/10) at epsilon = 1/10: mpmath integral 0.013121830885831265,
    # now in closed form (bounds/subsampled_laplace.hpp), to the printed digits
    r = compose("-m", "laplace:b=1", "--sampling", "poisson:q=1/10", "--epsilon", "0.1", "--digits", "30")
    assert r["plan"]["route"] == "closed_form"
    lo, hi = lo_hi(r["at"][0]["delta"])
    assert lo <= 0.013121830885831265 <= hi and hi - lo < 1e-17


def test_several_gaussians_compose_in_closed_form():
    # mu^2 = 2 + (3/2)^2 = 17/4: the same numbers as 17 uses of gauss:sigma=2 (GDP, DRS22 Cor 3.3)
    mix = compose("-m", "gauss:sigma=1", "-k", "2", "-m", "gauss:sigma=2,sensitivity=3", "--epsilon", "1", "--delta", "1e-5")
    one = compose("-m", "gauss:sigma=2", "-k", "17", "--epsilon", "1", "--delta", "1e-5")
    assert mix["plan"]["route"] == "closed_form"
    assert mix["at"][0]["delta"] == one["at"][0]["delta"]
    a, b = lo_hi(mix["least"][0]["epsilon"]), lo_hi(one["least"][0]["epsilon"])
    assert a[0] <= b[1] and b[0] <= a[1]


def test_ambiguous_discrete_laplace_epsilon_is_refused_with_both_readings():
    p = run("compose", "-m", "dlaplace:epsilon=3,sensitivity=2", expect=2)
    assert "dlaplace:a=3/2,sensitivity=2" in p.stderr and "dlaplace:a=3,sensitivity=2" in p.stderr
    # a = 3/2 with sensitivity 2 is what the old spelling meant: 3-DP, so D_inf = 3
    r = compose("-m", "dlaplace:a=3/2,sensitivity=2", "--alpha", "inf")
    lo, hi = lo_hi(r["renyi"][-1]["epsilon"])
    assert lo <= 3 <= hi
