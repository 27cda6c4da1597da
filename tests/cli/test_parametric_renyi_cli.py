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
