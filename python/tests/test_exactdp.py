"""Tests of the Python package. Expected values are derived by hand (stated beside each test) or
taken from THEOREMS.md E.3 — never from exactdp itself."""
import json
import math
import os
import subprocess
from fractions import Fraction as F

import pytest

import exactdp

RR3 = [(F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))]  # RR(ln 3)
RR2 = [("2/3", "1/3"), ("1/3", "2/3")]            # RR(ln 2), masses as exact strings


def test_profile_of_two_fold_rr_is_exact():
    # 2-fold RR(ln 2): delta = 1/3, 5/18, 2/9, 0 at lambda = 1, 3/2, 2, 4 (THEOREMS.md E.3)
    profile = exactdp.PrivacyProfile(exactdp.PrivacyLoss.from_masses(RR2).self_compose(2))
    assert [profile.delta(l) for l in (1, F(3, 2), "2", 4)] == [F(1, 3), F(5, 18), F(2, 9), 0]
    assert isinstance(profile.delta(1), F)


def test_least_lambda_matches_theorems_e3():
    loss = exactdp.parse_mechanism_spec("rr:lambda=11/10").exact_loss()
    profile = exactdp.PrivacyProfile(loss.self_compose(10))
    lam = profile.least_lambda(F(1, 1000))
    assert lam == F(81684104240933, 40000000000000)
    lo, hi = profile.least_epsilon("0.001")
    assert isinstance(lo, F) and lo < hi and hi - lo < F(1, 10 ** 30)
    assert F("0.7139799662") < lo <= hi < F("0.7139799663")  # ln(2.0421026060233) = 0.71397996625...


def test_catastrophic_mass_gives_infinite_lambda():
    loss = exactdp.parse_mechanism_spec("rr:lambda=2,delta=1/10").exact_loss()
    assert exactdp.PrivacyProfile(loss).least_lambda("1/20") == math.inf


def test_compose_swapped_and_atoms():
    rr = exactdp.PrivacyLoss.from_masses(RR3)
    assert rr.compose(rr) == rr.self_compose(2) == exactdp.compose(rr, rr)
    assert rr.swapped() == rr  # RR is symmetric
    assert sorted(rr.atoms) == [(F(1, 3), F(1, 4), F(3, 4)), (F(3), F(3, 4), F(1, 4))]
    assert len(rr.self_compose(3)) == 4  # ratios 27, 3, 1/3, 1/27


def test_tradeoff_vertices_of_rr():
    # T(RR(ln 3)) = max(0, 1 - 3a, (1 - a)/3): vertices (0,1), (1/4,1/4), (1,0)
    t = exactdp.TradeOff.of(exactdp.PrivacyLoss.from_masses(RR3))
    assert t.vertices == [(0, 1), (F(1, 4), F(1, 4)), (1, 0)]
    assert t(F(1, 8)) == F(5, 8)


def test_renyi_moment_and_max_ratio():
    rr = exactdp.PrivacyLoss.from_masses(RR3)
    # (9/16)/(1/4) + (1/16)/(3/4) = 9/4 + 1/12 = 7/3
    assert exactdp.renyi_moment(rr, 2) == F(7, 3)
    lo, hi = exactdp.renyi_moment(rr, F(3, 2))
    # (3/4)^1.5 (1/4)^-0.5 + (1/4)^1.5 (3/4)^-0.5 = 2(3/4)^1.5 + (1/8)/sqrt(3/4) = 1.4433756...
    assert F("1.4433756") < lo <= hi < F("1.4433757")
    assert exactdp.max_ratio(rr) == 3


def test_spec_queries_are_certified():
    g = exactdp.parse_mechanism_spec("gauss:sigma=1")
    assert g.family == "gauss" and g.exact_loss() is None
    lo, hi = g.delta_at_epsilon(1)
    # Phi(-1/2) - e Phi(-3/2) = 0.30853754 - 2.71828183 * 0.06680720 = 0.1269367...
    assert F("0.1269") < lo <= hi < F("0.1270")
    assert g.zcdp() == F(1, 2)
    rr = exactdp.parse_mechanism_spec("rr:epsilon=0.5")
    assert rr.parameters["epsilon"] == F(1, 2) and rr.exact_loss() is None
    lo, hi = rr.epsilon_at_delta(0)
    assert lo <= F(1, 2) <= hi
    assert str(exactdp.parse_mechanism_spec("rr:lambda=1.5")) == "rr:lambda=3/2,delta=0"


def test_floats_and_bad_specs_are_refused():
    rr = exactdp.PrivacyLoss.from_masses(RR3)
    with pytest.raises(TypeError):
        exactdp.PrivacyProfile(rr).delta(1.5)
    with pytest.raises(exactdp.Error, match="mechanism"):
        exactdp.parse_mechanism_spec("foo:x=1")
    with pytest.raises(ValueError):
        exactdp.PrivacyLoss.from_masses([("1/2", "1/2"), ("1/3", "1/2")])  # P sums to 5/6


CLAIMS = {"format": "exactdp-claims/1", "claims": [
    {"id": "sound", "mechanism": "rr:lambda=11/10", "times": 10, "delta": "1/1000", "claimed_epsilon": "0.72"},
    {"id": "unsound", "mechanism": "rr:lambda=11/10", "times": 10, "delta": "1/1000", "claimed_epsilon": "0.7"},
    {"id": "tv", "mechanism": "rr:lambda=2", "times": 2, "epsilon": "0", "claimed_delta": "1/2"},
    {"id": "gauss", "mechanism": "gauss:sigma=1", "epsilon": "1", "claimed_delta": "0.12"},
]}


def test_audit_verdicts_and_values(tmp_path):
    r = {x["id"]: x for x in exactdp.audit(CLAIMS)}
    assert r["sound"]["verdict"] == "sound" and r["unsound"]["verdict"] == "unsound"
    assert r["sound"]["true_lambda"] == F(81684104240933, 40000000000000)
    lo, hi = r["sound"]["true_epsilon"]
    assert lo <= F("0.71397996625") <= hi
    assert r["tv"]["true_delta"] == F(1, 3) and r["tv"]["slack"] == {"absolute": F(1, 6), "relative": F(1, 2)}
    assert r["gauss"]["verdict"] == "unsound" and r["gauss"]["exact"] is False
    path = tmp_path / "c.json"
    path.write_text(json.dumps(CLAIMS))
    assert exactdp.audit(path) == exactdp.audit(CLAIMS)


def test_audit_bad_input_names_the_field():
    # a sampling rate above 1 is refused before any work, naming the field
    bad = {"format": "exactdp-claims/1", "claims": [dict(CLAIMS["claims"][0], sampling="poisson:q=2")]}
    with pytest.raises(exactdp.Error, match="/claims/0/sampling"):
        exactdp.audit(bad)


@pytest.mark.skipif(not os.environ.get("EXACTDP_BIN"), reason="EXACTDP_BIN (the CLI) not given")
def test_audit_equals_cli(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(CLAIMS))
    p = subprocess.run([os.environ["EXACTDP_BIN"], "audit", str(path), "--json"], capture_output=True, text=True)
    assert p.returncode == 1
    cli = json.loads(p.stdout)["results"]
    py = exactdp.audit(path)
    assert [c["verdict"] for c in cli] == [x["verdict"] for x in py]
    assert F(cli[2]["true_delta"]) == py[2]["true_delta"]
    assert (F(cli[0]["true_epsilon"]["lo"]), F(cli[0]["true_epsilon"]["hi"])) == py[0]["true_epsilon"]


def test_fractions_beyond_pythons_digit_limit():
    # 8000-fold RR(ln 3): delta(2) has a denominator of 4^8000 (4817 digits), beyond the 4300-digit
    # default limit of Python's decimal int parsing; the value crosses intact. Independent route: the
    # binomial sum sum_j C(k, j) (3^j - 2 * 3^(k-j))^+ / 4^k over j "yes" answers (P = 3^j/4^k per
    # outcome, Q = 3^(k-j)/4^k), here in Python integers.
    k = 8000
    loss = exactdp.PrivacyLoss.from_masses(RR3).self_compose(k)
    d = exactdp.PrivacyProfile(loss).delta(2)
    num, c = 0, 1
    for j in range(k + 1):
        if j:
            c = c * (k - j + 1) // j
        num += c * max(0, 3 ** j - 2 * 3 ** (k - j))
    assert d == F(num, 4 ** k)
    assert d.denominator.bit_length() > 4300 * 3.32
