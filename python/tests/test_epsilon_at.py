"""exactdp.epsilon_at / delta_at (python/exactdp/composition.py): closed forms, the DpEvent mapping,
dp-accounting's PLDAccountant against the bracket, the CLI's numbers, refusals, and laws."""
import json
import math
import os
import subprocess
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

import exactdp

mpmath.mp.dps = 60


def mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def inside(x, bracket, slack=mpmath.mpf(10) ** -40):
    lo, hi = bracket
    return mp(lo) - slack <= x <= mp(hi) + slack


# --- closed forms -------------------------------------------------------------------------------

def rr_delta(lam, k, eps):
    """delta(eps) of k uses of rr:lambda=lam, from the binomial: j equal answers out of k have P mass
    C(k,j) p^j q^(k-j), Q mass C(k,j) q^j p^(k-j), p = lam/(1+lam) (independent of exactdp's tables)."""
    p, q = mp(lam) / (1 + mp(lam)), 1 / (1 + mp(lam))
    out = mpmath.mpf(0)
    for j in range(k + 1):
        a, b = mpmath.binomial(k, j) * p**j * q**(k - j), mpmath.binomial(k, j) * q**j * p**(k - j)
        out += max(mpmath.mpf(0), a - mpmath.exp(eps) * b)
    return out


def gdp_delta(mu, eps):
    """delta(eps) of mu-GDP (Dong, Roth, Su 2022, Cor. 2.13): Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def test_rr_twofold_by_hand():
    # hand-derived: p = 3/5, q = 2/5; for 0 <= eps < 2 ln(3/2) only the atom of ratio 9/4 counts,
    # delta(eps) = 9/25 - e^eps 4/25; at eps = 0 it is exactly 1/5, and delta = 1/10 gives e^eps = 13/8
    lo, hi = exactdp.delta_at("rr:lambda=3/2", 2, epsilon=0)
    assert lo <= Fraction(1, 5) <= hi and hi - lo < Fraction(1, 10**30)
    # where the answer is rational it comes back exact: delta >= delta(0) = 1/5 needs no epsilon at all
    assert exactdp.epsilon_at("rr:lambda=3/2", 2, delta="1/5") == (0, 0)
    assert inside(mpmath.log(mpmath.mpf(13) / 8), exactdp.epsilon_at("rr:lambda=3/2", 2, delta="1/10"))


@pytest.mark.parametrize("k", [3, 10, 57])
def test_rr_kfold_matches_the_binomial(k):
    eps = Fraction(1, 2)
    assert inside(rr_delta(Fraction(3, 2), k, mp(eps)), exactdp.delta_at("rr:lambda=3/2", k, epsilon=eps))


@pytest.mark.parametrize("sigma,k", [(1, 1), (1, 100), (Fraction(7, 2), 10)])
def test_gaussian_matches_gdp(sigma, k):
    mu = mpmath.sqrt(k) / mp(Fraction(sigma))
    lo, hi = exactdp.epsilon_at(f"gauss:sigma={sigma}", k, delta="1e-5")
    truth = mpmath.findroot(lambda e: gdp_delta(mu, e) - mpmath.mpf("1e-5"), (mp(lo) + mp(hi)) / 2)
    assert inside(truth, (lo, hi), slack=mpmath.mpf(10) ** -30)
    assert hi - lo <= Fraction(1, 10**15) * hi
    assert inside(gdp_delta(mu, mpmath.mpf(1)), exactdp.delta_at(f"gauss:sigma={sigma}", k, epsilon=1))


def test_pairs_and_lists():
    # the pair (P, Q) of rr:lambda=3/2 written out by hand gives the spec's numbers
    pair = ({"y": Fraction(3, 5), "n": Fraction(2, 5)}, {"y": "2/5", "n": "3/5"})
    assert exactdp.epsilon_at(pair, 4, delta="1/100") == exactdp.epsilon_at("rr:lambda=3/2", 4, delta="1/100")
    # a list of (what, times) with one mechanism repeated is its k-fold composition
    assert (exactdp.epsilon_at([("rr:lambda=3/2", 2), ("rr:lambda=3/2", 3)], delta="1/100") ==
            exactdp.epsilon_at("rr:lambda=3/2", 5, delta="1/100"))


# --- dp_accounting DpEvents ---------------------------------------------------------------------

dpa = pytest.importorskip("dp_accounting")


def test_self_composed_gaussian_is_the_spec():
    e = dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 100)
    assert exactdp.epsilon_at(e, delta="1e-5") == exactdp.epsilon_at("gauss:sigma=1", 100, delta="1e-5")
    nested = dpa.ComposedDpEvent([dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 40),
                                  dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 60)])
    assert exactdp.epsilon_at(nested, delta="1e-5") == exactdp.epsilon_at("gauss:sigma=1", 100, delta="1e-5")


def test_event_floats_are_taken_at_their_binary_value():
    # 0.7 is not 7/10; the event means the double, so the answer is that of Fraction(0.7)
    f = Fraction(0.7)
    assert f != Fraction(7, 10)
    assert (exactdp.epsilon_at(dpa.GaussianDpEvent(0.7), delta="1e-5") ==
            exactdp.epsilon_at(f"gauss:sigma={f.numerator}/{f.denominator}", delta="1e-5"))


def test_randomized_response_event():
    # p = 1/2 over 2 buckets (exact in binary): P(same) = 3/4, P(other) = 1/4, so rr:lambda=3
    e = dpa.RandomizedResponseDpEvent(0.5, 2)
    assert exactdp.epsilon_at(e, 3, delta="1/100") == exactdp.epsilon_at("krr:k=2,lambda=3", 3, delta="1/100")
    assert inside(rr_delta(Fraction(3), 3, mpmath.mpf(1)), exactdp.delta_at(e, 3, epsilon=1))


def test_poisson_sampled_gaussian_goes_to_the_grid_bracket():
    e = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.5, dpa.GaussianDpEvent(1.0)), 10)
    out = exactdp.epsilon_at(e, delta="1e-5", explain=True)
    assert out["route"] == "grid_bracket"
    # the bracket exactdp compose prints: the planner's first grid, resolution 32 (no relative_width)
    assert out["resolution"] == 32
    same = exactdp.grid_bracket("gauss:sigma=1", 10, delta="1e-5", sampling_rate="1/2", resolution=32)["value"]
    assert out["epsilon"] == same
    # subsampling only helps: below the unsampled Gaussian's exact value (GDP closed form)
    assert out["epsilon"][1] < exactdp.epsilon_at("gauss:sigma=1", 10, delta="1e-5")[0]


def test_pld_accountant_is_bracketed_or_exposed():
    # the path most users call: PLDAccountant + SelfComposedDpEvent(GaussianDpEvent); truth from the
    # GDP closed form in mpmath (mu = sqrt(100)/1 = 10). dp-accounting documents an upper bound on
    # epsilon: it is sound iff its number is >= the truth. The bracket must decide that without
    # mpmath (above hi: sound; below lo: exposed), and mpmath must agree with the bracket's verdict.
    e = dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 100)
    theirs = Fraction(dpa.pld.PLDAccountant().compose(e).get_epsilon(1e-5))
    lo, hi = exactdp.epsilon_at(e, delta="1e-5")
    truth = mpmath.findroot(lambda x: gdp_delta(mpmath.mpf(10), x) - mpmath.mpf("1e-5"), mp(lo))
    assert inside(truth, (lo, hi), slack=mpmath.mpf(10) ** -30)
    assert not lo <= theirs <= hi  # the bracket (width ~1e-19) always decides a double
    exposed = theirs < lo
    assert exposed == (mp(theirs) < truth)
    if exposed:  # dp-accounting 0.6.0: 91.81728962407377 < 91.8172896246637..., the true delta there exceeds 1e-5
        assert gdp_delta(mpmath.mpf(10), mp(theirs)) > mpmath.mpf("1e-5")
    assert abs(theirs - lo) < Fraction(1, 100) * hi  # close either way


def test_bad_event_parameters_are_named():
    with pytest.raises(exactdp.Error, match="GaussianDpEvent.noise_multiplier"):
        exactdp.epsilon_at(dpa.GaussianDpEvent(float("nan")), delta="1e-5")
    with pytest.raises(exactdp.Error, match="sampling_probability"):
        exactdp.epsilon_at(dpa.PoissonSampledDpEvent(float("inf"), dpa.GaussianDpEvent(1.0)), delta="1e-5")
    with pytest.raises(exactdp.Error, match="RandomizedResponseDpEvent"):
        exactdp.epsilon_at(dpa.RandomizedResponseDpEvent(1.5, 2), delta="1e-5")


def test_unknown_event_is_named():
    with pytest.raises(exactdp.Error, match="ZCDpEvent"):
        exactdp.epsilon_at(dpa.ZCDpEvent(0.5), delta="1e-5")
    with pytest.raises(exactdp.Error, match="SampledWithoutReplacementDpEvent"):
        exactdp.epsilon_at(dpa.SampledWithoutReplacementDpEvent(100, 10, dpa.GaussianDpEvent(1.0)), delta="1e-5")


# --- refusals ------------------------------------------------------------------------------------

def test_floats_are_refused():
    with pytest.raises(TypeError, match="delta"):
        exactdp.epsilon_at("gauss:sigma=1", delta=1e-5)
    with pytest.raises(TypeError, match="epsilon"):
        exactdp.delta_at("gauss:sigma=1", epsilon=0.5)
    with pytest.raises(TypeError, match="sampling_rate"):
        exactdp.epsilon_at("gauss:sigma=1", delta="1e-5", sampling_rate=0.01)
    with pytest.raises(exactdp.Error, match="times"):
        exactdp.epsilon_at("gauss:sigma=1", 2.0, delta="1e-5")
    with pytest.raises(TypeError, match="mass"):
        exactdp.epsilon_at(({0: 0.5, 1: 0.5}, {0: "1/3", 1: "2/3"}), delta="1/10")


# --- issue 20 item 3: every mechanism on every route ----------------------------------------------

def test_degenerate_events_are_the_exact_pairs_they_are():
    from dp_accounting import dp_event
    # no noise: disjoint laws, delta = 1 at every epsilon and no finite epsilon below it
    for event in (dpa.GaussianDpEvent(0), dpa.LaplaceDpEvent(0), dp_event.DiscreteLaplaceDpEvent(0, 1),
                  dpa.RandomizedResponseDpEvent(0.0, 3)):
        assert exactdp.delta_at(event, epsilon=5) == (1, 1)
        assert exactdp.epsilon_at(event, delta="1/2") == (math.inf, math.inf)
    # sampling probability 0, a single bucket, zero sensitivities: identical laws
    for event in (dpa.PoissonSampledDpEvent(0, dpa.GaussianDpEvent(1.0)), dpa.RandomizedResponseDpEvent(0.5, 1),
                  dp_event.MixtureOfGaussiansDpEvent(1.0, [0.0], [1.0])):
        assert exactdp.delta_at(event, epsilon=0) == (0, 0)
    # no noise, Poisson-subsampled at q: the pair ((q, 1-q), (0, 1)) has delta(e) = max(q, (1 - e^e (1-q))^+)
    # (hand-derived); at e = 1 that is q exactly (q = 0.25 is a binary fraction)
    event = dpa.PoissonSampledDpEvent(0.25, dpa.GaussianDpEvent(0))
    assert exactdp.delta_at(event, epsilon=1) == (Fraction(1, 4), Fraction(1, 4))
    assert exactdp.delta_at(event, 2, epsilon=0) == (Fraction(7, 16), Fraction(7, 16))  # 1 - (3/4)^2


def test_discrete_laplace_event_is_dp_accountings_a():
    from dp_accounting import dp_event
    # DiscreteLaplaceDpEvent(a, S): r = e^-a, an (a*S)-DP mechanism; at delta = 0 epsilon is a*S exactly
    lo, hi = exactdp.epsilon_at(dp_event.DiscreteLaplaceDpEvent(0.5, 3), delta=0)
    assert lo <= Fraction(3, 2) <= hi and hi - lo < Fraction(1, 10 ** 20)
    assert exactdp.epsilon_at("dlaplace:a=1/2,sensitivity=3", delta=0) == (lo, hi)
    with pytest.raises(exactdp.Error, match="dlaplace:a=1/6,sensitivity=3"):
        exactdp.epsilon_at("dlaplace:epsilon=1/2,sensitivity=3", delta=0)


def test_several_gaussians_compose_in_closed_form():
    # mu^2 = 2*(1/1)^2 + (3/2)^2 = 17/4 (GDP): the same as 17 uses of sigma = 2
    mix = [("gauss:sigma=1", 2), ("gauss:sigma=2,sensitivity=3", 1)]
    out = exactdp.epsilon_at(mix, delta="1e-5", explain=True)
    assert out["route"] == "closed_form"
    same = exactdp.epsilon_at("gauss:sigma=2", 17, delta="1e-5")
    assert out["epsilon"][0] <= same[1] and same[0] <= out["epsilon"][1]
    # GDP delta(e) = Phi(-e/mu + mu/2) - e^e Phi(-e/mu - mu/2) at e = 1, by mpmath
    def gdp(mu2):
        mu = mpmath.sqrt(mp(mu2))
        return mpmath.ncdf(-1 / mu + mu / 2) - mpmath.e * mpmath.ncdf(-1 / mu - mu / 2)
    lo, hi = exactdp.delta_at(mix, epsilon=1)
    assert mp(lo) <= gdp(Fraction(17, 4)) <= mp(hi)
    # through DpEvents (binary floats 1.0 and 0.5 are exact): mu^2 = 2 + 4 = 6
    event = dpa.ComposedDpEvent([dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 2), dpa.GaussianDpEvent(0.5)])
    lo, hi = exactdp.delta_at(event, epsilon=1)
    assert mp(lo) <= gdp(6) <= mp(hi)


def test_one_subsampled_laplace_use_is_answered_in_closed_form():
    # one use, b = 1, q = 1/10, epsilon = 1/10: the hockey-stick integral by mpmath.quad (40 digits;
    # tests/amplification/poisson_test.cpp) is 0.0131218308858312654...; the closed form of
    # bounds/subsampled_laplace.hpp encloses it to the working precision
    truth = mpmath.mpf("0.01312183088583126543727121655627722302525")
    out = exactdp.delta_at("laplace:b=1", epsilon="1/10", sampling_rate="1/10", relative_width="1/100", explain=True)
    assert out["route"] == "closed_form"
    lo, hi = out["delta"]
    assert mp(lo) <= truth <= mp(hi) and hi - lo <= hi / 10**12
    # several uses still go to the grid bracket
    assert exactdp.delta_at("laplace:b=1", 2, epsilon="1/10", sampling_rate="1/10", relative_width="1/100",
                            explain=True)["route"] == "grid_bracket"
    event = dpa.PoissonSampledDpEvent(0.5, dpa.LaplaceDpEvent(1.0))
    lo, hi = exactdp.delta_at(event, epsilon="1/2")
    assert mp(lo) <= mpmath.mpf("0.04033113052605342719174498732637206274538") <= mp(hi)


def test_subsampling_of_an_infinite_discrete_mechanism_is_refused():
    # finite mechanisms are subsampled (exact tables: tests/test_subsampled_pairs.py; certified masses:
    # tests/test_noise_variants.py), gauss and laplace by the grid bracket; the untruncated discrete
    # Gaussian has neither a finite pair nor a grid bracket
    with pytest.raises(exactdp.Error, match="sampling"):
        exactdp.epsilon_at("dgauss:sigma2=1", 3, delta="1/100", sampling_rate="1/2")


# --- the CLI prints the same numbers -------------------------------------------------------------

@pytest.mark.skipif(not os.environ.get("EXACTDP_BIN"), reason="EXACTDP_BIN (the CLI) not given")
@pytest.mark.parametrize("spec,k", [("gauss:sigma=1", 100), ("dlaplace:epsilon=1", 50), ("rr:lambda=3/2", 1000)])
def test_same_numbers_as_compose(spec, k):
    out = json.loads(subprocess.run([os.environ["EXACTDP_BIN"], "compose", "--mechanism", spec, "--times", str(k),
                                     "--delta", "1e-5", "--epsilon", "1", "--json"],
                                    check=True, capture_output=True, text=True).stdout)
    mine = exactdp.epsilon_at(spec, k, delta="1e-5", explain=True)
    assert mine["route"] == out["plan"]["route"]
    printed = out["least"][0]["epsilon"]
    # the CLI rounds the same enclosure outward to 10 digits
    lo, hi = Fraction(Decimal(printed["lo"])), Fraction(Decimal(printed["hi"]))
    assert lo <= mine["epsilon"][0] <= mine["epsilon"][1] <= hi
    assert hi - lo <= Fraction(1, 10**8) * hi
    d = out["at"][0]["delta"]
    dlo, dhi = exactdp.delta_at(spec, k, epsilon=1)
    assert Fraction(Decimal(d["lo"])) <= dlo <= dhi <= Fraction(Decimal(d["hi"]))


# --- laws ----------------------------------------------------------------------------------------

specs = st.sampled_from(["rr:lambda=3/2", "dlaplace:epsilon=1", "gauss:sigma=2", "krr:k=4,lambda=5/2"])
deltas = st.fractions(min_value=Fraction(1, 10**6), max_value=Fraction(1, 10), max_denominator=10**6)


@settings(max_examples=25, deadline=None)
@given(specs, st.integers(1, 20), deltas, deltas)
def test_epsilon_is_non_increasing_in_delta(spec, k, d1, d2):
    d1, d2 = min(d1, d2), max(d1, d2)
    assert exactdp.epsilon_at(spec, k, delta=d2)[0] <= exactdp.epsilon_at(spec, k, delta=d1)[1]


@settings(max_examples=25, deadline=None)
@given(specs, st.integers(1, 20), deltas)
def test_delta_at_the_upper_epsilon_is_within_delta(spec, k, d):
    lo, hi = exactdp.epsilon_at(spec, k, delta=d)
    if hi == math.inf:
        return
    assert exactdp.delta_at(spec, k, epsilon=hi)[0] <= d
