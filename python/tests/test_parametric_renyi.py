"""exactdp.profile(spec, parametric=True, alphas=[a]): the worst Renyi moment for every value of a
parameter (docs/parametric.md, "Renyi moments for all r").

Closed form derived by hand: one differing round of RR with p = r has the views (r, 1-r) and
(1-r, r), so Phi_2 = r^2/(1-r) + (1-r)^2/r (identical rounds change nothing). The oracle of the
property test is the numeric engine on the mechanism built with a Fraction in place of the symbol."""
import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

import exactdp

R = exactdp.symbol("r", interval=(F(1, 2), 1))


def rr_mechanism(p, horizon=2):
    """Event-level randomized response with truth probability p (a Fraction or an expression)."""
    def step(state, message):
        return {(message, "s"): p, (1 - message, "s"): 1 - p}

    return exactdp.Mechanism.from_step(step, initial="s", messages=[0, 1], horizon=horizon, name="rr",
                                       neighbours={"type": "pairs", "allowed": [[0, 0], [1, 1], [0, 1], [1, 0]], "max_differing": 1})


def test_rr_moment_is_the_hand_derived_one():
    prof = exactdp.profile(rr_mechanism(R), parametric=True, alphas=[2])
    [piece] = prof["pieces"]
    assert piece["moment"] == R ** 2 / (1 - R) + (1 - R) ** 2 / R
    lo, hi = (float(x) for x in piece["divergence_at_sample"])
    assert lo <= math.log(piece["moment"].at(piece["sample"])) <= hi
    assert prof["cross_checks"]


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 3), st.integers(1, 98))
def test_moment_equals_the_numeric_engine(alpha, k):
    prof = exactdp.profile(rr_mechanism(R), parametric=True, alphas=[alpha], cross_check=False)
    [piece] = prof["pieces"]
    x = F(1, 2) + F(k, 198)
    numeric = exactdp.profile(rr_mechanism(x), alphas=[alpha])
    assert numeric["renyi"][0]["moment"] == piece["moment"].at(x)


def test_non_integer_order_is_refused_naming_the_argument():
    with pytest.raises(exactdp.Error, match="alphas.*not a rational function"):
        exactdp.profile(rr_mechanism(R), parametric=True, alphas=[F(3, 2)])


# exactdp.check(spec, for_all=r, renyi_alpha=a, renyi_moment=M): the Renyi claim sup Phi_a <= M(r).
# By hand on (1/2, 1): Phi_2 <= 2 iff 5r^2 - 5r + 1 <= 0, so it fails exactly for r > (5 + sqrt 5)/10;
# Phi_2 - r/(1-r) = (1 - 2r)/r < 0, so M = r/(1-r) holds for every r.


def test_renyi_claim_for_all_fails_above_the_hand_solved_root():
    v = exactdp.check(rr_mechanism(R), for_all=R, renyi_alpha=2, renyi_moment=2)
    assert v["verdict"] == "refuted"
    [bad] = v["failing"]
    assert bad["lower"]["polynomial"] == [1, -5, 5] and bad["upper"] == 1
    lo, hi = bad["lower"]["interval"]
    assert lo ** 2 * 5 - 5 * lo + 1 < 0 < hi ** 2 * 5 - 5 * hi + 1  # the root of 5r^2 - 5r + 1 inside, by its sign change
    w = bad["witness"]
    x = w["parameter_value"]
    assert w["moment_forward"] == w["moment_backward"] == x ** 2 / (1 - x) + (1 - x) ** 2 / x > 2 == w["bound"]
    assert w["claimed_divergence"][1] < w["divergence"][0]


def test_renyi_claim_for_all_holds_for_the_hand_derived_bound():
    v = exactdp.check(rr_mechanism(R), for_all=R, renyi_alpha=2, renyi_moment=R / (1 - R))
    assert v["verdict"] == "holds" and v["claim"]["renyi_moment"] == R / (1 - R)
    [piece] = v["worst_moment"]
    assert piece["moment"] == R ** 2 / (1 - R) + (1 - R) ** 2 / R


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 3), st.integers(1, 98), st.sampled_from([lambda r: F(3, 2) + r, lambda r: 4 - 2 * r, lambda r: 1 / r]))
def test_renyi_claim_holds_where_the_numeric_moment_is_at_most_the_bound(alpha, k, bound):
    # law: at a rational x of a piece, the piece holds iff the numeric engine's moment at x is <= M(x)
    v = exactdp.check(rr_mechanism(R), for_all=R, renyi_alpha=alpha, renyi_moment=bound(R), cross_check=False)
    x = F(1, 2) + F(k, 198)
    numeric = exactdp.profile(rr_mechanism(x), alphas=[alpha])["renyi"][0]["moment"]
    m_x = bound(x)
    for piece in v["pieces"]:
        lo = piece["lower"] if isinstance(piece["lower"], F) else piece["lower"]["interval"][1]
        hi = piece["upper"] if isinstance(piece["upper"], F) else piece["upper"]["interval"][0]
        if lo < x < hi:
            assert piece["holds"] == (numeric <= m_x)


def test_renyi_claim_refusals_name_the_argument():
    with pytest.raises(exactdp.Error, match="renyi_alpha.*non-integer"):
        exactdp.check(rr_mechanism(R), for_all=R, renyi_alpha=F(5, 2), renyi_moment=2)
    with pytest.raises(exactdp.Error, match="renyi_moment.*for_all"):
        exactdp.check(rr_mechanism(F(3, 4)), renyi_alpha=2, renyi_moment=2)
    with pytest.raises(exactdp.Error, match="renyi_moment.*at least 1"):
        exactdp.check(rr_mechanism(R), for_all=R, renyi_alpha=2, renyi_moment=R)
