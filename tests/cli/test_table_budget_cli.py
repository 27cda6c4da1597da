"""A mechanism SPEC whose one-use tables would not fit the memory budget is refused when it is read,
with the estimate and the option that raises the budget (`--max-memory`), in every command that
reads SPECs: audit (claims files), compose and calibrate's fixed keys.

Expected values: dlaplace:r=1/2,sensitivity=S has S + 1 outcomes whose masses carry 2^-k, so one
law holds about S²/2 bits; at S = 524289 that is ~1.7·10^10 bytes, far above 1 GiB (hand-derived).
The boundary at --max-memory 1 (1 MiB) is from the documented estimate (MechanismSpec::table_size,
accounting/mechanism_spec.cpp): 30 bytes of peak per byte of a law's digits, 256 per outcome,
a law's digits 34/32·S(S+1)/2 + 12·(S+1) bits for r = 1/2: S = 653 gives 1 047 639 bytes
(accepted), S = 654 gives 1 050 546 (refused).
"""
import json

from conftest import run

HUGE = "dlaplace:r=1/2,sensitivity=524289"


def test_claims_file_refuses_a_huge_table_naming_the_pointer(tmp_path):
    f = tmp_path / "claims.json"
    f.write_text(json.dumps({"format": "exactdp-claims/1", "claims": [
        {"id": "ok", "mechanism": "rr:lambda=3", "delta": "0", "claimed_epsilon": "2"},
        {"id": "huge", "mechanism": HUGE, "delta": "1e-5", "claimed_epsilon": "1"}]}))
    p = run("audit", f, expect=2)
    assert str(f) in p.stderr and "/claims/1/mechanism" in p.stderr and HUGE in p.stderr
    assert "estimated at" in p.stderr and "524290 outcomes" in p.stderr and "--max-memory" in p.stderr


def test_claims_with_sampling_and_heterogeneous_are_refused_before_any_table(tmp_path):
    # both forms used to build the table while the file was read (exact_loss() as a test of finiteness)
    f = tmp_path / "claims.json"
    f.write_text(json.dumps({"format": "exactdp-claims/1", "claims": [
        {"id": "s", "mechanism": HUGE, "sampling": "poisson:q=1/10", "delta": "1e-5", "claimed_epsilon": "1"}]}))
    assert "/claims/0/mechanism" in run("audit", f, expect=2).stderr
    f.write_text(json.dumps({"format": "exactdp-claims/1", "claims": [
        {"id": "h", "mechanisms": [{"mechanism": "rr:lambda=2"}, {"mechanism": HUGE, "times": 2}],
         "delta": "1e-5", "claimed_epsilon": "1"}]}))
    assert "/claims/0/mechanisms/1/mechanism" in run("audit", f, expect=2).stderr


def test_compose_refuses_a_huge_table_naming_the_flag():
    p = run("compose", "-m", HUGE, "--epsilon", "1", expect=2)
    assert "--mechanism" in p.stderr and "dlaplace:sensitivity" in p.stderr and "524289" in p.stderr
    assert "--max-memory" in p.stderr


def test_max_memory_sets_the_boundary_just_under_is_accepted():
    # hand-computed from the documented estimate (module docstring): 653 fits 1 MiB, 654 does not
    ok = json.loads(run("compose", "-m", "dlaplace:r=1/2,sensitivity=653", "--max-memory", "1", "--lambda", "1",
                        "--json").stdout)
    # total variation of DLap(r) at 0 and at S = 2m + 1 (hand-derived from the D.3 tails Pr[Z >= n] =
    # r^n/(1 + r)): Pr_P[X <= m] - Pr_Q[X <= m] = 1 - r^(m+1)/(1 + r) - r^(m+1)/(1 + r), m = 326
    from fractions import Fraction
    r = Fraction(1, 2)
    assert Fraction(ok["at"][0]["delta"]) == 1 - 2 * r ** 327 / (1 + r)
    p = run("compose", "-m", "dlaplace:r=1/2,sensitivity=654", "--max-memory", "1", "--lambda", "1", expect=2)
    assert "above the memory budget of 1.0 MiB" in p.stderr
    run("compose", "-m", "dlaplace:r=1/2,sensitivity=654", "--lambda", "1")  # the default budget takes it


def test_audit_max_memory_raises_the_table_budget(tmp_path):
    f = tmp_path / "claims.json"
    f.write_text(json.dumps({"format": "exactdp-claims/1", "claims": [
        {"id": "c", "mechanism": "dlaplace:r=1/2,sensitivity=654", "epsilon": "0", "claimed_delta": "1"}]}))
    assert "/claims/0/mechanism" in run("audit", f, "--max-memory", "1", expect=2).stderr
    run("audit", f, "--max-memory", "2")  # δ ≤ 1 always holds
