"""End-to-end tests of `exactdp profile` and `exactdp check` on the bundled library specs
(`"mechanism": {"type": "library", ...}`, spec/mechanisms/README.md).

Expected values: THEOREMS.md E.10 (H4, H12, H13 — computed there by independent exact programs)
and the closed forms stated beside each test.
"""
import json
from pathlib import Path

from conftest import run

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"


def test_profile_of_tree_counter_is_three_composed_rr2():
    r = json.loads(run("profile", str(SPECS / "tree-counter.json"), "--lambda", "1", "--lambda", "3/2", "--lambda", "2",
                       "--lambda", "4", "--lambda", "8", "--json").stdout)
    # E.10 H13: δ(λ) = 13/27, 19/54, 2/9, 4/27, 0 = Comp(RR₂ × 3); pure level 8 = 2³
    assert r["horizon"] == 4
    assert [e["delta"] for e in r["at"]] == ["13/27", "19/54", "2/9", "4/27", "0"]
    assert r["pure"]["ratio"] == "8"


def test_check_svt_counter_claim_and_worst_ratio():
    # E.10 H12: the worst likelihood ratio at horizon 3 is 2216/629 ≤ 16 = e^{2ε′}
    r = json.loads(run("profile", str(SPECS / "above-threshold.json"), "--json").stdout)
    assert r["pure"]["ratio"] == "2216/629"
    run("check", str(SPECS / "above-threshold.json"), "--lambda", "16")
    run("check", str(SPECS / "above-threshold.json"), "--lambda", "2216/629")
    # just below the exact level the pure claim is refuted, with a witness
    p = run("check", str(SPECS / "above-threshold.json"), "--lambda", "2215/629", "--json", expect=1)
    w = json.loads(p.stdout)
    assert w["verdict"] == "refuted" and "witness" in w


def test_check_m_delta_is_zero_delta():
    # E.10 H4: sup H_λ = 1/10 at every λ ≥ 1: (0, 1/10)-DP holds, (ln 100, 1/20)-DP is refuted
    run("check", str(SPECS / "m-delta.json"), "--lambda", "1", "--delta", "1/10")
    p = run("check", str(SPECS / "m-delta.json"), "--lambda", "100", "--delta", "1/20", "--json", expect=1)
    r = json.loads(p.stdout)
    assert r["delta"] == "1/10"
    # the witness: the mechanism leaked ("bot") and the second pair differs
    assert r["witness"]["probability_world0"] in ("1/10", "0") and r["witness"]["delta"] == "1/10"


def test_library_spec_errors_name_file_path_and_value(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "exactdp/1", "mechanism": {"type": "library", "name": "svt"}}))
    p = run("profile", str(bad), expect=2)
    assert "bad.json" in p.stderr and "/mechanism/name" in p.stderr and "svt" in p.stderr and "tree-counter" in p.stderr
    bad.write_text(json.dumps({"format": "exactdp/1",
                               "mechanism": {"type": "library", "name": "tree-counter", "params": {"height": 2, "r": "2"}}}))
    p = run("check", str(bad), "--lambda", "8", expect=2)
    assert "/mechanism/params/r" in p.stderr and '"2"' in p.stderr
