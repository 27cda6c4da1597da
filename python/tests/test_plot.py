"""exactdp.plot: the figures are written, and what they draw is the truth reached another way.

Expected values: randomized response RR(λ = 2) has δ(ε) = (2 − e^ε)/3 for 0 ≤ ε ≤ ln 2 (hand-derived
from H_λ = Σ max(0, p − λq) with P = (2/3, 1/3), Q = (1/3, 2/3)); the Gaussian mechanism with
μ = Δ/σ = 1 has δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) (Balle & Wang 2018, Thm 8), evaluated with
mpmath at 50 digits.
"""
import math
import sys
from fractions import Fraction as F

import pytest

import exactdp

pytest.importorskip("matplotlib")
import exactdp.plot as P  # noqa: E402

CLAIMS = {"format": "exactdp-claims/1", "claims": [
    {"id": "a/sound", "mechanism": "rr:lambda=11/10", "times": 10, "delta": "1/1000", "claimed_epsilon": "0.72"},
    {"id": "a/unsound", "mechanism": "rr:lambda=11/10", "times": 10, "delta": "1/1000", "claimed_epsilon": "0.7"},
    {"id": "a/gauss", "mechanism": "gauss:sigma=1", "times": 3, "delta": "1/100000", "claimed_epsilon": "9"},
]}


def test_profile_and_tradeoff_files_are_written(tmp_path):
    for name in ("p.png", "p.svg"):
        P.plot_profile("gauss:sigma=1", times=4, file=str(tmp_path / name))
    P.plot_tradeoff("rr:lambda=3", file=str(tmp_path / "t.png"))
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import xml.etree.ElementTree as ET

    ET.parse(tmp_path / "p.svg")


def test_exact_points_follow_the_rr_closed_form():
    xs, lo, hi, exact = P.profile_points("rr:lambda=2")
    assert exact and lo == hi
    inside = [(x, d) for x, d in zip(xs, hi) if x <= math.log(2)]
    assert len(inside) > 20
    for x, d in inside:
        assert abs(d - (2 - math.exp(x)) / 3) < 1e-12
    assert all(d == 0 for x, d in zip(xs, hi) if x > math.log(2) + 1e-12)


def test_certified_band_encloses_the_gaussian_closed_form():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    xs, lo, hi, exact = P.profile_points("gauss:sigma=1", epsilons=["0", "1/2", "1", "2", "4"])
    assert not exact
    for x, a, b in zip(xs, lo, hi):
        e = mpmath.mpf(x)
        truth = mpmath.ncdf(mpmath.mpf(1) / 2 - e) - mpmath.exp(e) * mpmath.ncdf(-mpmath.mpf(1) / 2 - e)
        assert a * (1 - 1e-12) <= float(truth) <= b * (1 + 1e-12)


def test_tradeoff_of_a_pair_draws_its_exact_vertices():
    loss = exactdp.parse_mechanism_spec("rr:lambda=3").exact_loss()
    ax = P.plot_tradeoff(loss)
    want = [(float(a), float(b)) for a, b in exactdp.TradeOff.of(loss).vertices]
    drawn = [list(zip(l.get_xdata(), l.get_ydata())) for l in ax.get_lines() if l.get_label() == "T(P, Q), exact"]
    assert drawn == [want]


def test_audit_marks_the_unsound_claim_and_never_an_estimate(tmp_path):
    results = exactdp.audit(CLAIMS)
    ax = P.plot_audit(results, file=str(tmp_path / "audit.png"))
    assert (tmp_path / "audit.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    crosses = [l for l in ax.get_lines() if l.get_marker() == "x"]
    assert sum(len(l.get_xdata()) for l in crosses) == 1  # only a/unsound
    # the same claim documented as an estimate is drawn grey, not as unsound
    estimates = [dict(r, guarantee="estimate") for r in results]
    ax = P.plot_audit(estimates)
    assert not [l for l in ax.get_lines() if l.get_marker() == "x"]
    assert P.plot_audit([r for r in results if "claimed_delta" in r]) is None


def test_missing_matplotlib_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match="pip install matplotlib"):
        P.plot_profile("rr:lambda=2")


def test_floats_are_refused_for_epsilons():
    with pytest.raises(TypeError, match="epsilons"):
        P.profile_points("gauss:sigma=1", epsilons=[0.5])
    assert P.profile_points("gauss:sigma=1", epsilons=[F(1, 2)])[0] == [0.5]
