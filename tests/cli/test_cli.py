"""End-to-end tests of the exactdp command-line contract (issue: foundation).

Expected values come from THEOREMS.md Part E (computed there by independent exact programs),
from hand derivations stated beside each test, or from Python's own `fractions`/`decimal`
arithmetic — never from exactdp itself.
"""
import json
import math
from decimal import Decimal, getcontext
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import run

EXAMPLES = Path(__file__).resolve().parents[2] / "spec" / "mechanisms" / "examples"
getcontext().prec = 60


def run_json(*args):
    return json.loads(run(*args, "--json").stdout)


def encloses(iv, value):
    """iv = {"lo","hi"} decimal strings; value a Decimal or Fraction."""
    lo, hi = Fraction(Decimal(iv["lo"])), Fraction(Decimal(iv["hi"]))
    v = Fraction(value)
    return lo <= v <= hi


def ln(fr):
    return Fraction(Decimal(fr.numerator).ln() - Decimal(fr.denominator).ln())


# ---------------------------------------------------------------- compose: exact values (E.3)

def test_compose_rr2_twice_profile_matches_catalogue():
    r = run_json("compose", "-m", "rr:lambda=2", "--times", "2",
                 "--lambda", "1", "--lambda", "3/2", "--lambda", "2", "--lambda", "4")
    assert [a["delta"] for a in r["at"]] == ["1/3", "5/18", "2/9", "0"]
    assert r["exact"] is True


def test_compose_heterogeneous_matches_catalogue():
    r = run_json("compose", "-m", "rr:lambda=2,delta=1/10", "-m", "rr:lambda=3,delta=1/5",
                 "--lambda", "1", "--lambda", "2", "--lambda", "8")
    assert [a["delta"] for a in r["at"]] == ["16/25", "13/25", "7/25"]


def test_least_lambda_is_exact_and_epsilon_is_certified():
    r = run_json("compose", "-m", "rr:lambda=2,delta=0.1", "--times", "2", "--delta", "1/5", "--delta", "0.18")
    first, second = r["least"]
    assert first == {**first, "delta": "1/5", "lambda": "35/9"}
    assert encloses(first["epsilon"], ln(Fraction(35, 9)))
    # 0.18 is below the catastrophic mass 1 - (9/10)^2 = 19/100: no finite epsilon
    assert second["lambda"] == "inf" and second["epsilon"] == "inf"


def test_ten_fold_rr_least_lambda_from_catalogue():
    r = run_json("compose", "-m", "rr:lambda=11/10", "-k", "10", "--delta", "1/1000")
    assert r["least"][0]["lambda"] == "81684104240933/40000000000000"
    names = [b["name"] for b in r["bounds"]]
    assert any("basic" in n for n in names) and any("optimal" in n for n in names)
    # the optimal-composition bound of KOV15 is tight for RR: it equals the exact value
    opt = next(b for b in r["bounds"] if "optimal" in b["name"])
    assert opt["epsilon"] == r["least"][0]["epsilon"]


def test_renyi_moments_of_rr3():
    # Φ_2(RR_3) = 7/3 and Φ_3 = 61/9 (E.1); two uses multiply the moment: (7/3)^2 = 49/9
    r = run_json("compose", "-m", "rr:lambda=3", "--alpha", "2", "--alpha", "3")
    assert [e["moment"] for e in r["renyi"]] == ["7/3", "61/9"]
    assert encloses(r["renyi"][0]["epsilon"], ln(Fraction(7, 3)))
    r2 = run_json("compose", "-m", "rr:lambda=3", "--times", "2", "--alpha", "2")
    assert r2["renyi"][0]["moment"] == "49/9"


def test_tradeoff_of_rr2_twice_is_h16():
    r = run_json("compose", "-m", "rr:lambda=2", "-k", "2", "--tradeoff", "--lambda", "1")
    assert [(v["alpha"], v["beta"]) for v in r["tradeoff"]] == [("0", "1"), ("1/9", "5/9"), ("5/9", "1/9"), ("1", "0")]


def test_delta_at_real_epsilon_is_enclosed():
    # pure RR_3 at eps: delta = (3 - e^eps)/4 for e^eps <= 3 (A.2 closed form)
    r = run_json("compose", "-m", "rr:lambda=3", "--epsilon", "0.5")
    expected = (Decimal(3) - Decimal("0.5").exp()) / 4
    assert encloses(r["at"][0]["delta"], expected)


def test_dlaplace_sensitivity_one_is_rr():
    # DLap(r) with sensitivity 1 is privacy-equivalent to RR with lambda = 1/r (B.11)
    a = run_json("compose", "-m", "dlaplace:r=1/2", "-k", "3", "--lambda", "2", "--delta", "1/10")
    b = run_json("compose", "-m", "rr:lambda=2", "-k", "3", "--lambda", "2", "--delta", "1/10")
    assert a["at"] == b["at"] and a["least"] == b["least"]


def test_pair_files_compose_like_mechanisms():
    # the bundled pair is RR(ln 3, 1/10) (E.2): the same numbers as the library mechanism
    a = run_json("compose", "--pair", str(EXAMPLES / "rr-pair.json"), "-k", "2", "--lambda", "2", "--delta", "0.3")
    b = run_json("compose", "-m", "rr:lambda=3,delta=1/10", "-k", "2", "--lambda", "2", "--delta", "0.3")
    assert a["at"] == b["at"] and a["least"] == b["least"]


# ---------------------------------------------------------------- certified mechanisms

def test_gaussian_profile_matches_closed_form():
    # GDP with mu = sqrt(k)/sigma (DRS22): delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
    r = run_json("compose", "-m", "gauss:sigma=2", "-k", "4", "--epsilon", "1")
    mu = 1.0
    phi = lambda x: 0.5 * math.erfc(-x / math.sqrt(2))
    value = phi(-1 / mu + mu / 2) - math.e * phi(-1 / mu - mu / 2)
    lo, hi = float(r["at"][0]["delta"]["lo"]), float(r["at"][0]["delta"]["hi"])
    assert lo - 1e-12 <= value <= hi + 1e-12 and hi - lo < 1e-8


def test_rr_by_epsilon_is_certified_and_consistent():
    # RR with eps = 0 is perfectly private: delta = 0 at every epsilon
    r = run_json("compose", "-m", "rr:epsilon=0.5", "-k", "3", "--epsilon", "1.5", "--epsilon", "0.5")
    assert r["exact"] is False
    # at eps = 3·0.5 the 3-fold composition has delta 0; the enclosure must contain 0
    assert encloses(r["at"][0]["delta"], 0)
    assert Fraction(Decimal(r["at"][1]["delta"]["lo"])) > 0


# ---------------------------------------------------------------- profile command

def test_profile_of_bundled_pair():
    r = run_json("profile", str(EXAMPLES / "rr-pair.json"), "--lambda", "1", "--lambda", "2", "--lambda", "3",
                 "--tradeoff")
    # E.2 (N2): H at 1, 2, 3 = 11/20, 13/40, 1/10 and T = f_{ln 3, 1/10}
    assert [a["delta"] for a in r["at"]] == ["11/20", "13/40", "1/10"]
    assert [(v["alpha"], v["beta"]) for v in r["tradeoff"]] == [("0", "9/10"), ("9/40", "9/40"), ("9/10", "0"), ("1", "0")]


def test_text_output_is_readable():
    out = run("compose", "-m", "rr:lambda=2", "-k", "2", "--lambda", "3/2").stdout
    assert "5/18" in out and "Privacy profile" in out


# ---------------------------------------------------------------- bad input: exit 2, one line, nothing on stdout

def write(tmp_path, text, name="pair.json"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("args, needles", [
    (["compose", "-m", "rr:lambda=1/2"], ["rr:lambda", "1/2", "at least 1"]),
    (["compose", "-m", "rr:lambda=2", "--delta", "3/2"], ["--delta", "3/2"]),
    (["compose", "-m", "nosuch:x=1"], ["nosuch"]),
    (["compose", "--times", "3", "-m", "rr:lambda=2"], ["--times"]),
    (["compose", "-m", "rr:lambda=2", "--lambda", "0"], ["--lambda", "positive"]),  # λ < 1 (ε < 0) is answered
    (["compose", "-m", "rr:lambda=2", "--alpha", "1"], ["--alpha"]),
    (["compose", "-m", "rr:lambda=2", "--epsilon", "abc"], ["--epsilon", "abc"]),
    (["compose"], ["nothing to compose"]),
])
def test_bad_arguments(args, needles):
    p = run(*args, expect=2)
    assert p.stdout == ""
    for n in needles:
        assert n in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("content, needles", [
    ('{"P": {"a": "1/2", "b": "1/2"}, "Q": {"a": "-1/2", "b": "3/2"}}', ["Q/a", "-1/2", "non-negative"]),
    ('{"P": {"a": "1/2", "b": "1/3"}, "Q": {"a": "1/2", "b": "1/2"}}', ["P total", "5/6"]),
    ('{"P": {"a": 0.5, "b": "1/2"}, "Q": {"a": "1/2", "b": "1/2"}}', ["P/a", "0.5", "strings"]),
    ('{"P": {"a": "1/2", "b": "1/2"}', ["not valid JSON"]),
    ('{"P": {"a": "x"}, "Q": {"a": "1"}}', ["P/a", "x"]),
    ('{"P": {"a": "1"}}', ["Q", "missing"]),
    ('{"P": {"a": "1"}, "Q": {"a": "1"}, "R": 1}', ["/R", "unknown key"]),
])
def test_bad_pair_files(tmp_path, content, needles):
    path = write(tmp_path, content)
    p = run("profile", path, expect=2)
    assert p.stdout == ""
    assert path in p.stderr
    for n in needles:
        assert n in p.stderr, p.stderr


def test_missing_file():
    p = run("profile", "/nonexistent/pair.json", expect=2)
    assert "/nonexistent/pair.json" in p.stderr and "cannot open" in p.stderr


def test_hundred_million_fold_rr_is_answered_with_a_certified_epsilon():
    # The exact PLD would take petabytes; the planner takes the binomial closed form instead of refusing.
    # Reference (tests/accounting/reference/rr_binomial_mpmath.py, mpmath at 40 digits): at k = 10^8,
    # lambda = 3/2, delta(8126243.96) = 1.0000002707e-5 > 1e-5 > delta(8126243.961) = 9.99998862e-6,
    # so the least epsilon at delta = 1e-5 lies in (8126243.96, 8126243.961).
    r = run_json("compose", "--mechanism", "rr:lambda=3/2", "--times", "100000000", "--delta", "1e-5")
    assert r["plan"]["route"] == "binomial" and r["exact"] is False
    eps = r["least"][0]["epsilon"]
    lo, hi = Fraction(Decimal(eps["lo"])), Fraction(Decimal(eps["hi"]))
    assert Fraction("8126243.96") <= lo <= hi <= Fraction("8126243.961")
    # a budget too small for the exact 1000-fold composition (about 2.5 MiB) sends it to the same closed form: same answer
    exact = run_json("compose", "-m", "rr:lambda=3/2", "-k", "1000", "--delta", "1e-5")
    closed = run_json("compose", "-m", "rr:lambda=3/2", "-k", "1000", "--delta", "1e-5", "--max-memory", "1")
    assert exact["plan"]["route"] == "exact" and closed["plan"]["route"] == "binomial"
    least = Fraction(exact["least"][0]["lambda"])
    assert encloses(closed["least"][0]["epsilon"], Decimal(least.numerator).ln() - Decimal(least.denominator).ln())


def test_long_discrete_laplace_takes_the_fast_convolution_route():
    # Sensitivity 2: no binomial closed form; 100001 uses are too many atoms for the certified PLD,
    # so the planner names the fast route. At 1000 uses with a 1 MiB budget the same route must
    # bracket the exact route's least epsilon (rational PLD, an independent algorithm).
    r = run_json("compose", "-m", "dlaplace:r=1/2,sensitivity=2", "--times", "100001", "--delta", "1e-5")
    assert r["plan"]["route"] == "fast_convolution" and r["exact"] is False
    exact = run_json("compose", "-m", "dlaplace:r=1/2,sensitivity=2", "-k", "1000", "--delta", "1e-5")
    fast = run_json("compose", "-m", "dlaplace:r=1/2,sensitivity=2", "-k", "1000", "--delta", "1e-5", "--max-memory", "1")
    assert exact["plan"]["route"] == "exact" and fast["plan"]["route"] == "fast_convolution"
    least = Fraction(exact["least"][0]["lambda"])
    assert encloses(fast["least"][0]["epsilon"], Decimal(least.numerator).ln() - Decimal(least.denominator).ln())


def test_help_teaches_with_an_example():
    p = run("compose", "--help")
    assert "Example" in p.stdout and "rr:lambda" in p.stdout


def test_certified_renyi_has_moment_and_adds_under_composition():
    # Gaussian mechanism: D_alpha = alpha·Δ²/(2σ²) per use (Mironov 2017), k uses add: 3·2/(2·4) = 3/4
    r = run_json("compose", "-m", "gauss:sigma=2", "-k", "3", "--alpha", "2")
    e = r["renyi"][0]
    assert encloses(e["epsilon"], Fraction(3, 4))
    assert encloses(e["moment"], Decimal("0.75").exp())


def test_discrete_gaussian_composition_falls_back_to_renyi_with_labelled_bound():
    # 3 uses of N_Z(0, 4): D_2 = 3·2/(2·4) = 3/4 exactly at integer (α−1)Δ (CKS20); no profile exists
    r = run_json("compose", "-m", "dgauss:sigma2=4", "-k", "3", "--alpha", "2", "--delta", "1e-5")
    assert encloses(r["renyi"][0]["epsilon"], Fraction(3, 4))
    assert "least" not in r and r["exact"] is False
    rdp = [b for b in r["bounds"] if "RDP" in b["name"]]
    assert rdp and "upper bound" in rdp[0]["note"]
    # CKS20 Prop 12 at α = 2: ε = 3/4 + ln(1/2) − (ln 1e-5 + ln 2) = 3/4 + ln(1e5) − 2 ln 2
    expected = Decimal("0.75") + Decimal(100000).ln() - 2 * Decimal(2).ln()
    assert encloses(rdp[0]["epsilon"], expected)
    # asking for the profile itself is refused with a pointer to what is available
    p = run("compose", "-m", "dgauss:sigma2=4", "-k", "3", "--epsilon", "1", expect=2)
    assert "--alpha" in p.stderr and p.stdout == ""
