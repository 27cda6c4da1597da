"""The dp-accounting adapter (skipped unless dp-accounting==0.6.0 is installed; not part of CI).

The one value checked against an independent computation: dp-accounting's PLD claims, for 100
uses of the Gaussian mechanism with sigma = 1 (GDP mu = 10) at delta = 1e-10, an epsilon of
112.84026 whereas the least epsilon is 112.840327 — mpmath at 50 digits gives
delta(112.8402598146943631718386) = Phi(-e/10 + 5) - e^e Phi(-e/10 - 5) = 1.0000434e-10 > 1e-10.
"""
from fractions import Fraction
from importlib import metadata

import pytest

dp_accounting = pytest.importorskip("dp_accounting")

from exactdp import audit  # noqa: E402
from exactdp.adapters import google_dp_accounting as adapter  # noqa: E402


def test_claims_are_exact_and_audit_runs():
    doc = adapter.claims(ks=(1, 100))
    assert doc["format"] == "exactdp-claims/1"
    for c in doc["claims"]:
        for k in ("delta", "epsilon", "claimed_epsilon", "claimed_delta"):
            if k in c:
                Fraction(c[k])  # an exact number, the binary value of the accountant's float
    results = {r["id"]: r for r in audit(doc)}
    assert len(results) == len(doc["claims"])
    if metadata.version("dp-accounting") == adapter.PINNED:
        # The truth comes from the docstring's independent mpmath computation. Whether the
        # accountant's float falls below it depends on numpy's FFT rounding (numpy 1.x: 112.8402598,
        # unsound; numpy 2.4: 112.8403326, sound), so the verdict is checked against the claim
        # itself rather than pinned.
        claim = next(c for c in doc["claims"] if c["id"] == "pld/Gaussian sigma=1.0/k=100/delta=1e-10")
        r = results[claim["id"]]
        lo, hi = r["true_epsilon"]
        assert Fraction("112.840326") < lo <= hi < Fraction("112.840328")
        claimed = Fraction(claim["claimed_epsilon"])
        assert r["verdict"] == ("unsound" if claimed < lo else "sound" if claimed >= hi else "undecided")
    # the RDP accountant is a valid upper bound wherever it answers
    assert all(r["verdict"] == "sound" for i, r in results.items() if i.startswith("rdp/"))
