"""A noise parameter as a symbol: claims and mechanisms for every value of it at once.

``exactdp.symbol("r")`` is the parameter r on a range (default the open interval (0, 1)). It and
the expressions built from it with ``+ - * /`` and integer powers stand where a ``Fraction``
stands in the mechanism-building API:

* the probabilities of a step function (``exactdp.Mechanism.from_step``) and of a spec dict's
  table rows;
* the noise parameters of the library mechanisms that take one (``exactdp.library_spec``:
  ``svt-counter``, ``above-threshold``, ``tree-counter``, ``noisy-increments``);
* the exact noise primitives ``noise.dlap`` and ``noise.latent_threshold`` (their probabilities
  are then expressions);
* the claim: ``exactdp.check(m, lam=1/r**3, for_all=r)`` decides it for **every** r of the range
  (``exactdp check SPEC --for-all r``), and ``exactdp.profile(m, parametric=True)`` gives the worst
  ratio, or with ``lambdas=[expr]`` the worst delta, as a piecewise function of r
  (``exactdp profile SPEC --parametric``).

Everywhere else a symbol is refused with ``exactdp.Error`` naming the argument. Expressions are
exact rational functions of r, kept in the canonical form of the C++ library
(``parametric/rational_function.hpp``): two expressions are equal iff they are the same function.
See docs/parametric.md.

>>> import exactdp
>>> r = exactdp.symbol("r")
>>> (1 - r) / (1 + r) * r**2
exactdp.Expression('(r^2-r^3)/(1+r)', r in (0, 1))
>>> ((1 - r) / (1 + r)).at("1/3")
Fraction(1, 2)
"""
import numbers
from decimal import Decimal
from fractions import Fraction

from . import _core
from ._core import Error

__all__ = ["Expression", "Parameter", "symbol", "is_parametric", "library_spec", "spec_text"]


class Parameter:
    """A parameter's name and range: ``lower < r < upper`` with each end open or closed."""

    __slots__ = ("name", "lower", "upper", "lower_open", "upper_open")

    def __init__(self, name, lower, upper, lower_open, upper_open):
        self.name, self.lower, self.upper = name, lower, upper
        self.lower_open, self.upper_open = lower_open, upper_open

    def _key(self):
        return (self.name, self.lower, self.upper, self.lower_open, self.upper_open)

    def __eq__(self, other):
        return isinstance(other, Parameter) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _tuple(self):
        return (self.name, _text(self.lower), _text(self.upper), self.lower_open, self.upper_open)

    def contains(self, value):
        """Whether the exact number ``value`` lies in the range."""
        v = _exact(value, "value")
        above = v > self.lower if self.lower_open else v >= self.lower
        below = v < self.upper if self.upper_open else v <= self.upper
        return above and below

    def declaration(self):
        """The spec file's ``"parameters"`` entry (docs/parametric.md)."""
        return {self.name: {"interval": [_text(self.lower), _text(self.upper)], "open": [self.lower_open, self.upper_open]}}

    def __str__(self):
        return _core._range_text(self._tuple())

    def __repr__(self):
        return f"<exactdp.Parameter {self.name} in {self}>"


def _text(q):
    return f"{q.numerator}/{q.denominator}" if q.denominator != 1 else str(q.numerator)


def _exact(x, field):
    if isinstance(x, (bool, float)):
        raise TypeError(f"{field}: pass a Fraction, an int or an exact string such as '0.1', not {type(x).__name__}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, numbers.Rational):
        return Fraction(x.numerator, x.denominator)
    if isinstance(x, Decimal):
        return Fraction(x)
    if isinstance(x, str):
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise Error(f'field "{field}": value "{x}": not an exact number') from None
    raise TypeError(f"{field}: expected a Fraction, an int or an exact string, got {type(x).__name__}")


class Expression:
    """An exact rational function of one parameter (see the module comment). Arithmetic with
    ``int``, ``Fraction``, ``Decimal`` and other expressions of the same parameter; ``**`` takes an
    integer. ``at(x)`` (or ``e(x)``) evaluates it at an exact number."""

    __slots__ = ("_text", "_parameter")

    def __init__(self, text, parameter):
        if not isinstance(parameter, Parameter):
            raise TypeError("Expression(text, parameter): build expressions from exactdp.symbol(...)")
        self._parameter = parameter
        self._text = _core._rf_canonical(str(text), parameter.name, "expression")

    @property
    def parameter(self):
        """The ``Parameter`` (name and range) this expression is a function of."""
        return self._parameter

    @property
    def text(self):
        """The canonical text in the grammar of docs/parametric.md (what a spec file holds)."""
        return self._text

    def is_constant(self):
        """Whether the function does not depend on the parameter."""
        try:
            Fraction(self._text)
            return True
        except ValueError:
            return False

    def at(self, value):
        """The exact value at ``value`` (a Fraction, an int or an exact string)."""
        return _core._rf_evaluate(self._text, self._parameter.name, _text(_exact(value, "value")))

    __call__ = at

    # ------------------------------------------------------------------------- arithmetic
    def _other(self, other, op):
        if isinstance(other, Expression):
            if other._parameter != self._parameter:
                raise Error(f"exactdp.symbol: {op}: an expression in {self._parameter.name} in {self._parameter} and one in "
                            f"{other._parameter.name} in {other._parameter}: one parameter (with one range) per mechanism and claim "
                            "(this version; docs/parametric.md, \"Two parameters\")")
            return other._text
        if isinstance(other, (bool, float)):
            raise TypeError(f"{op}: {type(other).__name__} operand; use an int, a Fraction or a Decimal (a float is a binary approximation)")
        if isinstance(other, (numbers.Rational, Decimal)):
            return _text(_exact(other, op))
        return None

    def _make(self, text):
        return Expression(text, self._parameter)

    def __add__(self, o):
        t = self._other(o, "+")
        return NotImplemented if t is None else self._make(f"({self._text})+({t})")

    def __radd__(self, o):
        t = self._other(o, "+")
        return NotImplemented if t is None else self._make(f"({t})+({self._text})")

    def __sub__(self, o):
        t = self._other(o, "-")
        return NotImplemented if t is None else self._make(f"({self._text})-({t})")

    def __rsub__(self, o):
        t = self._other(o, "-")
        return NotImplemented if t is None else self._make(f"({t})-({self._text})")

    def __mul__(self, o):
        t = self._other(o, "*")
        return NotImplemented if t is None else self._make(f"({self._text})*({t})")

    def __rmul__(self, o):
        t = self._other(o, "*")
        return NotImplemented if t is None else self._make(f"({t})*({self._text})")

    def __truediv__(self, o):
        t = self._other(o, "/")
        return NotImplemented if t is None else self._make(f"({self._text})/({t})")

    def __rtruediv__(self, o):
        t = self._other(o, "/")
        return NotImplemented if t is None else self._make(f"({t})/({self._text})")

    def __neg__(self):
        return self._make(f"-({self._text})")

    def __pos__(self):
        return self

    def __pow__(self, k):
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"**: the exponent must be an int, got {type(k).__name__}")
        return self._make(f"({self._text})^({k})")

    # ------------------------------------------------------------------------- comparison
    def __eq__(self, other):
        if isinstance(other, Expression):
            return self._parameter == other._parameter and self._text == other._text
        if isinstance(other, (numbers.Rational, Decimal)) and not isinstance(other, bool):
            return self.is_constant() and Fraction(self._text) == _exact(other, "==")
        return NotImplemented

    def __hash__(self):
        return hash(Fraction(self._text)) if self.is_constant() else hash((self._parameter, self._text))

    def __bool__(self):
        return self._text != "0"

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"exactdp.Expression('{self._text}', {self._parameter.name} in {self._parameter})"


def symbol(name="r", interval=(0, 1), open=True):  # noqa: A002 - the spec file's key
    """The parameter ``name`` on ``interval`` (exact ends lower < upper), as an ``Expression``.

    ``open``: ``True`` (default: lower < r < upper), ``False`` (closed) or a pair (open at the lower
    end, open at the upper end). A noise parameter of DLap needs a range inside (0, 1) with open
    ends at 0 and 1 (the default); randomized response with p = r might take ``interval=(Fraction(1, 2), 1)``.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise Error(f'exactdp.symbol: field "name": value "{name}": the parameter\'s name is an identifier such as "r"')
    try:
        lower, upper = interval
    except (TypeError, ValueError):
        raise Error(f'exactdp.symbol: field "interval": value "{interval!r}": expected a pair (lower, upper)') from None
    lower, upper = _exact(lower, "interval"), _exact(upper, "interval")
    if not lower < upper:
        raise Error(f'exactdp.symbol: field "interval": value "({lower}, {upper})": the lower end must be below the upper end')
    if isinstance(open, bool):
        lo_open = hi_open = open
    else:
        try:
            lo_open, hi_open = open
        except (TypeError, ValueError):
            raise Error(f'exactdp.symbol: field "open": value "{open!r}": expected a bool or a pair of bools') from None
        if not isinstance(lo_open, bool) or not isinstance(hi_open, bool):
            raise Error(f'exactdp.symbol: field "open": value "{open!r}": expected a bool or a pair of bools')
    return Expression(name, Parameter(name, lower, upper, lo_open, hi_open))


def is_parametric(x):
    """Whether ``x`` is an expression in a parameter (a constant expression counts)."""
    return isinstance(x, Expression)


# ------------------------------------------------------------------------- spec dicts

def _parameters_of(value, found, path):
    if isinstance(value, Expression):
        found.setdefault(value.parameter, path)
    elif isinstance(value, dict):
        for k, v in value.items():
            _parameters_of(v, found, f"{path}/{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _parameters_of(v, found, f"{path}/{i}")


def parameter_of(*values):
    """The one parameter the expressions in ``values`` (nested in dicts and lists) are written in,
    or ``None``; two different parameters are an ``exactdp.Error``."""
    found = {}
    for v in values:
        _parameters_of(v, found, "")
    if len(found) > 1:
        (a, pa), (b, pb) = list(found.items())[:2]
        raise Error(f"exactdp.symbol: two parameters, {a.name} in {a} (at {pa or '/'}) and {b.name} in {b} (at {pb or '/'}): "
                    "one parameter (with one range) per mechanism and claim (this version)")
    return next(iter(found), None)


def _json_value(value):
    if isinstance(value, Expression):
        return value.text
    if isinstance(value, Fraction):
        return _text(value)
    if isinstance(value, Decimal):
        return _text(Fraction(value))
    if isinstance(value, float):
        raise TypeError(f"a float ({value!r}) in a spec: use an int, a Fraction or an exact string")
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return value


def spec_text(spec):
    """A spec dict as the JSON text of a spec file: expressions written in the grammar, Fractions as
    exact strings, and, when an expression occurs and the dict declares no ``"parameters"``, the
    declaration of its parameter added."""
    import json

    if not isinstance(spec, dict):
        raise TypeError(f"spec: expected a dict, got {type(spec).__name__}")
    p = parameter_of(spec)
    out = _json_value(spec)
    if p is not None and "parameters" not in out:
        out = {**out, "parameters": p.declaration()}
    return json.dumps(out, ensure_ascii=False)


def library_spec(name, *, horizon=None, **params):
    """The spec dict of the library mechanism ``name`` with ``params`` (``spec/mechanisms/README.md``);
    a noise parameter may be a symbol or an expression in it, for the library mechanisms that take
    one. Pass it to ``exactdp.check`` / ``exactdp.profile`` as it is.

    >>> import exactdp
    >>> r = exactdp.symbol("r")
    >>> spec = exactdp.library_spec("svt-counter", horizon=2, r_threshold=r, r_query=r, thresholds=[0, 1])
    >>> exactdp.check(spec, lam=1/r**3, for_all=r)["verdict"]
    'holds'

    The library's argument ``lambda`` (RR_λ's λ = e^ε: ``rr``, ``sticky-rr``, ``interactive-rr``,
    ``renyi-gadget``, ``ldp-threshold-protocol``) is a Python keyword, so it is written ``lam``, as in
    ``exactdp.check(..., lam=…)``: ``library_spec("ldp-threshold-protocol", users=2, lam=1/r, k=2)``.
    (``**{"lambda": …}`` is accepted too; giving both is an error.)
    """
    if not isinstance(name, str):
        raise TypeError("library_spec: name must be a string such as 'svt-counter'")
    if "lam" in params:  # lambda is a Python keyword: lam is its spelling here, as in exactdp.check
        if "lambda" in params:
            raise Error(f'exactdp.library_spec("{name}"): argument lam: give lam or lambda, not both (they are one argument)')
        params = {("lambda" if k == "lam" else k): v for k, v in params.items()}
    symbolic = [k for k, v in params.items() if parameter_of(v) is not None]
    if symbolic:
        entries = dict(_core._parametric_library_entries())
        known = "; ".join(f"{n} ({', '.join(ps)})" for n, ps in entries.items())
        if name not in entries:
            raise Error(f'exactdp.library_spec("{name}"): argument {symbolic[0]}: this library mechanism does not take a parameter '
                        f"(this version; those that do, with the arguments that may be one: {known})")
        for k in symbolic:
            if k not in entries[name]:
                raise Error(f'exactdp.library_spec("{name}"): argument {k}: a parameter is not supported here; the arguments of '
                            f"{name} that may be one: {', '.join(entries[name])}")
    spec = {"format": "exactdp/1", "name": name, "mechanism": {"type": "library", "name": name, "params": params}}
    if horizon is not None:
        spec["horizon"] = horizon
    return spec
