"""End-to-end tests of `exactdp simulate SPEC --lambda L [--delta D] [--method vw|lyu|lp]`.

Expected values: THEOREMS.md B.8 (V1, V2, V3), B.9 (L1, L3), D.13 and C.5.3 (Mir_p, HSV Lemma
5.6(2)); the catalogue's tables were computed by hand or by two independent exact programs, and
the hand derivation is repeated beside each assertion.
"""
import json
from pathlib import Path

from conftest import run

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"


def simulate(*args, expect=0):
    return run("simulate", *args, expect=expect)


def law(report, history, query, system):
    """The conditional law of `system` at the node with this history (list of [query, answer])."""
    for node in report["simulator"]["nodes"]:
        if node["history"] == history:
            for br in node["branches"]:
                if br["query"] == query:
                    return br["conditional"][system]
    raise KeyError((history, query))


def test_vw_sim_on_r2_reproduces_v1():
    r = json.loads(simulate(str(SPECS / "r2.json"), "--lambda", "4", "--json").stdout)
    assert r["built"] and r["verification"]["verified"] and r["method"] == "vw"
    # V1: root T0 = (4·2/3 − 1/3)/3 = 7/9; after answer 0 (L = 2): T0 = (5/7, 2/7), T1 = (0, 1)
    assert law(r, [], "q", "T^0") == ["7/9", "2/9"]
    assert law(r, [["q", "0"]], "q", "T^0") == ["5/7", "2/7"]
    assert law(r, [["q", "0"]], "q", "T^1") == ["0", "1"]
    assert r["verification"]["full_histories"] == 4
    # RR_ln4 weights (A.2): Pr[RR(0) = 0] = 4/5
    assert r["simulator"]["systems"][0]["weight"] == ["4/5", "1/5"]


def test_vw_sim_on_mp_reproduces_v2_in_text():
    out = simulate(str(SPECS / "mp.json"), "--lambda", "8").stdout
    # V2 hand check at (a0 = 0, q = 0): (8·4/9 − 1/9)/5 = 31/45
    assert "T^0 (31/45, 14/45)" in out and "VERIFIED exactly" in out


def test_v3_rejects_lambda_below_the_pure_level_with_the_witness():
    p = simulate(str(SPECS / "r2.json"), "--lambda", "2", "--json", expect=1)
    r = json.loads(p.stdout)
    assert not r["built"]
    # the two leaves of ratio (2/3)^2/(1/3)^2 = 4 > 2
    assert r["witness_history"] in ([["q", "0"], ["q", "0"]], [["q", "1"], ["q", "1"]])
    assert "not (ln 2, 0)-DP" in r["reason"]
    text = simulate(str(SPECS / "r2.json"), "--lambda", "2", expect=1).stdout
    assert "NO SIMULATOR" in text


def test_lyu_decomp_on_ma_reproduces_l1():
    r = json.loads(simulate(str(SPECS / "ma.json"), "--lambda", "4", "--delta", "1/15", "--json").stdout)
    assert r["method"] == "lyu" and r["verification"]["verified"]
    # L1 table: N'0 at the root (16/21, 5/21); at (0, q=0): (85/128, 43/128); E1 at (0, q=0): (1/4, 3/4)
    assert law(r, [], "0", "N'^0") == ["16/21", "5/21"]
    assert law(r, [["0", "0"]], "0", "N'^0") == ["85/128", "43/128"]
    assert law(r, [["0", "0"]], "0", "E^1") == ["1/4", "3/4"]
    # D at (0,0,0) is (1/15, 1/60) (hand trace in B.9)
    node = next(n for n in r["simulator"]["nodes"] if n["history"] == [["0", "0"], ["0", "0"]])
    assert node["bad_mass"] == ["1/15", "1/60"]


def test_l3_fails_cleanly_below_the_exact_delta():
    r = json.loads(simulate(str(SPECS / "ma.json"), "--lambda", "4", "--delta", "1/16", "--json", expect=1).stdout)
    # λ0(∅) = 1/15 > 1/16; the witness is the catastrophic leaf (0, q=1, 0) with M = (1/15, 0)
    assert "1/15 > δ = 1/16" in r["reason"]
    assert r["witness_history"][-1] == ["1", "0"]


def test_lp_agrees_and_mir_irr_constraints_are_infeasible():
    mir = str(SPECS / "mir-half.json")
    # Mir_1/2 is (ln 2, 1/4)-DP: LYU22 T3 / HSV L4.7 say a simulator exists; the LP finds one
    r = json.loads(simulate(mir, "--lambda", "2", "--delta", "1/4", "--method", "lp", "--json").stdout)
    assert r["verification"]["verified"]
    # with the IRR constraints of HSV L5.6(2): infeasible (hand: they force p = 1/2 <= delta)
    r = json.loads(simulate(mir, "--lambda", "2", "--delta", "1/4", "--method", "lp", "--irr", "--json", expect=1).stdout)
    assert "infeasible" in r["reason"]
    # at delta = p = 1/2 the bound is met and the constrained LP is feasible
    simulate(mir, "--lambda", "2", "--delta", "1/2", "--method", "lp", "--irr")


def test_bad_input_exits_2_naming_the_field():
    p = simulate(str(SPECS / "ma.json"), "--lambda", "1/2", expect=2)
    assert "--lambda" in p.stderr and "1/2" in p.stderr
    p = simulate(str(SPECS / "ma.json"), "--lambda", "4", "--delta", "3/2", expect=2)
    assert "--delta" in p.stderr
    p = simulate(str(SPECS / "ma.json"), "--lambda", "4", "--method", "magic", expect=2)
    assert "--method" in p.stderr and "magic" in p.stderr
    p = simulate(str(SPECS / "ma.json"), "--lambda", "4", "--delta", "1/15", "--method", "vw", expect=2)
    assert "--delta" in p.stderr
    p = simulate("/nonexistent/spec.json", "--lambda", "4", expect=2)
    assert "/nonexistent/spec.json" in p.stderr


def test_lp_solvers_agree_and_the_subtree_solver_reaches_past_the_dense_limit():
    mir = str(SPECS / "mir-half.json")
    # both exact solvers: the (S3)-constrained LP of Mir_1/2 at delta 1/4 is infeasible (C.5.3: the
    # constraints force p = 1/2 <= delta); on a tree this small the subtree solver's verdict is also
    # established by the dense LP, whose Farkas certificate is checked exactly
    for solver in ("subtree", "dense"):
        r = json.loads(simulate(mir, "--lambda", "2", "--delta", "1/4", "--method", "lp", "--irr", "--lp-solver", solver,
                           "--json", expect=1).stdout)
        assert "Farkas certificate" in r["reason"]
    # the SVT counter (E.10 H12) at horizon 2 has 349 histories, above the old dense limit of 300;
    # its pure level at T = 2 is 418/157 (E.10 H12), so the delta = 0 LP is feasible there
    r = json.loads(simulate(str(SPECS / "above-threshold.json"), "--horizon", "2", "--lambda", "418/157", "--method", "lp",
                       "--json").stdout)
    assert r["verification"]["verified"] and len(r["simulator"]["nodes"]) == 349
    p = simulate(mir, "--lambda", "2", "--delta", "1/4", "--method", "lp", "--lp-solver", "simplex", expect=2)
    assert "--lp-solver" in p.stderr and "simplex" in p.stderr


COMPOSITES = Path(__file__).resolve().parents[2] / "spec" / "composites"


def check_composite(*args, expect=0):
    return run("check-composite", *args, expect=expect)


def test_check_composite_on_the_bundled_files():
    # a forwarder: what it does depends on sub-mechanism answers only (all three conditions hold)
    r = json.loads(check_composite(str(COMPOSITES / "forwarder.json"), "--json").stdout)
    assert r["holds"] and r["steps_checked"] > 0
    # answering input 1 directly but asking on input 0: the copies on (0, 1) go different ways
    r = json.loads(check_composite(str(COMPOSITES / "brancher.json"), "--json", expect=1).stdout)
    assert r["violation"]["condition"] == "destination"
    assert r["violation"]["trace"][-1] in ("left (0, 1)", "left (1, 0)")
    out = check_composite(str(COMPOSITES / "brancher.json"), expect=1).stdout
    assert "VIOLATED: destination" in out
    # the library's composites (HSV §7–9) and the leaky histogram
    for name in ("hss-histogram.json", "ldp-threshold-protocol.json", "core-decomposition.json"):
        assert "HOLDS" in check_composite(str(COMPOSITES / name)).stdout
    r = json.loads(check_composite(str(COMPOSITES / "hss-histogram-leaky.json"), "--json", expect=1).stdout)
    assert r["violation"]["condition"] == "destination"


def test_check_composite_table_that_echoes_the_raw_input_violates_response(tmp_path):
    f = tmp_path / "echo.json"
    f.write_text(json.dumps({
        "format": "exactdp-composite/1", "horizon": 4,
        "processor": {"initial": "idle", "states": {
            "idle": {"L": {"0": {"next": "got0", "to": "R", "message": "q"}, "1": {"next": "got1", "to": "R", "message": "q"}}},
            "got0": {"R": {"*": {"next": "idle", "to": "L", "message": "zero"}}},
            "got1": {"R": {"*": {"next": "idle", "to": "L", "message": "one"}}}}},
        "input_relation": {"type": "pairs", "allowed": [["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]], "max_differing": 1},
        "output_relation": {"type": "automaton", "initial": "s", "states": {"s": [{"pair": ["q", "q"], "next": "s"}]}},
        "answers": ["a", "b"]}))
    r = json.loads(check_composite(str(f), "--json", expect=1).stdout)
    # the stored raw input comes back as the answer: two steps (a differing pair, then any answer)
    assert r["violation"]["condition"] == "response" and len(r["violation"]["trace"]) == 2


def test_check_composite_bad_input_names_file_path_and_value(tmp_path):
    f = tmp_path / "bad.json"
    base = json.loads((COMPOSITES / "forwarder.json").read_text())
    cases = [
        (dict(base, format="exactdp/1"), "/format", "exactdp/1"),
        (dict(base, horizon=0), "/horizon", "0"),
        (dict(base, input_relation={"type": "graph"}), "/input_relation/type", "graph"),
        (dict(base, processor={"initial": "nowhere", "states": base["processor"]["states"]}), "/processor/initial", "nowhere"),
        (dict(base, answers=[]), "/answers", "[]"),
        (dict(base, colour="blue"), "/colour", "blue"),
        ({"format": "exactdp-composite/1", "library": "hss-histogram", "params": {"d": 5}}, "/params/d", "5"),
        ({"format": "exactdp-composite/1", "library": "histogram"}, "/library", "histogram"),
        ({"format": "exactdp-composite/1", "library": "hss-histogram", "params": {"r_node": 0.25}}, "/params/r_node", "0.25"),
    ]
    for doc, path, value in cases:
        f.write_text(json.dumps(doc))
        p = check_composite(str(f), expect=2)
        assert str(f) in p.stderr and path in p.stderr and value in p.stderr, (path, p.stderr)
    p = check_composite("/nonexistent/composite.json", expect=2)
    assert "/nonexistent/composite.json" in p.stderr


def test_bundled_hsv_composites_through_the_engine():
    def profile(spec):
        p = run("profile", SPECS / spec, "--json")
        return json.loads(p.stdout)
    # E.10 H15 (computed from the B.13 sums; twelve digits confirmed by truncated summation)
    assert profile("core-decomposition.json")["pure"]["ratio"] == "174724/24649"
    # HSV §7.2: the histogram is within e^eps = 16^3 (each group e^(eps/3) = 16)
    num, den = (int(x) for x in profile("hss-histogram.json")["pure"]["ratio"].split("/"))
    assert 1 < num / den and num <= 4096 * den
