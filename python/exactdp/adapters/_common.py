"""Shared helpers of the accountant adapters: exact numbers, claim records, version checks.

Every parameter handed to an accountant is a Python float; the claim names the exact binary value
of that float (``Fraction(x)``), and the claimed epsilon or delta is the exact value of the float the
accountant returned. So the mechanism audited is exactly the one the accountant was asked about,
and no decimal rounding enters a verdict.
"""
import math
from fractions import Fraction
from importlib import metadata

# Scenario grids: "ci" is the audit of the test suite, "small" a quick look (minutes), "full" the
# long command of the README (hours).
GRIDS = {
    "ci": {"ks": (1, 10), "deltas": (1e-5,), "epsilons": (1.0,), "sub_ks": (1,)},
    "small": {"ks": (1, 10), "deltas": (1e-5, 1e-10), "epsilons": (1.0,), "sub_ks": (1, 10)},
    "full": {"ks": (1, 10, 100, 1000, 10000), "deltas": (1e-3, 1e-5, 1e-10, 1e-18), "epsilons": (0.5, 1.0, 10.0, 50.0),
             "sub_ks": (1, 10, 100, 1000, 10000)},
}


def exact(x):
    """The exact value of a float (or int) as an exactdp number string."""
    return str(Fraction(x))


def version(package):
    """The installed version of ``package``, or None."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def epsilon_claim(cid, spec, k, delta, eps, accountant, neighbouring="add-remove", sampling=None, comment=None):
    """A claim "k uses of spec are (eps, delta)-DP", or None when eps is not a finite float."""
    if eps is None or not math.isfinite(eps):
        return None
    c = {"id": cid, "mechanism": spec, "times": int(k), "neighbouring": neighbouring, "delta": exact(delta),
         "claimed_epsilon": exact(max(float(eps), 0.0)), "accountant": accountant}
    if sampling is not None:
        c["sampling"] = f"poisson:q={exact(sampling)}"
    if comment:
        c["comment"] = comment
    return c


def delta_claim(cid, spec, k, eps, delta, accountant, neighbouring="add-remove", sampling=None, comment=None):
    """A claim "k uses of spec have delta(eps) <= delta", or None when delta is not finite."""
    if delta is None or not math.isfinite(delta):
        return None
    c = {"id": cid, "mechanism": spec, "times": int(k), "neighbouring": neighbouring, "epsilon": exact(eps),
         "claimed_delta": exact(min(max(float(delta), 0.0), 1.0)), "accountant": accountant}
    if sampling is not None:
        c["sampling"] = f"poisson:q={exact(sampling)}"
    if comment:
        c["comment"] = comment
    return c


def document(accountant, claims):
    """The exactdp-claims/1 document of a list of claims (None entries dropped)."""
    return {"format": "exactdp-claims/1", "accountant": accountant, "claims": [c for c in claims if c is not None]}
