"""The truncated discrete Gaussian, Poisson-subsampled mechanisms with certified masses and degenerate
parameters through the Python entry points; expected values from direct mpmath sums or by hand."""
from fractions import Fraction

import pytest

import exactdp

mpmath = pytest.importorskip("mpmath")
mpmath.mp.dps = 50


def _mp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _direct(weight, s, q, eps, direction):
    """sum over the integers of (A - e^eps B)^+ with B = f, A = q f(. - s) + (1 - q) f (remove), or
    swapped (add); f the normalised weights."""
    z = mpmath.fsum(weight.values())
    f = lambda x: weight.get(x, mpmath.mpf(0)) / z
    xs = range(min(weight), max(weight) + s + 1)
    A = {x: q * f(x - s) + (1 - q) * f(x) for x in xs}
    B = {x: f(x) for x in xs}
    if direction == "add":
        A, B = B, A
    ee = mpmath.e ** _mp(eps)
    return mpmath.fsum(max(mpmath.mpf(0), A[x] - ee * B[x]) for x in xs)


def _inside(value, truth):
    lo, hi = value
    slack = mpmath.mpf(10) ** -30
    return _mp(lo) - slack <= truth <= _mp(hi) + slack


@pytest.mark.parametrize("sigma2,t,s,q,eps,direction", [
    ("1", 2, 1, "1", "1", "remove"), ("7/3", 4, 2, "1", "-1/2", "add"), ("1/2", 3, 3, "2/5", "1/4", "remove"),
    ("5", 6, 2, "9/10", "0", "add"), ("2", 0, 1, "1/3", "1", "remove")])
def test_truncated_discrete_gaussian_matches_a_direct_sum(sigma2, t, s, q, eps, direction):
    weight = {x: mpmath.e ** (-mpmath.mpf(x * x) / (2 * _mp(sigma2))) for x in range(-t, t + 1)}
    truth = _direct(weight, s, _mp(q), eps, direction)
    value = exactdp.delta_at(f"dgauss:sigma2={sigma2},truncation={t},sensitivity={s}", epsilon=eps,
                             sampling_rate=None if q == "1" else q, direction=direction)
    assert _inside(value, truth)


@pytest.mark.parametrize("a,s,q,eps,direction", [("1/2", 4, "3/10", "1/2", "remove"), ("1", 1, "1/2", "-1/4", "add"),
                                                 ("3/7", 2, "4/5", "1", "remove")])
def test_subsampled_discrete_laplace_with_irrational_r_matches_a_direct_sum(a, s, q, eps, direction):
    n = int(400 / Fraction(a)) + s  # omitted mass below e^-400
    weight = {x: mpmath.e ** (-_mp(a) * abs(x)) for x in range(-n, n + 1)}
    truth = _direct(weight, s, _mp(q), eps, direction)
    value = exactdp.delta_at(f"dlaplace:a={a},sensitivity={s}", epsilon=eps, sampling_rate=q, direction=direction)
    assert _inside(value, truth)
    assert value[1] - value[0] < Fraction(1, 10 ** 20)  # one use: as narrow as the working precision


def test_degenerate_specs_are_exact_pairs():
    # no noise: disjoint laws, delta = 1 everywhere; subsampled at q: max(q, (1 - e^eps (1 - q))^+)
    assert exactdp.delta_at("gauss:sigma=0", times=3, epsilon=2) == (1, 1)
    assert exactdp.delta_at("laplace:b=0", epsilon=-1) == (1, 1)
    assert exactdp.delta_at("gauss:sigma=0", epsilon=1, sampling_rate="1/2") == (Fraction(1, 2), Fraction(1, 2))
    # identical laws: delta = 0 for eps >= 0, and epsilon 0 at every delta
    assert exactdp.delta_at("krr:k=1,lambda=3", epsilon=0) == (0, 0)
    assert exactdp.delta_at("gauss:sigma=1,sensitivity=0", epsilon=1) == (0, 0)
    assert exactdp.epsilon_at("dlaplace:a=1,sensitivity=0", delta=0) == (0, 0)
    assert exactdp.delta_at("rr:lambda=3", epsilon=0, sampling_rate=0) == (0, 0)
    # below 0: 1 - e^eps
    lo, hi = exactdp.delta_at("laplace:b=2,sensitivity=0", epsilon=-1)
    assert _inside((lo, hi), 1 - mpmath.e ** -1)
    with pytest.raises(exactdp.Error, match="non-negative"):
        exactdp.delta_at("gauss:sigma=-1", epsilon=0)
