"""exactdp.Session: live sessions from Python (as `exactdp run`). Expected answers are derived by
hand from the tables written here (a deterministic counter) or from the spec's structure (sticky
RR repeats its first answer, then halts)."""
import json
from pathlib import Path

import pytest

import exactdp

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"

COUNTER = {"format": "exactdp/1", "name": "counter", "horizon": 3,
           "neighbours": {"type": "static", "worlds": ["x", "y"]},
           "mechanism": {"type": "table", "messages": ["inc", "read"], "missing_rules": "invalid",
                         "initial": {"x": "c0", "y": "c1"},
                         "states": {"c0": {"inc": [{"p": 1, "answer": "ok", "next": "c1"}],
                                           "read": [{"p": 1, "answer": "0", "next": "c0"}]},
                                    "c1": {"read": [{"p": 1, "answer": "1", "next": "c1"}]}}}}


def test_counter_keeps_state(tmp_path):
    f = tmp_path / "c.json"
    f.write_text(json.dumps(COUNTER))
    s = exactdp.Session(str(f), world="x")
    assert [s.send(m) for m in ["read", "inc", "read", "inc"]] == ["0", "ok", "1", "invalid"]
    assert s.steps == 4 and s.secret_state() == "c1"
    with pytest.raises(exactdp.Error):
        s.send("dec")
    with pytest.raises(exactdp.Error):
        exactdp.Session(str(f), world="z")


def test_seeded_sessions_replay():
    spec = str(SPECS / "sticky-rr.json")
    runs = [[exactdp.Session(spec, world="b=0", seed=str(i)).send("q") for i in range(30)] for _ in range(2)]
    assert runs[0] == runs[1]
    s = exactdp.Session(spec, world="b=1")  # OS randomness
    first = s.send("q")
    assert first in ("0", "1") and s.send("q") == first and s.send("q") == "halt"
