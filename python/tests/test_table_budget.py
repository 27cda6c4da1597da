"""A SPEC whose one-use tables would not fit the memory budget is refused when it is read, before any
table is built, naming the value, the estimate and the option that raises it (``max_memory``).

Expected values: dlaplace:r=1/2,sensitivity=S has S + 1 outcomes whose masses carry 2^-k (a law
holds ~S²/2 bits, hand-derived), so S = 524289 needs far more than 1 GiB. The boundary at
max_memory = 2**20 (S = 653 accepted, 654 refused) is the documented estimate computed by hand
(tests/cli/test_table_budget_cli.py's docstring has the arithmetic).
"""
from fractions import Fraction

import pytest

import exactdp

HUGE = "dlaplace:r=1/2,sensitivity=524289"


def test_parse_refuses_a_huge_table_with_the_estimate():
    with pytest.raises(exactdp.Error) as e:
        exactdp.parse_mechanism_spec(HUGE)
    text = str(e.value)
    assert "dlaplace:sensitivity" in text and "524289" in text
    assert "estimated at" in text and "524290 outcomes" in text and "max_memory" in text
    # a budget large enough accepts it: parsing builds nothing
    spec = exactdp.parse_mechanism_spec(HUGE, max_memory=2**50)
    outcomes, bits, peak = spec.table_size()
    assert outcomes == 524290 and bits >= 524289 and peak > 2**30


def test_queries_and_audits_refuse_it_too():
    with pytest.raises(exactdp.Error, match="max_memory"):
        exactdp.delta_at(HUGE, epsilon=1)
    with pytest.raises(exactdp.Error, match="/claims/0/mechanism"):
        exactdp.audit({"format": "exactdp-claims/1", "claims": [
            {"id": "c", "mechanism": HUGE, "delta": "1e-5", "claimed_epsilon": "1"}]})


def test_just_under_the_budget_is_accepted_and_answers():
    budget = 2**20
    with pytest.raises(exactdp.Error, match="above the memory budget of 1.0 MiB"):
        exactdp.parse_mechanism_spec("dlaplace:r=1/2,sensitivity=654", max_memory=budget)
    exactdp.parse_mechanism_spec("dlaplace:r=1/2,sensitivity=653", max_memory=budget)
    lo, hi = exactdp.delta_at("dlaplace:r=1/2,sensitivity=653", epsilon=0, max_memory=budget)
    # total variation of DLap(1/2) at 0 and at S = 2m + 1, m = 326 (hand-derived from the tails
    # Pr[Z >= n] = r^n/(1 + r)): 1 - 2 r^(m+1)/(1 + r)
    r = Fraction(1, 2)
    assert lo <= 1 - 2 * r**327 / (1 + r) <= hi
