"""Claims with "neighbouring": "replace-one" through exactdp.audit (the library's audit, the same C++ as
``exactdp audit``): judged on each component's replace-one pair (src/exactdp/accounting/replace_one.hpp),
never on the spec's add/remove pair. Expected values come from the replaced pair itself, derived by hand
or computed with mpmath (never exactdp's add/remove route at a doubled sensitivity)."""
import json
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

import exactdp
from exactdp.adapters import reproduce

mpmath.mp.dps = 40


def claim(**keys):
    return {"format": "exactdp-claims/1", "claims": [dict({"id": "c"}, **keys)]}


def inside(x, bracket):
    lo, hi = bracket
    return mpmath.mpf(lo.numerator) / lo.denominator <= x <= mpmath.mpf(hi.numerator) / hi.denominator


def test_laplace_claim_is_refuted_under_replace_one():
    # Lap(x + S, b) against Lap(x - S, b): largest privacy loss 2S/b (hand-derived). b = 1, S = 1:
    # "1-DP" is the add/remove value and false under replace-one, whose least epsilon at delta 0 is 2.
    spec = dict(mechanism="laplace:b=1,sensitivity=1", delta="0", claimed_epsilon="1")
    r = exactdp.audit(claim(neighbouring="replace-one", **spec))[0]
    assert r["verdict"] == "unsound"
    assert r["true_epsilon"] == 2
    assert r["neighbouring"] == "replace-one" and r["analysed"] == ["laplace:b=1,sensitivity=2"]
    r = exactdp.audit(claim(**spec))[0]
    assert r["verdict"] == "sound" and r["neighbouring"] == "add-remove" and "analysed" not in r


def test_gaussian_claim_against_the_closed_form_at_twice_the_sensitivity():
    # N(S, s^2) against N(-S, s^2): the Gaussian closed form at mu = 2S/sigma,
    # delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2); sigma = 3/2, S = 1, eps = 1/3 (mpmath)
    sigma, s, eps = mpmath.mpf(3) / 2, mpmath.mpf(1), mpmath.mpf(1) / 3
    mu = 2 * s / sigma
    truth = mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)  # 0.41080...
    r = exactdp.audit(claim(mechanism="gauss:sigma=3/2", neighbouring="replace-one", epsilon="1/3",
                            claimed_delta="1/3"))[0]
    assert inside(truth, r["true_delta"])
    assert r["verdict"] == "unsound"  # 1/3 < 0.41080; under add/remove (mu = 2/3) delta = 0.15144 <= 1/3
    assert exactdp.audit(claim(mechanism="gauss:sigma=3/2", epsilon="1/3", claimed_delta="1/3"))[0]["verdict"] == "sound"


def test_randomized_response_claim_is_unchanged():
    # RR compares two values of one record: its own pair. lambda = 3, P = (3/4, 1/4), Q = (1/4, 3/4):
    # delta(lambda = 2) = 3/4 - 2/4 = 1/4, so at delta = 1/4 the least lambda is 2 exactly (by hand)
    for relation in ("replace-one", "add-remove"):
        r = exactdp.audit(claim(mechanism="rr:lambda=3", neighbouring=relation, delta="1/4", claimed_epsilon="0.7"))[0]
        assert r["true_lambda"] == 2 and r["verdict"] == "sound", relation


def test_refusal_names_file_pointer_and_value(tmp_path):
    f = tmp_path / "claims.json"
    f.write_text(json.dumps(claim(mechanism="rr:lambda=2", sampling="poisson:q=1/2", neighbouring="replace-one",
                                  delta="0", claimed_epsilon="1")))
    with pytest.raises(exactdp.Error) as e:
        exactdp.audit(str(f))
    text = str(e.value)
    assert str(f) in text and "/claims/0/neighbouring" in text and "replace-one" in text
    assert exactdp._core.replace_one_subsampling_reason() in text


def test_reproducer_truth_of_a_replace_one_row_is_the_replace_one_pair():
    # the reproducer's independent truth for one use of laplace b = 1, S = 1 under replace-one is the
    # Laplace closed form at eps0 = 2S/b = 2: delta(1/2) = 1 - e^((1/2 - 2)/2) (hand-derived)
    row = {"mechanism": "laplace:b=1", "times": 1, "neighbouring": "replace-one",
           "analysed": ["laplace:b=1,sensitivity=2"], "truth": (Fraction(0), Fraction(1))}
    code, note = reproduce.truth_code(row)
    scope = {"mpmath": mpmath}
    exec(code, scope)  # noqa: S102 - the generated block, as the reproducer runs it
    assert abs(scope["true_delta"](mpmath.mpf(1) / 2) - (1 - mpmath.exp(mpmath.mpf(-3) / 4))) < mpmath.mpf(10) ** -30
    # without the analysed spec, never the add/remove closed form: the certified enclosure
    del row["analysed"]
    code, note = reproduce.truth_code(row)
    assert "certified" in note and "EPS0" not in code


def test_explain_record_of_a_replace_question_carries_each_direction():
    # delta_at / epsilon_at with direction="replace", explain=True: the record of compose --direction
    # replace --json's entries (docs/json-output.md). Laplace b = 1, S = 1/2 at eps = 1/4: 1 - e^(-3/8)
    # in each direction of the replace-one pair (hand-derived, its own mirror image); RR lambda = 3 at
    # delta = 1/4: ln 2 in each direction (P = (3/4, 1/4), Q = (1/4, 3/4); delta(2) = 1/4)
    out = exactdp.delta_at("laplace:b=1,sensitivity=1/2", epsilon="1/4", direction="replace", explain=True)
    assert out["direction"] == "replace" and out["neighbouring"] == "replace-one"
    truth = 1 - mpmath.exp(mpmath.mpf(-3) / 8)
    assert inside(truth, out["delta"])
    for d in ("replace", "remove", "add"):
        assert inside(truth, out[d]["delta"]), d
    out = exactdp.epsilon_at("rr:lambda=3", delta="1/4", direction="replace", explain=True)
    for d in ("replace", "remove", "add"):
        assert inside(mpmath.log(2), out[d]["epsilon"]), d
    # the record of the other directions is unchanged, and the private form is refused
    assert "replace" not in exactdp.delta_at("rr:lambda=3", epsilon="1/4", explain=True)
    with pytest.raises(exactdp.Error, match="direction"):
        exactdp.delta_at("rr:lambda=3", epsilon="1/4", direction="replace:add")


POSITIVE = st.fractions(min_value=Fraction(1, 8), max_value=8, max_denominator=16)


@settings(max_examples=25, deadline=None)
@given(b=POSITIVE, s=POSITIVE, k=st.integers(1, 4))
def test_laplace_pure_epsilon_law(b, s, k):
    # k uses of Lap(x + S, b) against Lap(x - S, b): largest privacy loss k * 2S/b, attained (hand-derived),
    # so the least epsilon at delta = 0 is exactly 2kS/b under replace-one and kS/b under add/remove
    base = dict(mechanism=f"laplace:b={b},sensitivity={s}", times=k, delta="0", claimed_epsilon="0")
    r = exactdp.audit(claim(neighbouring="replace-one", **base))[0]
    assert r["true_epsilon"] == 2 * k * s / b
    assert exactdp.audit(claim(**base))[0]["true_epsilon"] == k * s / b


@settings(max_examples=25, deadline=None)
@given(lam=st.fractions(min_value=Fraction(11, 10), max_value=20, max_denominator=20), k=st.integers(1, 3),
       delta=st.fractions(min_value=0, max_value=Fraction(1, 2), max_denominator=50))
def test_randomized_response_law(lam, k, delta):
    # RR is its own replace-one pair: the exact least lambda is the same under both relations
    base = dict(mechanism=f"rr:lambda={lam}", times=k, delta=str(delta), claimed_epsilon="1")
    r1 = exactdp.audit(claim(neighbouring="replace-one", **base))[0]
    r2 = exactdp.audit(claim(neighbouring="add-remove", **base))[0]
    assert r1["true_lambda"] == r2["true_lambda"] and r1["verdict"] == r2["verdict"]
