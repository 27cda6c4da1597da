"""exactdp.audit: the claims audit of ``exactdp audit``, from Python (same C++ code, same results)."""
import json
import math
import os
import sys
from decimal import Decimal
from fractions import Fraction

from ._core import _audit_json, default_memory_budget
from ._core import grid_bracket as _grid_bracket
from ._core import limits as _limits


def _fraction(text):
    """Fraction('p/q'), also for the thousands of digits of exact compositions (Python 3.11 limits
    decimal integer parsing to 4300 digits by default; the limit guards untrusted input, and the
    text here is exactdp's own output)."""
    try:
        return Fraction(text)
    except ValueError:
        if not hasattr(sys, "set_int_max_str_digits"):
            raise
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return Fraction(text)
        finally:
            sys.set_int_max_str_digits(old)


def _value(v):
    """'p/q' -> Fraction, {'lo','hi'} -> (Fraction, Fraction), 'inf' -> math.inf, None stays."""
    if v is None:
        return None
    if isinstance(v, dict):
        return tuple(math.inf if v[k] == "inf" else Fraction(Decimal(v[k])) for k in ("lo", "hi"))
    if v == "inf":
        return math.inf
    return _fraction(v)


_EXACT_KEYS = ("delta", "epsilon", "claimed_epsilon", "claimed_delta", "true_epsilon", "true_delta", "true_lambda")


def grid_bracket(mechanism, times=1, delta=None, epsilon=None, sampling_rate=None, resolution=8, relative_width=None,
                 max_resolution=64, max_points=_limits.default_grid_max_points, composition_factor=1, tail=None,
                 fine_bin_bits=20):
    """Certified bracket of the least epsilon at ``delta`` (or of delta at ``epsilon``) for ``times`` uses
    of ``mechanism`` ("gauss:sigma=S[,sensitivity=D]", Poisson-subsampled at ``sampling_rate`` under
    add/remove, or "laplace:b=B[,sensitivity=D]"), from the split/merge discretisations of
    ``docs/audit-subsampling.md``. Returns ``{'value': (lo, hi), 'step', 'final_step', 'points',
    'resolution'}`` with Fractions. ``resolution`` (grid points per standard deviation of the privacy
    loss) sets the time/width trade-off: the width falls about 4-fold and the time grows about
    4-fold per doubling. With ``relative_width`` the resolution doubles from ``resolution`` up to
    ``max_resolution`` until hi - lo <= relative_width * hi. ``composition_factor`` (1 to 64): the
    composed laws keep ``resolution * composition_factor`` points per deviation before they are
    re-gridded (narrower for long compositions, a little slower). ``tail``: the mass moved per
    truncation of a tail (default 10^-33; each truncation widens the bracket by at most that much in
    delta, and 2^-50 keeps the convolutions' integers one machine word). ``fine_bin_bits`` b: the one-use
    law is cut into one-step bins where 64 grid steps hold P-mass at least 2^-b, wider bins below
    (fewer evaluations of Phi; 10 suits long compositions, the default 20 few uses). Numbers are
    Fractions, ints or exact strings.
    """
    def text(x, field):
        if x is None:
            return None
        if isinstance(x, (float, bool)):
            raise TypeError(f"{field}: pass a Fraction, an int or a string such as '0.1'")
        return str(x)
    return _grid_bracket(mechanism, text(times, "times"), text(delta, "delta"), text(epsilon, "epsilon"),
                         text(sampling_rate, "sampling_rate"), resolution, text(relative_width, "relative_width"),
                         max_resolution, max_points, composition_factor, text(tail, "tail"),
                         fine_bin_bits)


def audit(claims, digits=10, grid_resolution=_limits.default_grid_resolution,
          grid_points=_limits.default_grid_point_budget, max_memory=default_memory_budget):
    """Audits a claims document (``"format": "exactdp-claims/1"``).

    ``claims`` is a dict (the parsed JSON), or a path to a claims file. Returns one dict per claim,
    as ``exactdp audit --json`` prints them, with exact values as ``Fraction`` and certified ones
    as ``(lo, hi)`` tuples of ``Fraction`` (the decimals printed with ``digits`` significant digits,
    rounded outward). ``grid_resolution`` is the highest resolution tried for grid brackets and
    ``grid_points`` their size budget, as ``exactdp audit --grid-resolution/--grid-points``; ``max_memory``
    (bytes) the planner's budget and the budget of each mechanism's one-use tables, as ``--max-memory``
    (a mechanism estimated above it is refused when read). Raises ``exactdp.Error`` (a ValueError) naming the field on
    bad input. A claim with ``"neighbouring": "replace-one"`` is judged on each mechanism's replace-one
    pair (additive noise at twice the written sensitivity, randomized response as it is); each result's
    ``"neighbouring"`` says which relation its verdict is for, and ``"analysed"`` (replace-one) lists the
    specs whose pairs were audited (docs/audit.md).
    """
    if isinstance(claims, (str, os.PathLike)):
        with open(claims, encoding="utf-8") as f:
            text, source = f.read(), os.fspath(claims)
    elif isinstance(claims, dict):
        text, source = json.dumps(claims), "claims"
    else:
        raise TypeError("audit() takes a claims dict or the path of a claims file")
    report = json.loads(_audit_json(text, source, digits, grid_resolution, grid_points, max_memory))
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
