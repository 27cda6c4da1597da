"""Gaussian mixtures, heterogeneous Laplace and Renyi divergences of subsampled mechanisms (issue 20
item 3), checked against closed forms and mpmath computations that do not share exactdp's code."""
from fractions import Fraction

import pytest

import exactdp

mpmath = pytest.importorskip("mpmath")
mpmath.mp.dps = 40


def mp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def inside(value, truth, slack=mpmath.mpf(10) ** -25):
    lo, hi = value
    return mp(lo) - slack <= truth <= mp(hi) + slack


def test_renyi_of_subsampled_gaussian_order_two_by_hand():
    # alpha = 2: E[(A/B)^2] = 1 + q^2 (e^(mu^2) - 1), hand-expanded binomial sum
    q = Fraction(1, 10)
    truth = mpmath.log(1 + mp(q) ** 2 * (mpmath.e - 1))
    assert inside(exactdp.renyi_at("gauss:sigma=1", alpha=2, sampling_rate=q), truth)
    assert inside(exactdp.renyi_at("gauss:sigma=1", alpha=2, sampling_rate=q, direction="remove"), truth)
    # 10 uses add
    assert inside(exactdp.renyi_at("gauss:sigma=1", times=10, alpha=2, sampling_rate=q), 10 * truth)


def test_renyi_at_rate_one_is_the_gaussian_closed_form():
    # alpha * Delta^2 / (2 sigma^2) = 3 * 4 / 18
    lo, hi = exactdp.renyi_at("gauss:sigma=3,sensitivity=2", alpha=3)
    assert lo <= Fraction(2, 3) <= hi


def test_renyi_non_integer_order_encloses_the_integral():
    # mpmath quadrature of int A^a B^(1-a), independent of the binomial sum and the convexity bracket
    q, mu, a = mpmath.mpf(1) / 2, 1, mpmath.mpf(5) / 2
    f = lambda x: ((1 - q) * mpmath.npdf(x) + q * mpmath.npdf(x, mu)) ** a * mpmath.npdf(x) ** (1 - a)
    truth = mpmath.log(mpmath.quad(f, [-mpmath.inf, -5, 0, 5, mpmath.inf])) / (a - 1)
    assert inside(exactdp.renyi_at("gauss:sigma=1", alpha="5/2", sampling_rate="1/2"), truth, mpmath.mpf(0))


def test_renyi_refuses_what_it_cannot_certify():
    with pytest.raises(exactdp.Error, match="add direction"):
        exactdp.renyi_at("gauss:sigma=1", alpha=2, sampling_rate="1/2", direction="add")
    with pytest.raises(exactdp.Error, match="remove direction"):
        exactdp.renyi_at("laplace:b=1", alpha=2, sampling_rate="1/2")
    lo, hi = exactdp.renyi_at("laplace:b=1", alpha=2, sampling_rate="1/2", direction="remove")
    # M_2 = (2/3) e + (1/3) e^-2 (M17), then ln(1 + q^2 (M_2 - 1))
    m2 = mpmath.mpf(2) / 3 * mpmath.e + mpmath.e ** -2 / 3
    assert mp(lo) - mpmath.mpf(10) ** -25 <= mpmath.log(1 + (m2 - 1) / 4) <= mp(hi) + mpmath.mpf(10) ** -25


def test_mixture_one_use_matches_quadrature():
    dp_event = pytest.importorskip("dp_accounting.dp_event")  # the DpEvent route: skipped without dp_accounting
    ev = dp_event.MixtureOfGaussiansDpEvent(1.0, [0.0, 1.0, 2.0], [0.25, 0.5, 0.25])  # exact binary weights
    pairs = [(0, mpmath.mpf(1) / 4), (1, mpmath.mpf(1) / 2), (2, mpmath.mpf(1) / 4)]
    m = lambda x: sum(w * mpmath.npdf(x, c) for c, w in pairs)
    n = lambda x: mpmath.npdf(x)
    loss = lambda x: mpmath.log(m(x) / n(x))
    # the optimal event is a half-line from the root of the (increasing) loss: integrate the density
    # difference from there (mpmath findroot and quad, nothing of exactdp's)
    x_r = mpmath.findroot(lambda x: loss(x) - 1, 0)
    remove = mpmath.quad(lambda x: m(x) - mpmath.e * n(x), [x_r, x_r + 3, mpmath.inf])
    x_a = mpmath.findroot(lambda x: loss(x) + 1, 0)
    add = mpmath.quad(lambda x: n(x) - mpmath.e * m(x), [-mpmath.inf, x_a - 3, x_a])
    for direction, truth in (("remove", remove), ("add", add)):
        value = exactdp.delta_at(ev, epsilon=1, direction=direction)
        assert inside(value, truth, mpmath.mpf(10) ** -25), (direction, value, truth)
        assert value[1] - value[0] < Fraction(1, 10 ** 25)


def test_mixture_with_one_sensitivity_is_the_gaussian():
    # a one-component mixture {(2, 1)} is the Gaussian mechanism: mu = 2 GDP closed form
    mu, e = mpmath.mpf(2), mpmath.mpf(1) / 2
    truth = mpmath.ncdf(-e / mu + mu / 2) - mpmath.e ** e * mpmath.ncdf(-e / mu - mu / 2)
    from exactdp._core import _composition_of
    d = _composition_of([("gauss:sigma=1", 1, "mixture:2=1")], epsilon="1/2")["delta"]
    assert inside(d, truth)


def test_subsampled_gaussian_one_use_is_the_mixture_closed_form():
    # the closed form of one direction (dp-accounting's formula for the sampled Gaussian, mpmath)
    q, e = mpmath.mpf(1) / 5, mpmath.mpf(1)
    c = (mpmath.e ** e - 1 + q) / q
    t = mpmath.log(c) + mpmath.mpf(1) / 2  # sigma = 1, sensitivity 1
    truth = q * (1 - mpmath.ncdf(t - 1)) - (mpmath.e ** e - 1 + q) * (1 - mpmath.ncdf(t))
    value = exactdp.delta_at("gauss:sigma=1", epsilon=1, sampling_rate="1/5", direction="remove")
    assert inside(value, truth)
    assert value[1] - value[0] < Fraction(1, 10 ** 25)


def test_heterogeneous_laplace_is_pure_at_the_sum_of_its_epsilons():
    # Lap(b=1) x3 and Lap(b=2) x2: the loss is at most 3 + 1 = 4, so delta(4) = 0; below 4 the
    # all-maximal atom (P-mass 1/2^5) gives delta(e) ~ (1/32)(1 - e^(e-4)) (> 0)
    lo, hi = exactdp.delta_at([("laplace:b=1", 3), ("laplace:b=2", 2)], epsilon=4)
    assert lo == 0 and hi < Fraction(1, 10 ** 20)
    lo, hi = exactdp.delta_at([("laplace:b=1", 3), ("laplace:b=2", 2)], epsilon="39/10")
    assert lo > Fraction(1, 32) * (1 - Fraction(91, 100))  # 1 - e^(-0.1) > 0.09
    lo, hi = exactdp.epsilon_at([("laplace:b=1", 3), ("laplace:b=2", 2)], delta="1e-14")
    assert 4 - Fraction(1, 10 ** 6) <= lo <= hi <= 4


def test_heterogeneous_laplace_brackets_a_monte_carlo_free_bound():
    # the same composition against basic composition: delta at e = 0 is the total variation of the
    # composed pair, at most 1 - prod(1 - tv_i) with tv = 1 - e^(-eps0/2) of each Laplace mechanism
    lo, hi = exactdp.delta_at([("laplace:b=1", 1), ("laplace:b=2", 1)], epsilon=0)
    tv1, tv2 = 1 - mpmath.e ** -0.5, 1 - mpmath.e ** -0.25
    assert mp(lo) <= 1 - (1 - tv1) * (1 - tv2)
    assert mp(hi) >= max(tv1, tv2)


def _renyi_sums(first, second, a):
    """ln(sum first^a second^(1-a)) / (a - 1) over the outcomes where first > 0 (inf if second = 0 there)."""
    total = mpmath.mpf(0)
    for f, s in zip(first, second):
        if f == 0:
            continue
        if s == 0:
            return mpmath.inf
        total += f ** a * s ** (1 - a)
    return mpmath.log(total) / (a - 1)


def test_renyi_of_subsampled_discrete_laplace_with_irrational_r_matches_a_direct_sum():
    # dlaplace:a=1/2, sensitivity 2, q = 1/5: P = DLap(r) at 0, Q at 2 (r = e^-1/2), A = qP + (1-q)Q,
    # B = Q; a 50-digit sum over the integers |x| <= 400 (the rest is below 10^-80), nothing of exactdp's
    with mpmath.workdps(50):
        r, q = mpmath.exp(-mpmath.mpf(1) / 2), mpmath.mpf(1) / 5
        c = (1 - r) / (1 + r)
        xs = range(-400, 401)
        P = [c * r ** abs(x) for x in xs]
        Q = [c * r ** abs(x - 2) for x in xs]
        A = [q * p + (1 - q) * b for p, b in zip(P, Q)]
        for alpha in (3, Fraction(5, 2)):
            a = mp(alpha)
            for direction, truth in (("remove", _renyi_sums(A, Q, a)), ("add", _renyi_sums(Q, A, a))):
                value = exactdp.renyi_at("dlaplace:a=1/2,sensitivity=2", alpha=alpha, sampling_rate="1/5",
                                         direction=direction)
                assert inside(value, truth), (direction, alpha, value, truth)
                assert value[1] - value[0] < Fraction(1, 10 ** 25)
                # four uses: four times one (Renyi divergences add)
                assert inside(exactdp.renyi_at("dlaplace:a=1/2,sensitivity=2", times=4, alpha=alpha, sampling_rate="1/5",
                                               direction=direction), 4 * truth, mpmath.mpf(10) ** -24)
            both = exactdp.renyi_at("dlaplace:a=1/2,sensitivity=2", alpha=alpha, sampling_rate="1/5")
            assert inside(both, max(_renyi_sums(A, Q, a), _renyi_sums(Q, A, a)))


def test_renyi_of_subsampled_truncated_discrete_gaussian_matches_a_direct_sum():
    # dgauss:sigma2=2,truncation=6 (sensitivity 1), q = 3/10: the remove direction has outcome -6,
    # where only the sampled law has mass, so it is +inf; the add direction is a finite sum
    with mpmath.workdps(50):
        q = mpmath.mpf(3) / 10
        w = lambda x: mpmath.exp(-mpmath.mpf(x) ** 2 / 4) if abs(x) <= 6 else mpmath.mpf(0)
        z = sum(w(x) for x in range(-6, 7))
        xs = range(-7, 8)
        P = [w(x) / z for x in xs]
        Q = [w(x - 1) / z for x in xs]
        A = [q * p + (1 - q) * b for p, b in zip(P, Q)]
        truth = _renyi_sums(Q, A, mpmath.mpf(3))
    spec = "dgauss:sigma2=2,truncation=6"
    assert inside(exactdp.renyi_at(spec, alpha=3, sampling_rate="3/10", direction="add"), truth)
    assert exactdp.renyi_at(spec, alpha=3, sampling_rate="3/10", direction="remove") == (float("inf"), float("inf"))
