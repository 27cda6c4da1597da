"""exactdp.audit: the claims audit of ``exactdp audit``, from Python (same C++ code, same results)."""
import json
import math
import os
from decimal import Decimal
from fractions import Fraction

from ._core import _audit_json


def _value(v):
    """'p/q' -> Fraction, {'lo','hi'} -> (Fraction, Fraction), 'inf' -> math.inf, None stays."""
    if v is None:
        return None
    if isinstance(v, dict):
        return tuple(math.inf if v[k] == "inf" else Fraction(Decimal(v[k])) for k in ("lo", "hi"))
    if v == "inf":
        return math.inf
    return Fraction(v)


_EXACT_KEYS = ("delta", "epsilon", "claimed_epsilon", "claimed_delta", "true_epsilon", "true_delta", "true_lambda")


def audit(claims, digits=10):
    """Audits a claims document (``"format": "exactdp-claims/1"``).

    ``claims`` is a dict (the parsed JSON), or a path to a claims file. Returns one dict per claim,
    as ``exactdp audit --json`` prints them, with exact values as ``Fraction`` and certified ones
    as ``(lo, hi)`` tuples of ``Fraction`` (the decimals printed with ``digits`` significant digits,
    rounded outward). Raises ``exactdp.Error`` (a ValueError) naming the field on bad input.
    """
    if isinstance(claims, (str, os.PathLike)):
        with open(claims, encoding="utf-8") as f:
            text, source = f.read(), os.fspath(claims)
    elif isinstance(claims, dict):
        text, source = json.dumps(claims), "claims"
    else:
        raise TypeError("audit() takes a claims dict or the path of a claims file")
    report = json.loads(_audit_json(text, source, digits))
    results = []
    for r in report["results"]:
        out = dict(r)
        for k in _EXACT_KEYS:
            if k in out:
                out[k] = _value(out[k])
        if out["slack"] is not None:
            out["slack"] = {k: _value(v) for k, v in out["slack"].items()}
        results.append(out)
    return results
