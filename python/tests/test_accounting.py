"""The composition planner and the verdict vocabulary from Python (accounting/ of the C++ library).

Expected values: the exact route (PrivacyProfile of the exact k-fold loss, rational arithmetic) and
a 40-digit mpmath sum (tests/accounting/reference/rr_binomial_mpmath.py) — never the route tested.
"""
import math
from fractions import Fraction

import mpmath
import pytest

import exactdp
from exactdp import _core


def test_hundred_million_fold_rr_takes_the_binomial_route():
    r = _core._composition_of(list(zip(["rr:lambda=3/2"], [100000000], [None])), delta="1e-5")
    assert r["route"] == "binomial"
    lo, hi = r["epsilon"]
    # mpmath: delta(8126243.96) > 1e-5 > delta(8126243.961)
    assert Fraction("8126243.96") <= lo <= hi <= Fraction("8126243.961")


@pytest.mark.parametrize("k", [3, 50, 400])
def test_binomial_route_agrees_with_the_exact_route(k):
    exact = exactdp.PrivacyProfile(exactdp.parse_mechanism_spec("rr:lambda=7/4").exact_loss().self_compose(k))
    least = exact.least_lambda("1/1000")
    r = _core._composition_of(list(zip(["rr:lambda=7/4"], [k], [None])), delta="1/1000", max_memory=1)  # too small for the exact route
    assert r["route"] == "binomial"
    lo, hi = r["epsilon"]
    mpmath.mp.dps = 50
    truth = mpmath.log(mpmath.mpf(least.numerator) / least.denominator)
    assert mpmath.mpf(lo.numerator) / lo.denominator <= truth <= mpmath.mpf(hi.numerator) / hi.denominator
    d = _core._composition_of(list(zip(["rr:lambda=7/4"], [k], [None])), epsilon="1/2", max_memory=1)["delta"]
    e = exact.delta_at_epsilon("1/2")
    assert d[0] <= e[1] and e[0] <= d[1]


def test_floats_are_refused():
    with pytest.raises(TypeError):
        _core._composition_of(list(zip(["rr:lambda=3/2"], [10], [None])), delta=1e-5)


def test_undecided_check_carries_its_enclosure():
    # MP's pure ratio is 8 (THEOREMS.md E.5); epsilon = ln 8 truncated to 40 digits is below ln 8 by
    # about 1e-40, which 64 bits cannot see; the default 4096 bits refute it.
    from pathlib import Path
    mp = Path(__file__).resolve().parents[2] / "spec" / "mechanisms" / "mp.json"
    eps = "2.079441541679835928251696364374529704226"
    r = exactdp.check(mp, epsilon=eps, max_precision=64)
    assert r["verdict"] == "undecided" and r["precision"] == 64 and "to_decide" in r
    assert exactdp.check(mp, epsilon=eps)["verdict"] == "refuted"
