"""exactdp.symbol: mechanisms and claims for every value of a parameter (docs/parametric.md).

The oracle is the numeric engine: at random rational points of every piece the parametric answer
(a verdict, a worst ratio, a worst delta, a probability) must equal the numeric answer of the same
mechanism built with that Fraction in place of the symbol (Hypothesis). Closed forms derived by hand
(RR with p = r; DLap's D.3 mass function) check the parametric functions themselves."""
import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

import exactdp
from exactdp import noise

fractions = st.integers(1, 98).map(lambda k: F(k, 99))  # a position inside a piece, in (0, 1)


def point_in(piece, t):
    """A rational point of the piece: its rational point, or lower + t·(upper − lower) strictly
    between the ends (an algebraic end is replaced by its isolating interval's inner end)."""
    lo, hi = piece["lower"], piece["upper"]
    if lo == hi and isinstance(lo, F):
        return lo
    lo = lo if isinstance(lo, F) else lo["interval"][1]
    hi = hi if isinstance(hi, F) else hi["interval"][0]
    return lo + t * (hi - lo)


def sampled(pieces):
    """The pieces with a rational point (every open interval; a point piece only when it is rational)."""
    return [p for p in pieces if p.get("sample") is not None]


# ----------------------------------------------------------------------------- expressions

def test_symbol_arithmetic_is_exact_and_canonical():
    r = exactdp.symbol("r")
    assert (1 - r) / (1 + r) == (1 - r) * (1 + r) ** -1
    assert (r * r - 1) / (r - 1) == r + 1  # canonical: equal functions compare equal
    assert ((1 - r) / (1 + r)).at(F(1, 3)) == F(1, 2)
    assert (r ** 2 + F(1, 2)).at("1/2") == F(3, 4)
    assert (r - r + 3) == 3 and hash(r - r + 3) == hash(3)
    assert repr(r / 2) == "exactdp.Expression('r/2', r in (0, 1))"
    assert str(exactdp.symbol("t", interval=(F(1, 2), 1), open=(False, True)).parameter) == "[1/2, 1)"


def test_docstring_and_page_examples_run():
    import doctest
    import os

    from exactdp import parametric

    failures, tried = doctest.testmod(parametric)
    assert tried >= 5 and failures == 0
    page = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "parametric.md")
    if not os.path.exists(page):
        pytest.skip("docs/parametric.md is not next to this checkout")
    failures, tried = doctest.testfile(page, module_relative=False)
    assert tried >= 4 and failures == 0


def test_symbol_errors_name_the_argument():
    r = exactdp.symbol("r")
    s = exactdp.symbol("s")
    with pytest.raises(TypeError, match="float"):
        r + 0.5
    with pytest.raises(exactdp.Error, match="one parameter"):
        r + s
    with pytest.raises(exactdp.Error, match="interval"):
        exactdp.symbol("r", interval=(1, 0))
    with pytest.raises(exactdp.Error, match="division by zero"):
        r / (r - r)


# ----------------------------------------------------------------------------- spec tables

def rr_mechanism(p, horizon=2):
    """Event-level randomized response with truth probability p (a Fraction or an expression)."""
    def step(state, message):
        return {(message, "s"): p, (1 - message, "s"): 1 - p}

    return exactdp.Mechanism.from_step(step, initial="s", messages=[0, 1], horizon=horizon, name="rr",
                                       neighbours={"type": "pairs", "allowed": [[0, 0], [1, 1], [0, 1], [1, 0]], "max_differing": 1})


R_HALF = exactdp.symbol("r", interval=(F(1, 2), 1))
RR = rr_mechanism(R_HALF)


def test_rr_worst_ratio_is_the_hand_derived_one():
    # by hand: one differing round of RR with p = r has ratio r/(1-r) > 1 on (1/2, 1)
    prof = exactdp.profile(RR, parametric=True)
    assert [p["ratio"] for p in prof["pieces"]] == [R_HALF / (1 - R_HALF)]


def test_rr_delta_is_the_hand_derived_one():
    # by hand (one differing round): delta(lambda) = max(0, r - lambda (1 - r)); at lambda = 2 it
    # is 0 up to r = 2/3 and 3r - 2 above
    prof = exactdp.profile(RR, parametric=True, lambdas=[2])
    deltas = [(p["upper"], p["delta"]) for p in prof["pieces"]]
    assert deltas == [(F(2, 3), 0), (F(1), 3 * R_HALF - 2)]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 1), fractions, st.data())
def test_rr_check_for_all_equals_the_numeric_engine_in_each_piece(c, e, t, data):
    lam = c + e * R_HALF ** 2  # a constant or a function of r
    v = exactdp.check(RR, lam=lam, for_all=R_HALF, cross_check=False)
    pieces = v["pieces"]
    piece = data.draw(st.sampled_from(sampled(pieces)))
    x = point_in(piece, t)
    numeric = exactdp.check(rr_mechanism(x), lam=lam.at(x))
    assert (numeric["verdict"] == "holds") == piece["holds"]
    # the failing intervals are exactly the pieces that do not hold
    assert (v["verdict"] == "holds") == all(p["holds"] for p in pieces)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4), fractions, st.data())
def test_rr_delta_profile_equals_the_numeric_engine_in_each_piece(c, t, data):
    lam = c / R_HALF  # lambda = c/r
    prof = exactdp.profile(RR, parametric=True, lambdas=[lam], cross_check=False)
    piece = data.draw(st.sampled_from(sampled(prof["pieces"])))
    x = point_in(piece, t)
    numeric = exactdp.profile(rr_mechanism(x), lambdas=[lam.at(x)])
    assert numeric["at"][0]["delta"] == piece["delta"].at(x)


def test_approximate_claim_for_all_refutes_with_a_witness():
    # at lambda = 2, delta(r) = 3r - 2 above 2/3: the claim delta = 1/10 fails exactly above 7/10
    v = exactdp.check(RR, lam=2, delta=F(1, 10), for_all="r")
    assert v["verdict"] == "refuted"
    [failing] = v["failing"]
    assert failing["lower"] == F(7, 10) and failing["upper"] == 1
    x = failing["samples"][0]
    assert failing["witness"]["verdict"] == "refuted"
    assert 3 * x - 2 > F(1, 10)


def test_table_errors():
    r = exactdp.symbol("r")
    # a law that does not sum to 1 identically: names the state and the message
    with pytest.raises(exactdp.Error, match=r"sum to 1 for every r"):
        exactdp.Mechanism.from_step(lambda s, m: {("a", "s"): r, ("b", "s"): r}, initial="s", messages=["q"], horizon=1,
                                    neighbours={"type": "pairs", "allowed": [["q", "q"]]})
    # negative somewhere on the range: the spec reader names the row and a value where it fails
    m = exactdp.Mechanism.from_step(lambda s, m: {("a", "s"): 2 * r, ("b", "s"): 1 - 2 * r}, initial="s", messages=["q"], horizon=1,
                                    neighbours={"type": "pairs", "allowed": [["q", "q"]]})
    with pytest.raises(exactdp.Error, match=r"/p.*(negative|at r =)"):
        exactdp.check(m, lam=2, for_all=r)
    # a parametric mechanism checked numerically, or a numeric one with an expression
    with pytest.raises(exactdp.Error, match="for_all=r"):
        exactdp.check(RR, lam=2)
    with pytest.raises(exactdp.Error, match="parametric=True"):
        exactdp.profile(RR)
    with pytest.raises(exactdp.Error, match='"lam"'):
        exactdp.check(rr_mechanism(F(3, 4)), lam=1 / r)
    # the wrong name in for_all
    with pytest.raises(exactdp.Error, match="for_all"):
        exactdp.check(RR, lam=3, for_all="q")


# ----------------------------------------------------------------------------- library mechanisms

R = exactdp.symbol("r")
LIBRARY = {
    "svt-counter": (dict(r_threshold=R, r_query=R, thresholds=[0, 1], queries=2), 2),
    "above-threshold": (dict(r_threshold=R ** 2, r_query=R, queries=2), 2),
    "tree-counter": (dict(height=1, r=R), None),
    "noisy-increments": (dict(steps=2, r=R, clamp=1), None),
    # the HSV composites ("lambda" is a Python keyword: library_spec takes it as lam)
    "ldp-threshold-protocol": (dict(users=2, k=2, lam=(1 + R ** 2) / R), None),
    "core-decomposition": (dict(vertices=2, rounds=2, r_query=R), None),
}
PROFILES = {name: exactdp.profile(exactdp.library_spec(name, horizon=h, **params), parametric=True, cross_check=False)
            for name, (params, h) in LIBRARY.items()}


def at(params, x):
    return {k: (v.at(x) if isinstance(v, exactdp.Expression) else v) for k, v in params.items()}


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(sorted(LIBRARY)), fractions, st.data())
def test_library_worst_ratio_equals_the_numeric_engine_in_each_piece(name, t, data):
    params, horizon = LIBRARY[name]
    piece = data.draw(st.sampled_from(sampled(PROFILES[name]["pieces"])))
    x = point_in(piece, t)
    numeric = exactdp.profile(exactdp.library_spec(name, horizon=horizon, **at(params, x)))
    assert numeric["pure"]["ratio"] == piece["ratio"].at(x)


def test_library_spec_spells_lambda_lam():
    # lam is the library's "lambda" (a Python keyword), the same spec as the dict spelling; both is an error
    lam = (1 + R ** 2) / R
    via_lam = exactdp.library_spec("ldp-threshold-protocol", users=2, k=2, lam=lam)
    assert via_lam == exactdp.library_spec("ldp-threshold-protocol", users=2, k=2, **{"lambda": lam})
    assert "lam" not in via_lam["mechanism"]["params"]
    with pytest.raises(exactdp.Error, match="lam or lambda"):
        exactdp.library_spec("rr", lam=3, **{"lambda": 3})


def test_library_closed_forms():
    # by hand: noisy increments and the tree counter of height h are 1/r and 1/r^(h+1) for every r
    assert [p["ratio"] for p in PROFILES["noisy-increments"]["pieces"]] == [1 / R]
    assert [p["ratio"] for p in PROFILES["tree-counter"]["pieces"]] == [R ** -2]
    # HSV L7.4 at cutoff 1 (tau ~ DLap(r), nu ~ DLap(r)): 1/r^3 for every r, and the library spec
    # is decided as exactdp check --for-all decides the file
    spec = exactdp.library_spec("svt-counter", horizon=2, **LIBRARY["svt-counter"][0])
    assert exactdp.check(spec, lam=1 / R ** 3, for_all=R)["verdict"] == "holds"


def test_hsv_composites_closed_forms():
    # by hand (HSV C8.8, equality for the toy): k users differing is Comp(k x RR_lambda), so with
    # lambda = 1/r the worst ratio is r^-k for every r, and 1/r^k-DP holds for every r
    for k in (1, 2):
        spec = exactdp.library_spec("ldp-threshold-protocol", users=2, k=k, **{"lambda": 1 / R})
        assert [p["ratio"] for p in exactdp.profile(spec, parametric=True)["pieces"]] == [R ** -k]
        assert exactdp.check(spec, lam=R ** -k, for_all=R)["verdict"] == "holds"
    # by hand: two vertices, one round, tau, nu ~ DLap(r): ((1+r+2r^2)/(r(2+r+r^2)))^2 for every r
    core = exactdp.library_spec("core-decomposition", vertices=2, rounds=1, r_threshold=R, r_query=R)
    assert [p["ratio"] for p in exactdp.profile(core, parametric=True)["pieces"]] == [((1 + R + 2 * R ** 2) / (R * (2 + R + R ** 2))) ** 2]
    # the histogram does not take a parameter (yet): the error names the argument
    with pytest.raises(exactdp.Error, match=r'library_spec\("hss-histogram"\): argument r_node'):
        exactdp.library_spec("hss-histogram", r_node=R)
    # lambda must exceed 1 for every r of the range
    with pytest.raises(exactdp.Error, match=r"/mechanism/params/lambda"):
        exactdp.profile(exactdp.library_spec("ldp-threshold-protocol", users=1, k=1, **{"lambda": R}), parametric=True)


def test_large_expressions_pass_to_the_library():
    # (1+r)^1000 has coefficients of up to 300 digits and a canonical text of ~150 000 characters
    # (once refused at 10 000): it passes to the library and back; its value at 1 is 2^1000
    big = (1 + R) ** 1000
    assert len(big.text) > 100_000
    assert big.at(1) == 2 ** 1000
    assert (R ** 750) * (R ** 750) == R ** 1500
    with pytest.raises(exactdp.Error, match=r"the power has degree 200000, more than 100000"):
        (1 + R) ** 200_000


def test_library_errors_name_the_argument():
    with pytest.raises(exactdp.Error, match=r'library_spec\("rr"\): argument lam'):
        exactdp.library_spec("rr", lam=R)
    with pytest.raises(exactdp.Error, match=r"argument queries: a parameter is not supported here"):
        exactdp.library_spec("svt-counter", r_threshold=R, r_query=R, thresholds=[0], queries=R)
    # a noise parameter leaving (0, 1) somewhere: the library names the pointer and a value
    spec = exactdp.library_spec("noisy-increments", steps=1, r=2 * R)
    with pytest.raises(exactdp.Error, match=r"/mechanism/params/r.*2\*r"):
        exactdp.profile(spec, parametric=True)


# ----------------------------------------------------------------------------- noise primitives

@settings(max_examples=40, deadline=None)
@given(fractions, st.integers(-4, 4))
def test_dlap_of_a_symbol_is_the_numeric_law_at_every_point(x, k):
    z = noise.dlap(R)
    numeric = noise.dlap(x)
    assert z.pmf(k).at(x) == numeric.pmf(k) == (1 - x) / (1 + x) * x ** abs(k)  # D.3 by hand
    assert z.cdf(k).at(x) == numeric.cdf(k)
    assert z.sf(k).at(x) == numeric.sf(k)
    assert z.probability(-1, k).at(x) == numeric.probability(-1, k)
    assert {j: p.at(x) for j, p in z.clamped(-2, 2).items()} == numeric.clamped(-2, 2)


@settings(max_examples=30, deadline=None)
@given(fractions, st.integers(-2, 2), st.integers(-2, 2))
def test_latent_threshold_of_a_symbol_is_the_numeric_posterior(x, a, b):
    prior = noise.latent_threshold(R ** 2)
    numeric = noise.latent_threshold(x ** 2)
    first, first_numeric = prior.compare(a, R), numeric.compare(a, x)
    assert sorted(first) == sorted(first_numeric)
    for outcome, (p, nxt) in first.items():
        assert p.at(x) == first_numeric[outcome][0]
        assert nxt.probability_above(b, R).at(x) == first_numeric[outcome][1].probability_above(b, x)
    comparisons = [("below", a, R), ("above", b, R)]
    assert noise.probability_of(R ** 2, comparisons).at(x) == noise.probability_of(x ** 2, [(o, m, x) for o, m, _ in comparisons])


def test_step_function_with_latent_noise_for_all_r():
    # AboveThreshold written as a step function over the parametric posterior: messages v = q − T
    # in {0, 1} (the comparison's margin is −v, as in the library), sensitivity 1; the worst ratio for
    # every r equals the library's above-threshold
    def step(t, v):
        if t == "halt":
            return {("halt", "halt"): 1}
        out = t.compare(-v, R)
        return {("below", out["below"][1]): out["below"][0], ("above", "halt"): out["above"][0]}

    m = exactdp.Mechanism.from_step(step, initial=noise.latent_threshold(R), messages=[0, 1], horizon=2, name="at", explore="horizon",
                                    neighbours={"type": "pairs", "allowed": [[0, 0], [1, 1], [0, 1], [1, 0]]})
    ours = exactdp.profile(m, parametric=True, cross_check=False)
    library = exactdp.profile(exactdp.library_spec("above-threshold", horizon=2, r_threshold=R, r_query=R, min_margin=0, max_margin=1),
                              parametric=True, cross_check=False)
    assert [p["ratio"] for p in ours["pieces"]] == [p["ratio"] for p in library["pieces"]]


def test_noise_errors_name_the_argument():
    with pytest.raises(exactdp.Error, match=r'noise.geometric: field "r"'):
        noise.geometric(R)
    with pytest.raises(exactdp.Error, match=r'noise.rr: field "p"'):
        noise.rr(p=R)
    with pytest.raises(exactdp.Error, match=r'noise.binomial: field "p"'):
        noise.binomial(3, R)
    with pytest.raises(exactdp.Error, match=r'LatentThreshold.compare: field "r_query"'):
        noise.latent_threshold(F(1, 2)).compare(0, R)
    # DLap needs r in (0, 1) for every value of the range
    with pytest.raises(exactdp.Error, match=r'"r".*1\+r'):
        noise.dlap(1 + R)
    wide = exactdp.symbol("r", interval=(0, 2))
    with pytest.raises(exactdp.Error, match=r"range"):
        noise.dlap(wide)
