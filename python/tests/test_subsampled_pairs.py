"""Poisson subsampling of pairs and of mechanisms with exact tables from Python (exactdp.epsilon_at /
delta_at with sampling_rate), and pairs going through the composition planner's memory budget.

Expected values are derived without exactdp: the subsampled add/remove pair of a base pair (P, Q) is
(A, B) = (q*P + (1-q)*Q, Q) and the profile of k uses is max(H(A^k||B^k), H(B^k||A^k))
(amplification/poisson.hpp); here A and B are formed by hand and the k-fold products enumerated
outcome by outcome, in Fractions or mpmath."""
import itertools
import math
from fractions import Fraction

import mpmath
import pytest

import exactdp

mpmath.mp.dps = 50

# randomized response with lambda = 3: the truth with probability 3/4
P = {0: Fraction(3, 4), 1: Fraction(1, 4)}
Q = {0: Fraction(1, 4), 1: Fraction(3, 4)}


def subsampled(q):
    """The remove-direction pair (q P + (1 - q) Q, Q), by hand."""
    return {y: q * P[y] + (1 - q) * Q[y] for y in P}, dict(Q)


def products(a, k):
    """The k-fold product law of a as {outcome tuple: mass}."""
    return {ys: math.prod((a[y] for y in ys), start=Fraction(1)) for ys in itertools.product(list(a), repeat=k)}


def hockey(a, b, gamma):
    """H_gamma(a || b) = sum over outcomes of max(0, a - gamma b) (gamma an mpmath number or a Fraction)."""
    return sum((max(0, a[y] - gamma * b[y]) for y in a), start=0 * gamma)


def profile(q, k, gamma):
    A, B = subsampled(q)
    Ak, Bk = products(A, k), products(B, k)
    return max(hockey(Ak, Bk, gamma), hockey(Bk, Ak, gamma))


def inside(x, bracket, slack=mpmath.mpf(10) ** -30):
    lo, hi = bracket
    return mpmath.mpf(lo.numerator) / lo.denominator - slack <= x <= mpmath.mpf(hi.numerator) / hi.denominator + slack


def test_one_use_matches_the_hand_derivation():
    # q = 1/2: A = (1/2, 1/2), B = (1/4, 3/4). delta(gamma) = max((1/2 - gamma/4)+, (3/4 - gamma/2)+), so
    # delta = 1/10 is reached at gamma = 8/5 (the second term is already 0 there): epsilon = ln(8/5).
    truth = mpmath.log(mpmath.mpf(8) / 5)
    for what in [(P, Q), "rr:lambda=3"]:
        b = exactdp.epsilon_at(what, delta=Fraction(1, 10), sampling_rate=Fraction(1, 2))
        assert inside(truth, b), (what, b)
        assert b[1] - b[0] < Fraction(1, 10**20)


def test_two_uses_at_epsilon_zero_are_the_total_variation():
    # delta(0) of two uses = TV(A x A, B x B) = 5/16 by hand (and by enumeration)
    assert profile(Fraction(1, 2), 2, Fraction(1)) == Fraction(5, 16)
    lo, hi = exactdp.delta_at((P, Q), times=2, epsilon=0, sampling_rate=Fraction(1, 2))
    assert lo <= Fraction(5, 16) <= hi
    assert hi - lo < Fraction(1, 10**20)


@pytest.mark.parametrize("q,k,eps", [(Fraction(1, 10), 3, Fraction(1, 5)), (Fraction(1, 3), 4, Fraction(1, 2)),
                                     (Fraction(9, 10), 2, Fraction(1))])
def test_several_uses_match_enumeration(q, k, eps):
    gamma = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
    A, B = subsampled(q)
    mp = {y: mpmath.mpf(v.numerator) / v.denominator for y, v in A.items()}, \
        {y: mpmath.mpf(v.numerator) / v.denominator for y, v in B.items()}
    Ak = {ys: mpmath.fprod(mp[0][y] for y in ys) for ys in itertools.product(list(A), repeat=k)}
    Bk = {ys: mpmath.fprod(mp[1][y] for y in ys) for ys in itertools.product(list(A), repeat=k)}
    truth = max(hockey(Ak, Bk, gamma), hockey(Bk, Ak, gamma))
    for what in [(P, Q), "rr:lambda=3"]:
        assert inside(truth, exactdp.delta_at(what, times=k, epsilon=eps, sampling_rate=q)), what


def test_a_subsampled_pair_inside_a_composition():
    # the rate applies to every component: two components of the same pair equal one with times = 2
    one = exactdp.delta_at([((P, Q), 1), ((P, Q), 1)], epsilon=0, sampling_rate=Fraction(1, 2))
    assert one[0] <= Fraction(5, 16) <= one[1]


def test_still_refused():
    # a subsampled Gaussian is answered by a grid bracket alone
    with pytest.raises(exactdp.Error, match="sampling_rate"):
        exactdp.epsilon_at([("gauss:sigma=1", 1), ((P, Q), 1)], delta="1e-5", sampling_rate=Fraction(1, 2))
    # an asymmetric base pair: one orientation of the subsampled pair does not cover both directions
    with pytest.raises(exactdp.Error):
        exactdp.epsilon_at(({0: Fraction(1, 2), 1: Fraction(1, 2)}, {0: Fraction(1, 4), 1: Fraction(3, 4)}),
                           delta="1/10", sampling_rate=Fraction(1, 2))


def test_pairs_follow_the_planners_memory_budget():
    # small: exact; 10^6 uses of a two-outcome pair under a 1 MiB budget: the exact PLD (10^6 + 1 atoms
    # with long rational masses) is estimated above the budget and another route is taken or refused
    small = exactdp.epsilon_at((P, Q), times=3, delta="1/10", explain=True)
    assert small["route"] == "exact"
    try:
        big = exactdp.epsilon_at((P, Q), times=10**6, delta="1e-5", explain=True, max_memory=1 << 20)
    except exactdp.Error as e:
        assert "profile" in str(e)
    else:
        assert big["route"] != "exact"
        # the same mechanism as a spec (its binomial route): the two certified brackets must meet
        spec = exactdp.epsilon_at("rr:lambda=3", times=10**6, delta="1e-5")
        assert max(big["epsilon"][0], spec[0]) <= min(big["epsilon"][1], spec[1])


def test_irrational_discrete_laplace_composed_reaches_tiny_relative_width():
    # dlaplace:epsilon=1 (r = e^-1, irrational) Poisson-subsampled at q = 1/10, 10 uses: the planner's
    # fast route composes the two subsampled atoms exactly (no grid), so relative_width 1e-8 is met
    # at once. Truth: the binomial sum over the clamped pair P = (1, r)/(1 + r), Q = (r, 1)/(1 + r),
    # formed by hand in mpmath; the least epsilon by bisection on that sum.
    r = mpmath.e ** -1
    p, qq = [1 / (1 + r), r / (1 + r)], [r / (1 + r), 1 / (1 + r)]
    rate = mpmath.mpf(1) / 10
    a = [rate * p[i] + (1 - rate) * qq[i] for i in range(2)]

    def h(x, y, k, gamma):
        return mpmath.fsum(mpmath.binomial(k, i) * max(0, x[0] ** i * x[1] ** (k - i) - gamma * y[0] ** i * y[1] ** (k - i))
                           for i in range(k + 1))

    def delta(eps):
        g = mpmath.e ** eps
        return max(h(a, qq, 10, g), h(qq, a, 10, g))

    width = Fraction(1, 10 ** 8)
    lo, hi = exactdp.delta_at("dlaplace:epsilon=1", 10, epsilon=1, sampling_rate="1/10", relative_width=width)
    assert hi - lo <= width * hi
    assert mpmath.mpf(lo.numerator) / lo.denominator <= delta(1) <= mpmath.mpf(hi.numerator) / hi.denominator
    lo, hi = exactdp.epsilon_at("dlaplace:epsilon=1", 10, delta="1/100000", sampling_rate="1/10", relative_width=width)
    assert hi - lo <= width * hi
    # delta is decreasing in epsilon: above 1e-5 just below the bracket, at most 1e-5 at its upper end
    assert delta(mpmath.mpf(lo.numerator) / lo.denominator - mpmath.mpf(10) ** -12) > mpmath.mpf(1) / 100000
    assert delta(mpmath.mpf(hi.numerator) / hi.denominator) <= mpmath.mpf(1) / 100000
