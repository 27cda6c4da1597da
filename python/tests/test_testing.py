"""exactdp.testing: assert_dp, the shrunk witness, and the Hypothesis strategies (issue 15, item 5).

The laws checked here hold for every mechanism: the spec round trip changes nothing, δ(λ) does not
increase with λ nor decrease with the horizon, post-processing the answers never increases δ
(THEOREMS.md A.5), and a shrunk witness still refutes the claim at the least failing horizon. The
witness's probabilities are recomputed here by walking its decision tree over the mechanism's own
tables (Mechanism.transitions), a route independent of the C++ engine.
"""
import os
import subprocess
import sys
import textwrap
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import exactdp
from exactdp.testing import PrivacyViolation, assert_dp, assert_not_dp
from exactdp.testing import strategies as xs

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def view_probability(m, tree, world, event, rounds):
    """P_world(S) for the adversary ``tree`` (witness JSON), by forward propagation over m's tables."""
    spec = m.to_spec()
    messages = {exactdp.canonical_name(q): q for q in m.messages}
    relation = spec["neighbours"]
    if relation["type"] == "static":
        init = m._initial[world]
    else:
        init = m._initial[0]
    event = {tuple(v) for v in event}
    total = F(0)

    def walk(node, belief, view, left):
        nonlocal total
        if node == "stop" or left == 0:
            if tuple(view) in event:
                total += sum(belief.values())
            return
        send = node["send"]
        msg = messages[send if isinstance(send, str) else send[world]]
        children = {}
        for s, p in belief.items():
            law = m.transitions(s, msg)
            if law is None:
                law = {("invalid", s): F(1)}
            for (a, nxt), q in law.items():
                b = children.setdefault(exactdp.canonical_name(a), {})
                b[nxt] = b.get(nxt, 0) + p * q
        for a, b in children.items():
            walk(node["on"].get(a, "stop"), b, view + [a], left - 1)

    walk(tree, dict(init), [], rounds)
    return total


# ------------------------------------------------------------------------------------ assert_dp

def leaky(state, message):
    """RR₃ of the bit on "ask"; "debug" answers the bit itself (the bug)."""
    if message == "debug":
        return {(f"bit={state}", state): 1}
    return {(state, state): F(3, 4), (1 - state, state): F(1, 4)}


LEAKY = dict(initial={"x": 0, "x'": 1}, neighbours={"type": "static", "worlds": ["x", "x'"]}, messages=["ask", "debug"],
             horizon=3, name="leaky RR")


def test_assert_dp_returns_the_result_when_the_claim_holds():
    m = exactdp.Mechanism.from_step(leaky, **{**LEAKY, "messages": ["ask"]})
    r = assert_dp(m, lam=27)   # three RR₃ answers: 3³
    assert r["verdict"] == "holds" and r["delta"] == 0


def test_assert_dp_message_is_the_short_witness():
    m = exactdp.Mechanism.from_step(leaky, **LEAKY)
    with pytest.raises(PrivacyViolation) as e:
        assert_dp(m, lam=2)
    text = str(e.value)
    lines = text.splitlines()
    assert lines[0] == '(ln λ, δ)-DP fails for "leaky RR" at λ = 2, δ = 0: worst δ(λ) = 1 up to horizon 3'
    assert "x and x' (static)" in text and "fails with 1 round" in text
    assert 'send "debug"' in text and '["bit=0"]' in text
    assert "P[x](S)    = 1" in text and "P[x'](S)   = 0" in text
    assert len(lines) <= 10
    assert e.value.witness["rounds"] == 1 and e.value.result["verdict"] == "refuted"


def test_assert_not_dp_for_broken_variants():
    m = exactdp.Mechanism.from_step(leaky, **LEAKY)
    assert assert_not_dp(m, lam=100)["minimal_witness"]["event"] == [["bit=0"]]
    with pytest.raises(AssertionError, match="it holds"):
        assert_not_dp(m, lam=1, delta=1)


def test_assert_dp_takes_a_spec_path_too():
    specs = os.path.join(os.path.dirname(__file__), "..", "..", "spec", "mechanisms")
    with pytest.raises(AssertionError, match="P\\[x'\\]"):
        assert_dp(os.path.join(specs, "mp.json"), lam=4, delta="1/4")


def test_a_pytest_run_prints_the_counterexample(tmp_path):
    test = tmp_path / "test_user.py"
    test.write_text(textwrap.dedent('''
        from fractions import Fraction
        import exactdp
        from exactdp.testing import assert_dp

        def step(bit, message):          # a user's RR with a debugging backdoor
            if message == "debug":
                return {(f"bit={bit}", bit): 1}
            return {(bit, bit): Fraction(3, 4), (1 - bit, bit): Fraction(1, 4)}

        def test_my_mechanism_is_private():
            m = exactdp.Mechanism.from_step(step, initial={"x": 0, "x'": 1},
                    neighbours={"type": "static", "worlds": ["x", "x'"]}, messages=["ask", "debug"],
                    horizon=2, name="my RR")
            assert_dp(m, lam=3)
    '''))
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # a plain pytest starts in a second, not six
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)], capture_output=True,
                         text=True, cwd=tmp_path, env=env)
    assert out.returncode == 1
    assert "_check(" not in out.stdout   # the library's frame is hidden; the user's line and the witness remain
    assert 'PrivacyViolation: (ln λ, δ)-DP fails for "my RR" at λ = 3, δ = 0' in out.stdout
    for line in ('send "debug"', '["bit=0"]', "P[x](S)    = 1", "P[x'](S)   = 0", "P[x](S) - 3 * P[x'](S) = 1 > δ = 0"):
        assert line in out.stdout, out.stdout


# --------------------------------------------------------------------------------- the laws

@FAST
@given(xs.mechanisms(), xs.lambdas(max_excess=2), xs.deltas())
def test_shrunk_witness_still_refutes_at_the_least_horizon(m, lam, delta):
    if exactdp.check(m, lam=lam, delta=delta)["verdict"] == "holds":
        return
    r = assert_not_dp(m, lam=lam, delta=delta)
    w = r["minimal_witness"]
    b = 0 if w["direction"] == "world0_vs_world1" else 1
    p = [view_probability(m, w["adversary"], world, w["event"], w["rounds"]) for world in (0, 1)]
    assert p == [w["probability_world0"], w["probability_world1"]]
    assert p[b] - lam * p[1 - b] > delta
    assert len(w["event"]) <= len(r["witness"]["event"])
    if w["rounds"] > 1:
        assert exactdp.check(m, lam=lam, delta=delta, horizon=w["rounds"] - 1)["verdict"] == "holds"


@FAST
@given(xs.mechanisms(), xs.lambdas())
def test_spec_round_trip_gives_the_same_result(tmp_path_factory, m, lam):
    path = tmp_path_factory.mktemp("spec") / "m.json"
    m.write_spec(path)
    assert exactdp.check(path, lam=lam) == {**exactdp.check(m, lam=lam), "spec": str(path)}


@FAST
@given(xs.mechanisms(), xs.lambdas(), xs.lambdas())
def test_delta_does_not_increase_with_lambda(m, a, b):
    lo, hi = sorted((a, b))
    assert exactdp.check(m, lam=hi)["delta"] <= exactdp.check(m, lam=lo)["delta"]


@FAST
@given(xs.mechanisms(max_horizon=2), xs.lambdas())
def test_delta_does_not_decrease_with_the_horizon(m, lam):
    assert exactdp.check(m, lam=lam, horizon=m.horizon)["delta"] <= exactdp.check(m, lam=lam, horizon=m.horizon + 1)["delta"]


@FAST
@given(xs.tables(), st.data(), xs.lambdas())
def test_post_processing_never_increases_delta(table, data, lam):
    # each answer a is replaced by a random answer drawn from a law K(a) (THEOREMS.md A.5)
    processed = {a: data.draw(xs.laws(["u", "v"])) for a in table.answers}
    init = {"x": data.draw(st.integers(0, table.states - 1)), "x'": data.draw(st.integers(0, table.states - 1))}

    def post(state, message):
        out = {}
        for (a, nxt), p in table.step(state, message).items():
            for b, q in processed[a].items():
                out[(b, nxt)] = out.get((b, nxt), 0) + p * q
        return out

    common = dict(initial=init, neighbours={"type": "static", "worlds": ["x", "x'"]}, messages=list(table.messages), horizon=2)
    before = exactdp.Mechanism.from_step(table.step, **common)
    after = exactdp.Mechanism.from_step(post, **common)
    assert exactdp.check(after, lam=lam)["delta"] <= exactdp.check(before, lam=lam)["delta"]


@settings(max_examples=20, deadline=None)
@given(xs.privacy_parameters())
def test_strategies_give_exact_parameters_in_range(parameters):
    lam, delta = parameters
    assert isinstance(lam, F) and lam >= 1 and isinstance(delta, F) and 0 <= delta <= 1


def test_generated_mechanisms_show_how_to_rebuild_them():
    m = find(xs.mechanisms(relations=("pairs",)), lambda m: True)  # the simplest one
    assert "RandomTable(" in repr(m) and "neighbours=" in repr(m)
