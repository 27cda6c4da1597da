"""Strict spec files through the command line (issue 15 items 1-3): a misspelt state, a missing
rule, a repeated key and a float are errors (exit 2) naming the file, the JSON pointer and the
value, before any work; `run` refuses an unknown message; `max_horizon` is enforced.

Expected verdicts are hand-derived from the tables beside each test.
"""
import copy
import json
from pathlib import Path

import pytest

from conftest import run

ROOT = Path(__file__).resolve().parents[2]

# SmartSum-like running parity over a bit stream (event-level): state nxK holds the true parity K,
# each bit is answered with the new parity flipped with probability 1/4 (RR_3 per answer).
PARITY = {"format": "exactdp/1", "name": "running parity", "horizon": 3,
          "neighbours": {"type": "pairs", "allowed": [["0", "1"], ["0", "0"], ["1", "1"]], "max_differing": 1},
          "mechanism": {"type": "table", "messages": ["0", "1"], "initial": "nx0", "states": {
              "nx0": {"0": [{"p": "3/4", "answer": "0", "next": "nx0"}, {"p": "1/4", "answer": "1", "next": "nx0"}],
                      "1": [{"p": "3/4", "answer": "1", "next": "nx1"}, {"p": "1/4", "answer": "0", "next": "nx1"}]},
              "nx1": {"0": [{"p": "3/4", "answer": "1", "next": "nx1"}, {"p": "1/4", "answer": "0", "next": "nx1"}],
                      "1": [{"p": "3/4", "answer": "0", "next": "nx0"}, {"p": "1/4", "answer": "1", "next": "nx0"}]}}}}


def write(tmp_path, spec, name="spec.json"):
    f = tmp_path / name
    f.write_text(spec if isinstance(spec, str) else json.dumps(spec, indent=1))
    return str(f)


def typo_parity():
    bad = copy.deepcopy(PARITY)
    for row in bad["mechanism"]["states"]["nx1"]["1"]:
        row["next"] = "nX0"
    return bad


def test_correct_parity_holds_and_typo_is_refused(tmp_path):
    # a differing first bit makes the two worlds' parities differ from then on, and each of the 3
    # answers is an RR_3 of its parity: the pure level is 3^3 = 27 (hand-derived), not 9.
    good = write(tmp_path, PARITY, "good.json")
    run("check", good, "--lambda", "27", "--delta", "0", expect=0)
    run("check", good, "--lambda", "9", "--delta", "0", expect=1)
    bad = write(tmp_path, typo_parity(), "bad.json")
    p = run("check", bad, "--lambda", "27", "--delta", "0", expect=2)
    assert p.stdout == ""
    assert "bad.json" in p.stderr
    assert "/mechanism/states/nx1/1/0/next" in p.stderr
    assert '"nX0"' in p.stderr
    assert "did you mean `nx0`" in p.stderr
    assert "1 more error" in p.stderr
    run("profile", bad, expect=2)


def test_missing_rule_error_and_opt_in(tmp_path):
    spec = copy.deepcopy(PARITY)
    del spec["mechanism"]["states"]["nx1"]["0"]
    p = run("check", write(tmp_path, spec), "--lambda", "27", "--delta", "0", expect=2)
    assert "/mechanism/states/nx1" in p.stderr and "no rule for message 0" in p.stderr
    spec["mechanism"]["missing_rules"] = "invalid"
    # opted in: after a differing first bit only world 1 is in nx1, where "0" answers "invalid"
    # with certainty, so the views are disjoint: delta = 1 at any lambda
    p = run("check", write(tmp_path, spec), "--lambda", "1000", "--delta", "0", "--json", expect=1)
    assert json.loads(p.stdout)["delta"] == "1"


@pytest.mark.parametrize("text, pointer", [
    ('{"format": "exactdp/1", "horizon": 1, "horizon": 2}', "/horizon"),
    (json.dumps(PARITY).replace('"initial": "nx0"', '"initial": "nx0", "initial": "nx1"'), "/mechanism/initial"),
    (json.dumps(PARITY).replace('"answer": "0", "next": "nx0"}', '"answer": "0", "answer": "1", "next": "nx0"}', 1),
     "/mechanism/states/nx0/0/0/answer"),
])
def test_repeated_keys_in_specs(tmp_path, text, pointer):
    p = run("check", write(tmp_path, text), "--lambda", "2", "--delta", "0", expect=2)
    assert f'"{pointer}"' in p.stderr and "repeated" in p.stderr, p.stderr


def test_repeated_keys_in_pair_claims_and_composites(tmp_path):
    pair = write(tmp_path, '{"P": {"a": "1/2", "b": "1/2"}, "Q": {"a": "1/2", "b": "1/2", "b": "1/2"}}', "pair.json")
    p = run("profile", pair, expect=2)
    assert '"/Q/b"' in p.stderr and "repeated" in p.stderr
    claims = write(tmp_path, '{"format": "exactdp-claims/1", "claims": [{"id": "a", "id": "b", "mechanism": "rr:lambda=2", '
                             '"delta": "0", "claimed_epsilon": "1"}]}', "claims.json")
    p = run("audit", claims, expect=2)
    assert '"/claims/0/id"' in p.stderr and "repeated" in p.stderr
    composite = (ROOT / "spec" / "composites" / "forwarder.json").read_text()
    doubled = composite.replace('"format"', '"format": "exactdp-composite/1", "format"', 1)
    p = run("check-composite", write(tmp_path, doubled, "composite.json"), expect=2)
    assert '"/format"' in p.stderr and "repeated" in p.stderr


def test_floats_are_refused_naming_pointer_and_value(tmp_path):
    spec = copy.deepcopy(PARITY)
    spec["mechanism"]["states"]["nx0"]["0"][0]["p"] = 0.75
    spec["mechanism"]["states"]["nx0"]["0"][1]["p"] = 0.25
    p = run("check", write(tmp_path, spec), "--lambda", "2", "--delta", "0", expect=2)
    assert '"/mechanism/states/nx0/0/0/p"' in p.stderr and '"0.75"' in p.stderr and "exact strings" in p.stderr


def test_run_refuses_unknown_messages(tmp_path):
    spec = write(tmp_path, PARITY)
    p = run("run", spec, "--state", "nx0", "--seed", "s", stdin='"0"\n"2"\n"1"\n', expect=2)
    assert len(p.stdout.splitlines()) == 1  # the first message was answered, the session stopped at line 2
    assert "stdin line 2" in p.stderr and "not in the message alphabet {0, 1}" in p.stderr and "halt" not in p.stdout
    p = run("run", spec, "--state", "nx0", "--seed", "s", "--keep-going", stdin='"0"\n"O"\n"1"\n', expect=0)
    out = [json.loads(l) for l in p.stdout.splitlines()]
    assert "answer" in out[0] and "answer" in out[2]
    assert "error" in out[1] and "did you mean `0`" in out[1]["error"]
    assert all(o.get("answer") != "halt" for o in out)


def test_two_round_example_run_accepts_its_declared_message_only():
    spec = str(ROOT / "spec" / "mechanisms" / "two-round-example.json")
    p = run("run", spec, "--world", "x", "--seed", "s", stdin='"q"\n"q"\n', expect=0)
    out = [json.loads(l)["answer"] for l in p.stdout.splitlines()]
    assert out[0] in ("0", "1") and out[1] == "halt"  # the second answer comes from a halted state
    run("run", spec, "--world", "x", "--seed", "s", stdin='"anything"\n', expect=2)


def test_max_horizon_is_enforced(tmp_path):
    spec = copy.deepcopy(PARITY)
    spec["horizon"] = 2
    spec["max_horizon"] = 2
    f = write(tmp_path, spec)
    run("check", f, "--lambda", "9", "--delta", "0", expect=0)  # two answers: 3^2 = 9
    p = run("check", f, "--lambda", "27", "--delta", "0", "--horizon", "3", expect=2)
    assert "max_horizon" in p.stderr and p.stdout == ""
    p = run("profile", f, "--horizon", "3", expect=2)
    assert "max_horizon" in p.stderr
    spec["horizon"] = 3
    p = run("check", write(tmp_path, spec), "--lambda", "27", "--delta", "0", expect=2)
    assert '"/horizon"' in p.stderr and "max_horizon" in p.stderr


def test_composite_relations_use_the_spec_neighbour_reader(tmp_path):
    # the relation of a composite file is read by the spec files' reader: an automaton edge to an
    # unlisted state names its pointer and the nearest state; a static relation is refused there
    comp = json.loads((ROOT / "spec" / "composites" / "forwarder.json").read_text())
    comp["output_relation"] = {"type": "automaton", "initial": "clean", "states": {
        "clean": [{"pair": ["0", "1"], "next": "usde"}], "used": []}}
    p = run("check-composite", write(tmp_path, comp, "c.json"), expect=2)
    assert '"/output_relation/states/clean/0/next"' in p.stderr and "did you mean `used`" in p.stderr, p.stderr
    comp["output_relation"] = {"type": "static", "worlds": ["x", "y"]}
    p = run("check-composite", write(tmp_path, comp, "c.json"), expect=2)
    assert '"/output_relation/type"' in p.stderr and "pairs" in p.stderr, p.stderr
