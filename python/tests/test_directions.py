"""Directions (remove / add / both) and negative epsilon from Python (issue 20, items 1 and 2).

Expected values, each from a route independent of exactdp's:
* the Poisson-subsampled Gaussian in closed form, evaluated with mpmath at 50 digits: with
  A = q N(1, s^2) + (1 - q) N(0, s^2) (record present) and B = N(0, s^2), the likelihood ratio A/B is
  increasing in x, so H_l(A||B) and H_l(B||A) are tail probabilities at the root of A/B = l;
* dp-accounting 0.6.0's per-direction PMFs (``_pmf_remove``, ``_pmf_add`` of a PrivacyLossDistribution,
  AdjacencyType REMOVE and ADD), its pessimistic estimate above and its optimistic one below, within
  its discretisation;
* hand-derived tables for pairs, and the identity H_l(P||Q) = 1 - l + l*H_{1/l}(Q||P) (Hypothesis).
"""
import functools
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

import exactdp

mpmath = pytest.importorskip("mpmath")
mpmath.mp.dps = 50


def closed_form(sigma, q, eps, direction):
    """H_{e^eps} of the subsampled Gaussian pair (sensitivity 1) in one direction, at 50 digits."""
    # Fractions as numerator/denominator: mpmath 1.3 (still installed beside some peers) cannot convert them
    mpf = lambda x: mpmath.mpf(x.numerator) / x.denominator if isinstance(x, F) else mpmath.mpf(x)  # noqa: E731
    s, q, lam = mpf(sigma), mpf(q), mpmath.exp(mpf(eps))
    Phi = lambda x: mpmath.ncdf(x)  # noqa: E731
    if direction == "remove":  # A/B = 1 - q + q exp((2x - 1)/(2 s^2)) > lam  <=>  x > x*
        if lam - 1 + q <= 0:
            return 1 - lam
        x = s ** 2 * mpmath.log((lam - 1 + q) / q) + mpmath.mpf(1) / 2
        return q * (1 - Phi((x - 1) / s)) + (1 - q) * (1 - Phi(x / s)) - lam * (1 - Phi(x / s))
    # add: B/A > lam  <=>  q exp((2x - 1)/(2 s^2)) < 1/lam - 1 + q  <=>  x < x'
    if 1 / lam - 1 + q <= 0:
        return mpmath.mpf(0)
    x = s ** 2 * mpmath.log((1 / lam - 1 + q) / q) + mpmath.mpf(1) / 2
    return Phi(x / s) - lam * (q * Phi((x - 1) / s) + (1 - q) * Phi(x / s))


CASES = [(1, F(1, 5), F(1, 2)), (1, F(1, 5), F(-1, 2)), (F(1, 2), F(1, 10), F(1)), (2, F(1, 2), F(1, 10))]


@pytest.mark.parametrize("sigma,q,eps", CASES)
@pytest.mark.parametrize("direction", ["remove", "add", "both"])
def test_subsampled_gaussian_against_closed_form(sigma, q, eps, direction):
    lo, hi = exactdp.delta_at(f"gauss:sigma={sigma}", 1, epsilon=eps, sampling_rate=q, direction=direction)
    if direction == "both":
        want = max(closed_form(sigma, q, eps, "remove"), closed_form(sigma, q, eps, "add"))
    else:
        want = closed_form(sigma, q, eps, direction)
    assert mpmath.mpf(lo.numerator) / lo.denominator <= want + mpmath.mpf(10) ** -40
    assert want <= mpmath.mpf(hi.numerator) / hi.denominator + mpmath.mpf(10) ** -40
    assert hi - lo < F(1, 1000)


def test_the_two_directions_differ_and_both_is_their_max():
    # q = 1/5, s = 1, eps = 1/2: add is 0 (B/A <= 1/(1 - q) = 5/4 < e^(1/2)); remove is positive
    kw = dict(epsilon=F(1, 2), sampling_rate=F(1, 5))
    rem = exactdp.delta_at("gauss:sigma=1", 1, direction="remove", **kw)
    add = exactdp.delta_at("gauss:sigma=1", 1, direction="add", **kw)
    both = exactdp.delta_at("gauss:sigma=1", 1, **kw)
    assert add == (0, 0) and rem[0] > 0 and both == rem


dpa = pytest.importorskip("dp_accounting")


@functools.lru_cache(maxsize=None)
def dpa_pld(pessimistic):
    """dp-accounting's PLD of 3 uses of the Gaussian (sigma = 1) Poisson-subsampled at q = 0.25."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_gaussian_mechanism(1, sampling_prob=0.25, value_discretization_interval=1e-4,
                                       pessimistic_estimate=pessimistic).self_compose(3)


@pytest.mark.parametrize("direction,pmf", [("remove", "_pmf_remove"), ("add", "_pmf_add")])
def test_subsampled_gaussian_against_dp_accounting(direction, pmf):
    # sigma = 1, q = 0.25 (exact in binary), 3 uses; dp-accounting's pessimistic PMF bounds the
    # truth from above and its optimistic one from below, up to its truncated tail mass
    for eps in (0.25, 1.0):
        hi_dpa = getattr(dpa_pld(True), pmf).get_delta_for_epsilon(eps)
        lo_dpa = getattr(dpa_pld(False), pmf).get_delta_for_epsilon(eps)
        lo, hi = exactdp.delta_at("gauss:sigma=1", 3, epsilon=F(eps), sampling_rate=F(1, 4), direction=direction)
        assert float(lo) <= hi_dpa + 1e-9 and lo_dpa - 1e-9 <= float(hi), (eps, lo, hi, lo_dpa, hi_dpa)
    # the ε side: dp-accounting's per-direction least ε lies in exactdp's bracket (within 1e-3)
    d = getattr(dpa_pld(True), pmf).get_epsilon_for_delta(1e-3)
    lo, hi = exactdp.epsilon_at("gauss:sigma=1", 3, delta="1e-3", sampling_rate=F(1, 4), direction=direction)
    assert float(lo) - 1e-3 <= d <= float(hi) + 1e-3, (lo, hi, d)
    # the two directions differ here, and both is their max
    other = "add" if direction == "remove" else "remove"
    assert getattr(dpa_pld(True), pmf).get_epsilon_for_delta(1e-3) != pytest.approx(
        getattr(dpa_pld(True), "_pmf_" + other).get_epsilon_for_delta(1e-3), abs=1e-2)


def test_pair_directions_by_hand():
    # A = (1/2, 1/2), B = (1/4, 3/4): remove at 6/5 is 1/2 - 3/10 = 1/5, add is 3/4 - 3/5 = 3/20
    pair = ({"a": F(1, 2), "b": F(1, 2)}, {"a": F(1, 4), "b": F(3, 4)})
    assert exactdp.delta_at(pair, 1, epsilon=0, direction="add") == (F(1, 4), F(1, 4))
    prof = exactdp.PrivacyProfile(exactdp.PrivacyLoss.from_masses([(F(1, 2), F(1, 4)), (F(1, 2), F(3, 4))]))
    assert prof.delta(F(6, 5), "remove") == F(1, 5) and prof.delta(F(6, 5), "add") == F(3, 20)
    assert prof.delta(F(6, 5)) == F(1, 5)
    assert prof.least_lambda(F(1, 10), "add") == F(13, 10) and prof.least_lambda(F(1, 10), "remove") == F(8, 5)
    with pytest.raises(exactdp.Error, match="replace"):
        prof.delta(1, "replace")


def test_mechanism_spec_accepts_negative_epsilon():
    # GDP at mu = 1, eps = -1/2: Phi(1) - e^(-1/2) Phi(0)
    want = mpmath.ncdf(1) - mpmath.exp(-0.5) * mpmath.ncdf(0)
    lo, hi = exactdp.parse_mechanism_spec("gauss:sigma=1").delta_at_epsilon(F(-1, 2), direction="add")
    assert float(lo) - 1e-15 <= want <= float(hi) + 1e-15


weights = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=5).filter(
    lambda t: sum(p for p, _ in t) > 0 and sum(q for _, q in t) > 0)


@settings(max_examples=60, deadline=None)
@given(weights, st.fractions(min_value=F(-3), max_value=F(3), max_denominator=8),
       st.sampled_from(["remove", "add", "both"]), st.integers(1, 3))
def test_negative_epsilon_identity_on_random_pairs(table, eps, direction, k):
    # delta_at at eps and at -eps (reversed direction) obey H_l(P||Q) = 1 - l + l*H_{1/l}(Q||P), and
    # delta(eps) >= 1 - e^eps; checked on the certified planner route for specs and the exact one for pairs
    sp, sq = sum(p for p, _ in table), sum(q for _, q in table)
    P = {i: F(p, sp) for i, (p, _) in enumerate(table)}
    Q = {i: F(q, sq) for i, (_, q) in enumerate(table)}
    rev = {"remove": "add", "add": "remove", "both": "both"}[direction]
    lo, hi = exactdp.delta_at((P, Q), k, epsilon=eps, direction=direction)
    lo2, hi2 = exactdp.delta_at((P, Q), k, epsilon=-eps, direction=rev)
    lam = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
    to = lambda x: mpmath.mpf(x.numerator) / x.denominator  # noqa: E731
    # the identity maps the second enclosure onto an enclosure of the first: they must meet
    assert 1 - lam + lam * to(lo2) <= to(hi) + mpmath.mpf(10) ** -30
    assert to(lo) <= 1 - lam + lam * to(hi2) + mpmath.mpf(10) ** -30
    assert to(hi) >= 1 - lam - mpmath.mpf(10) ** -30
