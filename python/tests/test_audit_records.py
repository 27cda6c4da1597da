"""exactdp.audit_all.judge on hand-made records: estimates are never unsound, raw numbers outside
exactdp's range (negative epsilon, delta outside [0, 1]) are judged as returned, never clamped.

The mechanism is randomized response with lambda = 3/2 (P = (3/5, 2/5), Q = (2/5, 3/5), replace-one),
whose hockey-stick divergences are two-term sums computed by hand here:
H_g(P||Q) = (3/5 - 2g/5)^+ + (2/5 - 3g/5)^+ (and the same for Q||P by symmetry). So delta(0) = 1/5,
the least epsilon at delta = 0.3 is 0 and at delta = 1e-5 it is ln(3/2) - a little (positive).
"""
import math
from fractions import Fraction

from exactdp.adapters import _common as C
from exactdp.audit_all import judge

SPEC = "rr:lambda=3/2"


def hockey(g):
    """H_g of RR(3/2), by hand (module docstring)."""
    return max(0.0, 0.6 - 0.4 * g) + max(0.0, 0.4 - 0.6 * g)


def record(cid, guarantee="bound", eps=None, delta=None, at_delta=None, at_eps=None):
    common = dict(neighbouring="replace-one", package="exactdp", path=f"test.{cid}", guarantee=guarantee)
    if eps is not None:
        return C.epsilon_claim(cid, SPEC, 1, at_delta, eps, "hand", **common)
    return C.delta_claim(cid, SPEC, 1, at_eps, delta, "hand", **common)


def rows(*records):
    return {r["id"]: r for r in judge(C.document("hand", list(records)))}


def test_negative_epsilon_is_judged_not_clamped():
    # truth 0 at delta 0.3 (delta(0) = 0.2 <= 0.3). A claim of -0.1: delta(-0.1) = H_{e^-0.1} = 0.238 <= 0.3,
    # so (-0.1, 0.3)-DP holds; a claim of -0.5: H_{e^-0.5} = 0.393 > 0.3, it does not. Clamped to 0,
    # both would be sound.
    assert hockey(math.exp(-0.1)) < 0.3 < hockey(math.exp(-0.5))
    r = rows(record("a", eps=-0.1, at_delta=0.3), record("b", eps=-0.5, at_delta=0.3),
             record("c", eps=-1e-3, at_delta=1e-5))
    assert r["a"]["raw"] == -0.1 and r["a"]["claimed"] == Fraction(-0.1)
    assert r["a"]["verdict"] == "sound" and r["b"]["verdict"] == "unsound"
    assert r["a"]["judged_by"].startswith("exactdp.audit_all (negative epsilon")
    # at delta = 1e-5 the truth is positive: any negative claim is unsound, with a negative slack
    assert r["c"]["verdict"] == "unsound"
    lo, hi = r["c"]["slack_absolute"]
    assert lo <= hi < 0


def test_delta_outside_unit_interval():
    r = rows(record("neg", delta=-1e-12, at_eps=1.0), record("big", delta=1.5, at_eps=1.0))
    assert r["neg"]["verdict"] == "unsound" and r["neg"]["raw"] == -1e-12
    assert r["big"]["verdict"] == "sound" and r["big"]["raw"] == 1.5


def test_estimates_are_reported_with_their_error_never_unsound():
    # an estimate far below the truth (ln(3/2) = 0.405 at delta 0): reported, not counted unsound
    est = record("e", guarantee="estimate", eps=0.1, at_delta=0.0)
    est["documented_error"] = {"eps_error": 0.01}
    bound = record("b", eps=0.1, at_delta=0.0)
    r = rows(est, bound)
    assert r["b"]["verdict"] == "unsound"
    assert r["e"]["verdict"] == "estimate" and r["e"]["versus_truth"] == "below the truth"
    assert r["e"]["within_documented_error"] is False  # |0.1 - 0.405| > 0.01
    lo, hi = r["e"]["error"]["absolute"]
    assert abs(float(lo) - (0.1 - math.log(1.5))) < 1e-9 and lo <= hi < 0  # 10 digits, rounded outward
    close = record("e2", guarantee="estimate", eps=math.log(1.5) + 0.005, at_delta=0.0)
    close["documented_error"] = {"eps_error": 0.01}
    assert rows(close)["e2"]["within_documented_error"] is True


def test_records_refuse_unknown_guarantees_and_missing_paths():
    import pytest

    with pytest.raises(ValueError):
        C.epsilon_claim("x", SPEC, 1, 1e-5, 1.0, "hand", package="p", path="p.f", guarantee="upper")
    with pytest.raises(ValueError):
        C.epsilon_claim("x", SPEC, 1, 1e-5, 1.0, "hand", package="p", path="", guarantee="bound")
    # exactdp's claim keeps the claim keys only, with the path and guarantee as documentation
    rec = C.epsilon_claim("x", SPEC, 1, 1e-5, 1.0, "hand", package="p", path="p.f", guarantee="bound", call="value = 1")
    claim = C.exactdp_claim(rec)
    assert claim["source"] == "p.f" and "guarantee=bound" in claim["comment"]
    assert not {"path", "guarantee", "raw", "call", "package", "version"} & set(claim)


def test_exactdp_verdict_words_are_read_through_one_table(monkeypatch):
    import pytest

    from exactdp import audit_all

    rec = record("w", eps=1.0, at_delta=1e-5)
    fake = {"id": "w", "true_epsilon": Fraction(1), "slack": None, "exact": True}
    for word, expected in (("holds", "sound"), ("refuted", "unsound"), ("undecided", "undecided")):
        monkeypatch.setattr(audit_all, "_audit", lambda *a, word=word: [dict(fake, verdict=word)])
        assert judge(C.document("hand", [rec]))[0]["verdict"] == expected
    monkeypatch.setattr(audit_all, "_audit", lambda *a: [dict(fake, verdict="maybe")])
    with pytest.raises(RuntimeError, match="unknown exactdp verdict 'maybe'"):
        judge(C.document("hand", [rec]))


def test_a_call_that_raises_is_listed_not_dropped():
    calls = C.Calls()
    assert calls.value("base = 2", "base ** 3") == 8
    assert calls.answer("x", "test.divide", "base = 2", "base / 0") is None
    assert calls.failures == [{"id": "x", "path": "test.divide", "error": "ZeroDivisionError: division by zero"}]
    doc = C.document("hand", [record("ok", eps=1.0, at_delta=1e-5)], calls.failures)
    assert doc["failures"] == calls.failures and "failures" not in C.exactdp_document(doc)


def test_a_zero_delta_below_the_double_range_is_underflow_not_beyond_rounding():
    from exactdp.audit_all import _beyond_rounding, _underflow

    # hand-made rows: a truth of 2^-1100 (not representable) and one of 1e-300 (representable)
    tiny = {"verdict": "unsound", "kind": "delta", "claimed": Fraction(0), "truth": Fraction(1, 2 ** 1100), "rel_f": -1.0}
    small = dict(tiny, truth=Fraction(1, 10 ** 300))
    assert _underflow(tiny) and not _beyond_rounding(tiny)
    assert not _underflow(small) and _beyond_rounding(small)
