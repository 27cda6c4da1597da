"""End-to-end tests of `exactdp run` (live sessions, docs/run.md).

Expected values: hand derivations from the spec tables stated beside each test (a deterministic
counter; sticky RR answers the same bit twice; halted states answer "halt").
"""
import json
from pathlib import Path

from conftest import run

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"

COUNTER = {"format": "exactdp/1", "name": "counter", "horizon": 3,
           "neighbours": {"type": "static", "worlds": ["x", "y"]},
           "mechanism": {"type": "table", "messages": ["inc", "read"], "missing_rules": "invalid",
                         "initial": {"x": "c0", "y": "c1"},
                         "states": {
                             "c0": {"inc": [{"p": 1, "answer": "ok", "next": "c1"}],
                                    "read": [{"p": 1, "answer": "0", "next": "c0"}]},
                             "c1": {"inc": [{"p": 1, "answer": "ok", "next": "c2"}],
                                    "read": [{"p": 1, "answer": "1", "next": "c1"}]},
                             "c2": {"read": [{"p": 1, "answer": "2", "next": "c2"}]}}}}


def session(args, lines, expect=0):
    """`exactdp run ARGS` fed @p lines, one message a line."""
    return run("run", *args, stdin="".join(l + "\n" for l in lines), expect=expect)


def answers(p):
    return [json.loads(l) for l in p.stdout.splitlines()]


def counter(tmp_path):
    f = tmp_path / "counter.json"
    f.write_text(json.dumps(COUNTER))
    return str(f)


def test_state_persists_and_is_hidden_by_default(tmp_path):
    # world x starts at 0: inc, read → 1; inc, read → 2; inc in c2 is not accepted → "invalid"
    p = session([counter(tmp_path), "--world", "x"], ['"inc"', '"read"', '"inc"', '"read"', '"inc"'])
    out = answers(p)
    assert [o["answer"] for o in out] == ["ok", "1", "ok", "2", "invalid"]
    assert [o["step"] for o in out] == [1, 2, 3, 4, 5]
    assert all("state" not in o for o in out)
    # --state starts anywhere; --show-state adds the (secret) state and warns on stderr
    p = session([counter(tmp_path), "--state", "c1", "--show-state"], ['"read"', '"inc"'])
    assert [(o["answer"], o["state"]) for o in answers(p)] == [("1", "c1"), ("ok", "c2")]
    assert "secret" in p.stderr


def test_seeded_sessions_replay_and_are_announced(tmp_path):
    spec = str(SPECS / "mp.json")
    msgs = ['"0"', '"1"']
    outs = set()
    for seed in ["s1", "s1"]:
        p = session([spec, "--world", "x", "--seed", seed], msgs)
        assert "deterministic" in p.stderr and "s1" in p.stderr
        outs.add(p.stdout)
    assert len(outs) == 1
    # without a seed the OS CSPRNG is used and nothing is announced
    p = session([spec, "--world", "x"], msgs)
    assert p.stderr == ""
    assert [o["answer"] for o in answers(p)][0] in ("0", "1")


def test_sticky_rr_repeats_its_bit(tmp_path):
    # sticky RR answers the bit drawn at the first query again at the second, then halts
    for i in range(20):
        out = [o["answer"] for o in answers(session([str(SPECS / "sticky-rr.json"), "--world", "b=0", "--seed", str(i)],
                                                ['"q"', '"q"', '"q"']))]
        assert out[0] == out[1] and out[0] in ("0", "1") and out[2] == "halt"


def test_bad_line_stops_with_line_number(tmp_path):
    p = session([counter(tmp_path), "--world", "x"], ['"inc"', "inc", '"read"'], expect=2)
    assert len(answers(p)) == 1  # the first message was answered before the bad line
    assert "line 2" in p.stderr and '"inc"' in p.stderr and "JSON" in p.stderr
    p = session([counter(tmp_path), "--world", "x"], ['"inc"', "42"], expect=2)
    assert "line 2" in p.stderr and "expected a JSON string" in p.stderr
    p = session([counter(tmp_path), "--world", "x"], ['"dec"'], expect=2)
    assert "line 1" in p.stderr and "dec" in p.stderr and "alphabet" in p.stderr


def test_keep_going_answers_errors_in_line(tmp_path):
    # one output line per non-blank input line; the bad line leaves the state unchanged
    p = session([counter(tmp_path), "--world", "x", "--keep-going"], ['"inc"', "[1]", "", '"read"'])
    out = answers(p)
    assert len(out) == 3
    assert out[0]["answer"] == "ok" and "error" in out[1] and "line 2" in out[1]["error"]
    assert out[2]["answer"] == "1"


def test_transcript(tmp_path):
    t = tmp_path / "t.jsonl"
    session([counter(tmp_path), "--world", "y", "--seed", "7", "--transcript", str(t)], ['"read"', '"inc"'])
    lines = [json.loads(l) for l in t.read_text().splitlines()]
    assert lines[0]["format"] == "exactdp-transcript/1" and lines[0]["seed"] == "7" and lines[0]["world"] == "y"
    assert "initial_state" not in lines[0]
    assert [(l["message"], l["answer"]) for l in lines[1:]] == [("read", "1"), ("inc", "ok")]


def test_bad_starts(tmp_path):
    p = session([counter(tmp_path), "--world", "z"], [], expect=2)
    assert "--world" in p.stderr and '"z"' in p.stderr
    p = session([counter(tmp_path)], [], expect=2)
    assert "--world" in p.stderr
    p = session([counter(tmp_path), "--state", "nope"], [], expect=2)
    assert "nope" in p.stderr


def test_overlong_line_is_refused(tmp_path):
    # a line above the 64 KiB limit (core/limits.hpp) is refused, naming the line
    p = session([counter(tmp_path), "--world", "x", "--keep-going"], ['"' + "a" * 70000 + '"', '"read"'])
    out = answers(p)
    assert "error" in out[0] and "line 1" in out[0]["error"] and "longer than" in out[0]["error"]
    assert out[1]["answer"] == "0"
