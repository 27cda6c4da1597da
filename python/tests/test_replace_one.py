"""direction="replace" (replace-one neighbours, src/exactdp/accounting/replace_one.hpp) in delta_at,
epsilon_at, renyi_at, MechanismSpec and calibrate. Expected values come from the replaced pair itself,
derived by hand or integrated numerically with mpmath (never exactdp's add/remove route at a doubled
sensitivity, which is what is being checked)."""
from fractions import Fraction

import mpmath
import pytest

import exactdp

mpmath.mp.dps = 40


def mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def inside(x, bracket, slack=mpmath.mpf(10) ** -30):
    lo, hi = bracket
    return mp(lo) - slack <= x <= mp(hi) + slack


def gaussian_replace_delta(sigma, s, eps):
    """delta(eps) of N(x + s, sigma^2) against N(x - s, sigma^2) by numerical integration of
    (p - e^eps q)^+ over the half-line where the loss exceeds eps (the loss is y*2s/sigma^2 about x)."""
    sigma, s, eps = mp(sigma), mp(s), mp(eps)
    p = lambda y: mpmath.npdf(y, s, sigma)
    q = lambda y: mpmath.npdf(y, -s, sigma)
    start = eps * sigma ** 2 / (2 * s)
    return mpmath.quad(lambda y: p(y) - mpmath.exp(eps) * q(y), [start, start + 5 * sigma, start + 40 * sigma])  # tail < 1e-300


def test_gaussian_replace_one_against_numerical_integration():
    for sigma, s, eps in ((Fraction(1), Fraction(1, 2), Fraction(1)), (Fraction(3, 2), Fraction(1), Fraction(-1, 2))):
        got = exactdp.delta_at(f"gauss:sigma={sigma},sensitivity={s}", epsilon=eps, direction="replace")
        if eps >= 0:
            truth = gaussian_replace_delta(sigma, s, eps)
        else:  # delta(eps) = 1 - e^eps + e^eps delta(-eps) (symmetric pair; divergence/direction.hpp)
            truth = 1 - mpmath.exp(mp(eps)) + mpmath.exp(mp(eps)) * gaussian_replace_delta(sigma, s, -eps)
        assert inside(truth, got), (sigma, s, eps, truth, got)
        assert got[1] - got[0] < Fraction(1, 10 ** 20)


def test_laplace_replace_one_by_hand_and_on_every_entry_point():
    # Lap(x + S, b) against Lap(x - S, b): delta(eps) = 1 - e^((eps - 2S/b)/2) for 0 <= eps <= 2S/b (hand-derived)
    truth = 1 - mpmath.exp((mp(Fraction(1, 2)) - 2) / 2)  # b = 1, S = 1, eps = 1/2
    assert inside(truth, exactdp.delta_at("laplace:b=1", epsilon=Fraction(1, 2), direction="replace"))
    spec = exactdp.parse_mechanism_spec("laplace:b=1")
    assert inside(truth, spec.delta_at_epsilon(Fraction(1, 2), direction="replace"))
    assert str(spec.replace_one()) == "laplace:b=1,sensitivity=2"
    # pure epsilon 2S/b = 2 (and 1 under add/remove)
    lo, hi = spec.epsilon_at_delta(0, direction="replace")
    assert lo <= 2 <= hi and hi - lo < Fraction(1, 10 ** 20)
    lo, hi = exactdp.epsilon_at("laplace:b=1", delta=0, direction="replace")
    assert lo <= 2 <= hi


def test_renyi_of_the_replace_one_gaussian():
    # D_alpha(N(2s, sigma^2) || N(0, sigma^2)) = alpha (2s)^2 / (2 sigma^2) (closed form): alpha = 3, s = 1, sigma = 2: 3/2
    lo, hi = exactdp.renyi_at("gauss:sigma=2", alpha=3, direction="replace")
    assert lo <= Fraction(3, 2) <= hi
    lo, hi = exactdp.parse_mechanism_spec("gauss:sigma=2").renyi(3, direction="replace")
    assert lo <= Fraction(3, 2) <= hi


def test_dp_events_under_replace_one():
    dpa = pytest.importorskip("dp_accounting.dp_event")  # skipped without dp_accounting
    # the Gaussian event is the spec gauss:sigma=1 (whose replace-one value is checked by integration above)
    got = exactdp.delta_at(dpa.GaussianDpEvent(1.0), epsilon=1, direction="replace")
    assert got == exactdp.delta_at("gauss:sigma=1", epsilon=1, direction="replace")
    assert got != exactdp.delta_at("gauss:sigma=1", epsilon=1)
    # randomized response (p = 1/2, k = 2): P(same) = 3/4 against 1/4, already a replace-one pair: delta(0) = 1/2
    assert exactdp.delta_at(dpa.RandomizedResponseDpEvent(0.5, 2), epsilon=0, direction="replace") == (Fraction(1, 2), Fraction(1, 2))
    # degenerate: no noise stays disjoint, never sampled stays identical
    assert exactdp.delta_at(dpa.GaussianDpEvent(0), epsilon=3, direction="replace") == (1, 1)
    assert exactdp.delta_at(dpa.PoissonSampledDpEvent(0, dpa.GaussianDpEvent(1.0)), epsilon=0, direction="replace") == (0, 0)
    # Poisson subsampling: refused with the library's reason
    with pytest.raises(exactdp.Error, match="refused by design"):
        exactdp.delta_at(dpa.PoissonSampledDpEvent(0.5, dpa.GaussianDpEvent(1.0)), epsilon=1, direction="replace")
    with pytest.raises(exactdp.Error, match="refused by design"):
        exactdp.epsilon_at("rr:lambda=3", delta="1/10", sampling_rate="1/2", direction="replace")
    with pytest.raises(exactdp.Error, match="not a mechanism"):
        exactdp.delta_at(({0: 1}, {1: 1}), epsilon=0, direction="replace")


def test_calibration_under_replace_one():
    # one use of Laplace with S = 1 is 2/b-DP under replace-one: at eps = 1, delta = 0 the least b is 2
    r = exactdp.calibrate("laplace", epsilon=1, delta=0, relative_width="1/100", direction="replace")
    assert r["status"] == "bracketed" and r["target"]["neighbouring"] == "replace-one"
    assert r["lo"] < 2 <= r["hi"]
    with pytest.raises(exactdp.Error, match="refused by design"):
        exactdp.calibrate("laplace", epsilon=1, delta=0, sampling_rate="1/2", direction="replace")
