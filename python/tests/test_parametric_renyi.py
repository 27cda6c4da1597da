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
