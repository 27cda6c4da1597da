"""exactdp.Mechanism.from_step: mechanisms written as step functions (issue 15, item 4).

The mechanisms here were written for these tests, from their textbook descriptions, not taken from
the project's library. Expected values come from an independent route stated at each test: the
output law enumerated directly in the test (one query of a static mechanism is a noninteractive
pair, THEOREMS.md A.3), products of such laws (independent answers), or the command line run on the
written spec file.
"""
import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from fractions import Fraction as F
from itertools import product

import pytest

import exactdp
from exactdp.testing import assert_dp, assert_not_dp

STATIC = {"type": "static", "worlds": ["x", "x'"]}


# ------------------------------------------------------------------ report noisy max, 3 candidates

def three_point_noise(r):
    """Z ∈ {−1, 0, 1} with Pr ∝ (r, 1, r): discrete Laplace clamped to [−1, 1] (RR-style noise)."""
    total = 1 + 2 * r
    return {-1: r / total, 0: 1 / total, 1: r / total}


def noisy_max_law(counts, r, release_value=False):
    """The exact law of the noisy argmax (ties to the lowest index), by enumerating the noise."""
    law = {}
    for draws in product(three_point_noise(r).items(), repeat=len(counts)):
        p = F(1)
        for _, q in draws:
            p *= q
        scores = [c + z for c, (z, _) in zip(counts, draws)]
        best = max(scores)
        winner = scores.index(best)
        answer = (f"c{winner}", best) if release_value else f"c{winner}"
        law[answer] = law.get(answer, 0) + p
    return law


def noisy_max(r=F(1, 2), release_value=False, horizon=1):
    def step(counts, message):  # fresh noise per query; the counts (the dataset) stay
        return {(a, counts): p for a, p in noisy_max_law(counts, r, release_value).items()}
    name = "noisy max, value released" if release_value else "noisy max"
    return exactdp.Mechanism.from_step(step, initial={"x": (1, 1, 1), "x'": (2, 1, 1)}, neighbours=STATIC,
                                       messages=["argmax"], horizon=horizon, name=name)


def hockey_stick(p, q, lam):
    """max(H_λ(P‖Q), H_λ(Q‖P)) of two finite laws, directly from the definition."""
    keys = set(p) | set(q)
    forward = sum(max(F(0), p.get(k, 0) - lam * q.get(k, 0)) for k in keys)
    backward = sum(max(F(0), q.get(k, 0) - lam * p.get(k, 0)) for k in keys)
    return max(forward, backward)


def test_noisy_max_matches_the_enumerated_law():
    m = noisy_max()
    p, q = noisy_max_law((1, 1, 1), F(1, 2)), noisy_max_law((2, 1, 1), F(1, 2))
    r = exactdp.profile(m, lambdas=(1, F(3, 2), 2, 4))
    for e in r["at"]:
        assert e["delta"] == hockey_stick(p, q, e["lambda"])
    ratio = max(max(p[a] / q[a], q[a] / p[a]) for a in p)
    assert r["pure"]["ratio"] == ratio
    assert_dp(m, lam=ratio)
    with pytest.raises(AssertionError):
        assert_dp(m, lam=ratio - F(1, 1000))


def test_noisy_max_twice_is_the_product_law():
    # two queries, fresh noise: the view is a pair of independent answers
    m = noisy_max(horizon=2)
    p, q = noisy_max_law((1, 1, 1), F(1, 2)), noisy_max_law((2, 1, 1), F(1, 2))
    p2 = {(a, b): p[a] * p[b] for a in p for b in p}
    q2 = {(a, b): q[a] * q[b] for a in q for b in q}
    for lam in (1, 2, 3):
        assert exactdp.check(m, lam=lam)["delta"] == hockey_stick(p2, q2, lam)


def test_buggy_noisy_max_releasing_the_value_is_caught():
    # the noisy maximum 3 = 2 + 1 is impossible in x (counts 1, 1, 1): δ(λ) ≥ its mass in x'
    m = noisy_max(release_value=True)
    p, q = noisy_max_law((1, 1, 1), F(1, 2), True), noisy_max_law((2, 1, 1), F(1, 2), True)
    assert exactdp.check(m, lam=100)["delta"] == hockey_stick(p, q, 100)
    with pytest.raises(AssertionError) as e:
        assert_dp(m, lam=100, delta=F(1, 100))
    text = str(e.value)
    assert "fails for \"noisy max, value released\" at λ = 100, δ = 1/100" in text
    assert "x and x' (static)" in text and "fails with 1 round" in text
    assert "[\"('c0', 3)\"]" in text   # the one view of the shrunk event
    assert f"P[x'](S)   = {q[('c0', 3)]}" in text and "P[x](S)    = 0" in text
    w = e.value.witness
    assert w["event"] == [["('c0', 3)"]] and w["probability_world1"] == q[("c0", 3)]


# ----------------------------------------------------------------------------- counters

def rr_increments(bit_state, bit):
    """A correct event-level counter: each stream bit through RR with λ = 3; no state."""
    return {(str(bit), 0): F(3, 4), (str(1 - bit), 0): F(1, 4)}


def sticky_noise_counter(state, bit):
    """A buggy counter: one noise value z ∈ {−1, 0, 1} drawn at the first step and added to every
    running count, so the difference of two answers is the bit itself."""
    count, z = state
    count += bit
    if z is None:
        return {(count + d, (count, d)): p for d, p in ((-1, F(1, 4)), (0, F(1, 2)), (1, F(1, 4)))}
    return {(count + z, (count, z)): 1}


EVENT_LEVEL = {"type": "pairs", "allowed": [[0, 0], [1, 1], [0, 1], [1, 0]], "max_differing": 1}


def test_correct_counter_holds_and_buggy_counter_fails_from_round_two():
    good = exactdp.Mechanism.from_step(rr_increments, initial=0, neighbours=EVENT_LEVEL, horizon=3, name="RR increments")
    assert assert_dp(good, lam=3)["delta"] == 0
    bad = exactdp.Mechanism.from_step(sticky_noise_counter, initial=(0, None), neighbours=EVENT_LEVEL, horizon=3,
                                      name="buggy counter", explore="horizon")
    assert not bad.closed and "exact for horizons up to 3" in bad.to_spec()["comment"]
    # one round: answer = bit + z, δ(3) = 1/4 (the answers −1 and 2 are catastrophic): the claim holds
    assert exactdp.check(bad, lam=3, horizon=1)["delta"] == F(1, 4)
    r = assert_not_dp(bad, lam=3, delta=F(1, 4))
    assert r["minimal_witness"]["rounds"] == 2
    assert "fails from round 2 (holds for 1)" in r["refutation_text"]
    assert "(pairs, at most 1 differing)" in r["refutation_text"]


def test_truncated_exploration_is_explored_again_for_a_longer_horizon():
    short = exactdp.Mechanism.from_step(sticky_noise_counter, initial=(0, None), neighbours=EVENT_LEVEL, horizon=2,
                                        explore="horizon")
    long = exactdp.Mechanism.from_step(sticky_noise_counter, initial=(0, None), neighbours=EVENT_LEVEL, horizon=4,
                                       explore="horizon")
    a, b = exactdp.check(short, lam=2, horizon=4), exactdp.check(long, lam=2)
    assert (a["delta_forward"], a["delta_backward"], a["horizon"]) == (b["delta_forward"], b["delta_backward"], 4)


# ------------------------------------------------------------------------ agreement with the CLI

def cli():
    exe = os.environ.get("EXACTDP_BIN")
    if not exe:
        pytest.skip("EXACTDP_BIN is not set (the exactdp command-line program)")
    return exe


@pytest.mark.parametrize("make, lam, delta", [
    (lambda: noisy_max(horizon=2), 4, 0),
    (lambda: noisy_max(release_value=True), 2, "1/10"),
    (lambda: exactdp.Mechanism.from_step(sticky_noise_counter, initial=(0, None), neighbours=EVENT_LEVEL, horizon=3,
                                         explore="horizon", name="buggy counter"), 3, "1/4"),
])
def test_check_agrees_exactly_with_the_command_line(tmp_path, make, lam, delta):
    exe = cli()
    m = make()
    path = tmp_path / "m.json"
    m.write_spec(path)
    ours = exactdp.check(m, lam=lam, delta=delta)
    out = subprocess.run([exe, "check", str(path), "--lambda", str(lam), "--delta", str(delta), "--json"],
                         capture_output=True, text=True)
    assert out.returncode == (0 if ours["verdict"] == "holds" else 1), out.stderr
    theirs = json.loads(out.stdout)
    assert theirs["verdict"] == ours["verdict"] and theirs["horizon"] == ours["horizon"]
    for k in ("delta", "delta_forward", "delta_backward"):
        assert F(theirs[k]) == ours[k]
    if "witness" in ours:
        w = dict(ours["witness"])
        for k in ("lambda", "delta", "probability_world0", "probability_world1"):
            assert F(theirs["witness"].pop(k)) == w.pop(k)
        assert theirs["witness"] == w   # tree, event, worlds, direction, rounds: identical
    # and the path route of exactdp.check reads the same file to the same verdict
    assert exactdp.check(path, lam=lam, delta=delta) == {**ours, "spec": str(path)}


# ------------------------------------------------------------------------------ states and names

@dataclass(frozen=True)
class Budget:
    spent: int
    answered: frozenset


def test_values_of_every_kind_get_canonical_names():
    import enum

    class Mode(enum.Enum):
        OPEN = 1
        CLOSED = 2

    assert exactdp.canonical_name(("a", 1, F(1, 3), None, True)) == "('a', 1, 1/3, None, True)"
    assert exactdp.canonical_name(frozenset({"b", "a", "c"})) == "{'a', 'b', 'c'}"
    assert exactdp.canonical_name(Budget(2, frozenset({3, 1}))) == "Budget(spent=2, answered={1, 3})"
    assert exactdp.canonical_name(Mode.OPEN).endswith("Mode.OPEN")
    assert exactdp.canonical_name("plain") == "plain"
    with pytest.raises(TypeError, match="float"):
        exactdp.canonical_name(0.5)


class Posterior:
    """A value type that names itself (as a noise posterior bound from C++ would)."""

    def __init__(self, support):
        self.support = tuple(support)

    def __eq__(self, other):
        return isinstance(other, Posterior) and other.support == self.support

    def __hash__(self):
        return hash(self.support)

    def __exactdp_name__(self):
        return "tau in {" + ",".join(map(str, self.support)) + "}"


def test_types_that_name_themselves():
    def step(p, q):
        return {("seen", Posterior(p.support[1:] or p.support)): 1}
    m = build(step, initial={"x": Posterior([0, 1, 2]), "x'": Posterior([1, 2])})
    assert list(m.to_spec()["mechanism"]["states"]) == ["tau in {0,1,2}", "tau in {1,2}", "tau in {2}"]


def budget_server(state, message):
    """A query server with a budget of two answers: each answer is RR₂ of the secret bit; then it halts."""
    bit, used = state
    if used == 2:
        return {("halt", state): 1}
    return {(bit, (bit, used + 1)): F(2, 3), (1 - bit, (bit, used + 1)): F(1, 3)}


def test_halted_states_are_written_empty_and_the_budget_caps_the_loss():
    m = exactdp.Mechanism.from_step(budget_server, initial={"x": (0, 0), "x'": (1, 0)}, neighbours=STATIC,
                                    messages=["ask"], horizon=5, name="budget server")
    spec = m.to_spec()
    assert spec["mechanism"]["states"]["(0, 2)"] == {} and spec["mechanism"]["states"]["(1, 2)"] == {}
    assert exactdp.profile(m)["pure"]["ratio"] == 4   # two RR₂ answers: 2·2, whatever the horizon


def test_spec_is_the_same_under_every_hash_seed(tmp_path):
    # frozensets of strings iterate in a hash-seed-dependent order; the spec must not
    script = tmp_path / "build.py"
    script.write_text(textwrap.dedent('''
        import exactdp
        from fractions import Fraction
        def step(seen, message):
            grown = frozenset(seen | {message})
            return {(len(grown), grown): Fraction(1, 2), ("same", seen): Fraction(1, 2)}
        m = exactdp.Mechanism.from_step(step, initial={"x": frozenset(), "x'": frozenset({"p"})},
                neighbours={"type": "static", "worlds": ["x", "x'"]}, messages={"q", "p", "r", "s"}, horizon=2)
        print(m.spec_text())
    '''))
    texts = {subprocess.run([sys.executable, str(script)], env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True,
                            text=True, check=True).stdout for seed in ("0", "1", "2")}
    assert len(texts) == 1


def test_progress_is_reported_on_stderr(capsys):
    exactdp.Mechanism.from_step(lambda s, q: {("t", min(s + 1, 1200)): 1}, initial={"x": 0, "x'": 1}, neighbours=STATIC,
                                messages=["q"], horizon=1, progress=True)
    err = capsys.readouterr().err
    assert "exactdp: exploring" in err and "states" in err


# ------------------------------------------------------------------------------- error cases

def build(step, **kw):
    args = dict(initial={"x": 0, "x'": 1}, neighbours=STATIC, messages=["q"], horizon=1, name="m")
    args.update(kw)
    return exactdp.Mechanism.from_step(step, **args)


@pytest.mark.parametrize("step, words", [
    (lambda s, q: {("a", s): 0.5, ("b", s): 0.5}, ["step(0, q)", "0.5", "float"]),
    (lambda s, q: {("a", s): F(3, 2), ("b", s): F(-1, 2)}, ["step(0, q)", "-1/2", "non-negative"]),
    (lambda s, q: {("a", s): F(1, 3), ("b", s): "1/3"}, ["step(0, q)", "2/3", "sum to exactly 1"]),
    (lambda s, q: {("a", s): "one"}, ["step(0, q)", "one", "exact number"]),
    (lambda s, q: [("a", s, 1)], ["step(0, q)", "dict"]),
    (lambda s, q: {"a": 1}, ["step(0, q)", "pair (answer, next_state)"]),
    (lambda s, q: {("a", frozenset([s])): "1", ("a", (s, [s])): 0}, ["step(0, q)", "unhashable"]),
    (lambda s, q: {("a", 0.5): 1}, ["step(0, q) next state", "0.5", "float"]),
    (lambda s, q: {(str(s), s if s == 0 else "0"): 1} if s != "0" else {("a", s): 1}, ["two different states", "'0' (str)", "0 (int)"]),
    (lambda s, q: None, ["step(0, q)", "missing_rules='invalid'"]),
    (lambda s, q: 1 / 0, ["step(0, q)", "ZeroDivisionError"]),
    (lambda s, q: {("a", s): F(1, 3 ** 3000), ("b", s): 1 - F(1, 3 ** 3000)}, ["step(0, q)", "4096 bits"]),
])
def test_step_errors_name_the_state_the_message_and_the_value(step, words):
    with pytest.raises(exactdp.Error) as e:
        build(step)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_missing_rules_invalid_answers_invalid_and_stays():
    # state 0 accepts only "go"; with the opt-in its "stop" is answered "invalid" (the state stays)
    def step(s, q):
        return {("ok", s): 1} if q == "go" else None
    m = build(step, messages=["go", "stop"], missing_rules="invalid")
    assert m.transitions(0, "stop") is None
    rules = m.to_spec()["mechanism"]["states"]["0"]
    assert rules["stop"] == [{"p": "1", "answer": "invalid", "next": "0"}]
    assert exactdp.check(m, lam=1)["delta"] == 0


def test_exploration_is_refused_beyond_max_states_with_the_count_and_the_keyword():
    with pytest.raises(exactdp.Error) as e:
        build(lambda s, q: {("tick", s + 1): 1}, max_states=40)
    assert "41 states" in str(e.value) and "max_states=" in str(e.value) and "explore='horizon'" in str(e.value)
    with pytest.raises(exactdp.Error, match="100000"):
        build(lambda s, q: {("t", s): 1}, max_states=10 ** 6)


@pytest.mark.parametrize("kw, words", [
    (dict(initial={"x": 0}), ["initial", "one initial state (or law) per world"]),
    (dict(initial={"x": {0: F(1, 2)}, "x'": 1}), ["initial/x", "1/2", "sum to exactly 1"]),
    (dict(initial={"x": {0: 0.5, 1: 0.5}, "x'": 1}), ["initial/x", "float"]),
    (dict(neighbours={"type": "static", "worlds": ["x", "x"]}), ["neighbours/worlds", "differ"]),
    (dict(neighbours={"type": "pairs", "allowed": [["a", "b"], ["a", "b"]]}, initial=0), ["neighbours/allowed/1", "twice"]),
    (dict(neighbours={"type": "automaton", "initial": "s", "states": {"s": [{"pair": ["a", "a"], "next": "t"}]}}, initial=0),
     ["neighbours/states/s/0/next", "unknown automaton state"]),
    (dict(neighbours={"type": "chain"}), ["neighbours/type", "static"]),
    (dict(messages=["q", "*"]), ["messages", "wildcard"]),
    (dict(messages=["q", 0, "0"]), ["two different messages", "'0' (str)"]),
    (dict(messages=[]), ["messages", "alphabet is empty"]),
    (dict(horizon=0), ["horizon", "between 1"]),
    (dict(initial={"x": [0], "x'": 1}), ["initial/x", "not hashable", "tuple"]),
])
def test_input_errors_name_the_field_and_the_value(kw, words):
    # (an unhashable initial state is named as such: see the last case)
    with pytest.raises(exactdp.Error) as e:
        build(lambda s, q: {("a", s): 1}, **kw)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_exact_probabilities_of_every_accepted_kind():
    from decimal import Decimal
    m = build(lambda s, q: {("a", s): "0.25", ("b", s): F(1, 4), ("c", s): Decimal("0.5"), ("d", s): 0})
    assert m.transitions(0, "q") == {("a", 0): F(1, 4), ("b", 0): F(1, 4), ("c", 0): F(1, 2)}
