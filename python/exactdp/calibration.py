"""exactdp.calibration: the least noise that meets a privacy target, as a certified bracket.

``calibrate(family, epsilon=..., delta=..., times=1, sampling_rate=None, relative_width="1/1000")``
runs the search of ``exactdp calibrate`` (accounting/calibration.hpp; docs/calibration.md) and
returns its report as a dict with exact values as ``Fraction`` and certified ones as
``(lo, hi)`` tuples of ``Fraction``:

* ``status``: ``"bracketed"`` (the relative width was reached), ``"undecided"`` (a level between the
  ends could not be separated from the target by the planner), ``"no_level_meets"`` or
  ``"no_level_fails"``;
* ``lo``, ``hi``: the bracket of the least noise parameter (``parameter``: sigma, b, r or lambda),
  present when both ends were found; ``noisier`` says whether more noise is the ``"larger"`` or
  the ``"smaller"`` value (lambda of randomized response: smaller), so the end that **meets** the
  target is ``hi`` for sigma, b, r and ``lo`` for lambda;
* ``meets`` and ``fails``: the two ends with their evidence (``true_epsilon`` or ``true_delta``,
  certified at that level; ``method``, ``precision``);
* ``probability`` (rr, krr): the truth probability lambda/(lambda + k - 1) at each end;
* ``monotonicity``: why more noise never hurts in this family (the premise of the bisection);
* ``stop_reason``: why the search stopped (the width reached, or the level that stayed undecided
  at the refinement limit, with what the next rung would need and which argument allows it);
  ``refinements``: how many refined re-judgements it ran (each level also says its own
  ``refinements``, ``grid_point_budget`` and ``precision_cap``, and an undecided one its
  ``refinement_stop``);
* ``probes``: the judgements of the levels passed as ``probes`` (each with its ``verdict``:
  ``"meets"``, ``"fails"`` or ``"undecided"``), in order.

``lo``/``hi`` are given whenever both ends were found, also when the status is ``"undecided"``:
both ends are certified, the bracket is only wider than asked.

Numbers are Fractions, ints or exact strings ("1e-5"); Python floats are refused (pass
``Fraction(x)`` for the exact binary value of a float).
"""
import json
from fractions import Fraction

from ._core import _calibrate_json, default_memory_budget
from ._core import limits as _limits
from .audit import _value
from .composition import _exact as _exact_text


def _exact(x, field):
    """An exact number as text (composition._exact), None passed through."""
    return None if x is None else _exact_text(x, field)


def _level(level):
    if level is None:
        return None
    out = dict(level)
    out["value"] = Fraction(level["value"])
    for key in ("true_epsilon", "true_delta"):
        if key in level:
            out[key] = _value(level[key])
    if "true_lambda" in level:
        out["true_lambda"] = Fraction(level["true_lambda"])
    return out


def _progress_printer(p):
    """``progress=True``: one line per judgement on stderr, as ``exactdp calibrate --progress``."""
    import sys

    line = (f"exactdp: calibrate {p['stage']} {p['value']}: {p['verdict']}"
            + (f" at rung {p['rung']}" if p["rung"] else "")
            + f", grid budget {p['grid_point_budget']} points, resolution {p['grid_resolution']}, "
            + f"precision {p['precision']} bits, {p['cpu_seconds']:.1f} s CPU")
    if not p["last"]:
        line += "; refining"
    elif p["refinement_stop"]:
        line += "; " + p["refinement_stop"]
    print(line, file=sys.stderr, flush=True)


def calibrate(family, epsilon, delta, times=1, sampling_rate=None, relative_width="1/1000", witness="epsilon",
              max_levels=_limits.default_calibration_levels, digits=10, grid_resolution=_limits.default_grid_resolution,
              grid_points=_limits.default_grid_point_budget, max_memory=default_memory_budget,
              refine_grid_points=_limits.max_grid_point_budget, direction="both", probes=(), progress=None):
    """The least noise of ``family`` ("gauss", "laplace", "dlaplace", "rr", "krr:k=K", optionally with fixed
    keys such as "gauss:sensitivity=2") for which ``times`` uses, each Poisson-subsampled at
    ``sampling_rate`` (add/remove), are (``epsilon``, ``delta``)-DP: a certified bracket (see the module
    docstring). ``witness`` ("epsilon" or "delta") chooses the certified quantity that judges each level;
    ``grid_resolution``, ``grid_points`` and ``max_memory`` are the audit's limits for each level;
    a level still undecided under them is judged again with 4 times the grid budget (twice the
    resolution and precision) until decided or the budget reaches ``refine_grid_points``
    (``exactdp._core.limits.min_grid_point_budget`` … ``max_grid_point_budget``; at most
    ``grid_points``: no refinement). The report says why the search stopped (``stop_reason``).
    ``direction``: ``"both"`` (add/remove, the default) or ``"replace"`` (replace-one: each level is judged on
    its replace-one pair, additive noise at twice the sensitivity, randomized response as it is; refused with
    a ``sampling_rate`` below 1; accounting/replace_one.hpp); ``target["neighbouring"]`` says which.
    ``refine_grid_points`` above ``max_grid_point_budget`` is accepted only when its memory estimate
    (512 bytes per point) fits ``max_memory``; a rung whose estimate exceeds ``max_memory`` is not run.
    ``probes``: levels judged first (e.g. another accountant's sigma: is it enough?), reported under
    ``probes``; the bracket starts from the best ends they give. ``progress``: a callable given a dict
    per judgement of a level (``stage`` "probe"/"expand"/"bisect", ``value`` "p/q", ``verdict``,
    ``rung``, ``last``, ``grid_point_budget``, ``grid_resolution``, ``precision``, ``cpu_seconds``,
    ``refinement_stop``); ``progress=True`` prints one line per judgement on stderr.
    Raises ``exactdp.Error`` (a ValueError) naming the field on bad input or a refused family.
    """
    text = _calibrate_json(family, _exact(epsilon, "epsilon"), _exact(delta, "delta"), _exact(times, "times"),
                           _exact(sampling_rate, "sampling_rate"), _exact(relative_width, "relative_width"), witness,
                           max_levels, digits, grid_resolution, grid_points, max_memory, refine_grid_points, direction,
                           [_exact(p, "probes") for p in probes], _progress_printer if progress is True else progress)
    report = json.loads(text)
    out = dict(report)
    out["target"] = {k: (v if k in ("times", "neighbouring") else Fraction(v)) for k, v in report["target"].items()}
    out["relative_width"] = Fraction(report["relative_width"])
    out["meets"] = _level(report["meets"])
    out["fails"] = _level(report["fails"])
    out["undecided_levels"] = [_level(l) for l in report["undecided_levels"]]
    out["probes"] = [_level(l) for l in report["probes"]]
    if "bracket" in report:
        out["lo"] = Fraction(report["bracket"]["lo"])
        out["hi"] = Fraction(report["bracket"]["hi"])
        out["width"] = Fraction(report["bracket"]["width"])
    if "probability" in report:
        out["probability"] = {k: Fraction(v) for k, v in report["probability"].items()}
    return out
