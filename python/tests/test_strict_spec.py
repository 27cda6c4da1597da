"""Specs written by ``Mechanism.to_spec()`` under the strict loading rules (issue 15 items 1-3).

Laws checked with Hypothesis: every spec written from a random small mechanism lints without
errors, and a one-character change of a ``next`` state name (to a name that is not listed) is
always an error naming that row. The horizon-bounded export carries ``max_horizon`` and the
command line refuses a larger horizon, where the Python API explores again; the expected verdicts
are hand-derived (k answers of RR_3 have pure level 3^k).
"""
import copy
import json
import os
import subprocess
from fractions import Fraction as F

from hypothesis import given, settings, strategies as st

import exactdp
from exactdp.testing import strategies as xs

EXE = os.environ.get("EXACTDP_BIN", "exactdp")


def lint(tmp_path, spec, name="spec.json"):
    f = tmp_path / name
    f.write_text(json.dumps(spec))
    p = subprocess.run([EXE, "lint", str(f), "--json"], capture_output=True, text=True, timeout=120)
    report = json.loads(p.stdout)
    assert p.returncode == report["exit_code"]
    return report["files"][0]


@settings(max_examples=40, deadline=None)
@given(xs.mechanisms())
def test_exported_specs_lint_without_errors(tmp_path_factory, m):
    f = lint(tmp_path_factory.mktemp("spec"), m.to_spec())
    assert f["errors"] == 0, f["diagnostics"]


@settings(max_examples=40, deadline=None)
@given(xs.mechanisms(), st.data())
def test_a_misspelt_next_state_is_always_an_error(tmp_path_factory, m, data):
    spec = m.to_spec()
    states = spec["mechanism"]["states"]
    rows = [(s, q, i) for s, rules in states.items() for q, rs in rules.items() for i in range(len(rs))]
    if not rows:  # every state halted: nothing to misspell
        return
    s, q, i = data.draw(st.sampled_from(rows))
    name = states[s][q][i]["next"]
    at = data.draw(st.integers(0, len(name) - 1))
    c = data.draw(st.sampled_from("aZ09_-X"))
    mutated = name[:at] + c + name[at + 1:]
    if mutated in states:
        return
    bad = copy.deepcopy(spec)
    bad["mechanism"]["states"][s][q][i]["next"] = mutated
    f = lint(tmp_path_factory.mktemp("spec"), bad)
    pointer = "/mechanism/states/" + s.replace("~", "~0").replace("/", "~1") + "/" + q.replace("~", "~0").replace("/", "~1") + f"/{i}/next"
    assert any(d["code"] == "unknown-state" and d["pointer"] == pointer and d["value"] == mutated for d in f["diagnostics"]), f


def rr3_counter(horizon):
    """The secret bit b is answered by RR_3 at every query; the state also counts the queries, so
    the state space is unbounded and only a horizon-bounded exploration ends."""
    def step(state, message):
        b, n = state
        return {(str(b), (b, n + 1)): F(3, 4), (str(1 - b), (b, n + 1)): F(1, 4)}
    return exactdp.Mechanism.from_step(step, initial={"x": (0, 0), "x'": (1, 0)},
                                       neighbours={"type": "static", "worlds": ["x", "x'"]}, messages=["q"],
                                       horizon=horizon, name="counting RR3", explore="horizon")


def test_horizon_bounded_export_carries_max_horizon(tmp_path):
    m = rr3_counter(2)
    spec = m.to_spec()
    assert spec["max_horizon"] == 2 and spec["horizon"] == 2
    f = tmp_path / "counter.json"
    m.write_spec(str(f))
    ok = subprocess.run([EXE, "check", str(f), "--lambda", "9", "--delta", "0"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr  # two RR_3 answers: 3^2 = 9
    # before max_horizon the file's halted frontier made this HOLDS (the third answer was "halt")
    bad = subprocess.run([EXE, "check", str(f), "--lambda", "9", "--delta", "0", "--horizon", "3"], capture_output=True, text=True)
    assert bad.returncode == 2 and "max_horizon" in bad.stderr and bad.stdout == ""
    # the Python API explores again and finds the truth: three answers need 3^3 = 27
    assert exactdp.check(m, lam=9, delta=0, horizon=3)["verdict"] == "refuted"
    assert exactdp.check(m, lam=27, delta=0, horizon=3)["verdict"] == "holds"
    # a closed exploration writes no max_horizon
    closed = exactdp.Mechanism.from_step(lambda s, q: {(str(s), s): 1}, initial={"x": 0, "x'": 1},
                                         neighbours={"type": "static", "worlds": ["x", "x'"]}, messages=["q"], horizon=2)
    assert "max_horizon" not in closed.to_spec()
