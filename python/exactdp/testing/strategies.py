"""Hypothesis strategies for property tests of privacy claims (needs ``hypothesis``: the
``testing`` extra).

Every number is exact and small, and every object shrinks toward a readable one: ``lambdas()``
toward 1, ``deltas()`` toward 0, ``mechanisms()`` toward one state, one message, one answer and
small integer weights.

>>> from hypothesis import given
>>> from exactdp.testing import strategies as xs
>>> @given(xs.mechanisms(), xs.lambdas(), xs.lambdas())
... def test_delta_is_non_increasing(m, a, b):          # a law of every mechanism
...     lo, hi = sorted((a, b))
...     assert exactdp.check(m, lam=hi)["delta"] <= exactdp.check(m, lam=lo)["delta"]

The same strategies test a user's own mechanism over its parameters, e.g.
``@given(xs.lambdas(max_excess=2))`` for the claimed λ or ``xs.laws(outcomes)`` for a noise table.
"""
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from ..mechanism import Mechanism

__all__ = ["RandomTable", "deltas", "lambdas", "laws", "mechanisms", "neighbour_relations", "privacy_parameters", "tables"]


def lambdas(max_excess=4, max_denominator=12):
    """λ = e^ε ≥ 1 as a Fraction 1 + n/d with 0 ≤ n/d ≤ ``max_excess`` and d ≤ ``max_denominator``."""
    return st.builds(lambda n, d: 1 + Fraction(n, d), st.integers(0, max_excess * max_denominator), st.integers(1, max_denominator))


def deltas(max_denominator=12):
    """δ ∈ [0, 1] as a Fraction n/d with d ≤ ``max_denominator``."""
    return st.integers(1, max_denominator).flatmap(lambda d: st.integers(0, d).map(lambda n: Fraction(n, d)))


def privacy_parameters(max_excess=4, max_denominator=12):
    """Pairs (λ, δ) of ``lambdas()`` and ``deltas()``."""
    return st.tuples(lambdas(max_excess, max_denominator), deltas(max_denominator))


def laws(outcomes, max_weight=3):
    """Exact laws ``{outcome: Fraction}`` over (a subset of) ``outcomes`` from integer weights
    0 … ``max_weight`` (at least one positive); outcomes of weight 0 are left out."""
    outcomes = list(outcomes)
    if not outcomes:
        raise ValueError("laws: no outcomes")

    def normalise(weights):
        total = sum(weights)
        return {o: Fraction(w, total) for o, w in zip(outcomes, weights) if w > 0}
    return st.lists(st.integers(0, max_weight), min_size=len(outcomes), max_size=len(outcomes)).filter(any).map(normalise)


@dataclass(frozen=True)
class RandomTable:
    """A random mechanism table: states ``0 … states−1``, messages ``"a", "b", …``, answers
    ``"0", "1", …``; ``law[(state, message)]`` is ``{(answer, next_state): Fraction}``."""
    states: int
    messages: tuple
    answers: tuple
    law: tuple  # ((state, message), {(answer, next): p}) pairs, so the dataclass stays hashable

    def step(self, state, message):
        """The step function of the table."""
        return dict(self._laws[(state, message)])

    @property
    def _laws(self):
        return dict(self.law)

    def __repr__(self):
        rows = "; ".join(f"{s},{q}: " + ", ".join(f"{a}->{n} {p}" for (a, n), p in law.items()) for (s, q), law in self.law)
        return f"RandomTable({rows})"


@st.composite
def tables(draw, max_states=3, max_messages=2, max_answers=2, max_weight=3):
    """A RandomTable with at most the given sizes."""
    n = draw(st.integers(1, max_states))
    messages = tuple("abcdefgh"[i] for i in range(draw(st.integers(1, max_messages))))
    answers = tuple(str(i) for i in range(draw(st.integers(1, max_answers))))
    outcomes = [(a, s) for a in answers for s in range(n)]
    law = tuple(((s, q), draw(laws(outcomes, max_weight))) for s in range(n) for q in messages)
    return RandomTable(n, messages, answers, law)


@st.composite
def neighbour_relations(draw, messages, kinds=("static", "pairs", "automaton")):
    """A small neighbouring relation over ``messages`` in the spec's ``"neighbours"`` form: static
    worlds ``x``, ``x'``; or 1–4 allowed pairs with ``max_differing`` None, 1 or 2; or an automaton
    with 1–2 states and up to 3 edges each."""
    kind = draw(st.sampled_from(kinds))
    pair = st.tuples(st.sampled_from(messages), st.sampled_from(messages)).map(list)
    if kind == "static":
        return {"type": "static", "worlds": ["x", "x'"]}
    if kind == "pairs":
        allowed = draw(st.lists(pair, min_size=1, max_size=4, unique_by=tuple))
        relation = {"type": "pairs", "allowed": allowed}
        k = draw(st.sampled_from([None, 1, 2]))
        if k is not None:
            relation["max_differing"] = k
        return relation
    names = ["s0", "s1"][: draw(st.integers(1, 2))]
    states = {}
    for s in names:
        pairs = draw(st.lists(pair, max_size=3, unique_by=tuple))
        states[s] = [{"pair": p, "next": draw(st.sampled_from(names))} for p in pairs]
    return {"type": "automaton", "initial": names[0], "states": states}


@st.composite
def mechanisms(draw, max_states=3, max_messages=2, max_answers=2, max_horizon=3, relations=("static", "pairs", "automaton")):
    """A small random ``exactdp.Mechanism``: a ``tables()`` table under a ``neighbour_relations()``
    relation (static worlds start in two random states; other relations share one random initial
    state), horizon 1 … ``max_horizon``. Its repr shows the table, the relation and the initial
    states, so a failing example can be written down."""
    t = draw(tables(max_states, max_messages, max_answers))
    relation = draw(neighbour_relations(list(t.messages), relations))
    horizon = draw(st.integers(1, max_horizon))
    state = st.integers(0, t.states - 1)
    initial = {"x": draw(state), "x'": draw(state)} if relation["type"] == "static" else draw(state)
    m = Mechanism.from_step(t.step, initial=initial, neighbours=relation, messages=list(t.messages), horizon=horizon,
                            name="random table")
    m._origin = f"{t!r}, initial={initial!r}, neighbours={relation!r}, horizon={horizon}"
    return m
