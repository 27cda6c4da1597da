"""End-to-end tests of `exactdp audit` (issue 6).

Every expected truth is derived here, independently of exactdp: k-fold randomized response by
its binomial privacy-loss distribution in Python's `fractions` (checked against THEOREMS.md E.3),
logarithms and exponentials in `decimal` at high precision, the Gaussian by the constants quoted
beside the test.
"""
import json
from decimal import Decimal, localcontext
from fractions import Fraction
from math import comb

import pytest

from conftest import run


@pytest.fixture(autouse=True)
def high_precision_decimals():
    """420 digits for every test (test_cli.py sets the shared context to 60 when imported)."""
    with localcontext() as ctx:
        ctx.prec = 420
        yield


def audit(tmp_path, doc, *args, expect=None):
    f = tmp_path / "claims.json"
    f.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return run("audit", f, *args, expect=expect)


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


def test_undecided_without_unsound_exits_3(tmp_path):
    # exit codes (docs/verdicts.md): 1 when some claim is unsound, else 3 when some is undecided, else 0
    truth = rr_epsilon_truth("0.5", 10, Fraction(1, 100000))
    base = {"mechanism": "rr:epsilon=0.5", "times": 10, "delta": "1e-5"}
    r = results(tmp_path, [dict(base, id="undecided", claimed_epsilon=str(truth.quantize(Decimal("1e-380")))),
                           dict(base, id="sound", claimed_epsilon="5")], expect=3)
    assert r["undecided"]["verdict"] == "undecided" and r["sound"]["verdict"] == "sound"


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
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, sampling="poisson:q=2")]}, "/claims/0/sampling", "poisson:q=2"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, epsilon="1")]}, "/claims/0", ""),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, mechanism="foo:x=1")]}, "/claims/0/mechanism", "foo:x=1"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, delta="3/2")]}, "/claims/0/delta", "3/2"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, times=0)]}, "/claims/0/times", "0"),
    ({"format": "exactdp-claims/1", "claims": [dict(GOOD, mechanism="dgauss:sigma2=1", times=2)]}, "/claims/0/times", "2"),
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
    p = run("audit", tmp_path / "nope.json", expect=2)
    assert p.stdout == "" and "nope.json" in p.stderr


# ---- Poisson subsampling (exactdp/amplification/poisson.hpp) ----------------------------------


def subsampled_rr_atoms(lam, q, k):
    """k uses of RR(ln lam) Poisson-subsampled at rate q, remove direction: A = qP + (1-q)Q against
    B = Q, with P = (lam, 1)/(1 + lam) and Q = (1, lam)/(1 + lam); atoms by the number j of first
    outcomes. Written out here from the definition of the mixture (independent of exactdp)."""
    p1, p2 = lam / (1 + lam), 1 / (1 + lam)
    a1, a2 = q * p1 + (1 - q) * p2, q * p2 + (1 - q) * p1
    return [(comb(k, j) * a1 ** j * a2 ** (k - j), comb(k, j) * p2 ** j * p1 ** (k - j)) for j in range(k + 1)]


def least_lambda_both(atoms, delta):
    """The least lambda over both directions of an asymmetric pair."""
    return max(least_lambda(atoms, delta), least_lambda([(b, a) for a, b in atoms], delta))


def test_subsampled_rr_is_exact_and_decided_both_ways(tmp_path):
    lam, q, k, delta = Fraction(3), Fraction(1, 10), 20, Fraction(1, 1000)
    true_lambda = least_lambda_both(subsampled_rr_atoms(lam, q, k), delta)
    eps = Decimal(true_lambda.numerator).ln() - Decimal(true_lambda.denominator).ln()
    below = str(eps - Decimal("1e-30"))
    above = str(eps + Decimal("1e-30"))
    base = {"mechanism": "rr:lambda=3", "times": k, "sampling": "poisson:q=0.1", "neighbouring": "add-remove",
            "delta": "1/1000"}
    r = results(tmp_path, [dict(base, id="below", claimed_epsilon=below), dict(base, id="above", claimed_epsilon=above)],
                expect=1)
    assert r["below"]["verdict"] == "unsound" and r["above"]["verdict"] == "sound"
    assert Fraction(r["above"]["true_lambda"]) == true_lambda
    assert r["above"]["sampling"] == "poisson:q=0.1"


def test_subsampled_pure_rr_matches_the_amplification_formula(tmp_path):
    # Balle, Barthe & Gaboardi 2018: one use of eps0-DP subsampled at q is ln(1 + q(e^eps0 - 1))-DP,
    # attained by RR: at delta = 0 the least lambda is exactly 1 + q(lam - 1) = 1 + (1/4)(5 - 1) = 2.
    r = results(tmp_path, [{"id": "c", "mechanism": "rr:lambda=5", "sampling": "poisson:q=1/4", "delta": "0",
                            "claimed_epsilon": "0.7"}], expect=0)
    assert Fraction(r["c"]["true_lambda"]) == 2  # ln 2 = 0.693... <= 0.7: sound


@pytest.mark.parametrize("claim, field, words", [
    ({"sampling": "poisson:q=-1/2"}, "/claims/0/sampling", "[0, 1]"),
    ({"sampling": "uniform:q=1/2"}, "/claims/0/sampling", "poisson:q=R"),
    ({"sampling": "poisson:q=1/2", "neighbouring": "replace-one"}, "/claims/0/neighbouring", "refused by design"),
    ({"sampling": "poisson:q=1/2", "mechanism": "dgauss:sigma2=1"}, "/claims/0/mechanism", "finite mechanisms"),
])
def test_bad_sampling_is_refused_naming_the_field(tmp_path, claim, field, words):
    c = dict({"id": "c", "mechanism": "rr:lambda=3", "delta": "1e-5", "claimed_epsilon": "1"}, **claim)
    p = audit(tmp_path, {"format": "exactdp-claims/1", "claims": [c]})
    assert p.returncode not in (0, 1)
    assert field in p.stderr and words in p.stderr


def test_subsampled_gaussian_bracket_contains_the_one_step_closed_form(tmp_path):
    # One step, sigma = 1, q = 1/10: the remove pair's delta(eps) is q Phi(1 - x) + (1-q) Phi(-x)
    # - e^eps Phi(-x) with x = ln((e^eps - 1 + q)/q) + 1/2 (the ratio exceeds e^eps beyond x), and
    # the add direction is smaller at eps = 1/2 (checked below by its own formula). mpmath, 50 digits.
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    q, eps = mpmath.mpf(1) / 10, mpmath.mpf(1) / 2
    lam = mpmath.e ** eps
    x = mpmath.log((lam - 1 + q) / q) + mpmath.mpf(1) / 2
    remove = q * mpmath.ncdf(1 - x) + (1 - q) * mpmath.ncdf(-x) - lam * mpmath.ncdf(-x)
    inv = 1 / lam - (1 - q)
    add = 0
    if inv > 0:
        xa = mpmath.log(inv / q) + mpmath.mpf(1) / 2
        add = mpmath.ncdf(xa) - lam * (q * mpmath.ncdf(xa - 1) + (1 - q) * mpmath.ncdf(xa))
    truth = max(remove, add)
    r = results(tmp_path, [{"id": "c", "mechanism": "gauss:sigma=1", "sampling": "poisson:q=1/10", "epsilon": "1/2",
                            "claimed_delta": "1"}], expect=0)
    lo, hi = (mpmath.mpf(r["c"]["true_delta"][k]) for k in ("lo", "hi"))
    assert lo <= truth <= hi
    assert hi - lo < truth / 10  # and the bracket is informative
    # one step is the Gaussian mixture {(0, 9/10), (1, 1/10)}, answered by its closed form with a
    # certified root (bounds/gaussian_mixture.hpp), far narrower than a grid bracket
    assert hi - lo < mpmath.mpf(10) ** -9


def test_subsampled_gaussian_claims_far_from_the_truth_are_decided(tmp_path):
    # 10 steps at sigma = 1, q = 1/100 are far from (0.01, 1e-5)-DP (a single step with q = 1/100 already
    # needs eps ~ 0.06 at delta = 1e-5 by the bracket) and comfortably (5, 1e-5)-DP (the unsubsampled
    # Gaussian with 10 steps, mu = sqrt(10), is (eps ~ 13)-DP... but subsampling divides the loss by ~q).
    base = {"mechanism": "gauss:sigma=1", "times": 10, "sampling": "poisson:q=1/100", "delta": "1e-5"}
    r = results(tmp_path, [dict(base, id="tiny", claimed_epsilon="0.01"), dict(base, id="big", claimed_epsilon="5")], expect=1)
    assert r["tiny"]["verdict"] == "unsound"
    assert r["big"]["verdict"] == "sound"


def test_laplace_twofold_bracket_contains_the_integral(tmp_path):
    # 2 uses of Laplace(b = 1), sensitivity 1: the per-use loss has atoms eps0 = 1 (mass 1/2) and -1
    # (mass e^-1/2) and density e^{(l-1)/2}/4 on (-1, 1); delta(eps) = E[(1 - e^{eps - L1 - L2})^+]
    # (remove direction; the pair is symmetric), integrated here with mpmath.
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 30
    eps = mpmath.mpf(1) / 2
    atoms = [(mpmath.mpf(1), mpmath.mpf(1) / 2), (mpmath.mpf(-1), mpmath.e ** -1 / 2)]
    dens = lambda l: mpmath.e ** ((l - 1) / 2) / 4  # noqa: E731
    f = lambda s: max(0, 1 - mpmath.e ** (eps - s))  # noqa: E731
    total = sum(wa * wb * f(la + lb) for la, wa in atoms for lb, wb in atoms)
    total += 2 * sum(w * mpmath.quad(lambda l: dens(l) * f(a + l), [-1, max(-1, min(1, eps - a)), 1]) for a, w in atoms)
    # both continuous: dens(l1) dens(l2) = e^{(s-2)/2}/16 depends on s = l1 + l2 only, on a segment of length 2 - |s|
    total += mpmath.quad(lambda s: mpmath.e ** ((s - 2) / 2) / 16 * (2 - abs(s)) * f(s), [-2, 0, eps, 2])
    r = results(tmp_path, [{"id": "c", "mechanism": "laplace:b=1", "times": 2, "epsilon": "1/2", "claimed_delta": "1"}],
                expect=0)
    lo, hi = (mpmath.mpf(r["c"]["true_delta"][k]) for k in ("lo", "hi"))
    assert lo - mpmath.mpf("1e-8") <= total <= hi + mpmath.mpf("1e-8")  # quadrature tolerance on the integral
    assert hi - lo < mpmath.mpf("0.02")


@pytest.mark.parametrize("text, words", [
    ("poisson:q=-1", "the sampling rate q must lie in [0, 1]"),
    ("poisson:q=3/2", "the sampling rate q must lie in [0, 1]"),
    ("uniform:q=1/2", "expected poisson:q=R (Poisson subsampling at rate R, 0 <= R <= 1)"),
    ("poisson:q=x", "poisson:q=x"),
])
def test_compose_and_audit_read_a_sampling_spec_alike(tmp_path, text, words):
    # one reader (parse_sampling_rate, accounting/mechanism_spec.hpp) behind both front ends: the
    # same reason, anchored at --sampling on the command line and at the JSON pointer in a claims file
    c = {"id": "c", "mechanism": "rr:lambda=3", "delta": "1e-5", "claimed_epsilon": "1", "sampling": text}
    a = audit(tmp_path, {"format": "exactdp-claims/1", "claims": [c]})
    p = run("compose", "--mechanism", "rr:lambda=3", "--sampling", text, expect=2)
    assert a.returncode == 2
    assert words in a.stderr and words in p.stderr
    assert "/claims/0/sampling" in a.stderr and "--sampling" in p.stderr
    reason = lambda err: err.strip().splitlines()[-1].rsplit(": ", 1)[-1]
    assert reason(a.stderr) == reason(p.stderr)
