"""Report-noisy-max: a correct version and a buggy one.

Report-noisy-max releases the index of the largest count after adding independent noise to every
count. With discrete Laplace noise DLap(r), r = e^-eps, and counts that move by at most one in the
same direction when one person is added or removed (a histogram), it is eps-DP (Dwork & Roth 2014,
Claim 3.9; the proof holds for integer noise with ties broken by index).

The mechanism is noninteractive, so the dataset is the message (see 05_histogram.py for the pattern):
the adversary picks a pair of neighbouring count vectors, one round, and sees the index.

The buggy version clamps the noise to [-1, 1] before comparing, to keep it "finite". Clamping a
*released* value is post-processing; clamping noise that enters a comparison is not (docs/noise.md,
THEOREMS.md B.14): with noise in [-1, 1] a count that trails by two wins only on a tie, one that
trails by three never wins, so adding one person can turn a possible answer into an impossible one.

Run: python docs/tutorial/01_report_noisy_max.py
"""
from fractions import Fraction as F
from itertools import product

import exactdp
from exactdp import noise
from exactdp.testing import assert_dp, assert_not_dp

R = F(1, 2)                                        # DLap(1/2): eps = ln 2, lambda = e^eps = 2
DATASETS = list(product(range(4), repeat=2))        # two counts, each 0..3


def histogram_neighbours():
    """One person added or removed: exactly one count changes by one."""
    pairs = []
    for counts in DATASETS:
        for i in range(2):
            bigger = tuple(c + (j == i) for j, c in enumerate(counts))
            if bigger in DATASETS:
                pairs += [[counts, bigger], [bigger, counts]]
    return {"type": "pairs", "allowed": pairs}


def report_noisy_max(noise_law, name):
    def step(state, counts):
        if state == "done":                         # one release, then the mechanism has halted
            return {("halt", "done"): 1}
        law = noise.report_noisy_max(list(counts), noise_law)     # exact, ties to the lowest index
        return {(f"index {i}", "done"): p for i, p in enumerate(law) if p > 0}
    return exactdp.Mechanism.from_step(step, initial="ready", neighbours=histogram_neighbours(),
                                       messages=DATASETS, horizon=1, name=name)


def noisy_max_ratio_closed_form(r):
    """The worst ratio of report-noisy-max over the two counts above, by hand.

    Index 0 wins for counts (a, b) iff D = Z0 - Z1 >= b - a. D is the difference of two DLap(r):
    Pr[D = k] = c^2 r^|k| (|k| + 1 + s) with c = (1-r)/(1+r), s = 2r^2/(1-r^2) (sum the product of
    the two pmfs over the three ranges of the summation index), and for k >= 1 the tail
    T(k) = Pr[D >= k] = c^2 r^k ((1+s)/(1-r) + (k(1-r) + r)/(1-r)^2) (two geometric sums);
    T(k) = 1 - T(1-k) for k <= 0 by symmetry.
    """
    c, s = (1 - r) / (1 + r), 2 * r * r / (1 - r * r)

    def tail(k):
        if k <= 0:
            return 1 - tail(1 - k)
        return c * c * r**k * ((1 + s) / (1 - r) + (k * (1 - r) + r) / (1 - r) ** 2)

    worst = F(0)
    for counts in DATASETS:
        for i in range(2):
            bigger = tuple(x + (j == i) for j, x in enumerate(counts))
            if bigger not in DATASETS:
                continue
            p0, q0 = tail(counts[1] - counts[0]), tail(bigger[1] - bigger[0])
            for p, q in ((p0, q0), (1 - p0, 1 - q0)):
                worst = max(worst, p / q, q / p)
    return worst


def main():
    good = report_noisy_max(noise.dlap(R), "report-noisy-max")
    # Dwork & Roth's bound: eps-DP with lambda = 1/r = 2
    assert_dp(good, lam=1 / R)
    exact = exactdp.profile(good)["pure"]["ratio"]
    assert exact == noisy_max_ratio_closed_form(R)      # the hand-derived value, an independent route
    print(f"report-noisy-max with DLap(1/2): HOLDS at lambda = 2 (Dwork-Roth); exact worst ratio {exact} "
          f"(= {float(exact):.4f}, the closed form of the difference of two DLap agrees)")

    clamped = noise.from_table(noise.dlap(R).clamped(-1, 1), "DLap(1/2) clamped to [-1, 1]")
    bad = report_noisy_max(clamped, "report-noisy-max, noise clamped")
    r = assert_not_dp(bad, lam=1 / R)
    print("\nreport-noisy-max with the noise clamped to [-1, 1]: the claim lambda = 2 is REFUTED")
    print(r["refutation_text"].rstrip())
    # counts (0, 2) against (0, 3): index 0 needs Z0 - Z1 >= 2, i.e. Z0 = 1 and Z1 = -1 (probability
    # 1/3 * 1/3, the clamped law is uniform on {-1, 0, 1} for r = 1/2), and is impossible with a lead of 3
    assert noise.report_noisy_max([0, 2], clamped)[0] == F(1, 9)
    assert noise.report_noisy_max([0, 3], clamped)[0] == 0
    assert exactdp.profile(bad)["pure"]["ratio"] == float("inf")
    print("\nthe worst ratio of the clamped version is infinite: index 0 has probability 1/9 on counts (0, 2) "
          "and 0 on (0, 3)")


if __name__ == "__main__":
    main()
