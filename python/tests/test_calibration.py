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


def test_probes_are_judged_first_and_progress_reports_each_judgement():
    # Laplace at pure epsilon = 1, sensitivity 1: the least b is 1 exactly (one use is 1/b-DP and no
    # less; closed form). A probe at b = 1 meets (decided exactly) and stays the meeting end.
    seen = []
    r = exactdp.calibrate("laplace", epsilon=1, delta=0, relative_width="1/100", probes=[1], progress=seen.append)
    assert r["status"] == "bracketed"
    assert [(p["value"], p["verdict"]) for p in r["probes"]] == [(Fraction(1), "meets")]
    assert r["hi"] == 1 and r["lo"] < 1
    assert len(seen) == r["levels_judged"] + r["refinements"]
    assert seen[0]["stage"] == "probe" and seen[0]["value"] == "1" and seen[0]["verdict"] == "meets"
    assert all(s["last"] for s in seen)  # decided exactly: no rung follows any judgement
    with pytest.raises(exactdp.Error, match="probes"):
        exactdp.calibrate("gauss", epsilon=1, delta="1e-5", probes=[0])


def test_undecided_search_keeps_its_certified_bracket_and_says_what_the_next_rung_needs():
    # the search without refinement (as in test_refinement_decides_and_reports_why_it_stopped)
    args = dict(epsilon=1, delta="1e-5", times=10, sampling_rate="1/10", relative_width="1/200", grid_points=256)
    r = exactdp.calibrate("gauss", refine_grid_points=256, **args)
    assert r["status"] == "undecided" and r["lo"] < r["hi"]
    assert r["meets"]["value"] == r["hi"] and r["fails"]["value"] == r["lo"]
    stop = r["undecided_levels"][0]["refinement_stop"]
    assert "1024 grid points per law" in stop and "--refine-grid-points" in stop
    assert "more levels" in r["stop_reason"]


def test_refinement_above_the_point_bound_must_fit_the_memory_named():
    from exactdp._core import limits
    # 45e6 points x 512 bytes = 21 973 MiB (hand-computed) > the default 1 GiB budget: refused up front
    with pytest.raises(exactdp.Error, match="refine_grid_point_limit.*21973 MiB"):
        exactdp.calibrate("gauss", epsilon=1, delta="1e-5", refine_grid_points=45_000_000)
    # with the memory named it is accepted (Laplace at pure epsilon never refines)
    r = exactdp.calibrate("laplace", epsilon=1, delta=0, refine_grid_points=45_000_000, max_memory=22000 << 20)
    assert r["status"] == "bracketed" and limits.max_grid_point_budget < 45_000_000


def test_progress_true_prints_the_cli_lines(capsys):
    # Laplace at pure epsilon = 1: the least b is 1 exactly; one line per judgement, the probe first
    r = exactdp.calibrate("laplace", epsilon=1, delta=0, relative_width="1/10", probes=["3/2"], progress=True)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == r["levels_judged"] + r["refinements"]
    assert lines[0].startswith("exactdp: calibrate probe 3/2: meets") and lines[0].endswith("s CPU")
