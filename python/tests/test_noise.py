"""exactdp.noise: exact laws on random rational parameters (Hypothesis) against closed forms written
out here from THEOREMS.md D.3 and A.2, direct summation, and hand-derived cases — never against
exactdp itself. The module's docstring examples run as doctests."""
import doctest
import pickle
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

import exactdp
from exactdp import noise

ratios = st.builds(lambda a, b: F(min(a, b), max(a, b) + 1), st.integers(1, 12), st.integers(1, 12))  # in (0, 1)
probabilities = st.builds(lambda a, b: F(min(a, b), b), st.integers(0, 9), st.integers(1, 9))       # in [0, 1]
points = st.integers(-8, 8)


def dlap_pmf(r, k):
    return (1 - r) / (1 + r) * r ** abs(k)


def dlap_cdf(r, m):  # THEOREMS.md D.3
    return 1 - r ** (m + 1) / (1 + r) if m >= 0 else r ** (-m) / (1 + r)


@st.composite
def any_noise(draw):
    kind = draw(st.sampled_from(["dlap", "geometric", "bernoulli", "uniform", "binomial", "shifted"]))
    if kind == "dlap":
        return noise.dlap(draw(ratios))
    if kind == "geometric":
        return noise.geometric(draw(ratios))
    if kind == "bernoulli":
        return noise.bernoulli(draw(probabilities))
    if kind == "uniform":
        a = draw(st.integers(-4, 4))
        return noise.uniform(a, a + draw(st.integers(0, 5)))
    if kind == "binomial":
        return noise.binomial(draw(st.integers(0, 5)), draw(probabilities))
    return noise.dlap(draw(ratios)) + draw(st.integers(-3, 3))


def test_docstring_examples():
    failures, tried = doctest.testmod(noise, optionflags=doctest.ELLIPSIS)
    assert tried > 20 and failures == 0


@given(ratios, points)
def test_dlap_is_the_d3_law(r, k):
    z = noise.dlap(r)
    assert z.pmf(k) == dlap_pmf(r, k)
    assert z.cdf(k) == dlap_cdf(r, k)
    assert isinstance(z.pmf(k), F)


@given(ratios, st.integers(-6, 6))
def test_dlap_cdf_is_a_window_sum_plus_the_closed_tail(r, k):
    # Pr[Z <= k] = Pr[Z <= -L-1] + sum_{j=-L}^{k} pmf(j), the tail r^{L+1}/(1+r) from D.3
    L = 7
    assert noise.dlap(r).cdf(k) == r ** (L + 1) / (1 + r) + sum(dlap_pmf(r, j) for j in range(-L, k + 1))


@given(any_noise(), points)
def test_cdf_plus_sf_is_one_and_cdf_is_monotone(z, k):
    assert z.cdf(k) + z.sf(k) == 1
    assert z.cdf(k - 1) <= z.cdf(k)
    assert z.cdf(k) - z.cdf(k - 1) == z.pmf(k)


@given(ratios, points)
def test_dlap_is_symmetric(r, k):
    z = noise.dlap(r)
    assert z.pmf(k) == z.pmf(-k)
    assert z.cdf(k) == z.sf(-k - 1)
    assert -z == z


@given(ratios, st.integers(-4, 2), st.integers(0, 5))
def test_clamped_and_truncated_by_their_definitions(r, lo, width):
    z, hi = noise.dlap(r), lo + width
    c, t = z.clamped(lo, hi), z.truncated(lo, hi)
    assert sum(c.values()) == 1 and sum(t.values()) == 1
    inside = sum(dlap_pmf(r, k) for k in range(lo, hi + 1))
    for k in range(lo, hi + 1):
        assert t[k] == dlap_pmf(r, k) / inside
        if lo < k < hi:
            assert c[k] == dlap_pmf(r, k)
    if lo < hi:
        assert c[lo] == dlap_cdf(r, lo) and c[hi] == 1 - dlap_cdf(r, hi - 1)


def test_truncation_breaks_pure_dp_where_clamping_keeps_it():
    # v + DLap(1/2), v in {0, 1}, window [0, 2]: clamped ratios stay <= 2 = 1/r (B.14 X-CLAMP-EXACT);
    # truncated: (4/7, 2/7, 1/7) against (1/4, 1/2, 1/4), ratio 16/7 > 2
    z = noise.dlap(F(1, 2))
    worst = lambda a, b: max(max(a[k] / b[k], b[k] / a[k]) for k in range(3))
    assert worst(z.clamped(0, 2), (z + 1).clamped(0, 2)) == 2
    assert worst(z.truncated(0, 2), (z + 1).truncated(0, 2)) == F(16, 7)


@given(probabilities, st.integers(0, 6))
def test_binomial_and_bernoulli_sums(p, n):
    b = noise.binomial(n, p)
    assert sum(b.table().values()) == 1
    s = noise.point(0)
    for _ in range(n):
        s = s + noise.bernoulli(p)
    assert s == b


@given(ratios, probabilities, points)
def test_sum_with_a_finite_noise_is_a_mixture_of_shifts(r, p, k):
    s = noise.bernoulli(p) + noise.dlap(r)
    assert s.pmf(k) == (1 - p) * dlap_pmf(r, k) + p * dlap_pmf(r, k - 1)


@given(st.integers(1, 9).map(F), probabilities)
def test_rr_is_the_a2_table(lam, delta):
    rr = noise.rr(lam, delta)
    for b in (0, 1):
        table = rr.given(b)
        assert sum(table.values()) == 1
        assert rr.pmf(b, b) == (1 - delta) * lam / (1 + lam)
        assert rr.pmf(1 - b, b) == (1 - delta) / (1 + lam)
        assert rr.pmf(f"leak{b}", b) == delta and rr.pmf(f"leak{1 - b}", b) == 0
    assert noise.rr(p=rr.p, delta=delta).lam == lam


def test_floats_and_bad_parameters_are_refused():
    with pytest.raises(TypeError):
        noise.dlap(0.5)
    with pytest.raises(TypeError):
        noise.dlap(F(1, 2)).pmf(1.0)
    with pytest.raises(TypeError):
        noise.bernoulli(True)
    with pytest.raises(exactdp.Error, match='"r".*"3/2"'):
        noise.dlap("3/2")
    with pytest.raises(exactdp.Error, match='"p"'):
        noise.bernoulli("-1/3")
    with pytest.raises(exactdp.Error):
        noise.dlap("1/2").support()  # infinite
    with pytest.raises(exactdp.Error):
        noise.dlap("1/2") + noise.geometric("1/2")  # no closed form here
    with pytest.raises(exactdp.Error):
        noise.rr(2, p="2/3")  # both forms
    with pytest.raises(exactdp.Error, match="r_query"):
        noise.latent_threshold("1/4").compare(0, "3/2")
    with pytest.raises(TypeError):
        noise.latent_threshold("1/4").compare(0.0, "1/2")


def dlap_window_bracket(r_t, comparisons, B=20, L=20):
    """A certified bracket for Pr[all comparisons] by direct summation over |tau| <= B and |nu| <= L,
    with the tails bounded by r^{B+1}/(1+r) on each side (D.3)."""
    lo = hi = F(0)
    for j in range(-B, B + 1):
        a = b = dlap_pmf(r_t, j)
        for outcome, margin, r in comparisons:
            m = margin + j
            if r == 0:
                f = F(int((0 <= m) == (outcome == "below")))
                up = f
            else:
                f = sum(dlap_pmf(r, k) for k in range(-L, L + 1) if (k <= m) == (outcome == "below"))
                up = min(F(1), f + r ** (L + 1) / (1 + r))
            a, b = a * f, b * up
        lo, hi = lo + a, hi + b
    return lo, hi + 2 * r_t ** (B + 1) / (1 + r_t)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([F(1, 2), F(1, 3), F(1, 4)]),
       st.lists(st.tuples(st.integers(-2, 2), st.sampled_from([F(1, 2), F(1, 3), F(0)])), min_size=1, max_size=3),
       st.data())
def test_latent_threshold_paths_lie_in_the_certified_bracket(r_t, queries, data):
    t, p, seen = noise.latent_threshold(r_t), F(1), []
    for margin, r in queries:
        branches = t.compare(margin, r)
        assert sum(q for q, _ in branches.values()) == 1
        outcome = data.draw(st.sampled_from(sorted(branches)))
        q, t = branches[outcome]
        p *= q
        seen.append((outcome, margin, r))
    lo, hi = dlap_window_bracket(r_t, seen)
    assert lo <= p <= hi and hi - lo < F(1, 10 ** 5)
    assert p == noise.probability_of(r_t, seen)


@given(st.lists(st.tuples(st.integers(-2, 2), st.sampled_from(["below", "above"])), max_size=4))
def test_latent_threshold_is_a_canonical_hashable_state(observations):
    # the same observations in any order give one value: equal, same hash, same printed form
    def build(obs):
        t = noise.latent_threshold("1/3")
        for margin, outcome in obs:
            t = t.compare(margin, "1/2")[outcome][1]
        return t

    a, b = build(observations), build(list(reversed(observations)))
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
    assert not (a < b) and a <= b
    assert pickle.loads(pickle.dumps(a)) == a
    assert {a: 1}[b] == 1


def test_latent_threshold_reference_values_and_printing():
    # E.10 H12: r_tau = 1/4, r_nu = 1/2, margins 0, 0: Pr[stop at 1] = 13/35, Pr[no stop] = 136/315
    t = noise.latent_threshold(F(1, 4))
    p1, t1 = t.compare(0, F(1, 2))["below"]
    p2, t2 = t1.compare(0, F(1, 2))["below"]
    assert 1 - p1 == F(13, 35) and p1 * p2 == F(136, 315)
    assert str(t2) == "DLap(1/4)|below(0;1/2),below(0;1/2)"
    assert t2.comparisons == (("below", 0, F(1, 2)), ("below", 0, F(1, 2)))
    assert t.compare_values(5, 5, F(1, 2)) == t.compare(0, F(1, 2))
    assert t.compare_values(5, 5, F(1, 2), inclusive=True) == t.compare(-1, F(1, 2))
    # no query noise bounds the support; on a half-line pure factors take one representative
    half = t.compare(-1, 0)["below"][1]                 # 0 <= nu - tau ... tau >= 1
    assert (half.lower, half.upper) == (1, None)
    assert half.compare(5, "1/2")["above"][1] == half.compare(-2, "1/2")["above"][1]
    assert sorted([t2, t1, t]) == [t, t1, t2]


@given(st.lists(st.integers(-2, 2), min_size=2, max_size=3), st.sampled_from([F(1, 2), F(1, 3), F(2, 5)]),
       st.sampled_from(["lowest_index", "uniform"]))
@settings(max_examples=10, deadline=None)
def test_report_noisy_max_lies_in_the_enumeration_bracket(values, r, ties):
    # enumerate Z_i over [-L, L]; the unenumerated mass can only add to a winner
    import itertools
    L = 5 if len(values) == 3 else 9
    z = noise.dlap(r)
    win, seen = [F(0)] * len(values), F(0)
    for zs in itertools.product(range(-L, L + 1), repeat=len(values)):
        p = F(1)
        for k in zs:
            p *= dlap_pmf(r, k)
        ys = [v + k for v, k in zip(values, zs)]
        top = [i for i, y in enumerate(ys) if y == max(ys)]
        seen += p
        if ties == "lowest_index":
            win[top[0]] += p
        else:
            for i in top:
                win[i] += p / len(top)
    exact = noise.report_noisy_max(values, z, ties=ties)
    assert sum(exact) == 1
    for i in range(len(values)):
        assert win[i] <= exact[i] <= win[i] + (1 - seen)
    assert 1 - seen < F(1, 10)


def test_the_user_page_examples_run():
    import os
    page = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "noise.md")
    if not os.path.exists(page):
        pytest.skip("docs/noise.md is not next to this checkout")
    failures, tried = doctest.testfile(page, module_relative=False)
    assert tried >= 8 and failures == 0


def test_authored_above_threshold_is_the_library_mechanism():
    # AboveThreshold written as a step function on the latent threshold (halting after "above"),
    # explored by Mechanism.from_step, against the library's above-threshold spec at horizon 3:
    # the same exact delta at every lambda (the library is a separate C++ state machine)
    import json
    import os
    import tempfile
    r_t, r_q = F(1, 4), F(1, 2)

    def step(state, v):
        if state == "halted":
            return {("halt", state): 1}
        return {(answer, "halted" if answer == "above" else posterior): p
                for answer, (p, posterior) in state.compare(-v, r_q).items()}

    pairs = [[a, b] for a in (-1, 0, 1) for b in (-1, 0, 1) if abs(a - b) <= 1]
    m = exactdp.Mechanism.from_step(step, initial=noise.latent_threshold(r_t), messages=[-1, 0, 1],
                                    neighbours={"type": "pairs", "allowed": pairs}, horizon=3, name="AboveThreshold",
                                    explore="horizon")  # the posteriors of "below, below, ..." never repeat
    library = {"format": "exactdp/1", "name": "AT", "horizon": 3,
               "mechanism": {"type": "library", "name": "above-threshold",
                             "params": {"r_threshold": "1/4", "r_query": "1/2", "queries": 3}}}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "at.json")
        with open(path, "w") as f:
            json.dump(library, f)
        lambdas = [1, 2, 4, 8, 16]
        want = exactdp.profile(path, lambdas=lambdas)["at"]
    got = exactdp.profile(m, lambdas=lambdas)["at"]
    assert [e["delta"] for e in got] == [e["delta"] for e in want]
    assert got[-1]["delta"] == 0 and got[0]["delta"] > 0
    assert "DLap(1/4)|below(-1;1/2)" in m.to_spec()["mechanism"]["states"]
