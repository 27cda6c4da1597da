"""The audit of accountants' calibration APIs (exactdp.adapters.calibration_*, exactdp.calibration_audit):
each returned sigma is audited as the claim "it makes the composition (eps, delta)-DP" and put next to
exactdp's certified bracket of the least sigma. Skipped cleanly when a peer is not installed.

What is checked, each something that could fail:
* every row carries the record keys of docs/audit.md, with raw = the returned sigma and the claim at
  exactly the target epsilon;
* documented bounds (dp-accounting's calibration over its PLD and RDP accountants, Opacus with RDP and
  PRV, prv-accountant's find_noise_multiplier) are not unsound;
* consistency of two independent judgements (the claim at the returned sigma and exactdp's bracket of
  the least sigma): a sound sigma lies above the bracket's failing end — monotonicity in sigma
  (docs/calibration.md) rules out anything else;
* the RDP-based calibrations return more noise than necessary (RDP's conversion to (eps, delta) is
  not tight): the whole ratio interval lies above 1.
"""
import importlib
import math
from fractions import Fraction

import pytest

from exactdp.adapters import _calibration as K
from exactdp.adapters import _common as C
from exactdp.audit_all import ADAPTERS, judge
from exactdp import calibration_audit

GRID_RESOLUTION = 64


def run(name, module):
    if C.version(module) is None:
        pytest.skip(f"{module} is not installed")
    adapter = importlib.import_module(ADAPTERS[name])
    doc = adapter.claims(grid="ci")
    assert doc["claims"], doc.get("failures")
    rows = judge(doc, grid_resolution=GRID_RESOLUTION)
    calibration_audit.add_ratios(rows, relative_width="1/500")
    for r in rows:
        assert r["path"] and r["guarantee"] in ("bound", "estimate") and r["package"] == adapter.PACKAGE
        cal = r["calibration"]
        assert isinstance(r["raw"], float) and Fraction(cal["returned"]) == Fraction(r["raw"])
        if cal.get("buckets"):  # dp-accounting's RR: p judged as krr with lambda = (K(1 - p) + p)/p
            lam = K.rr_lambda(Fraction(cal["returned"]), cal["buckets"])
            assert r["mechanism"] == f"krr:k={cal['buckets']},lambda={lam.numerator}/{lam.denominator}"
            assert K.rr_noise_parameter(lam, cal["buckets"]) == Fraction(cal["returned"])
        else:
            assert r["mechanism"] == f"{cal['family']}:{cal['parameter']}={cal['returned']}"
        assert r["claimed"] == Fraction(cal["target_epsilon"])
        assert cal["exactdp_status"] == "bracketed"
        lo, hi = (Fraction(x) for x in cal["exactdp_bracket"])
        assert lo < hi and cal["consistent"] in (True, None)
        if r["exactdp_verdict"] == "sound":
            assert Fraction(cal["returned"]) > lo
    return rows


def test_dp_accounting_calibration():
    rows = run("dp_accounting_calibration", "dp-accounting")
    # dp-accounting 0.6.0's PLDAccountant composes SelfComposedDpEvent(RandomizedResponseDpEvent, k) as
    # one use (its RR branch ignores the count), so its calibration of k > 1 uses returns the p of one
    # use: unsound. Expected from the closed form at delta = 0 (least p = K/(e^(eps/k) + K - 1)) and
    # decided exactly by exactdp (rational tables).
    rr_pld = [r for r in rows if r["calibration"].get("buckets") and "PLDAccountant" in r["path"]]
    assert rr_pld
    for r in rr_pld:
        assert r["verdict"] == ("unsound" if r["calibration"]["times"] > 1 else "sound"), r["id"]
    assert all(r["verdict"] != "unsound" for r in rows if r not in rr_pld)
    # the pure target over one use: the least p is 2/(e + 1) (closed form), inside exactdp's bracket
    pure_rr = [r for r in rows if r["calibration"].get("buckets") == 2 and r["delta"] == "0"]
    assert pure_rr
    for r in pure_rr:
        lo, hi = (Fraction(x) for x in r["calibration"]["exactdp_bracket"])
        assert lo < 2 / (math.e + 1) < hi
    rdp = [r for r in rows if "RdpAccountant" in r["path"]]
    assert rdp and all(r["calibration"]["ratio_float"][0] > 1 for r in rdp)
    # the Laplace mechanism at pure eps = 1: the least b is 1 exactly (closed form), inside exactdp's bracket
    pure = [r for r in rows if r["calibration"]["family"] == "laplace" and r["delta"] == "0"]
    assert pure
    for r in pure:
        lo, hi = (Fraction(x) for x in r["calibration"]["exactdp_bracket"])
        assert lo < 1 <= hi
        # a b at or above 1 is exactly 1/b-DP (sound), below 1 unsound: decided exactly
        assert r["exactdp_verdict"] == ("sound" if Fraction(r["calibration"]["returned"]) >= 1 else "unsound")


def test_opacus_calibration():
    rows = run("opacus_calibration", "opacus")
    assert all(r["verdict"] != "unsound" for r in rows if r["guarantee"] == "bound")
    assert {r["path"].split("=")[1] for r in rows} == {"'rdp')", "'prv')", "'gdp')"}
    rdp = [r for r in rows if "'rdp'" in r["path"]]
    assert rdp and all(r["calibration"]["ratio_float"][0] > 1 for r in rdp)
    assert all(r["verdict"] == "estimate" for r in rows if "'gdp'" in r["path"])


def test_prv_accountant_calibration():
    rows = run("prv_accountant_calibration", "prv-accountant")
    assert all(r["verdict"] != "unsound" for r in rows)
    assert all(r["documented_error"] == {"eps_error": 0.1} for r in rows)


def test_opacus_loader_exposes_get_noise_multiplier_without_torch():
    if C.version("opacus") is None:
        pytest.skip("opacus is not installed")
    import sys

    from exactdp.adapters import opacus_loader
    acc = opacus_loader.load_opacus_accountants()
    sigma = acc.get_noise_multiplier(target_epsilon=1.0, target_delta=1e-5, sample_rate=1.0, steps=1, accountant="rdp")
    # the RDP accountant's epsilon at the returned sigma is below the target (its own stopping rule)
    a = acc.RDPAccountant()
    a.step(noise_multiplier=sigma, sample_rate=1.0)
    assert a.get_epsilon(1e-5) < 1.0
    assert "opacus" not in sys.modules
