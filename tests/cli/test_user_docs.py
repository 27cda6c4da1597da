"""The command line agrees with what the user documentation says about it (issue 15, item 6).

* `exactdp check` names the adversary class it checked against in its text output (it used to say
  "adaptive" whatever --adversary was);
* every key that `exactdp check --json` prints is documented in docs/json-output.md, and the keys
  documented as always present are present;
* the worlds and message alphabets of docs/library-mechanisms.md are those of the program.

Expected values: the documentation pages themselves (read by this test), and for the verdicts the
E.7 values of concurrent MP (pure level 64, δ(16) = 16/75 for adaptive and sequential adversaries).
"""
import json
import re
from pathlib import Path

import pytest

from conftest import run

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "spec" / "mechanisms"


# ------------------------------------------------------------------------- the adversary class

@pytest.mark.parametrize("adversary", ["adaptive", "sequential", "oblivious"])
def test_check_text_names_the_adversary_class_it_checked(adversary):
    # E.7: MP ⊗ MP has pure level 64 and δ(16) = 16/75 > 0 against adaptive and sequential adversaries
    p = run("check", SPECS / "concurrent-mp.json", "--lambda", "16", "--adversary", adversary, expect=None)
    assert p.returncode == (1 if adversary != "oblivious" else p.returncode) and p.returncode in (0, 1), p.stderr
    first = p.stdout.splitlines()[0]
    assert f"the worst {adversary} adversary up to horizon" in first
    for other in {"adaptive", "sequential", "oblivious"} - {adversary}:
        assert other not in first


def test_check_text_default_is_adaptive():
    p = run("check", str(SPECS / "concurrent-mp.json"), "--lambda", "64")
    assert p.stdout.startswith("HOLDS: at λ = 64 the worst adaptive adversary up to horizon 4 reaches δ = 0")


# ------------------------------------------------------------------------ check --json keys

def documented_keys(section_title):
    """The backticked names in the table rows of one section of docs/json-output.md."""
    text = (ROOT / "docs" / "json-output.md").read_text()
    start = text.index(section_title)
    end = text.find("\n## ", start + 1)
    keys = set()
    for line in text[start:end if end > 0 else None].splitlines():
        if line.startswith("| `"):
            keys |= set(re.findall(r"`([a-z_0-9]+)`", line))
    return keys


def test_every_key_of_check_json_is_documented():
    documented = documented_keys("## `exactdp check SPEC --json`")
    mp = str(SPECS / "mp.json")
    outputs = [
        json.loads(run("check", mp, "--lambda", "4", "--json", "--stats", expect=1).stdout),           # refuted, witness
        json.loads(run("check", mp, "--epsilon", "3", "--json").stdout),                               # real ε, holds
        json.loads(run("check", mp, "--renyi-alpha", "2", "--renyi-epsilon", "2", "--json").stdout),  # Rényi
        json.loads(run("check", mp, "--lambda", "2", "--adversary", "oblivious", "--json", "--stats", expect=1).stdout),
        # undecided: ln 8 truncated to 40 digits is not separated from ln 8 (MP's pure level) at 64 bits
        json.loads(run("check", mp, "--epsilon", "2.079441541679835928251696364374529704226", "--max-precision", "64", "--json",
                       expect=3).stdout),
    ]
    seen = set()
    for out in outputs:
        seen |= set(out)
        for nested in ("claim", "stats", "witness"):
            seen |= set(out.get(nested, {}))
    undocumented = seen - documented
    assert not undocumented, f"keys printed by check --json but missing from docs/json-output.md: {sorted(undocumented)}"
    for out in outputs:
        assert {"spec", "adversary", "claim", "verdict"} <= set(out)   # documented as always present
    refuted = outputs[0]
    assert set(refuted["witness"]) == {"direction", "lambda", "delta", "rounds", "neighbours", "worlds", "adversary", "event",
                                       "probability_world0", "probability_world1"}
    # the example of the page is the real output (MP, THEOREMS.md E.5: δ(4) = 4/15 = 8/15 − 4·1/15)
    assert (refuted["delta"], refuted["witness"]["probability_world0"], refuted["witness"]["probability_world1"]) == (
        "4/15", "1/15", "8/15")
    assert outputs[3]["lambda_side"] == "exact" and "witness" not in outputs[3]
    assert outputs[4]["verdict"] == "undecided" and {"enclosure", "precision", "to_decide"} <= set(outputs[4])


def test_every_key_of_profile_json_for_a_spec_is_documented():
    documented = documented_keys("## `exactdp profile SPEC --json`")
    r = json.loads(run("profile", str(SPECS / "mp.json"), "--lambda", "2", "--delta", "1/10", "--alpha", "2", "--alpha", "3/2",
                       "--json").stdout)
    seen = set(r) | set(r["pure"]) | set(r["tradeoff"]) | set(r["stats"])
    for key in ("at", "least_lambda", "renyi"):
        for e in r[key]:
            seen |= set(e)
    assert not seen - documented, sorted(seen - documented)


# --------------------------------------------------------------- library worlds and alphabets

LIBRARY = [  # name, params (defaults otherwise), a world, the alphabet as docs/library-mechanisms.md states it
    ("rr", {"lambda": 2}, "b=0", ["q"]),
    ("sticky-rr", {"lambda": 2}, "b=1", ["q"]),
    ("irr", {"lambda": 2, "delta": "1/10"}, "b=0", ["q"]),
    ("mirror", {"p": "1/2"}, "b=0", ["q"]),
    ("lottery", {"n": 3}, "b=0", ["1", "2", "3"]),
    ("coin", {"pmf": ["1/2", "1/2"]}, "b=0", ["coin"]),
    ("above-threshold", {"r_threshold": "1/4", "r_query": "1/2"}, "world 0", ["-1", "0", "1"]),
    ("above-threshold", {"r_threshold": "1/4", "r_query": "1/2", "min_margin": -2, "max_margin": 0}, "world 1",
     ["-2", "-1", "0"]),
    ("svt-counter", {"r_threshold": "1/4", "r_query": "1/2", "thresholds": [0, 1, 2]}, "world 0",
     ["0/0", "1/0", "0/1", "1/1", "0/2", "1/2"]),
    ("tree-counter", {"height": 1, "r": "1/2", "max_input": 2}, "world 0", ["0", "1", "2"]),
    ("noisy-increments", {"steps": 2, "r": "1/2"}, "world 0", ["0", "1"]),
    ("d-counter", {"d": 2, "height": 1, "r": "1/2"}, "world 0", ["0,0", "0,1", "1,0", "1,1"]),
    ("m-delta", {"delta": "1/10"}, "world 0", ["0", "1"]),
    ("m-delta-interactive", {"delta": "1/10"}, "world 0", ["0", "1", "q"]),
    ("renyi-gadget", {"q": "3/4", "p": "1/4"}, "world 0", ["0", "1"]),
    ("hss-histogram", {}, "world 0", ["0", "1"]),
    ("hss-histogram", {"d": 2}, "world 0", ["0,0", "0,1", "1,0", "1,1"]),
    ("ldp-threshold-protocol", {"users": 2}, "world 0", [a + b for a in "012" for b in "012"]),
    ("core-decomposition", {}, "world 0", [f"{a}{b}{c}" for c in "01" for b in "01" for a in "01"]),
]


@pytest.mark.parametrize("name, params, world, alphabet", LIBRARY, ids=[f"{e[0]}-{i}" for i, e in enumerate(LIBRARY)])
def test_library_alphabets_are_the_documented_ones(tmp_path, name, params, world, alphabet):
    spec = tmp_path / "m.json"
    spec.write_text(json.dumps({"format": "exactdp/1", "name": name,
                                "mechanism": {"type": "library", "name": name, "params": params}}))
    page = (ROOT / "docs" / "library-mechanisms.md").read_text()
    row = next(line for line in page.splitlines() if line.startswith(f"| `{name}` |"))
    assert f"`{world}`" in row.split("|")[2]
    p = run("run", str(spec), "--world", world, expect=2, stdin='"not a message"\n')
    listed = re.search(r"not in the message alphabet \{(.*)\}", p.stderr).group(1)
    assert sorted(listed.split(", ")) == sorted(alphabet)
