"""The adversary game engine on mechanism spec files, as ``exactdp profile SPEC`` and ``exactdp check``.

A spec file (``spec/mechanisms/README.md``) writes an interactive mechanism as a finite state
machine with exact probability tables. ``profile`` plays every adaptive adversary up to the horizon
and returns the worst case; ``check`` decides an (epsilon, delta) claim and, when it is false,
returns the witness: the adversary's decision tree, the event and both exact probabilities. The same
C++ code runs as in the command line, so the values are the ones ``--json`` prints, with exact
numbers as ``Fraction``, certified ones as ``(lo, hi)`` tuples of ``Fraction`` and +inf as
``math.inf``.

>>> import exactdp
>>> r = exactdp.check("spec/mechanisms/mp.json", lam=4, delta="1/4")   # doctest: +SKIP
>>> r["verdict"], r["delta"], r["witness"]["probability_world1"]      # doctest: +SKIP
('refuted', Fraction(4, 15), Fraction(8, 15))
"""
import json
import math
import os
from decimal import Decimal
from fractions import Fraction

from ._core import limits as _core_limits
from ._core import _check_spec_json, _check_spec_text_json, _profile_spec_json, _profile_spec_text_json
from .mechanism import Mechanism


def _text(x, field):
    """An exact number as the text the C++ side parses; floats are refused (they are binary approximations)."""
    if isinstance(x, bool) or isinstance(x, float):
        raise TypeError(f"{field}: pass a Fraction, an int or a string such as '0.1', not {type(x).__name__}")
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, (int, str)):
        return str(x)
    raise TypeError(f"{field}: expected a Fraction, an int or a string, got {type(x).__name__}")


def _number(v):
    """'p/q' -> Fraction, 'inf' -> math.inf, '[lo, hi]' (certified) -> (Fraction, Fraction)."""
    if isinstance(v, str):
        if v == "inf":
            return math.inf
        if v.startswith("["):
            lo, hi = v[1:-1].split(",")
            return (Fraction(Decimal(lo.strip())), Fraction(Decimal(hi.strip())))
        return Fraction(v)
    return v


def _convert(entry, keys):
    for k in keys:
        if k in entry:
            entry[k] = _number(entry[k])
    return entry


def profile(spec, lambdas=(), deltas=(), alphas=(), horizon=None, max_nodes=None, adversary="adaptive", threads=0):
    """The worst case over every adversary up to the horizon, as ``exactdp profile SPEC --json``.

    ``spec`` is a spec file's path or an ``exactdp.Mechanism`` (its ``to_spec()`` text goes through
    the same parser and engine).

    ``lambdas``: values of lambda = e^epsilon (>= 1) at which to report delta (entries of ``"at"``);
    ``deltas``: values of delta for the least lambda (``"least_lambda"``); ``alphas``: Renyi orders
    (integers exact, others certified); ``adversary``: "adaptive", "sequential" or "oblivious".
    With no query at all, delta at lambda = 1 is reported. Returns the report as a dict; raises
    ``exactdp.Error`` (a ValueError) naming the file, field and value on bad input, and on a game
    larger than ``max_nodes`` belief pairs (default: the engine's own limit). ``threads``: workers of
    the search (0: all cores); the result does not depend on it.
    """
    lambdas = [_text(x, "lambdas") for x in lambdas]
    deltas = [_text(x, "deltas") for x in deltas]
    alphas = [_text(x, "alphas") for x in alphas]
    if not (lambdas or deltas or alphas):
        lambdas = ["1"]
    limits = _limits(max_nodes, threads)
    if isinstance(spec, Mechanism):
        text = _profile_spec_text_json(spec._for_horizon(horizon), _source(spec), lambdas, deltas, alphas, horizon or 0,
                                       adversary=adversary, **limits)
    else:
        text = _profile_spec_json(os.fspath(spec), lambdas, deltas, alphas, horizon or 0, adversary=adversary, **limits)
    r = json.loads(text)
    if "pure" in r:
        _convert(r["pure"], ("ratio", "ratio_forward", "ratio_backward"))
    for e in r.get("at", []):
        _convert(e, ("lambda", "delta", "delta_forward", "delta_backward"))
    for e in r.get("least_lambda", []):
        _convert(e, ("delta", "lambda"))
    for e in r.get("renyi", []):
        _convert(e, ("alpha", "moment", "moment_forward", "moment_backward"))
    if "tradeoff" in r:
        for k, v in r["tradeoff"].items():
            r["tradeoff"][k] = [tuple(_number(x) for x in point) for point in v]
    return r


def check(spec, lam=None, epsilon=None, delta=0, horizon=None, max_nodes=None, threads=0, max_precision=_core_limits.default_claim_precision,
          adversary="adaptive"):
    """Decides "(epsilon, delta)-DP against every adaptive adversary up to the horizon", as ``exactdp check``.

    ``spec`` is a spec file's path or an ``exactdp.Mechanism`` (its ``to_spec()`` text goes through
    the same parser and engine). Give the claim as ``lam`` (lambda = e^epsilon, exact) or
    ``epsilon`` (a real epsilon is decided through rational lambdas on either side of e^epsilon).
    Returns a dict with ``verdict`` ("holds", "refuted" or "undecided"; docs/verdicts.md), the exact
    ``delta`` reached (and ``delta_forward``, ``delta_backward``), ``horizon``, for an undecided claim
    (e^epsilon not separated within ``max_precision`` bits) ``enclosure`` and ``to_decide``, and for a refuted claim ``witness`` (the adversary as a decision tree, the event,
    ``probability_world0`` and ``probability_world1`` as Fractions) and ``witness_text`` (the
    command line's rendering). ``adversary`` is the class of adversaries, as ``exactdp check --adversary``:
    "adaptive" (default), "oblivious" or "sequential" (compositions).
    """
    return _check(spec, lam, epsilon, delta, horizon, max_nodes, minimal=False, threads=threads, max_precision=max_precision,
                  adversary=adversary)


def _source(mechanism):
    """How errors in an authored mechanism's spec text name it."""
    return f"<mechanism {mechanism.name!r}>"


def _limits(max_nodes, threads):
    """The engine limits as keyword arguments; an omitted max_nodes keeps the library's default."""
    limits = {"threads": int(threads)}
    if max_nodes is not None:
        limits["max_nodes"] = int(max_nodes)
    return limits


def _check(spec, lam, epsilon, delta, horizon, max_nodes, minimal, threads=0, max_precision=_core_limits.default_claim_precision, adversary="adaptive"):
    """check(), and with ``minimal`` the shrunk witness and its short account (for exactdp.testing)."""
    if (lam is None) == (epsilon is None):
        raise TypeError("check() takes exactly one of lam (lambda = e^epsilon) or epsilon")
    claim = ("" if lam is None else _text(lam, "lam"), "" if epsilon is None else _text(epsilon, "epsilon"), _text(delta, "delta"))
    if isinstance(spec, Mechanism):
        text = _check_spec_text_json(spec._for_horizon(horizon), _source(spec), *claim, horizon or 0, minimal=minimal,
                                     max_precision=int(max_precision), adversary=str(adversary), **_limits(max_nodes, threads))
    else:
        text = _check_spec_json(os.fspath(spec), *claim, horizon or 0, minimal=minimal, max_precision=int(max_precision),
                                adversary=str(adversary), **_limits(max_nodes, threads))
    r = json.loads(text)
    _convert(r, ("delta", "delta_forward", "delta_backward", "lambda_used"))
    _convert(r["claim"], ("lambda", "epsilon", "delta"))
    for key in ("witness", "minimal_witness"):
        if key in r:
            _convert(r[key], ("lambda", "delta", "probability_world0", "probability_world1"))
    return r
