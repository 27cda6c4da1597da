"""exactdp.calibrate (accounting/calibration.hpp) against values computed outside exactdp.

Expected values: the analytic Gaussian mechanism's sigma (the least sigma with
Phi(D/2s - e s/D) - e^e Phi(-D/2s - e s/D) <= delta), found here with mpmath at 50 digits; the
closed form lambda = e^(eps/k) of k-fold randomized response at pure eps; b = k D/eps for the
Laplace mechanism at pure eps.
"""
from fractions import Fraction

import pytest

import exactdp

mp = pytest.importorskip("mpmath")


def analytic_gaussian_sigma(eps, delta, sensitivity=1):
    with mp.workdps(50):
        eps, delta, d = mp.mpf(eps), mp.mpf(delta), mp.mpf(sensitivity)

        def excess(s):
            return mp.ncdf(d / (2 * s) - eps * s / d) - mp.exp(eps) * mp.ncdf(-d / (2 * s) - eps * s / d) - delta

        lo, hi = mp.mpf("1e-3"), mp.mpf(1)
        while excess(hi) > 0:
            hi *= 2
        for _ in range(200):  # bisection: excess decreases in sigma
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
        return hi


@pytest.mark.parametrize("eps,delta,sens", [("1", "1e-5", 1), ("0.5", "1e-6", 1), ("2", "1e-3", 3)])
def test_gaussian_bracket_contains_the_analytic_gaussian_sigma(eps, delta, sens):
    r = exactdp.calibrate(f"gauss:sensitivity={sens}", epsilon=eps, delta=delta, relative_width="1e-6")
    assert r["status"] == "bracketed"
    sigma = analytic_gaussian_sigma(eps, delta, sens)
    assert mp.mpf(r["lo"].numerator) / r["lo"].denominator < sigma < mp.mpf(r["hi"].numerator) / r["hi"].denominator
    assert r["width"] <= Fraction(1, 10**6)
    # the witnesses: certified epsilon(delta) at or below the target at hi, above it at lo
    assert r["meets"]["value"] == r["hi"] and r["meets"]["true_epsilon"][1] <= Fraction(eps)
    assert r["fails"]["value"] == r["lo"] and r["fails"]["true_epsilon"][0] > Fraction(eps)


@pytest.mark.parametrize("eps,k", [("1", 10), ("0.25", 3)])
def test_randomized_response_pure_epsilon(eps, k):
    r = exactdp.calibrate("rr", epsilon=eps, delta=0, times=k, witness="delta")
    assert r["status"] == "bracketed" and r["noisier"] == "smaller"
    star = mp.exp(mp.mpf(Fraction(eps).numerator) / Fraction(eps).denominator / k)
    lo, hi = (mp.mpf(x.numerator) / x.denominator for x in (r["lo"], r["hi"]))  # mpmath 1.3 cannot compare with a Fraction
    assert lo < star < hi
    assert r["meets"]["value"] == r["lo"] and r["meets"]["true_delta"] == Fraction(0)
    p = r["probability"]
    assert p["meets"] == r["lo"] / (1 + r["lo"])
    assert mp.mpf(p["meets"].numerator) / p["meets"].denominator < star / (1 + star) < mp.mpf(p["fails"].numerator) / p["fails"].denominator


def test_laplace_pure_epsilon_is_k_sensitivity_over_epsilon():
    r = exactdp.calibrate("laplace:sensitivity=2", epsilon="1/2", delta=0, times=3, relative_width="1/100")
    assert r["lo"] < 12 <= r["hi"]


def test_subsampled_gaussian_has_grid_witnesses():
    r = exactdp.calibrate("gauss", epsilon=1, delta="1e-5", times=10, sampling_rate="1/10", relative_width="1/20")
    assert r["status"] == "bracketed"
    assert "grid_step" in r["meets"] and r["meets"]["true_epsilon"][1] <= 1


@pytest.mark.parametrize("family,kwargs,field", [
    ("dgauss", {}, "family"),
    ("gauss:sigma=1", {}, "family"),
    ("gauss", {"delta": 0}, "delta"),
])
def test_refusals_name_the_field(family, kwargs, field):
    args = {"epsilon": 1, "delta": "1e-5", **kwargs}
    with pytest.raises(exactdp.Error, match=field):
        exactdp.calibrate(family, **args)


def test_floats_are_refused():
    with pytest.raises(TypeError):
        exactdp.calibrate("gauss", epsilon=1.0, delta="1e-5")


def test_limits_are_bound_not_copied():
    """exactdp._core.limits carries core/limits.hpp's bounds, and the calibration refuses values beyond
    them naming the field (the same bounds as the CLI's flags)."""
    from exactdp._core import limits
    assert limits.max_grid_point_budget == 2_000_000 and limits.max_grid_resolution == 8192
    assert exactdp.mechanism.SPEC_MAX_STATES == limits.max_states
    for field, value in [("grid_points", limits.max_grid_point_budget + 1), ("grid_resolution", limits.min_grid_resolution - 1),
                         ("refine_grid_points", limits.min_grid_point_budget - 1), ("digits", limits.max_digits + 1)]:
        with pytest.raises(exactdp.Error, match=field):
            exactdp.calibrate("gauss", epsilon=1, delta="1e-5", **{field: value})


def test_refinement_decides_and_reports_why_it_stopped():
    args = dict(epsilon=1, delta="1e-5", times=10, sampling_rate="1/10", relative_width="1/200", grid_points=256)
    coarse = exactdp.calibrate("gauss", refine_grid_points=256, **args)
    assert coarse["status"] == "undecided" and "stays undecided" in coarse["stop_reason"]
    fine = exactdp.calibrate("gauss", refine_grid_points=16384, **args)
    assert fine["status"] == "bracketed" and fine["refinements"] > 0
    # dp-accounting 0.6.0's PLD calibration (tolerance 1e-6) of this target: sigma = 1.7405783078
    assert fine["lo"] < Fraction("1.7406") and fine["hi"] > Fraction("1.7405")
