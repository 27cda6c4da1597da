"""exactdp.profile / exactdp.check: the game engine on spec files from Python.

Expected values are the ones the command-line tests establish independently (cited beside each
test): THEOREMS.md E.5 (MP, computed there by independent exact programs), E.8 (its Renyi moments),
E.10 H12/H13 (sparse vector and the tree counter), and MP's leaf table D.16.
"""
import math
from fractions import Fraction as F
from pathlib import Path

import pytest

import exactdp

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"


def test_profile_of_mp_matches_the_catalogue():
    # as tests/cli/test_engine_cli.py::test_profile_of_mp_matches_catalogue (THEOREMS.md E.5 P1)
    r = exactdp.profile(SPECS / "mp.json", lambdas=(1, 2, 3, 4, 8), deltas=(0, "1/100", F(1, 10), "1/5", "1/3"))
    assert [(e["delta_forward"], e["delta_backward"]) for e in r["at"]] == [
        (F(7, 15), F(7, 15)), (F(2, 9), F(2, 5)), (F(1, 9), F(1, 3)), (0, F(4, 15)), (0, 0)]
    assert all(isinstance(e["delta"], F) for e in r["at"])
    assert [e["lambda"] for e in r["least_lambda"]] == [8, F(157, 20), F(13, 2), 5, 3]
    assert r["pure"]["ratio"] == 8 and r["horizon"] == 2
    # the trade-off envelope's vertices are exact pairs, starting at (0, 1)
    assert r["tradeoff"]["vertices"][0] == (0, 1)


def test_renyi_moments_exact_and_certified():
    # E.8: MP has Phi_2 = (61/24, 55/12); a non-integer order gives a certified enclosure
    r = exactdp.profile(SPECS / "mp.json", alphas=(2, "3/2"))
    exact, real = r["renyi"]
    assert (exact["moment_forward"], exact["moment_backward"]) == (F(61, 24), F(55, 12))
    lo, hi = real["moment"]
    assert isinstance(lo, F) and lo <= hi and hi - lo < F(1, 10 ** 12)
    # Jensen / monotonicity of Renyi moments in the order: 1 <= Phi_{3/2} <= Phi_2^{1/2} (Hoelder)
    assert 1 <= lo and hi * hi <= exact["moment"] * (1 + F(1, 10 ** 9))


def test_check_refutes_with_the_witness_of_the_cli():
    # as tests/cli/test_engine_cli.py::test_check_holds_and_refutes_with_witness: MP is not
    # (ln 4, 1/4)-DP, delta(4) = 4/15; the leaf (1, 1) has M0 = 1/15, M1 = 8/15 (D.16)
    r = exactdp.check(SPECS / "mp.json", lam=4, delta="1/4")
    assert r["verdict"] == "refuted" and r["delta"] == F(4, 15)
    w = r["witness"]
    assert (w["probability_world0"], w["probability_world1"], w["delta"]) == (F(1, 15), F(8, 15), F(4, 15))
    assert w["event"] == [["1", "1"]] and "adversary" in w
    assert "P[" in r["witness_text"]
    assert exactdp.check(SPECS / "mp.json", lam=8)["verdict"] == "holds"  # pure level 8 (E.5)


def test_check_with_a_real_epsilon():
    # e^2.0794 < 8 = MP's pure level < e^2.0795 (test_check_with_real_epsilon_is_decided_soundly)
    assert exactdp.check(SPECS / "mp.json", epsilon="2.0794")["verdict"] == "refuted"
    assert exactdp.check(SPECS / "mp.json", epsilon="2.0795")["verdict"] == "holds"


def test_sparse_vector_worst_ratio_and_witness():
    # E.10 H12 (tests/cli/test_library_cli.py): the worst ratio at horizon 3 is 2216/629; one notch
    # below, the README's witness: delta = 1/27900
    r = exactdp.profile(SPECS / "above-threshold.json")
    assert r["pure"]["ratio"] == F(2216, 629)
    c = exactdp.check(SPECS / "above-threshold.json", lam="2215/629")
    assert c["verdict"] == "refuted" and c["delta"] == F(1, 27900)
    w = c["witness"]
    assert w["probability_world0"] - F(2215, 629) * w["probability_world1"] == F(1, 27900) or \
        w["probability_world1"] - F(2215, 629) * w["probability_world0"] == F(1, 27900)


def test_bad_input_names_the_field():
    with pytest.raises(exactdp.Error, match="lambda"):
        exactdp.check(SPECS / "mp.json", lam="1/2")
    with pytest.raises(exactdp.Error, match="delta"):
        exactdp.profile(SPECS / "mp.json", deltas=("2",))
    with pytest.raises(TypeError):
        exactdp.check(SPECS / "mp.json", lam=4.0)
    with pytest.raises(TypeError):
        exactdp.check(SPECS / "mp.json")
    with pytest.raises(exactdp.Error, match="nope.json"):
        exactdp.profile(SPECS / "nope.json")


def test_grid_bracket_contains_the_gdp_value():
    # k uses of the unsubsampled Gaussian are mu-GDP with mu = sqrt(k)/sigma (Dong, Roth & Su 2022,
    # Cor. 2.13); delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), here in mpmath
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    mu = mpmath.sqrt(100) / 10
    truth = mpmath.ncdf(-1 / mu + mu / 2) - mpmath.e * mpmath.ncdf(-1 / mu - mu / 2)
    b = exactdp.grid_bracket("gauss:sigma=10", times=100, epsilon=1, resolution=16)
    lo, hi = (mpmath.mpf(x.numerator) / x.denominator for x in b["value"])
    assert lo <= truth <= hi and hi - lo < truth / 100
    assert isinstance(b["step"], F) and b["points"] > 0
    w = exactdp.grid_bracket("gauss:sigma=1", times=50, delta="1e-5", sampling_rate="1/100", resolution=4,
                             relative_width="1/100", max_resolution=16)
    lo, hi = w["value"]
    assert hi - lo <= hi / 100 and w["resolution"] in (4, 8, 16)
    with pytest.raises(TypeError):
        exactdp.grid_bracket("gauss:sigma=1", times=10, delta=1e-5)
    with pytest.raises(exactdp.Error, match="grid brackets cover"):
        exactdp.grid_bracket("rr:lambda=2", times=10, delta="1e-5")


def test_check_takes_the_adversary_class_of_the_command_line():
    # Concurrent MP (spec/mechanisms/concurrent-mp.json) at lambda = 4: adaptive adversaries reach
    # delta = 52/135, oblivious ones (a fixed message sequence) only 44/135 -- the values of
    # `exactdp profile concurrent-mp.json --lambda 4 --adversary adaptive|oblivious`. The law checked
    # beside them: an oblivious adversary is an adaptive one, so its delta can never be larger, and the
    # claim (ln 4, 44/135) separates the two classes.
    spec = SPECS / "concurrent-mp.json"
    adaptive = exactdp.check(spec, lam=4, delta=F(44, 135))
    assert adaptive["verdict"] == "refuted" and adaptive["adversary"] == "adaptive" and adaptive["delta"] == F(52, 135)
    oblivious = exactdp.check(spec, lam=4, delta=F(44, 135), adversary="oblivious")
    assert oblivious["verdict"] == "holds" and oblivious["adversary"] == "oblivious" and oblivious["delta"] == F(44, 135)
    assert oblivious["delta"] <= adaptive["delta"]
    # sequential adversaries of a concurrent composition reach the adaptive value (THEOREMS.md E.7)
    sequential = exactdp.check(spec, lam=4, delta=F(52, 135), adversary="sequential")
    assert sequential["verdict"] == "holds" and sequential["delta"] == F(52, 135)
    with pytest.raises(exactdp.Error, match="clairvoyant"):
        exactdp.check(spec, lam=4, adversary="clairvoyant")
