"""AboveThreshold with unbounded noise, exactly.

AboveThreshold (Dwork & Roth 2014, Alg. 1) draws a threshold noise tau ~ DLap(r_t) once, then for
each query q answers "above" iff q(x) + nu > Thresh + tau with a fresh nu ~ DLap(r_q), and halts at
the first "above". For queries of sensitivity 1 it is eps-DP with e^eps = 1/(r_t * r_q^2) (Dwork &
Roth Thm 3.23: threshold noise of scale 2/eps, query noise of scale 4/eps; Lyu, Su & Li 2017,
Alg. 1 with c = 1): 16 for r_t = 1/4, r_q = 1/2.

Nothing needs clamping. After some "below" answers the mechanism's knowledge of tau is a posterior,
and exactdp.noise.LatentThreshold is that posterior as an exact, canonical, hashable value: the
step function keeps it as its state, and `compare` returns the exact probability of each answer
and the posterior after it (docs/noise.md). Because every "below" adds a factor to the posterior,
the states never repeat: `explore="horizon"` builds only those reachable within the horizon.

The message is the margin v = q(x) - Thresh of the query on the data; the neighbour relation says
that on neighbouring data each margin moves by at most one (sensitivity 1): pairs (v, v') with
|v - v'| <= 1, at every query, with no limit on how many differ.

Run: python docs/tutorial/02_above_threshold.py
"""
import json
import os
import tempfile
from fractions import Fraction as F

import exactdp
from exactdp import noise
from exactdp.testing import assert_dp

R_T, R_Q = F(1, 4), F(1, 2)
MARGINS = [-1, 0, 1]
SENSITIVITY_ONE = {"type": "pairs", "allowed": [[a, b] for a in MARGINS for b in MARGINS if abs(a - b) <= 1]}
QUERIES = 3


def step(state, v):
    if state == "halted":
        return {("halt", "halted"): 1}
    # "above" iff v + nu > tau, i.e. nu - tau > -v: the comparison's margin is -v
    return {(answer, "halted" if answer == "above" else posterior): p
            for answer, (p, posterior) in state.compare(-v, R_Q).items()}


def library_above_threshold(directory):
    path = os.path.join(directory, "above-threshold.json")
    with open(path, "w") as f:
        json.dump({"format": "exactdp/1", "name": "AboveThreshold (library)", "horizon": QUERIES,
                   "mechanism": {"type": "library", "name": "above-threshold",
                                 "params": {"r_threshold": "1/4", "r_query": "1/2", "queries": QUERIES}}}, f)
    return path


def main():
    prior = noise.latent_threshold(R_T)
    # One comparison, exactly: Pr[nu > tau] = sum_j Pr[tau = j] Pr[nu > j]. By hand with the two
    # geometric series: j >= 0 gives (3/5)(1/3) * 8/7 = 8/35, j < 0 gives (3/5)(1/3 - 2/21) = 5/35.
    above, _ = prior.compare(0, R_Q)["above"]
    assert above == F(13, 35)
    print(f"Pr[above] for one query at margin 0: {above} (unbounded noise, summed in closed form)")

    m = exactdp.Mechanism.from_step(step, initial=prior, messages=MARGINS, neighbours=SENSITIVITY_ONE,
                                    horizon=QUERIES, name="AboveThreshold", explore="horizon")
    example = next(m.state_name(s) for s in m.states if "below" in m.state_name(s))
    print(f"explored {len(m.states)} states (posteriors of tau), e.g. {example!r}")
    r = assert_dp(m, lam=16)
    print(f"AboveThreshold, {QUERIES} queries: HOLDS at lambda = 16 = 1/(r_t r_q^2) (Dwork-Roth Thm 3.23); "
          f"exact delta(16) = {r['delta']}")

    lambdas = [1, 2, 4, 8, 16]
    mine = exactdp.profile(m, lambdas=lambdas)
    with tempfile.TemporaryDirectory() as d:
        library = exactdp.profile(library_above_threshold(d), lambdas=lambdas)
    # a second implementation: the library's AboveThreshold, written in C++
    assert [e["delta"] for e in mine["at"]] == [e["delta"] for e in library["at"]]
    assert mine["pure"]["ratio"] == library["pure"]["ratio"] <= 16
    print(f"the library's above-threshold gives the same delta at every lambda: "
          f"{', '.join(str(e['delta']) for e in mine['at'])} at lambda = {', '.join(map(str, lambdas))}; "
          f"exact worst ratio {mine['pure']['ratio']} (= {float(mine['pure']['ratio']):.3f} <= 16)")


if __name__ == "__main__":
    main()
