"""Writing a new mechanism as a step function (``exactdp.Mechanism.from_step``).

A mechanism is a finite state machine (spec/model.md): in a state, a message is answered at
random and the state moves on. Write its kernel as a Python function::

    def step(state, message):              # -> {(answer, next_state): probability}
        ...

and exactdp explores the states reachable from the initial ones over the message alphabet,
breadth-first, and turns the result into a spec file (``m.to_spec()``, format ``exactdp/1`` of
``spec/mechanisms/README.md``) that the C++ engine reads. ``exactdp.check(m, ...)`` and
``exactdp.profile(m, ...)`` pass that spec text to the same parser and engine as ``exactdp check
FILE``, so the verdicts are identical.

>>> from fractions import Fraction
>>> import exactdp
>>> def rr(bit, message):                        # randomised response with lambda = 3
...     return {(bit, bit): Fraction(3, 4), (1 - bit, bit): Fraction(1, 4)}
>>> m = exactdp.Mechanism.from_step(rr, initial={"x": 0, "x'": 1},
...         neighbours={"type": "static", "worlds": ["x", "x'"]}, messages=["q"], horizon=2, name="RR3")
>>> exactdp.check(m, lam=9)["verdict"]
'holds'

**Values.** States, messages and answers are any hashable Python values of these kinds: ``str``,
``int``, ``bool``, ``None``, ``Fraction`` (and ``Decimal``), enums, tuples and named tuples,
frozensets and frozen dataclasses of them, and values of types that name themselves
(``__exactdp_name__``). Each gets a canonical name (``canonical_name``), the
same on every run and under every hash seed. Two different values must not get the same name
(``0`` and ``"0"`` would): that is an ``exactdp.Error``. Values equal in Python (``1``, ``True``
and ``Fraction(1)``) are one value. Floats are refused: ``0.1`` is a binary approximation.

**Probabilities** are ``Fraction``, ``int`` or exact strings (``"1/3"``, ``"0.25"``, ``"1e-3"``);
a float, a negative number or a law that does not sum to exactly 1 is an ``exactdp.Error`` that
names the state, the message and the value. A probability may also be an expression in one
parameter (``exactdp.symbol``, exactdp/parametric.py): the law must then sum to 1 identically,
the spec declares the parameter, and ``exactdp.check(m, lam=..., for_all=r)`` decides a claim for
every value of it (non-negativity on the whole range is checked there, with a value where it fails).
"""
import dataclasses
import enum
import json
import numbers
import sys
import time
from collections.abc import Mapping, Set
from decimal import Decimal
from fractions import Fraction

from ._core import Error
from ._core import limits as _limits
from .parametric import Expression

__all__ = ["Mechanism", "canonical_name"]

#: The spec-file limits of ``src/exactdp/core/limits.hpp``, read through the binding: a mechanism
#: beyond them cannot be written as a spec file, so exploration refuses it.
SPEC_MAX_STATES = _limits.max_states
SPEC_MAX_MESSAGES = _limits.max_messages
SPEC_MAX_CELLS = _limits.max_table_cells
SPEC_MAX_ROWS = _limits.max_rows
SPEC_MAX_BYTES = _limits.max_input_bytes
SPEC_MAX_HORIZON = _limits.max_horizon
SPEC_MAX_RATIONAL_BITS = _limits.max_rational_bits

_HALT = "halt"
_INVALID = "invalid"


def _error(where, field, value, why):
    """An exactdp.Error formatted as the C++ library formats it (core/error.hpp)."""
    text = ""
    if where:
        text += f"{where}: "
    if field:
        text += f'field "{field}": '
    if value not in (None, ""):
        text += f'value "{value}": '
    return Error(text + why)


def _short(value, limit=60):
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still reported
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------------------- names

def _canonical(value, top):
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, str):
        return value if top else repr(value)
    if isinstance(value, float):
        raise TypeError(f"{value!r} is a float (a binary approximation): use an int, a Fraction or a string")
    if isinstance(value, Decimal):
        value = Fraction(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        fields = getattr(type(value), "_fields", None)
        if fields is not None:  # a named tuple
            inner = ", ".join(f"{f}={_canonical(x, False)}" for f, x in zip(fields, value))
            return f"{type(value).__qualname__}({inner})"
        inner = ", ".join(_canonical(x, False) for x in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, frozenset):
        return "{" + ", ".join(sorted(_canonical(x, False) for x in value)) + "}"
    hook = getattr(type(value), "__exactdp_name__", None)
    if hook is not None:  # a type that names its own values (e.g. a noise posterior from a C++ binding)
        name = hook(value)
        if not isinstance(name, str):
            raise TypeError(f"{type(value).__qualname__}.__exactdp_name__ returned {type(name).__name__}, not str")
        return name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__hash__ is None:
            raise TypeError(f"{type(value).__qualname__} is not hashable: declare it @dataclass(frozen=True)")
        inner = ", ".join(f"{f.name}={_canonical(getattr(value, f.name), False)}"
                          for f in dataclasses.fields(value) if f.compare)
        return f"{type(value).__qualname__}({inner})"
    raise TypeError(f"values of type {type(value).__qualname__} have no canonical name: use str, int, bool, None, "
                    "Fraction, an enum, or tuples, frozensets and frozen dataclasses of them")


def canonical_name(value):
    """The canonical printed form of a state, message or answer.

    Deterministic across runs and hash seeds: strings print as themselves at the top level and
    quoted (``repr``) inside containers; ints, bools, ``None`` and Fractions (``"1/3"``) as usual;
    enums as ``Class.MEMBER``; tuples as ``(a, b)``; named tuples and frozen dataclasses as
    ``Class(field=value, ...)`` (the fields that take part in equality); frozensets as ``{a, b}``
    with their members sorted by canonical name; a value whose type defines a method
    ``__exactdp_name__(self) -> str`` by what it returns (the type promises that the name is
    canonical: equal values, equal names; collisions are still detected). Raises ``TypeError`` for
    other types (floats included).

    >>> canonical_name(("above", 2, frozenset({"b", "a"})))
    "('above', 2, {'a', 'b'})"
    """
    return _canonical(value, True)


class _Names:
    """Canonical names of one kind of value (states, messages or answers), collision-checked."""

    def __init__(self, kind, where):
        self.kind, self.where = kind, where
        self.by_value = {}
        self.by_name = {}

    def __call__(self, value, context=""):
        try:
            name = self.by_value.get(value)
        except TypeError:
            raise _error(self.where, context or self.kind, _short(value),
                         f"the {self.kind} is not hashable ({type(value).__name__}); use a tuple, a frozenset or a "
                         "frozen dataclass") from None
        if name is not None:
            return name
        try:
            name = _canonical(value, True)
        except TypeError as e:
            raise _error(self.where, context or self.kind, _short(value), f"the {self.kind} has no canonical name: {e}") from None
        other = self.by_name.get(name)
        if other is not None and not _same(other, value):
            raise _error(self.where, context or self.kind, name,
                         f"two different {self.kind}s have the same name: {_short(other)} ({type(other).__name__}) and "
                         f"{_short(value)} ({type(value).__name__}); make them distinguishable")
        self.by_value[value] = name
        self.by_name[name] = value
        return name


def _same(a, b):
    try:
        return a == b and hash(a) == hash(b)
    except Exception:  # noqa: BLE001
        return False


# ------------------------------------------------------------------------------- probabilities

def _probability(p, where, field):
    """An exact probability from a Fraction, an int, a Decimal or an exact string."""
    if isinstance(p, bool) or isinstance(p, float):
        kind = "a bool" if isinstance(p, bool) else "a float (a binary approximation)"
        raise _error(where, field, _short(p), f"the probability is {kind}; write it as a Fraction, an int or an exact "
                                              "string such as '1/3' or '0.25'")
    if isinstance(p, Expression):
        raise _error(where, field, str(p), f"an expression in {p.parameter.name} is allowed in the rows of a step's law only; "
                                           "initial laws are numbers (docs/parametric.md)")
    if isinstance(p, Fraction):
        q = p
    elif isinstance(p, numbers.Rational):
        q = Fraction(p.numerator, p.denominator)
    elif isinstance(p, Decimal):
        if not p.is_finite():
            raise _error(where, field, str(p), "the probability is not a finite number")
        q = Fraction(p)
    elif isinstance(p, str):
        try:
            q = Fraction(p.strip())
        except (ValueError, ZeroDivisionError):
            raise _error(where, field, p, "not an exact number (write '1/3', '0.25' or '1e-3')") from None
    else:
        raise _error(where, field, _short(p), f"the probability has type {type(p).__name__}; use a Fraction, an int or "
                                              "an exact string")
    if q < 0:
        raise _error(where, field, str(q), "probabilities must be non-negative")
    return q


# ----------------------------------------------------------------------------------- mechanism

class Mechanism:
    """A mechanism written as a step function and explored by exactdp (see the module comment).

    Build one with ``Mechanism.from_step``. Attributes: ``name``, ``horizon``, ``messages``,
    ``states`` (the explored states, initial ones first, breadth-first), ``closed`` (every
    explored state was expanded, so the spec is exact at every horizon). ``to_spec()`` gives the
    spec dict, ``spec_text()`` its JSON, ``write_spec(path)`` a file; ``transitions(state,
    message)`` the explored law ``{(answer, next_state): Fraction}``.
    """

    def __init__(self):
        raise TypeError("build a Mechanism with Mechanism.from_step(step, initial=..., neighbours=..., horizon=...)")

    # ------------------------------------------------------------------------------ building
    @classmethod
    def from_step(cls, step, *, initial, neighbours, messages=None, horizon, name=None, missing_rules=None,
                  max_states=20_000, explore="closed", progress=None):
        """Explores ``step`` and returns the Mechanism.

        ``step(state, message)`` returns ``{(answer, next_state): probability}``; a state that has
        halted answers ``{("halt", state): 1}`` (it is written ``{}`` in the spec). With
        ``missing_rules="invalid"``, ``step`` may return ``None`` for a message the state does not
        accept: the answer is then the reserved ``"invalid"`` and the state stays (the spec writes
        that row out); otherwise ``None`` is an error.

        ``initial``: as a spec's ``"initial"`` — static neighbours map each world to a state, or to
        an initial law ``{state: probability}``; pairs and automaton neighbours take one state (or
        one law) shared by both worlds. ``neighbours``: the spec's ``"neighbours"`` object, with
        messages (and automaton states) as Python values: ``{"type": "static", "worlds": [x, x']}``,
        ``{"type": "pairs", "allowed": [[m0, m1], ...], "max_differing": k}`` or ``{"type":
        "automaton", "initial": s0, "states": {s: [{"pair": [m0, m1], "next": s1}, ...]}}``.
        ``messages``: the alphabet (in this order; a set is sorted by canonical name), optional
        when the pairs name every message. ``horizon``: the rounds the adversary plays by default.

        ``max_states`` (at most 100 000, the spec-file limit): exploration beyond it is refused
        with the count. ``explore="closed"`` (default) explores every reachable state, so the spec
        is exact at every horizon; ``explore="horizon"`` expands only the states reachable within
        the horizon (for mechanisms with unboundedly many states): the spec is then exact up to
        the horizon only (it says so in ``"comment"``), and ``check``/``profile`` at a larger
        horizon explore again. ``progress``: ``None`` reports on stderr when exploration takes
        more than two seconds, ``True`` always, ``False`` never.
        """
        if not callable(step):
            raise TypeError("from_step: step must be a function step(state, message) -> {(answer, next_state): p}")
        if name is None:
            name = getattr(step, "__name__", "mechanism")
        if not isinstance(name, str) or not name:
            raise TypeError("from_step: name must be a non-empty string")
        if isinstance(horizon, bool) or not isinstance(horizon, int) or not 1 <= horizon <= SPEC_MAX_HORIZON:
            raise _error(name, "horizon", _short(horizon), f"the horizon is an integer between 1 and {SPEC_MAX_HORIZON}")
        if missing_rules not in (None, "error", "invalid"):
            raise _error(name, "missing_rules", _short(missing_rules), "expected None (the default: an error), 'error' or 'invalid'")
        if explore not in ("closed", "horizon"):
            raise _error(name, "explore", _short(explore), "expected 'closed' or 'horizon'")
        if isinstance(max_states, bool) or not isinstance(max_states, int) or not 1 <= max_states <= SPEC_MAX_STATES:
            raise _error(name, "max_states", _short(max_states),
                         f"between 1 and {SPEC_MAX_STATES} (the most states a spec file holds, core/limits.hpp)")
        m = object.__new__(cls)
        m._step = step
        m._options = dict(initial=initial, neighbours=neighbours, messages=messages, name=name,
                          missing_rules=missing_rules, max_states=max_states, explore=explore, progress=progress)
        m.name = name
        m.horizon = horizon
        m._build(horizon)
        return m

    def _build(self, horizon):
        o = self._options
        name = self.name
        self._state_names = _Names("state", name)
        self._message_names = _Names("message", name)
        self._answer_names = _Names("answer", name)
        self._neighbours, relation_messages = _read_neighbours(o["neighbours"], name, self._message_names)
        self.messages = _read_messages(o["messages"], relation_messages, name, self._message_names)
        self._initial = _read_initial(o["initial"], self._neighbours, name, self._state_names)
        self.parameter = None  # the parameter of expression probabilities (exactdp.symbol), if any
        self._explore(horizon)
        self._spec = None

    def _explore(self, horizon):
        o = self._options
        name, step, max_states = self.name, self._step, o["max_states"]
        up_to_horizon = o["explore"] == "horizon"
        allow_invalid = o["missing_rules"] == "invalid"
        states, depth, index = [], [], {}
        sn, mn = self._state_names, self._message_names

        def discover(value, d):
            i = index.get(value)
            if i is not None:
                return i
            if len(states) >= max_states:
                raise _error(name, "max_states", f"{len(states) + 1} states",
                             f"more than max_states={max_states} reachable states (breadth-first, at depth {d}); "
                             f"raise max_states= (up to {SPEC_MAX_STATES}), or pass explore='horizon' to expand only the "
                             f"states reachable within the horizon ({horizon} rounds)")
            index[value] = len(states)
            states.append(value)
            depth.append(d)
            return len(states) - 1

        for world_law in self._initial:
            for value in world_law:
                discover(value, 0)
        rules = []  # per expanded state: per message: list of (answer value, next index, Fraction) or None
        expanded = []
        started = time.monotonic()
        last_report = None
        i = 0
        while i < len(states):
            value = states[i]
            sname = sn(value)
            if up_to_horizon and depth[i] >= horizon:
                expanded.append(False)
                rules.append(None)
                i += 1
                continue
            per_message = []
            for msg in self.messages:
                try:
                    law = step(value, msg)
                except Error:
                    raise
                except Exception as e:
                    raise _error(name, _where(sname, mn(msg)), "", f"the step function raised {type(e).__name__}: {e}") from e
                if law is None:
                    if not allow_invalid:
                        raise _error(name, _where(sname, mn(msg)), "None",
                                     "the step function returned no law; return {(answer, next_state): p}, or pass "
                                     "missing_rules='invalid' to answer \"invalid\" (the state stays) where it returns None")
                    per_message.append(None)
                    continue
                per_message.append(self._read_law(law, sname, msg, depth[i] + 1, discover))
            rules.append(per_message)
            expanded.append(True)
            i += 1
            if i % 500 == 0 and _progress_due(o["progress"], started, last_report):
                last_report = time.monotonic()
                print(f"exactdp: exploring {name!r}: {len(states)} states, {len(states) - i} to expand, depth {depth[i - 1]}, "
                      f"{last_report - started:.0f} s", file=sys.stderr, flush=True)
        self.states = states
        self._index = index
        self._rules = rules
        self._expanded = expanded
        self.closed = all(expanded)
        self._explored_horizon = horizon
        cells = len(states) * len(self.messages)
        rows = sum(len(r) for per in rules if per for r in per if r)
        if cells > SPEC_MAX_CELLS:
            raise _error(name, "states", f"{cells} state-message cells",
                         f"the spec's transition table would exceed the limit of {SPEC_MAX_CELLS} cells (core/limits.hpp)")
        if rows > SPEC_MAX_ROWS:
            raise _error(name, "states", f"{rows} rows", f"more table rows than the spec limit of {SPEC_MAX_ROWS} (core/limits.hpp)")
        if last_report is not None:
            print(f"exactdp: explored {name!r}: {len(states)} states in {time.monotonic() - started:.1f} s",
                  file=sys.stderr, flush=True)

    def _read_law(self, law, sname, msg, next_depth, discover):
        """One step's law, validated, in canonical order: [(answer, next index, Fraction)].

        The hot loop of an exploration: error texts are built only when there is an error."""
        name = self.name
        where = lambda: _where(sname, self._message_names(msg))  # noqa: E731
        if type(law) is not dict and not isinstance(law, Mapping):
            raise _error(name, where(), _short(law), "the step function must return a dict {(answer, next_state): probability}")
        answer_name, state_name = self._answer_names.by_value.get, self._state_names.by_value.get
        entries = []
        numerators, denominator, same_denominator = 0, None, True
        symbolic = None
        for key, p in law.items():
            if type(key) is not tuple or len(key) != 2:
                raise _error(name, where(), _short(key), "each key of the law is a pair (answer, next_state)")
            if isinstance(p, Expression):
                if self.parameter is None:
                    self.parameter = p.parameter
                elif p.parameter != self.parameter:
                    raise _error(name, f"{where()}[{_short(key)}]", str(p),
                                 f"an expression in {p.parameter.name} in {p.parameter}, but the mechanism's other probabilities are "
                                 f"in {self.parameter.name} in {self.parameter}: one parameter per mechanism (this version)")
                if p.is_constant():
                    p = Fraction(p.text)
                else:
                    symbolic = p if symbolic is None else symbolic + p
                    answer, nxt = key
                    a = self._answer_names(answer, where() + " answer")
                    n = self._state_names(nxt, where() + " next state")
                    entries.append((a, n, answer, nxt, p))
                    continue
            q = p if type(p) is Fraction else _probability(p, name, f"{where()}[{_short(key)}]")
            num, den = q.numerator, q.denominator  # a Fraction keeps its sign in the numerator
            if num < 0:
                raise _error(name, f"{where()}[{_short(key)}]", str(q), "probabilities must be non-negative")
            if num == 0:
                continue
            if den.bit_length() > SPEC_MAX_RATIONAL_BITS or num.bit_length() > SPEC_MAX_RATIONAL_BITS:
                raise _error(name, f"{where()}[{_short(key)}]", _short(str(q)),
                             f"numerator or denominator longer than {SPEC_MAX_RATIONAL_BITS} bits (the spec-file limit, "
                             "core/limits.hpp)")
            if denominator is None:
                denominator = den
            elif den != denominator:
                same_denominator = False
            numerators += num
            answer, nxt = key
            try:
                a = answer_name(answer) or self._answer_names(answer, where() + " answer")
                n = state_name(nxt) or self._state_names(nxt, where() + " next state")
            except TypeError:  # an unhashable value: the slow path names it
                a = self._answer_names(answer, where() + " answer")
                n = self._state_names(nxt, where() + " next state")
            entries.append((a, n, answer, nxt, q))
        if symbolic is not None:
            total = sum((q for _, _, _, _, q in entries if not isinstance(q, Expression)), Fraction(0)) + symbolic
            if total != 1:
                raise _error(name, where(), str(total),
                             f"the probabilities of a step must sum to 1 for every {total.parameter.name} (identically)")
        elif same_denominator and denominator is not None:
            total = Fraction(numerators, denominator)
        else:
            total = sum((q for _, _, _, _, q in entries), Fraction(0))
        if symbolic is None and total != 1:
            raise _error(name, where(), str(total), "the probabilities of a step must sum to exactly 1")
        # canonical order, so the exploration does not depend on the dict's order (or hash seeds)
        entries.sort(key=lambda e: (e[0], e[1]))
        return [(answer, discover(nxt, next_depth), q) for _, _, answer, nxt, q in entries]

    # ------------------------------------------------------------------------------ queries
    def transitions(self, state, message):
        """The explored law of ``message`` in ``state``: ``{(answer, next_state): Fraction}``;
        ``None`` for a missing rule (``missing_rules='invalid'``)."""
        i = self._index.get(state)
        if i is None:
            raise KeyError(f"{state!r} is not a reachable state of {self.name!r}")
        if not self._expanded[i]:
            raise KeyError(f"{state!r} was first reached at the horizon and not expanded (explore='horizon')")
        try:
            q = self.messages.index(message)
        except ValueError:
            raise KeyError(f"{message!r} is not a message of {self.name!r}") from None
        rows = self._rules[i][q]
        if rows is None:
            return None
        out = {}
        for answer, j, p in rows:
            key = (answer, self.states[j])
            out[key] = out.get(key, Fraction(0)) + p
        return out

    def state_name(self, state):
        """The canonical name of a state (as in the spec)."""
        return self._state_names(state)

    def _halted(self, i):
        per = self._rules[i]
        return all(r is not None and len(r) == 1 and r[0][1] == i and r[0][0] == _HALT and r[0][2] == 1 for r in per)

    def to_spec(self):
        """The mechanism as a spec dict (format ``exactdp/1``, spec/mechanisms/README.md).

        Every explored state is listed (halted ones as ``{}``), with a rule for every message
        (``"*"`` when all messages share it); probabilities are exact strings, so the file loads
        under the strict rules (every ``next`` state listed, no missing rule, the alphabet named)
        and ``exactdp lint`` finds no error in it. ``exactdp check`` on this file gives the same
        verdicts as ``exactdp.check(m, ...)``. An exploration with ``explore="horizon"`` that
        did not close writes ``"max_horizon"`` (the explored horizon): ``exactdp check
        --horizon H`` with a larger H is then refused instead of silently wrong.
        """
        if self._spec is not None:
            return self._spec
        sn, an, mn = self._state_names, self._answer_names, self._message_names
        names = [sn(s) for s in self.states]
        message_names = [mn(q) for q in self.messages]
        states = {}
        for i, per in enumerate(self._rules):
            if per is None or self._halted(i):
                states[names[i]] = {}
                continue
            written = [None if r is None else [{"p": str(p), "answer": an(a), "next": names[j]} for a, j, p in r] for r in per]
            if len(written) > 1 and written[0] is not None and all(w == written[0] for w in written):
                states[names[i]] = {"*": written[0]}
                continue
            # a message the state does not accept (missing_rules='invalid') is written as its
            # meaning, the reserved answer "invalid" with the state unchanged, which every
            # version of the spec reader takes as it is
            states[names[i]] = {q: w if w is not None else [{"p": "1", "answer": _INVALID, "next": names[i]}]
                                for q, w in zip(message_names, written)}
        mechanism = {"type": "table", "initial": self._initial_spec(names), "messages": message_names,
                     "states": states}
        spec = {"format": "exactdp/1", "name": self.name}
        if not self.closed:
            spec["comment"] = (f"explored up to horizon {self._explored_horizon} only: states first reached at that round "
                               f"are written halted, so this file is exact for horizons up to {self._explored_horizon} "
                               "and not beyond")
        spec["horizon"] = self.horizon
        if not self.closed:
            # the loader and the engine refuse a larger horizon (spec/mechanisms/README.md)
            spec["max_horizon"] = self._explored_horizon
        if self.parameter is not None:
            spec["parameters"] = self.parameter.declaration()
        spec["neighbours"] = self._neighbours_spec()
        spec["mechanism"] = mechanism
        self._spec = spec
        return spec

    def spec_text(self, indent=None):
        """``to_spec()`` as JSON text (compact unless ``indent`` is given)."""
        text = json.dumps(self.to_spec(), indent=indent, ensure_ascii=False,
                          separators=None if indent is not None else (",", ":"))
        if len(text.encode()) > SPEC_MAX_BYTES:
            raise _error(self.name, "spec", f"{len(text.encode())} bytes",
                         f"the spec text is larger than the limit of {SPEC_MAX_BYTES} bytes (core/limits.hpp)")
        return text

    def write_spec(self, path, indent=1):
        """Writes ``to_spec()`` to ``path`` (for ``exactdp check PATH``)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.spec_text(indent=indent))
            f.write("\n")

    def _initial_spec(self, names):
        def law(values):
            if len(values) == 1:
                return names[self._index[next(iter(values))]]
            return {names[self._index[v]]: str(p) for v, p in values.items()}
        if self._neighbours["type"] == "static":
            return {w: law(values) for w, values in zip(self._neighbours["worlds"], self._initial)}
        return law(self._initial[0])

    def _neighbours_spec(self):
        return self._neighbours

    def _for_horizon(self, horizon):
        """The spec text for an analysis at ``horizon``: explored again when a truncated
        exploration stopped short of it."""
        if horizon is not None and not self.closed and horizon > self._explored_horizon:
            wider = object.__new__(type(self))
            wider.__dict__.update(self.__dict__)
            wider.horizon = horizon
            wider._build(horizon)
            return wider.spec_text()
        return self.spec_text()

    def __repr__(self):
        origin = getattr(self, "_origin", None)
        if origin:  # a generated mechanism (exactdp.testing.strategies) shows how to rebuild it
            return f"<exactdp.Mechanism {self.name!r}: {origin}>"
        closed = "" if self.closed else f", explored up to horizon {self._explored_horizon}"
        return (f"<exactdp.Mechanism {self.name!r}: {len(self.states)} states, {len(self.messages)} messages, "
                f"horizon {self.horizon}, {self._neighbours['type']} neighbours{closed}>")


def _where(state_name, message_name):
    return f"step({state_name}, {message_name})"


def _progress_due(progress, started, last_report):
    if progress is False:
        return False
    now = time.monotonic()
    if progress is None and now - started < 2:
        return False
    return last_report is None or now - last_report >= 2


# ------------------------------------------------------------------- neighbours, alphabet, initial

def _read_neighbours(n, where, message_names):
    """The relation with names, and the messages it names (as values, first-seen order)."""
    if not isinstance(n, Mapping):
        raise _error(where, "neighbours", _short(n), 'expected a dict such as {"type": "static", "worlds": ["x", "x\'"]}')
    kind = n.get("type")
    values = []

    def message(v, field):
        name = message_names(v, field)
        if name == "*":
            raise _error(where, field, "*", '"*" is the wildcard rule key of spec files, not a message')
        if not any(_same(v, u) for u in values):
            values.append(v)
        return name

    def pair(p, field):
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise _error(where, field, _short(p), "a pair lists exactly two messages [m0, m1]")
        return [message(p[0], field + "/0"), message(p[1], field + "/1")]

    def only(keys):
        for k in n:
            if k not in keys:
                raise _error(where, f"neighbours/{k}", _short(k), f"unknown key for {kind} neighbours (expected {', '.join(keys)})")

    if kind == "static":
        only(("type", "worlds"))
        worlds = n.get("worlds")
        if not isinstance(worlds, (list, tuple)) or len(worlds) != 2 or not all(isinstance(w, str) for w in worlds):
            raise _error(where, "neighbours/worlds", _short(worlds), "static neighbours name exactly two worlds (strings)")
        if worlds[0] == worlds[1]:
            raise _error(where, "neighbours/worlds", worlds[1], "the two worlds must differ")
        return {"type": "static", "worlds": list(worlds)}, values
    if kind == "pairs":
        only(("type", "allowed", "max_differing"))
        allowed = n.get("allowed")
        if not isinstance(allowed, (list, tuple)) or not allowed:
            raise _error(where, "neighbours/allowed", _short(allowed), "at least one pair must be allowed")
        out, seen = [], set()
        for i, p in enumerate(allowed):
            named = pair(p, f"neighbours/allowed/{i}")
            if tuple(named) in seen:
                raise _error(where, f"neighbours/allowed/{i}", _short(p), "pair listed twice")
            seen.add(tuple(named))
            out.append(named)
        spec = {"type": "pairs", "allowed": out}
        if "max_differing" in n and n["max_differing"] is not None:
            k = n["max_differing"]
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 1_000_000:
                raise _error(where, "neighbours/max_differing", _short(k), "a non-negative integer")
            spec["max_differing"] = k
        return spec, values
    if kind == "automaton":
        only(("type", "initial", "states"))
        states = n.get("states")
        if not isinstance(states, Mapping) or not states:
            raise _error(where, "neighbours/states", _short(states), "an automaton needs at least one state")
        automaton_names = _Names("automaton state", where)
        names = {automaton_names(s, "neighbours/states"): s for s in states}
        initial = automaton_names(n.get("initial"), "neighbours/initial")
        if initial not in names:
            raise _error(where, "neighbours/initial", initial, "unknown automaton state (not a key of neighbours['states'])")
        out = {}
        for s, edges in states.items():
            sname = automaton_names(s)
            field = f"neighbours/states/{sname}"
            if not isinstance(edges, (list, tuple)):
                raise _error(where, field, _short(edges), "expected a list of edges {'pair': [m0, m1], 'next': state}")
            listed, seen = [], set()
            for i, e in enumerate(edges):
                if not isinstance(e, Mapping) or set(e) != {"pair", "next"}:
                    raise _error(where, f"{field}/{i}", _short(e), "an edge is {'pair': [m0, m1], 'next': state}")
                named = pair(e["pair"], f"{field}/{i}/pair")
                nxt = automaton_names(e["next"], f"{field}/{i}/next")
                if nxt not in names:
                    raise _error(where, f"{field}/{i}/next", nxt, "unknown automaton state (not a key of neighbours['states'])")
                if tuple(named) in seen:
                    raise _error(where, f"{field}/{i}/pair", _short(e["pair"]), "pair listed twice in this state")
                seen.add(tuple(named))
                listed.append({"pair": named, "next": nxt})
            out[sname] = listed
        return {"type": "automaton", "initial": initial, "states": out}, values
    raise _error(where, "neighbours/type", _short(kind), 'expected "static", "pairs" or "automaton"')


def _read_messages(messages, relation_messages, where, message_names):
    out = []
    if messages is not None:
        if isinstance(messages, (str, bytes)) or not hasattr(messages, "__iter__"):
            raise _error(where, "messages", _short(messages), "expected a list of messages")
        items = list(messages)
        if isinstance(messages, (Set, frozenset)):
            items.sort(key=lambda v: message_names(v, "messages"))
        for v in items:
            name = message_names(v, "messages")
            if name == "*":
                raise _error(where, "messages", "*", '"*" is the wildcard rule key of spec files, not a message')
            if any(_same(v, u) for u in out):
                raise _error(where, "messages", name, "message listed twice")
            out.append(v)
    for v in relation_messages:
        if not any(_same(v, u) for u in out):
            out.append(v)
    if not out:
        raise _error(where, "messages", "", "the message alphabet is empty: give messages=[...] (static neighbours name no message)")
    if len(out) > SPEC_MAX_MESSAGES:
        raise _error(where, "messages", f"{len(out)} messages", f"more messages than the spec limit of {SPEC_MAX_MESSAGES}")
    return out


def _read_law(value, where, field, state_names):
    """A state or a law {state: p} -> {state: Fraction} (insertion order kept)."""
    if isinstance(value, Mapping):
        law, total = {}, Fraction(0)
        for s, p in value.items():
            state_names(s, field)
            q = _probability(p, where, f"{field}[{_short(s)}]")
            total += q
            if q > 0:
                law[s] = law.get(s, Fraction(0)) + q
        if total != 1:
            raise _error(where, field, str(total), "the initial law must sum to exactly 1")
        return law
    state_names(value, field)
    return {value: Fraction(1)}


def _read_initial(initial, neighbours, where, state_names):
    if neighbours["type"] == "static":
        worlds = neighbours["worlds"]
        if not isinstance(initial, Mapping) or set(initial) != set(worlds):
            raise _error(where, "initial", _short(initial),
                         f"static neighbours take one initial state (or law) per world: {{{worlds[0]!r}: ..., {worlds[1]!r}: ...}}")
        return [_read_law(initial[w], where, f"initial/{w}", state_names) for w in worlds]
    law = _read_law(initial, where, "initial", state_names)
    return [law, law]
