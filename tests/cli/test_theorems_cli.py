"""End-to-end tests of `exactdp theorems` (the theorem registry of proofs_checks/).

The numbers asserted here are the catalogue's (THEOREMS.md E.3, E.5): the checks recompute them by
the routes named in proofs_checks/; these tests check what the command reports and its exit codes.
"""
import json
from pathlib import Path

import pytest

from conftest import SANITIZED, run

ROOT = Path(__file__).resolve().parents[2]


def test_list_names_every_page():
    out = run("theorems").stdout
    ids = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert "BG-KOV15-OPT" in ids and "HSV-T5.2" in ids and "LYU22-T1" in ids
    assert len(ids) == len(set(ids))
    # one generated page per registered theorem
    pages = {p.stem for p in (ROOT / "spec" / "theorems").glob("*.md")} - {"README"}
    assert pages == set(ids)


def test_check_json_shape_and_values():
    r = json.loads(run("theorems", "check", "BG-KOV15-OPT", "X-BI-EXACT", "--budget", "small", "--seed", "3", "--json").stdout)
    assert r["seed"] == 3 and r["budget"] == "small"
    rows = {t["id"]: t for t in r["theorems"]}
    assert set(rows) == {"BG-KOV15-OPT", "X-BI-EXACT"}
    for t in rows.values():
        assert t["kind"] == "POSITIVE" and t["result"] == "confirmed"
        assert set(t) >= {"status", "named_instances", "random_instances", "largest_horizon", "summary", "seconds",
                          "instances", "counterexamples", "notes"}
        assert t["counterexamples"] == []
    kov = {i["name"]: i["outcome"] for i in rows["BG-KOV15-OPT"]["instances"]}
    # E.3: RR₂ × 3 at λ_g = 3/2 → 19/54; least λ_g of RR₃ × 3 at δ_g = 1/10 → 103/5
    assert any(name.endswith("δ_opt(3/2) by OPT-COMP") and out == "19/54" for name, out in kov.items())
    assert kov["RR(λ=3, δ=0) ⊗ RR(λ=3, δ=0) ⊗ RR(λ=3, δ=0): least λ_g at δ_g = 1/10"] == "103/5"
    bi = {i["name"]: i["outcome"] for i in rows["X-BI-EXACT"]["instances"]}
    assert bi["MP: sup H_2 (E.5)"] == "(2/9, 2/5)"  # E.5 P1
    assert rows["X-BI-EXACT"]["largest_horizon"] >= 2


def test_random_count_is_honoured():
    r = json.loads(run("theorems", "check", "X-HS-REFLECT", "--random", "5", "--json").stdout)
    assert r["theorems"][0]["random_instances"] == 5


def test_negative_check_reports_reproduced():
    r = json.loads(run("theorems", "check", "X-RENYI-CHAIN-EXP", "--json").stdout)
    assert r["theorems"][0]["kind"] == "NEGATIVE" and r["theorems"][0]["result"] == "reproduced"


def test_table_rows():
    # a row of each kind: checked entries, and (while the registry still has one) an entry without a check
    unchecked = [line.split()[0] for line in run("theorems").stdout.splitlines() if "not yet checked" in line]
    out = run("theorems", "check", "BG-DKMMN06-BASIC", "VW21-L2", *unchecked[:1], "--budget", "small").stdout
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["ID", "kind", "instances", "horizon"]
    rows = {line.split()[0]: line for line in lines[1:] if line and not line.startswith(" ")}
    assert "confirmed" in rows["BG-DKMMN06-BASIC"]
    assert "confirmed" in rows["VW21-L2"]
    if unchecked:
        assert "not yet checked" in rows[unchecked[0]]


def test_unknown_id_is_bad_input():
    p = run("theorems", "check", "BG-KOV15-OPT", "HSV-T99.9", expect=2)
    assert "HSV-T99.9" in p.stderr


def test_bad_budget_is_bad_input():
    run("theorems", "check", "--budget", "huge", expect=2)


# Release only: `theorems docs` runs every check of the registry, which the sanitized build already
# runs once in the gtests TheoremRegistry/EveryTheorem.* (comparing each page with its run); what this
# test adds, the command writing the files, is a few lines that the sanitizers have nothing to say about.
@pytest.mark.skipif(SANITIZED, reason="every check already runs under the sanitizers in TheoremRegistry/EveryTheorem.*")
def test_docs_regenerate_identically(tmp_path):
    run("theorems", "docs", "--out", str(tmp_path / "pages"), "--doxygen", str(tmp_path / "theorems.md"))
    for page in (tmp_path / "pages").glob("*.md"):
        assert page.read_text() == (ROOT / "spec" / "theorems" / page.name).read_text(), page.name
    assert (tmp_path / "theorems.md").read_text() == (ROOT / "docs" / "theorems.md").read_text()
