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

from . import _core
from ._core import limits as _core_limits
from ._core import Error, _check_spec_json, _check_spec_text_json, _profile_spec_json, _profile_spec_text_json
from .mechanism import Mechanism
from .parametric import Expression, parameter_of, spec_text


def _text(x, field):
    """An exact number as the text the C++ side parses; floats are refused (they are binary approximations)."""
    if isinstance(x, Expression):
        raise Error(f'field "{field}": value "{x}": an expression in {x.parameter.name}; pass for_all={x.parameter.name} '
                    f"(check) or parametric=True (profile) to decide it for every {x.parameter.name}")
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


def profile(spec, lambdas=(), deltas=(), alphas=(), horizon=None, max_nodes=None, adversary="adaptive", threads=0, parametric=False,
            cross_check=True):
    """The worst case over every adversary up to the horizon, as ``exactdp profile SPEC --json``.

    ``spec`` is a spec file's path, an ``exactdp.Mechanism`` (its ``to_spec()`` text goes through
    the same parser and engine) or a spec dict (``exactdp.library_spec``; Fractions and expressions
    are written exactly).

    ``parametric=True`` (``exactdp profile SPEC --parametric``): for a mechanism with a parameter
    (``exactdp.symbol``), the worst pure ratio — or, with one entry in ``lambdas`` (a number or an
    expression in the parameter), the worst delta(lambda) — or, with one integer order >= 2 in
    ``alphas`` (``--alpha``), the worst Renyi moment sup Phi_alpha (``"moment"``, an
    ``exactdp.Expression`` or ``math.inf``, with the certified D_alpha at the sample as
    ``"divergence_at_sample"``, a pair of decimal strings) — as a piecewise function of the
    parameter: ``"pieces"`` with exact ends (a ``Fraction``, or an algebraic number as a dict with
    its ``"polynomial"`` and isolating ``"interval"``), ``"ratio"`` or ``"delta"`` as an
    ``exactdp.Expression``, a rational ``"sample"`` of each piece. ``cross_check``: the numeric
    engine at every piece's sample must agree (it is an error otherwise).

    ``lambdas``: values of lambda = e^epsilon (>= 1) at which to report delta (entries of ``"at"``);
    ``deltas``: values of delta for the least lambda (``"least_lambda"``); ``alphas``: Renyi orders
    (integers exact, others certified); ``adversary``: "adaptive", "sequential" or "oblivious".
    With no query at all, delta at lambda = 1 is reported. Returns the report as a dict; raises
    ``exactdp.Error`` (a ValueError) naming the file, field and value on bad input, and on a game
    larger than ``max_nodes`` belief pairs (default: the engine's own limit). ``threads``: workers of
    the search (0: all cores); the result does not depend on it.
    """
    if parametric:
        if deltas or adversary != "adaptive":
            raise TypeError("profile(parametric=True) takes lambdas or alphas (one entry at most) and horizon only")
        if alphas:
            if lambdas:
                raise Error(f'field "alphas": value "{alphas[0]}": with parametric=True, give either lambdas (the worst delta) '
                            'or alphas (the worst Renyi moment)')
            return _profile_renyi_for_all(spec, list(alphas), horizon, cross_check)
        return _profile_for_all(spec, list(lambdas), horizon, cross_check)
    _refuse_parametric_spec(spec, "profile")
    lambdas = [_text(x, "lambdas") for x in lambdas]
    deltas = [_text(x, "deltas") for x in deltas]
    alphas = [_text(x, "alphas") for x in alphas]
    if not (lambdas or deltas or alphas):
        lambdas = ["1"]
    limits = _limits(max_nodes, threads)
    if isinstance(spec, Mechanism):
        text = _profile_spec_text_json(spec._for_horizon(horizon), _source(spec), lambdas, deltas, alphas, horizon or 0,
                                       adversary=adversary, **limits)
    elif isinstance(spec, dict):
        text = _profile_spec_text_json(spec_text(spec), _dict_source(spec), lambdas, deltas, alphas, horizon or 0, adversary=adversary,
                                       **limits)
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


def check(spec, lam=None, epsilon=None, delta=0, horizon=None, max_nodes=None, threads=0,
          max_precision=_core_limits.default_claim_precision, adversary="adaptive", for_all=None, cross_check=True, renyi_alpha=None,
          renyi_moment=None):
    """Decides "(epsilon, delta)-DP against every adaptive adversary up to the horizon", as ``exactdp check``.

    ``spec`` is a spec file's path, an ``exactdp.Mechanism`` (its ``to_spec()`` text goes through
    the same parser and engine) or a spec dict (``exactdp.library_spec``).

    ``for_all`` (the symbol, or its name): decides the claim for **every** value of the mechanism's
    parameter (``exactdp check SPEC --for-all r``); ``lam`` and ``delta`` may then be expressions in
    it. The report has ``"verdict"`` ("holds" for every value, or "refuted"), ``"pieces"`` (the
    certified partition of the range, each with ``"holds"``), ``"failing"`` (the exact sub-ranges
    where the claim fails, each with the numeric witness at a rational ``"samples"`` point) and,
    for an approximate claim, ``"worst_delta"`` (delta as a piecewise function). Ends of pieces are
    ``Fraction``s or algebraic numbers (dicts with ``"polynomial"`` and an isolating
    ``"interval"``). ``cross_check``: the numeric engine also confirms every holding piece's sample.
    With ``renyi_alpha`` (an integer >= 2) and ``renyi_moment`` (M, an expression in the parameter)
    instead of ``lam``: the Rényi claim sup Phi_alpha <= M for every value, i.e. D_alpha <= ln M/(alpha - 1)
    (``exactdp check SPEC --for-all r --renyi-alpha A --renyi-moment M``); each failing interval's
    ``"witness"`` has the numeric engine's moments above M at a rational point, ``"worst_moment"`` is
    the piecewise moment.

    Otherwise, give the claim as ``lam`` (lambda = e^epsilon, exact) or
    ``epsilon`` (a real epsilon is decided through rational lambdas on either side of e^epsilon).
    Returns a dict with ``verdict`` ("holds", "refuted" or "undecided"; docs/verdicts.md), the exact
    ``delta`` reached (and ``delta_forward``, ``delta_backward``), ``horizon``, for an undecided claim
    (e^epsilon not separated within ``max_precision`` bits) ``enclosure`` and ``to_decide``, and for a refuted claim ``witness`` (the adversary as a decision tree, the event,
    ``probability_world0`` and ``probability_world1`` as Fractions) and ``witness_text`` (the
    command line's rendering). ``adversary`` is the class of adversaries, as ``exactdp check --adversary``:
    "adaptive" (default), "oblivious" or "sequential" (compositions).
    """
    if renyi_alpha is not None or renyi_moment is not None:
        if for_all is None:
            raise Error('field "renyi_moment": a Renyi claim here is a claim for every value of a parameter: pass for_all '
                        "(for one instance: exactdp.renyi_moment, or exactdp check --renyi-alpha A --renyi-epsilon E)")
        if lam is not None or epsilon is not None or delta != 0:
            raise Error(f'field "renyi_alpha": value "{renyi_alpha}": give either an (epsilon, delta) claim or a Renyi claim, not both')
        return _check_renyi_for_all(spec, renyi_alpha, renyi_moment, horizon, for_all, cross_check, adversary)
    if for_all is not None:
        if epsilon is not None:
            raise Error('field "epsilon": for every value of a parameter, write the claim as lam (lambda = e^epsilon as a '
                        "function of the parameter)")
        return _check_for_all(spec, lam, delta, horizon, for_all, cross_check, adversary)
    _refuse_parametric_spec(spec, "check")
    return _check(spec, lam, epsilon, delta, horizon, max_nodes, minimal=False, threads=threads, max_precision=max_precision,
                  adversary=adversary)


# ------------------------------------------------------------------ for every value of a parameter

def _dict_source(spec):
    return f"<spec {spec.get('name', 'dict')!r}>"


def _parameter_of_spec(spec):
    """The parameter of a Mechanism or spec dict built with a symbol, else None (files are read by C++)."""
    if isinstance(spec, Mechanism):
        return spec.parameter
    if isinstance(spec, dict):
        return parameter_of(spec)
    return None


def _refuse_parametric_spec(spec, kind):
    """A numeric check or profile of a mechanism built with a symbol: an error that says what to pass."""
    p = _parameter_of_spec(spec)
    if p is not None:
        how = f"for_all={p.name}" if kind == "check" else "parametric=True"
        raise Error(f'field "spec": the mechanism has a parameter {p.name} in {p}: pass {how} to decide for every value of '
                    f"{p.name}, or build it with a number in place of the symbol")


def _parametric_source(spec, horizon):
    """(spec, is_text, source) for the C++ side."""
    if isinstance(spec, Mechanism):
        return spec._for_horizon(horizon), True, _source(spec)
    if isinstance(spec, dict):
        return spec_text(spec), True, _dict_source(spec)
    return os.fspath(spec), False, os.fspath(spec)


def _expression_text(x, field, parameter):
    if x is None:
        return ""
    if isinstance(x, Expression):
        if parameter is not None and x.parameter != parameter:
            raise Error(f'field "{field}": value "{x}": an expression in {x.parameter.name} in {x.parameter}, but the mechanism\'s '
                        f"parameter is {parameter.name} in {parameter}")
        return x.text
    return _text(x, field)


def _algebraic(a):
    """{"rational": "p/q"} -> Fraction; an algebraic number keeps its dict, with the interval as Fractions."""
    if "rational" in a:
        return Fraction(a["rational"])
    out = dict(a)
    out["interval"] = tuple(Fraction(x) for x in a["interval"])
    out["polynomial"] = [int(c) for c in a["polynomial"]]
    return out


def _convert_piece(piece, parameter, functions):
    for end in ("lower", "upper"):
        if end in piece:
            piece[end] = _algebraic(piece[end])
    for key in ("sample", "ratio_at_sample", "delta_at_sample"):
        if piece.get(key) is not None:
            piece[key] = _number(piece[key])
    if "samples" in piece:
        piece["samples"] = [Fraction(x) for x in piece["samples"]]
    for key in functions:
        if key in piece:
            piece[key] = math.inf if piece[key] == "inf" else Expression(piece[key], parameter)
    return piece


def _for_all_parameter(spec, r):
    """The parameter of r's report: the symbol's (with its range) or, for a spec file, the declared one."""
    from .parametric import Parameter

    got = r["range"]
    return Parameter(r["parameter"], Fraction(got["lower"]), Fraction(got["upper"]), bool(got["lower_open"]), bool(got["upper_open"]))


def _for_all_name(spec, for_all):
    """The mechanism's declared parameter (or None) and the name ``for_all`` asks for (a symbol or its
    name); a symbol of another parameter is refused."""
    parameter = _parameter_of_spec(spec)
    name = for_all.parameter.name if isinstance(for_all, Expression) else for_all
    if not isinstance(name, str):
        raise TypeError("for_all: pass the symbol (exactdp.symbol) or its name")
    if isinstance(for_all, Expression) and parameter is not None and for_all.parameter != parameter:
        raise Error(f'field "for_all": value "{for_all}": the mechanism\'s parameter is {parameter.name} in {parameter}')
    return parameter, name


def _check_for_all(spec, lam, delta, horizon, for_all, cross_check, adversary):
    parameter, name = _for_all_name(spec, for_all)
    if lam is None:
        raise Error('field "lam": a claim for every value needs lam, an expression in the parameter (lambda = e^epsilon)')
    text, is_text, source = _parametric_source(spec, horizon)
    lam_text = _expression_text(lam, "lam", parameter)
    delta_text = "" if (not isinstance(delta, Expression) and delta == 0) else _expression_text(delta, "delta", parameter)
    r = json.loads(_core._check_for_all_json(text, is_text, source, name, lam_text, delta_text, horizon or 0, bool(cross_check),
                                             str(adversary)))
    p = _for_all_parameter(spec, r)
    r["claim"] = {k: Expression(v, p) for k, v in r["claim"].items()}
    for piece in r.get("pieces", []):
        _convert_piece(piece, p, ())
    for f in r.get("failing", []):
        _convert_piece(f, p, ())
        w = f.get("witness")
        if w is not None:
            _convert(w, ("delta", "delta_forward", "delta_backward", "lambda_used", "parameter_value"))
            if "witness" in w:
                _convert(w["witness"], ("lambda", "delta", "probability_world0", "probability_world1"))
    for piece in r.get("worst_delta", []):
        _convert_piece(piece, p, ("delta", "delta_forward", "delta_backward"))
    for c in r.get("cross_checks", []) + r.get("delta_checks", []):
        _convert(c, ("value", "lambda", "delta_forward", "delta_backward"))
    return r


def _check_renyi_for_all(spec, alpha, moment, horizon, for_all, cross_check, adversary):
    parameter, name = _for_all_name(spec, for_all)
    if alpha is None:
        raise Error('field "renyi_alpha": a Renyi claim for every value needs renyi_alpha, an integer order >= 2')
    text, is_text, source = _parametric_source(spec, horizon)
    moment_text = _expression_text(moment, "renyi_moment", parameter)
    r = json.loads(_core._check_renyi_for_all_json(text, is_text, source, name, _text(alpha, "renyi_alpha"), moment_text, horizon or 0,
                                                   bool(cross_check), str(adversary)))
    p = _for_all_parameter(spec, r)
    r["claim"]["renyi_moment"] = Expression(r["claim"]["renyi_moment"], p)
    for piece in r.get("pieces", []):
        _convert_piece(piece, p, ())
    for f in r.get("failing", []):
        _convert_piece(f, p, ())
        w = f.get("witness")
        if w is not None:
            _convert(w, ("parameter_value", "bound", "moment_forward", "moment_backward"))
            for key in ("divergence", "claimed_divergence"):  # certified enclosures, exact decimal ends
                w[key] = tuple(Fraction(Decimal(x)) for x in w[key])
    return _convert_moments(r, p, "worst_moment")


def _convert_moments(r, p, key):
    """The Rényi reports' pieces under ``key`` (moments as expressions in ``p``, the moment at each
    sample as a number) and cross-checks converted in place; returns ``r``."""
    for piece in r.get(key, []):
        _convert_piece(piece, p, ("moment", "moment_forward", "moment_backward"))
        if piece.get("moment_at_sample") is not None:
            piece["moment_at_sample"] = _number(piece["moment_at_sample"])
    for c in r.get("cross_checks", []):
        _convert(c, ("value", "moment_forward", "moment_backward"))
    return r


def _profile_for_all(spec, lambdas, horizon, cross_check):
    parameter = _parameter_of_spec(spec)
    if len(lambdas) > 1:
        raise Error(f'field "lambdas": value "{lambdas[1]}": with parametric=True, give one lambda (an expression in the parameter)')
    lam_text = _expression_text(lambdas[0], "lambdas", parameter) if lambdas else ""
    text, is_text, source = _parametric_source(spec, horizon)
    r = json.loads(_core._profile_for_all_json(text, is_text, source, lam_text, horizon or 0, bool(cross_check)))
    p = _for_all_parameter(spec, r)
    if "lambda" in r:
        r["lambda"] = Expression(r["lambda"], p)
    for piece in r.get("pieces", []):
        _convert_piece(piece, p, ("ratio", "delta", "delta_forward", "delta_backward"))
    for c in r.get("cross_checks", []):
        _convert(c, ("value", "lambda", "delta_forward", "delta_backward"))
    return r


def _profile_renyi_for_all(spec, alphas, horizon, cross_check):
    parameter = _parameter_of_spec(spec)
    if len(alphas) > 1:
        raise Error(f'field "alphas": value "{alphas[1]}": with parametric=True, give one Renyi order (an integer >= 2)')
    text, is_text, source = _parametric_source(spec, horizon)
    r = json.loads(_core._profile_renyi_for_all_json(text, is_text, source, _text(alphas[0], "alphas"), horizon or 0, bool(cross_check)))
    p = _for_all_parameter(spec, r)
    return _convert_moments(r, p, "pieces")


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
    elif isinstance(spec, dict):
        text = _check_spec_text_json(spec_text(spec), _dict_source(spec), *claim, horizon or 0, minimal=minimal,
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
