"""Broken sparse-vector variants (Lyu, Su & Li, "Understanding the Sparse Vector Technique for
Differential Privacy", PVLDB 10(6), 2017), each caught by exactdp with a short counterexample.

Lyu, Su and Li list published variants of the sparse vector technique, all claimed eps-DP. In the
discrete form used here (DLap(r) noise, r = e^-scale), with the claim e^eps = 16 and queries of
sensitivity 1 given by their margins v = q(x) - Thresh in {-1, 0, 1}:

| variant (Lyu et al.'s Table 1)                       | threshold noise | query noise | what else            | true privacy (Lyu et al.) |
| Alg. 1, correct (02_above_threshold.py), c = 1       | DLap(1/4)       | DLap(1/2)   | halts at first above | eps                       |
| Alg. 5 (Stoddard et al. 2014): no query noise        | DLap(1/4)       | none        | never halts          | infinite                  |
| Alg. 4 (Lee & Clifton 2014): query noise not scaled  | DLap(1/2)       | DLap(1/8)   | halts at first above | (1 + 6c)/4 eps = 7/4 eps  |
| Alg. 3 (Roth 2011): outputs the noisy query value    | DLap(1/4)       | DLap(1/4)   | releases q + nu      | infinite                  |
| Alg. 6 (Chen et al. 2015): no cutoff                 | DLap(1/4)       | DLap(1/4)   | never halts          | infinite                  |

(eps is split as the papers split it: Alg. 4 gives eps/4 to the threshold and 3 eps/4 to the
queries without the factor 2; Algs. 3, 5, 6 give eps/2 to each and drop the factor 2.)

Each variant is a step function on exactdp.noise.LatentThreshold, exactly as in 02_above_threshold.py.

Alg. 3 releases the unbounded value v + nu. To keep the answers finite, this script analyses a
function of its output: the value when it lies in [-2, 2], and "outside" otherwise. If a function of
a mechanism's output violates a claim, so does the mechanism (post-processing, THEOREMS.md A.5), so
the refutation carries over.

Run: python docs/tutorial/03_sparse_vector_variants.py
"""
from fractions import Fraction as F

import exactdp
from exactdp import noise
from exactdp.testing import assert_not_dp

MARGINS = [-1, 0, 1]
SENSITIVITY_ONE = {"type": "pairs", "allowed": [[a, b] for a in MARGINS for b in MARGINS if abs(a - b) <= 1]}
CLAIM = 16
WINDOW = range(-2, 3)


def sparse_vector(name, r_threshold, r_query, halts=True, releases_value=False, horizon=2):
    def step(state, v):
        if state == "halted":
            return {("halt", "halted"): 1}
        out = {}
        for answer, (p, posterior) in state.compare(-v, r_query).items():
            if answer == "below":
                out[("below", posterior)] = p
            elif not releases_value:
                out[("above", "halted" if halts else posterior)] = p
            else:   # Alg. 3: release y = v + nu; "above" means tau <= y - 1 (then it halts, c = 1)
                inside = F(0)
                for y in WINDOW:
                    q = noise.dlap(r_query).pmf(y - v) * state.probability_between(None, y - 1)
                    if q > 0:
                        out[(f"above, value {y}", "halted")] = q
                        inside += q
                out[("above, value outside [-2, 2]", "halted")] = p - inside
        return {k: p for k, p in out.items() if p > 0}

    return exactdp.Mechanism.from_step(step, initial=noise.latent_threshold(r_threshold), messages=MARGINS,
                                       neighbours=SENSITIVITY_ONE, horizon=horizon, name=name, explore="horizon")


def refute(m, label):
    r = assert_not_dp(m, lam=CLAIM)
    print(f"{label}: REFUTED at lambda = {CLAIM}")
    print("  " + r["refutation_text"].rstrip().replace("\n", "\n  "))
    return r


def worst_ratios(make, horizons):
    """The exact worst likelihood ratio at each horizon."""
    return [exactdp.profile(make(h))["pure"]["ratio"] for h in horizons]


def main():
    # Alg. 5: without query noise, "below" at margin v means tau >= v and "above" means tau <= v - 1,
    # exactly. The witness below: world 0 sends the margins -1 then 1, world 1 sends 0 then 0. In world 0
    # "below, above" means tau in {-1, 0}, probability Pr[tau = 0] + Pr[tau = -1] = 3/5 + 3/20 = 3/4
    # (DLap(1/4): Pr[tau = j] = (3/5) 4^-|j|); in world 1 it means 0 <= tau <= -1: probability 0.
    m = sparse_vector("SVT without query noise", F(1, 4), 0, halts=False)
    r = refute(m, "no query noise (Stoddard et al.)")
    w = r["minimal_witness"]
    assert w["rounds"] == 2 and {w["probability_world0"], w["probability_world1"]} == {F(3, 4), 0}
    assert exactdp.profile(m)["pure"]["ratio"] == float("inf")
    print("  worst ratio: infinite (Lyu et al.: not eps'-DP for any eps')\n")

    # Alg. 4: eps/4 + 3 eps/4, but an "above" after a "below" costs the query noise twice; Lyu et al.
    # bound the loss by 7/4 eps, e^(7/4 eps) = 128, which the exact ratio must respect
    m = sparse_vector("SVT, query noise not scaled", F(1, 2), F(1, 8), horizon=2)
    refute(m, "query noise not scaled (Lee & Clifton)")
    ratio = exactdp.profile(m)["pure"]["ratio"]
    assert CLAIM < ratio <= 128
    print(f"  exact worst ratio at horizon 2: {ratio} (= {float(ratio):.2f}), above the claim 16 and within "
          f"Lyu et al.'s bound 128\n")

    # Alg. 3 and Alg. 6: private for one query, but the loss grows with every query (Lyu et al.: no
    # finite eps holds); the worst ratio at horizons 1, 2, 3 shows it, and the claim fails at 3
    for label, name, kwargs in (("noisy value released (Roth's notes)", "SVT releasing the noisy value",
                                 {"releases_value": True}),
                                ("no cutoff (Chen et al.)", "SVT without cutoff", {"halts": False})):
        def make(h):
            return sparse_vector(name, F(1, 4), F(1, 4), horizon=h, **kwargs)
        ratios = worst_ratios(make, [1, 2, 3])
        assert ratios[0] <= CLAIM < ratios[2] and ratios[0] < ratios[1] < ratios[2]
        r = refute(make(3), label)
        assert r["minimal_witness"]["rounds"] == 3
        print(f"  exact worst ratio at horizons 1, 2, 3: {', '.join(str(x) for x in ratios)} "
              f"(= {', '.join(f'{float(x):.1f}' for x in ratios)}): it grows with every query\n")


if __name__ == "__main__":
    main()
