"""End-to-end tests of `exactdp profile SPEC` and `exactdp check` (the game engine on spec files).

Expected values: THEOREMS.md E.5 (MP, MA — computed there by independent exact programs) and
hand derivations stated beside each test.
"""
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import run

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"


def test_profile_of_mp_matches_catalogue():
    r = json.loads(run("profile", str(SPECS / "mp.json"), "--lambda", "1", "--lambda", "2", "--lambda", "3",
                       "--lambda", "4", "--lambda", "8", "--delta", "0", "--delta", "1/100", "--delta", "1/10",
                       "--delta", "1/5", "--delta", "1/3", "--json").stdout)
    # E.5 P1: profile (forward, backward) at λ = 1, 2, 3, 4, 8
    assert [(e["delta_forward"], e["delta_backward"]) for e in r["at"]] == [
        ("7/15", "7/15"), ("2/9", "2/5"), ("1/9", "1/3"), ("0", "4/15"), ("0", "0")]
    # E.5 P1: e^{PrivLoss(δ)} for δ = 0, 1/100, 1/10, 1/5, 1/3
    assert [e["lambda"] for e in r["least_lambda"]] == ["8", "157/20", "13/2", "5", "3"]
    assert r["pure"]["ratio"] == "8"


def test_check_holds_and_refutes_with_witness():
    # MP is (ln 8, 0)-DP (pure level 8, E.5) and not (ln 4, 1/4)-DP (δ(4) = 4/15 > 1/4)
    run("check", str(SPECS / "mp.json"), "--lambda", "8")
    p = run("check", str(SPECS / "mp.json"), "--lambda", "4", "--delta", "1/4", "--json", expect=1)
    r = json.loads(p.stdout)
    assert r["verdict"] == "refuted" and r["delta"] == "4/15"
    w = r["witness"]
    # MP's leaf table (D.16): the leaf (1,1,1) has M⁰ = 1/15, M¹ = 8/15, and 8/15 − 4·1/15 = 4/15
    assert (w["probability_world0"], w["probability_world1"], w["delta"]) == ("1/15", "8/15", "4/15")
    assert w["event"] == [["1", "1"]] and "adversary" in w
    text = run("check", str(SPECS / "mp.json"), "--lambda", "4", "--delta", "1/4", expect=1).stdout
    assert "REFUTED" in text and "Witness" in text


def test_check_with_real_epsilon_is_decided_soundly():
    # e^2.0794 ≈ 7.99996 < 8 = pure level: refuted; e^2.0795 ≈ 8.00004 > 8: holds
    run("check", str(SPECS / "mp.json"), "--epsilon", "2.0794", expect=1)
    run("check", str(SPECS / "mp.json"), "--epsilon", "2.0795")


def test_undecided_check_exits_3():
    # MP's pure-DP ratio is 8 (E.7), so "epsilon-DP" holds iff e^epsilon >= 8. This epsilon is ln 8
    # truncated to 40 digits: e^epsilon < 8 by about 1e-39, which 64 bits cannot separate from 8.
    eps = "2.079441541679835928251696364374529704226"
    p = run("check", str(SPECS / "mp.json"), "--epsilon", eps, "--max-precision", "64", "--json", expect=3)
    r = json.loads(p.stdout)
    assert r["verdict"] == "undecided" and r["precision"] == 64 and "max-precision" in r["to_decide"]
    lo, hi = Fraction(Decimal(r["enclosure"]["lo"])), Fraction(Decimal(r["enclosure"]["hi"]))
    assert lo <= 8 <= hi
    # with the default cap the truncation is seen: refuted
    assert json.loads(run("check", str(SPECS / "mp.json"), "--epsilon", eps, "--json", expect=1).stdout)["verdict"] == "refuted"


def test_check_renyi_claim():
    # E.8: MP has Φ₂ = (61/24, 55/12); ln(55/12)/1 ≈ 1.5224: ε = 1.6 holds, 1.5 is refuted
    run("check", str(SPECS / "mp.json"), "--renyi-alpha", "2", "--renyi-epsilon", "1.6")
    run("check", str(SPECS / "mp.json"), "--renyi-alpha", "2", "--renyi-epsilon", "1.5", expect=1)


@pytest.mark.parametrize("args, needle", [
    (["check", str(SPECS / "mp.json")], "--lambda"),
    (["check", str(SPECS / "mp.json"), "--lambda", "1/2"], "at least 1"),
    (["check", str(SPECS / "mp.json"), "--lambda", "2", "--delta", "2"], "--delta"),
    (["profile", str(SPECS / "mp.json"), "--epsilon", "1"], "--lambda"),
])
def test_bad_engine_arguments(args, needle):
    p = run(*args, expect=2)
    assert needle in p.stderr and p.stdout == ""


def test_bad_spec_file_names_the_json_path(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text('{"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},'
                 ' "mechanism": {"type": "table", "initial": {"x": "s", "y": "s"},'
                 ' "states": {"s": {"*": [{"p": "abc", "answer": "0", "next": "s"}]}}}}')
    p = run("check", str(f), "--lambda", "2", expect=2)
    assert str(f) in p.stderr and "abc" in p.stderr


def test_a_shortest_witness_is_not_presented_as_the_worst(tmp_path):
    # The witness is the refutation with the fewest rounds (find_violation), not the worst adversary
    # over the horizon. SVT counter with DLap(1/7) noise at horizon 2 and λ = 3: one round already
    # refutes, with a smaller δ than the two-round optimum. The heading must say so, with the numbers
    # of the JSON report (the witness's own P₀(S) − λ·P₁(S), recomputed here).
    spec = json.loads((SPECS / "above-threshold.json").read_text())
    spec["horizon"] = 2
    spec["mechanism"]["params"].update({"r_threshold": "1/7", "r_query": "1/7", "queries": 2})
    path = tmp_path / "svt.json"
    path.write_text(json.dumps(spec))
    r = json.loads(run("check", str(path), "--lambda", "3", "--json", expect=1).stdout)
    w = r["witness"]
    reached = Fraction(w["probability_world0"]) - 3 * Fraction(w["probability_world1"])
    assert Fraction(w["delta"]) == reached
    assert w["rounds"] < r["horizon"] and reached < Fraction(r["delta"])
    text = run("check", str(path), "--lambda", "3", expect=1).stdout
    assert (f"Witness (the shortest refutation: an adversary of {w['rounds']} round that already reaches "
            f"δ = {w['delta']} > 0; the worst adversary over 2 rounds reaches δ = {r['delta']})") in text
    # a witness that is the worst adversary says that instead (MP, λ = 4, δ = 1/4: E.5's 4/15 at full depth)
    mp = run("check", str(SPECS / "mp.json"), "--lambda", "4", "--delta", "1/4", expect=1).stdout
    assert "Witness (the worst adversary)" in mp
