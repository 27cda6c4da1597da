"""`exactdp profile SPEC --parametric --alpha A` (issue 19, docs/parametric.md "Rényi moments for all
r"): the worst-case Rényi moment as a piecewise rational function of the spec's parameter.

Expected values derived by hand: one differing use of RR with p = r has the views (r, 1−r) and
(1−r, r), so Φ₂ = r²/(1−r) + (1−r)²/r; identical rounds have equal laws in both worlds and change
nothing, so the event-level stream has the same moment at every horizon.
"""
import json
import math
from fractions import Fraction
from pathlib import Path

from conftest import run

ROOT = Path(__file__).resolve().parents[2]
RR = ROOT / "spec" / "mechanisms" / "rr-parametric.json"


def phi2(r):
    return r * r / (1 - r) + (1 - r) ** 2 / r


def test_profile_parametric_renyi_moment_json():
    r = json.loads(run("profile", RR, "--parametric", "--alpha", "2", "--json").stdout)
    assert r["alpha"] == 2 and r["parameter"] == "r"
    assert len(r["pieces"]) == 1
    piece = r["pieces"][0]
    assert piece["lower"] == {"rational": "1/2"} and piece["upper"] == {"rational": "1"}
    sample = Fraction(piece["sample"])
    assert Fraction(piece["moment_at_sample"]) == phi2(sample)
    lo, hi = (float(x) for x in piece["divergence_at_sample"])
    assert lo <= math.log(phi2(sample)) <= hi and hi - lo < 1e-12
    assert piece["moment_forward"] == piece["moment_backward"] == piece["moment"]
    assert r["cross_checks"] and all(Fraction(c["moment_forward"]) == phi2(Fraction(c["value"])) for c in r["cross_checks"])


def test_profile_parametric_renyi_moment_text():
    text = run("profile", RR, "--parametric", "--alpha", "2").stdout
    assert "Rényi moment at α = 2" in text
    assert "r in (1/2, 1):" in text and "D_2 in [" in text
    assert "Cross-check: the numeric engine's moments" in text


def test_non_integer_order_is_refused_with_the_reason():
    bad = run("profile", RR, "--parametric", "--alpha", "3/2", expect=2)
    assert "--alpha" in bad.stderr and "not a rational function" in bad.stderr
    both = run("profile", RR, "--parametric", "--alpha", "2", "--lambda", "2", expect=2)
    assert "--alpha" in both.stderr


# `exactdp check SPEC --for-all r --renyi-alpha A --renyi-moment M`: the Rényi claim sup Φ_α ≤ M(r).
# By hand on (1/2, 1): Φ₂ ≤ 2 iff 5r² − 5r + 1 ≤ 0, i.e. it fails exactly for r > (5 + √5)/10 ≈ 0.7236;
# Φ₂ − r/(1−r) = (1 − 2r)/r < 0, so M = r/(1−r) holds everywhere.


def test_check_for_all_renyi_moment_refuted_json():
    p = run("check", RR, "--for-all", "r", "--renyi-alpha", "2", "--renyi-moment", "2", "--json", expect=1)
    r = json.loads(p.stdout)
    assert r["verdict"] == "refuted" and r["claim"] == {"renyi_alpha": 2, "renyi_moment": "2"}
    [bad] = r["failing"]
    assert bad["lower"]["polynomial"] == ["1", "-5", "5"] and not bad["lower_closed"]
    assert abs(float(bad["lower"]["approx"]) - (5 + math.sqrt(5)) / 10) < 1e-8
    assert bad["upper"] == {"rational": "1"}
    w = bad["witness"]
    x = Fraction(w["parameter_value"])
    assert Fraction(w["moment_forward"]) == Fraction(w["moment_backward"]) == phi2(x) > 2
    assert float(w["claimed_divergence"][1]) < float(w["divergence"][0])
    assert [p["holds"] for p in r["pieces"]] == [True, True, False]


def test_check_for_all_renyi_moment_holds_text():
    p = run("check", RR, "--for-all", "r", "--renyi-alpha", "2", "--renyi-moment", "r/(1-r)")
    assert p.stdout.startswith("HOLDS for every r in (1/2, 1): sup Φ_2 ≤ M = r/(1-r)")


def test_check_for_all_renyi_refusals_name_the_flag():
    p = run("check", RR, "--for-all", "r", "--renyi-alpha", "5/2", "--renyi-moment", "2", expect=2)
    assert "--renyi-alpha" in p.stderr and "non-integer" in p.stderr
    p = run("check", RR, "--for-all", "r", "--renyi-alpha", "2", "--renyi-epsilon", "1", expect=2)
    assert "--renyi-epsilon" in p.stderr and "--renyi-moment" in p.stderr
    p = run("check", RR, "--renyi-alpha", "2", "--renyi-moment", "2", expect=2)
    assert "--renyi-moment" in p.stderr and "--for-all" in p.stderr
    p = run("check", RR, "--for-all", "r", "--renyi-alpha", "2", "--renyi-moment", "r", expect=2)
    assert "--renyi-moment" in p.stderr and "at least 1" in p.stderr
