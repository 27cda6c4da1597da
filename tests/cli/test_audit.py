"""End-to-end tests of `exactdp audit` (issue 6).

Every expected truth is derived here, independently of exactdp: k-fold randomized response by
its binomial privacy-loss distribution in Python's `fractions` (checked against THEOREMS.md E.3),
logarithms and exponentials in `decimal` at high precision, the Gaussian by the constants quoted
beside the test.
"""
import json
import os
import subprocess
from decimal import Decimal, localcontext
from fractions import Fraction
from math import comb

import pytest

EXE = os.environ.get("EXACTDP_BIN", "exactdp")


@pytest.fixture(autouse=True)
def high_precision_decimals():
    """420 digits for every test (test_cli.py sets the shared context to 60 when imported)."""
    with localcontext() as ctx:
        ctx.prec = 420
        yield


def audit(tmp_path, doc, *args, expect=None):
    f = tmp_path / "claims.json"
    f.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    p = subprocess.run([EXE, "audit", str(f), *args], capture_output=True, text=True, timeout=600)
    if expect is not None:
        assert p.returncode == expect, f"exit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    return p


def results(tmp_path, claims, expect):
    p = audit(tmp_path, {"format": "exactdp-claims/1", "claims": claims}, "--json", expect=expect)
    return {r["id"]: r for r in json.loads(p.stdout)["results"]}


def rr_atoms(lam, k):
    """k-fold RR(ln lam): (P mass, Q mass) per number j of 'yes' answers (ratio lam^(2j-k))."""
    z = (1 + lam) ** k
    return [(comb(k, j) * lam ** j / z, comb(k, j) * lam ** (k - j) / z) for j in range(k + 1)]


def least_lambda(atoms, delta):
    """max(1, max over top-ratio sets S of (P(S) - delta)/Q(S)); the pair is symmetric."""
    atoms = sorted(atoms, key=lambda a: a[0] / a[1], reverse=True)
    best, ps, qs = Fraction(1), Fraction(0), Fraction(0)
    for p, q in atoms:
        ps, qs = ps + p, qs + q
        best = max(best, (ps - delta) / qs)
    return best


def dec(fr):
    return Decimal(fr.numerator) / Decimal(fr.denominator)


def ln(fr):
    return Decimal(fr.numerator).ln() - Decimal(fr.denominator).ln()


def lo_hi(iv):
    return Fraction(Decimal(iv["lo"])), Fraction(Decimal(iv["hi"]))


def encloses(iv, value):
    lo, hi = lo_hi(iv)
    return lo <= Fraction(value) <= hi


def test_independent_rr_matches_theorems_e3():
    assert least_lambda(rr_atoms(Fraction(11, 10), 10), Fraction(1, 1000)) == Fraction(81684104240933, 40000000000000)


# ---------------------------------------------------------------- exact truths: epsilon at delta

E3 = Fraction(81684104240933, 40000000000000)  # least lambda of 10-fold RR(ln 11/10) at delta = 1/1000


def test_sound_and_unsound_epsilon_claims_on_exact_rr(tmp_path):
    eps = ln(E3)  # 0.71397996625...
    base = {"mechanism": "rr:lambda=11/10", "times": 10, "delta": "1/1000"}
    r = results(tmp_path, [dict(base, id="loose", claimed_epsilon="0.72"),
                           dict(base, id="tight-below", claimed_epsilon="0.7139799662"),
                           dict(base, id="tight-above", claimed_epsilon="0.7139799663"),
                           dict(base, id="basic-wrong", claimed_epsilon="0.5", neighbouring="replace-one")],
                expect=1)
    for rid in r:
        assert r[rid]["exact"] is True
        assert r[rid]["true_lambda"] == "81684104240933/40000000000000"
        assert encloses(r[rid]["true_epsilon"], eps)
    assert r["loose"]["verdict"] == "sound"
    assert r["tight-below"]["verdict"] == "unsound"
    shortfall = r["tight-below"]["slack"]["absolute"]  # claimed - true < 0 for an unsound claim
    assert encloses(shortfall, Decimal("0.7139799662") - eps) and lo_hi(shortfall)[1] < 0
    assert r["tight-above"]["verdict"] == "sound"
    assert r["basic-wrong"]["verdict"] == "unsound"
    assert r["basic-wrong"]["neighbouring"] == "replace-one"
    slack = r["loose"]["slack"]
    assert encloses(slack["absolute"], Decimal("0.72") - eps)
    assert encloses(slack["relative"], (Decimal("0.72") - eps) / eps)


def test_exact_truth_is_never_undecided(tmp_path):
    """Claims within 1e-60 of ln(lambda) on either side are still decided (Lindemann-Weierstrass)."""
    eps = ln(E3)
    q = Decimal("1e-60")
    below, above = (eps - q).quantize(q), (eps + q).quantize(q)
    base = {"mechanism": "rr:lambda=11/10", "times": 10, "delta": "0.001"}
    r = results(tmp_path, [dict(base, id="below", claimed_epsilon=str(below)),
                           dict(base, id="above", claimed_epsilon=str(above))], expect=1)
    assert r["below"]["verdict"] == "unsound"
    assert r["above"]["verdict"] == "sound"
    assert r["above"]["precision"] > 128  # needed more than the default precision


def test_infinite_truth_makes_every_finite_claim_unsound(tmp_path):
    # RR(ln 2, 1/10): catastrophic mass 1/10 per use, so delta = 1/20 admits no finite epsilon
    r = results(tmp_path, [{"id": "c", "mechanism": "rr:lambda=2,delta=1/10", "times": 1,
                            "delta": "1/20", "claimed_epsilon": "50"}], expect=1)
    assert r["c"]["verdict"] == "unsound" and r["c"]["true_epsilon"] == "inf" and r["c"]["slack"] is None


def test_zero_epsilon_truth_is_exact(tmp_path):
    # 2-fold RR(ln 2) has total variation 1/3, so at delta = 1/3 the least lambda is 1 (epsilon 0)
    r = results(tmp_path, [{"id": "c", "mechanism": "rr:lambda=2", "times": 2, "delta": "1/3",
                            "claimed_epsilon": "0"}], expect=0)
    assert r["c"]["verdict"] == "sound"
    assert r["c"]["true_epsilon"] == "0" and r["c"]["slack"]["absolute"] == "0"
    assert r["c"]["slack"]["relative"] is None


# ---------------------------------------------------------------- exact truths: delta at epsilon

def test_delta_claims_on_exact_rr(tmp_path):
    # 2-fold RR(ln 2): ratios 4, 1, 1/4; for 1 < e^eps < 4, delta = 4/9 - e^eps/9 (4/9 - 1/6 = 5/18 at 3/2)
    true = (4 - Decimal("0.4").exp()) / 9  # 0.27868...
    base = {"mechanism": "rr:lambda=2", "times": 2, "epsilon": "0.4"}
    r = results(tmp_path, [dict(base, id="sound", claimed_delta="0.2787"),
                           dict(base, id="unsound", claimed_delta="0.2786"),
                           {"id": "tv-exact", "mechanism": "rr:lambda=2", "times": 2, "epsilon": "0", "claimed_delta": "1/3"},
                           {"id": "tv-low", "mechanism": "rr:lambda=2", "times": 2, "epsilon": "0", "claimed_delta": "0.333"}],
                expect=1)
    assert encloses(r["sound"]["true_delta"], true) and encloses(r["unsound"]["true_delta"], true)
    assert r["sound"]["verdict"] == "sound" and r["unsound"]["verdict"] == "unsound"
    assert encloses(r["sound"]["slack"]["absolute"], Decimal("0.2787") - true)
    assert r["tv-exact"]["true_delta"] == "1/3" and r["tv-exact"]["verdict"] == "sound"
    assert r["tv-exact"]["slack"]["absolute"] == "0" and r["tv-exact"]["slack"]["relative"] == "0"
    assert r["tv-low"]["verdict"] == "unsound"


# ---------------------------------------------------------------- certified truths

def rr_epsilon_truth(e, k, delta):
    """ln of the least lambda of k-fold RR(e) at delta, in Decimal (lambda0 = e^e irrational)."""
    l0 = Decimal(e).exp()
    z = (1 + l0) ** k
    atoms = sorted(((comb(k, j) * l0 ** j / z, comb(k, j) * l0 ** (k - j) / z) for j in range(k + 1)),
                   key=lambda a: a[0] / a[1], reverse=True)
    best, ps, qs = Decimal(1), Decimal(0), Decimal(0)
    for p, q in atoms:
        ps, qs = ps + p, qs + q
        best = max(best, (ps - dec(Fraction(delta))) / qs)
    return best.ln()


def test_certified_rr_by_epsilon_sound_unsound_undecided(tmp_path):
    truth = rr_epsilon_truth("0.5", 10, Fraction(1, 100000))
    q = Decimal("1e-6")
    straddle = truth.quantize(Decimal("1e-380"))  # within 1e-380 of the truth: beyond 1024 bits
    base = {"mechanism": "rr:epsilon=0.5", "times": 10, "delta": "1e-5"}
    r = results(tmp_path, [dict(base, id="sound", claimed_epsilon=str((truth + q).quantize(q))),
                           dict(base, id="unsound", claimed_epsilon=str((truth - q).quantize(q))),
                           dict(base, id="undecided", claimed_epsilon=str(straddle))], expect=1)
    for rid in r:
        assert r[rid]["exact"] is False and encloses(r[rid]["true_epsilon"], truth)
    assert r["sound"]["verdict"] == "sound" and r["sound"]["precision"] == 128
    assert encloses(r["sound"]["slack"]["absolute"], (truth + q).quantize(q) - truth)
    assert r["unsound"]["verdict"] == "unsound"
    assert r["undecided"]["verdict"] == "undecided" and r["undecided"]["precision"] == 1024
    assert r["undecided"]["slack"] is None


def test_certified_gaussian_delta(tmp_path):
    # GDP mu = 1 at eps = 1: delta = Phi(-1/2) - e*Phi(-3/2) = 0.30854 - 2.71828*0.06681 = 0.1269...
    base = {"mechanism": "gauss:sigma=1", "times": 1, "epsilon": "1"}
    r = results(tmp_path, [dict(base, id="sound", claimed_delta="0.13"),
                           dict(base, id="unsound", claimed_delta="0.12")], expect=1)
    lo, hi = lo_hi(r["sound"]["true_delta"])
    assert Fraction("0.1268") < lo <= hi < Fraction("0.1271")
    assert r["sound"]["verdict"] == "sound" and r["unsound"]["verdict"] == "unsound"
    # 4 uses of sigma = 2 are GDP with mu = sqrt(4)/2 = 1: the same truth
    r4 = results(tmp_path, [dict(base, id="k4", mechanism="gauss:sigma=2", times=4, claimed_delta="0.13")], expect=0)
    lo4, hi4 = lo_hi(r4["k4"]["true_delta"])
    assert lo4 <= hi and lo <= hi4


def test_pure_mechanisms_answer_true_equalities_exactly(tmp_path):
    # DLap with epsilon = 1/2 (sensitivity 1) is exactly 1/2-DP: 3 uses have largest loss 3/2, so
    # the least epsilon at delta = 0 is 3/2 and delta(epsilon) = 0 for epsilon >= 3/2; Laplace
    # b = 2 is exactly 1/2-DP. An enclosure alone could never decide a claim equal to these.
    base = {"mechanism": "dlaplace:epsilon=1/2", "times": 3}
    r = results(tmp_path, [dict(base, id="eps-exact", delta="0", claimed_epsilon="1.5"),
                           dict(base, id="eps-low", delta="0", claimed_epsilon="1.4999"),
                           dict(base, id="delta-zero", epsilon="1.5", claimed_delta="0"),
                           {"id": "laplace", "mechanism": "laplace:b=2", "delta": "0", "claimed_epsilon": "1/2"}],
                expect=1)
    assert r["eps-exact"]["true_epsilon"] == "3/2" and r["eps-exact"]["verdict"] == "sound"
    assert r["eps-exact"]["slack"]["absolute"] == "0"
    assert r["eps-low"]["verdict"] == "unsound" and r["eps-low"]["slack"]["absolute"] == "-1/10000"
    assert r["delta-zero"]["true_delta"] == "0" and r["delta-zero"]["verdict"] == "sound"
    assert r["laplace"]["true_epsilon"] == "1/2" and r["laplace"]["verdict"] == "sound"


def test_heterogeneous_compositions(tmp_path):
    # RR(ln 2, 1/10) + RR(ln 3, 1/5): delta = 16/25, 13/25 at lambda = 1, 2 (THEOREMS.md E.3);
    # delta(lambda) is strictly decreasing before lambda = 2, so the least lambda for 13/25 is 2
    het = [{"mechanism": "rr:lambda=2,delta=1/10"}, {"mechanism": "rr:lambda=3,delta=1/5", "times": 1}]
    ln2 = Decimal(2).ln()
    r = results(tmp_path, [{"id": "tv", "mechanisms": het, "epsilon": "0", "claimed_delta": "16/25"},
                           {"id": "low", "mechanisms": het, "delta": "13/25", "claimed_epsilon": "0.6931"},
                           {"id": "high", "mechanisms": het, "delta": "13/25", "claimed_epsilon": "0.6932"},
                           {"id": "pure", "mechanisms": [{"mechanism": "rr:epsilon=0.5", "times": 2}, {"mechanism": "dlaplace:epsilon=1/4"}],
                            "delta": "0", "claimed_epsilon": "1.25"},
                           {"id": "cert", "mechanisms": [{"mechanism": "rr:epsilon=0.5"}, {"mechanism": "rr:epsilon=0.25"}],
                            "delta": "1/10", "claimed_epsilon": "1"}], expect=1)
    assert r["tv"]["true_delta"] == "16/25" and r["tv"]["verdict"] == "sound" and r["tv"]["exact"] is True
    assert [m["times"] for m in r["tv"]["mechanisms"]] == [1, 1]
    assert r["low"]["true_lambda"] == "2" and r["low"]["verdict"] == "unsound" and encloses(r["low"]["true_epsilon"], ln2)
    assert r["high"]["verdict"] == "sound"
    assert r["pure"]["true_epsilon"] == "5/4" and r["pure"]["slack"]["absolute"] == "0"
    # product of RR(1/2) and RR(1/4): ratios e^{+-1/2 +- 1/4}; least lambda by the top-set formula
    l1, l2 = Decimal("0.5").exp(), Decimal("0.25").exp()
    p1, p2 = l1 / (1 + l1), l2 / (1 + l2)
    atoms = [(a * b, c * d) for a, c in ((p1, 1 - p1), (1 - p1, p1)) for b, d in ((p2, 1 - p2), (1 - p2, p2))]
    atoms.sort(key=lambda t: t[0] / t[1], reverse=True)
    best, ps, qs = Decimal(1), Decimal(0), Decimal(0)
    for pm, qm in atoms:
        ps, qs = ps + pm, qs + qm
        best = max(best, (ps - Decimal("0.1")) / qs)
    assert encloses(r["cert"]["true_epsilon"], best.ln()) and r["cert"]["verdict"] == "sound"
    assert r["cert"]["exact"] is False


def test_text_output_and_exit_code_zero_when_all_sound(tmp_path):
    p = audit(tmp_path, {"format": "exactdp-claims/1",
                         "claims": [{"id": "ok", "mechanism": "rr:lambda=11/10", "times": 10,
                                     "delta": "1/1000", "claimed_epsilon": "1"}]}, expect=0)
    assert "ok: sound" in p.stdout and "1 claim(s): 0 unsound, 1 sound, 0 undecided" in p.stdout
    assert "81684104240933/40000000000000" in p.stdout


# ---------------------------------------------------------------- bad input: exit 2, one line, nothing on stdout

GOOD = {"id": "c", "mechanism": "rr:lambda=2", "times": 3, "delta": "1e-5", "claimed_epsilon": "3"}


@pytest.mark.parametrize("doc, field, value", [
    ("{not json", "", ""),
    ({"claims": [GOOD]}, "/format", ""),
    ({"format": "exactdp-claims/2", "claims": [GOOD]}, "/format", "exactdp-claims/2"),
    ({"format": "exactdp-claims/1", "claims": []}, "/claims", ""),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, claimed_epsilon=2.1)]}, "/claims/0/claimed_epsilon", "2.1"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, sampling="poisson:q=0.01")]}, "/claims/0/sampling", "poisson:q=0.01"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, epsilon="1")]}, "/claims/0", ""),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, mechanism="foo:x=1")]}, "/claims/0/mechanism", "foo:x=1"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, delta="3/2")]}, "/claims/0/delta", "3/2"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, times=0)]}, "/claims/0/times", "0"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, mechanism="laplace:b=1", times=2)]}, "/claims/0/times", "2"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, neighbouring="swap")]}, "/claims/0/neighbouring", "swap"),
    ({"format": "exactdp-claims/1", "claims": [GOOD, GOOD]}, "/claims/1/id", "c"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, colour="red")]}, "/claims/0/colour", ""),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, mechanisms=[{"mechanism": "rr:lambda=2"}])]}, "/claims/0/mechanisms", ""),
    ({"format": "exactdp-claims/1", "claims": [{"id": "c", "delta": "0", "claimed_epsilon": "1",
                                                "mechanisms": [{"mechanism": "rr:lambda=2"}, {"mechanism": "gauss:sigma=1"}]}]},
     "/claims/0/mechanisms/1/mechanism", "gauss:sigma=1"),
    ({"format": "exactdp-claims/1", "claims": [{"id": "c", "delta": "0", "claimed_epsilon": "1", "mechanisms": []}]},
     "/claims/0/mechanisms", ""),
    ({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": "rr:lambda=2", "delta": "1e-5"}]},
     "/claims/0/claimed_epsilon", ""),
])
def test_bad_claims_files(tmp_path, doc, field, value):
    p = audit(tmp_path, doc, "--json", expect=2)
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "claims.json" in lines[0]
    if field:
        assert f'field "{field}"' in lines[0]
    if value:
        assert value in lines[0]


def test_missing_file(tmp_path):
    p = subprocess.run([EXE, "audit", str(tmp_path / "nope.json")], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "" and "nope.json" in p.stderr
