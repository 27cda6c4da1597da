"""`--direction` and negative ε in `exactdp compose` and `exactdp profile` (issue 20, items 1 and 2).

Expected values are hand-derived from the tables: randomized response with λ = 3 is the pair
P = (3/4, 1/4), Q = (1/4, 3/4); Poisson-subsampled at q = 1/2 its remove pair is A = (1/2, 1/2)
against B = Q (amplification/poisson.hpp). Then
  remove H_λ(A‖B) = (1/2 − λ/4)⁺ + (1/2 − 3λ/4)⁺,   add H_λ(B‖A) = (1/4 − λ/2)⁺ + (3/4 − λ/2)⁺.
"""
import json
import math
from decimal import Decimal
from fractions import Fraction as F

from conftest import run


def compose(*args):
    return json.loads(run("compose", *args, "--json").stdout)


def remove(l):
    return max(F(0), F(1, 2) - l / 4) + max(F(0), F(1, 2) - 3 * l / 4)


def add(l):
    return max(F(0), F(1, 4) - l / 2) + max(F(0), F(3, 4) - l / 2)


SUB = ["-m", "rr:lambda=3", "--sampling", "poisson:q=1/2"]


def test_per_direction_values_by_hand():
    r = compose(*SUB, "--lambda", "6/5", "--lambda", "1/2", "--lambda", "1/3")
    assert r["direction"] == "both"
    for e in r["at"]:
        l = F(e["lambda"])
        assert F(e["remove"]["delta"]) == remove(l)
        assert F(e["add"]["delta"]) == add(l)
        assert F(e["delta"]) == max(remove(l), add(l))


def test_direction_selects_the_reported_delta():
    for d, f in (("remove", remove), ("add", add)):
        r = compose(*SUB, "--lambda", "6/5", "--direction", d)
        assert r["direction"] == d
        assert F(r["at"][0]["delta"]) == f(F(6, 5))


def test_least_epsilon_per_direction():
    # add: 3/4 − λ/2 ≤ 1/10 at λ = 13/10; remove: 1/2 − λ/4 ≤ 1/10 at λ = 8/5 (the second term is 0 there)
    r = compose(*SUB, "--delta", "1/10", "--direction", "add")
    e = r["least"][0]
    assert e["lambda"] == "13/10" and e["add"]["lambda"] == "13/10" and e["remove"]["lambda"] == "8/5"
    lo, hi = float(e["epsilon"]["lo"]), float(e["epsilon"]["hi"])
    assert lo <= math.log(1.3) <= hi


def test_negative_epsilon_obeys_the_identity():
    # ε = −1/2: remove(e^ε) = 1 − e^ε + e^ε·add(e^{−ε}) with add(e^{1/2}) = 0, so remove = 1 − e^{−1/2}
    r = compose(*SUB, "--epsilon", "-0.5")
    e = r["at"][0]
    lam = math.exp(-0.5)
    for key, want in (("remove", 1 - lam), ("add", add(F(lam)))):
        v = e[key]["delta"]
        assert float(v["lo"]) - 1e-9 <= float(want) <= float(v["hi"]) + 1e-9


def test_negative_epsilon_on_a_closed_form():
    # GDP profile (DRS22) at μ = 1, ε = −1/2: Φ(1) − e^{−1/2}·Φ(0) = 0.5380794162 (by hand)
    r = compose("-m", "gauss:sigma=1", "--epsilon", "-1/2", "--direction", "add")
    v = r["at"][0]["delta"]
    assert float(v["lo"]) <= 0.53807941625 <= float(v["hi"]) + 1e-10
    assert r["at"][0]["remove"]["delta"] == v  # symmetric pair: one value


def test_lambda_below_one_on_the_binomial_route():
    # 10⁵ uses of RR λ = 3/2: at λ = 1/2 the identity gives 1 − 1/2 + 1/2·δ(2) ≥ 1/2
    r = compose("-m", "rr:lambda=3/2", "--times", "100000", "--lambda", "1/2")
    assert r["plan"]["route"] == "binomial"
    v = r["at"][0]["delta"]
    assert float(v["lo"]) >= 0.5 - 1e-12 and float(v["hi"]) <= 1


def test_profile_of_a_pair_file(tmp_path):
    pair = tmp_path / "pair.json"
    pair.write_text(json.dumps({"format": "exactdp-pair/1", "P": {"a": "1/2", "b": "1/2"}, "Q": {"a": "1/4", "b": "3/4"}}))
    r = json.loads(run("profile", str(pair), "--lambda", "6/5", "--direction", "remove", "--json").stdout)
    assert r["at"][0]["delta"] == "1/5" and r["at"][0]["add"]["delta"] == "3/20"


def test_replace_and_unknown_directions_are_refused():
    p = run(*(["compose"] + SUB + ["--direction", "replace"]), expect=2)
    assert "replace-one" in p.stderr and "Poisson" in p.stderr
    p = run("compose", "-m", "rr:lambda=3", "--direction", "sideways", expect=2)
    assert "sideways" in p.stderr
    run("compose", "-m", "rr:lambda=3", "--lambda", "0", expect=2)


def audit(tmp_path, claims, expect):
    f = tmp_path / "claims.json"
    f.write_text(json.dumps({"format": "exactdp-claims/1", "claims": claims}))
    p = run("audit", f, "--json", expect=expect)
    return {r["id"]: r for r in json.loads(p.stdout)["results"]}


def test_audit_checks_one_direction(tmp_path):
    # true least ε at δ = 1/10: add ln(13/10) = 0.26236, remove ln(8/5) = 0.47000, both the max
    base = {"mechanism": "rr:lambda=3", "sampling": "poisson:q=1/2", "delta": "1/10", "claimed_epsilon": "0.27"}
    r = audit(tmp_path, [dict(base, id="add", direction="add"), dict(base, id="both"),
                         dict(base, id="remove", direction="remove")], expect=1)
    assert r["add"]["verdict"] == "sound" and r["add"]["direction"] == "add"
    assert r["both"]["verdict"] == "unsound" and "direction" not in r["both"]
    assert r["remove"]["verdict"] == "unsound"
    # δ at ε = 0 in the add direction: (3/4 − 1/2) = 1/4 exactly
    r = audit(tmp_path, [{"id": "d", "mechanism": "rr:lambda=3", "sampling": "poisson:q=1/2", "epsilon": "0",
                          "claimed_delta": "1/4", "direction": "add"}], expect=0)
    assert r["d"]["verdict"] == "sound"


def test_audit_refuses_an_unknown_direction(tmp_path):
    f = tmp_path / "claims.json"
    f.write_text(json.dumps({"format": "exactdp-claims/1", "claims": [
        {"id": "x", "mechanism": "rr:lambda=3", "delta": "0", "claimed_epsilon": "2", "direction": "replace"}]}))
    p = run("audit", f, expect=2)
    assert "/claims/0/direction" in p.stderr


# --- replace-one (accounting/replace_one.hpp) ---------------------------------------------------------

def test_replace_one_of_additive_noise_by_hand():
    # dlaplace r = 1/2, sensitivity 1, replace-one: the two laws are DLap(1/2) centred 2 apart, whose
    # largest likelihood ratio is r^-2 = 4 (hand-derived): the least lambda at delta = 0 is 4 exactly
    r = compose("-m", "dlaplace:r=1/2", "--delta", "0", "--direction", "replace")
    assert r["direction"] == "replace" and r["neighbouring"] == "replace-one"
    assert r["least"][0]["lambda"] == "4" and r["least"][0]["replace"]["lambda"] == "4"
    # add/remove: r^-1 = 2
    assert compose("-m", "dlaplace:r=1/2", "--delta", "0")["least"][0]["lambda"] == "2"
    # Laplace b = 1, S = 1/2, replace-one Lap(x + S) against Lap(x - S): delta(eps) = 1 - e^((eps - 2S/b)/2)
    r = compose("-m", "laplace:b=1,sensitivity=1/2", "--epsilon", "1/4", "--direction", "replace")
    v = r["at"][0]["replace"]["delta"]
    # the truth in decimal at 28 digits (Decimal's exp is correctly rounded), not a binary float
    assert Decimal(v["lo"]) <= 1 - Decimal(-3 / Decimal(8)).exp() <= Decimal(v["hi"])


def test_replace_one_of_randomized_response_is_its_own_pair():
    # RR with lambda = 3: P = (3/4, 1/4), Q = (1/4, 3/4); delta(2) = 3/4 - 2/4 = 1/4 either way
    r = compose("-m", "rr:lambda=3", "--lambda", "2", "--direction", "replace")
    assert r["at"][0]["delta"] == "1/4" and r["at"][0]["replace"]["delta"] == "1/4"


def test_replace_one_json_carries_each_direction_of_the_replace_one_pair():
    # the replace-one pair's remove and add values beside its max, as under "both" (docs/json-output.md).
    # RR lambda = 3 at lambda = 2 and delta = 1/4: 3/4 - 2/4 = 1/4 in each direction, least lambda 2 (by
    # hand); Laplace b = 1, S = 1/2 at eps = 1/4: 1 - e^(-3/8) in each direction (the pair Lap(x + S)
    # against Lap(x - S) is its own mirror image)
    r = compose("-m", "rr:lambda=3", "--lambda", "2", "--delta", "1/4", "--direction", "replace")
    at, least = r["at"][0], r["least"][0]
    for d in ("remove", "add", "replace"):
        assert at[d] == {"delta": "1/4"}, d
        assert least[d]["lambda"] == "2", d
    r = compose("-m", "laplace:b=1,sensitivity=1/2", "--epsilon", "1/4", "--direction", "replace")
    at = r["at"][0]
    truth = 1 - Decimal(-3 / Decimal(8)).exp()
    for d in ("remove", "add", "replace"):
        v = at[d]["delta"]
        assert Decimal(v["lo"]) <= truth <= Decimal(v["hi"]), d


def test_replace_one_refusals_name_the_reason(tmp_path):
    pair = tmp_path / "pair.json"
    pair.write_text(json.dumps({"format": "exactdp-pair/1", "P": {"a": "1/2", "b": "1/2"}, "Q": {"a": "1/4", "b": "3/4"}}))
    p = run("compose", "--pair", str(pair), "--direction", "replace", expect=2)
    assert "--direction" in p.stderr and "not a mechanism" in p.stderr
    p = run("compose", "-m", "gauss:sigma=1", "--sampling", "mixture:1=1/2", "--direction", "replace", expect=2)
    assert "mixture" in p.stderr
    p = run("profile", str(pair), "--direction", "replace", expect=2)
    assert "compose --direction replace" in p.stderr
    # never sampled (q = 0): identical laws under every relation
    r = compose("-m", "gauss:sigma=1", "--sampling", "poisson:q=0", "--lambda", "1", "--direction", "replace")
    assert r["at"][0]["delta"] == "0"


def test_calibrate_under_replace_one():
    # one use of Laplace is 2S/b-DP under replace-one: at eps = 1, delta = 0, S = 1 the least b is 2
    r = json.loads(run("calibrate", "laplace", "--epsilon", "1", "--delta", "0", "--relative-width", "1/100",
                       "--direction", "replace", "--json").stdout)
    assert r["target"]["neighbouring"] == "replace-one"
    assert F(r["bracket"]["lo"]) < 2 <= F(r["bracket"]["hi"])
    p = run("calibrate", "laplace", "--epsilon", "1", "--delta", "0", "--sampling-rate", "1/2", "--direction", "replace",
            expect=2)
    assert "refused by design" in p.stderr
