"""A noisy histogram, with the dataset as the message: the pattern for noninteractive mechanisms.

exactdp analyses interactive mechanisms: an adversary sends messages and sees answers. A
noninteractive mechanism M(dataset) fits as a mechanism with one round whose message is the
dataset:

* one initial state ("ready") shared by both worlds; from it, the message `dataset` is answered
  with the law of M(dataset), and the mechanism halts;
* the neighbour relation is of type "pairs": the allowed pairs are the neighbouring datasets;
* the horizon is 1.

The adversary then chooses the worst neighbouring pair itself, and a witness names it. A finite
universe of datasets is needed (here: at most two records, each in one of three bins).

The histogram adds DLap(r) noise to every bin count; each noisy count is clamped to [0, 3] as it is
released (post-processing; THEOREMS.md B.14 keeps its profile exact). Adding or removing one record
changes one count by one, so the histogram is ln(1/r)-DP. The "bug" is a common one: the same noise
used when a neighbour *replaces* a record, which changes two counts: that costs 2 ln(1/r), and the
claim ln(1/r) is refuted with the pair of datasets that shows it.

Run: python docs/tutorial/05_histogram.py
"""
from fractions import Fraction as F
from itertools import combinations_with_replacement, product

import exactdp
from exactdp import noise
from exactdp.testing import assert_dp, assert_not_dp

R = F(1, 2)                            # DLap(1/2): lambda = 2 per unit of sensitivity
BINS = ("a", "b", "c")
DATASETS = [d for n in range(3) for d in combinations_with_replacement(BINS, n)]   # sorted tuples of records


def noisy_histogram(dataset):
    """The exact law of the released histogram: three independent clamped noisy counts."""
    laws = [(noise.dlap(R) + dataset.count(b)).clamped(0, 3) for b in BINS]
    out = {}
    for values in product(*(law.items() for law in laws)):
        p = F(1)
        for _, q in values:
            p *= q
        out[tuple(v for v, _ in values)] = p
    return out


def step(state, dataset):
    if state == "done":
        return {("halt", "done"): 1}
    return {(histogram, "done"): p for histogram, p in noisy_histogram(dataset).items()}


def add_remove_pairs():
    """Neighbours differ by one record added or removed."""
    pairs = []
    for d in DATASETS:
        for b in BINS:
            bigger = tuple(sorted(d + (b,)))
            if bigger in DATASETS:
                pairs += [[d, bigger], [bigger, d]]
    return pairs


def replace_one_pairs():
    """Neighbours have the same size (two records) and differ in one record."""
    pairs = []
    for d in DATASETS:
        for e in DATASETS:
            if len(d) == len(e) == 2 and sum(min(d.count(b), e.count(b)) for b in BINS) == 1:   # one in common
                pairs.append([d, e])
    return pairs


def histogram(pairs, name):
    return exactdp.Mechanism.from_step(step, initial="ready", neighbours={"type": "pairs", "allowed": pairs},
                                       messages=DATASETS, horizon=1, name=name)


def main():
    m = histogram(add_remove_pairs(), "noisy histogram, add/remove one record")
    assert_dp(m, lam=1 / R)
    r = exactdp.profile(m, lambdas=[1])
    # one count moves by one: the profile of one DLap shift, which is that of RR_{1/r} (D.7):
    # worst ratio 1/r = 2, delta(1) = (2 - 1)/(2 + 1) = 1/3 (THEOREMS.md A.2)
    assert r["pure"]["ratio"] == 2 and r["at"][0]["delta"] == F(1, 3)
    print("histogram, add/remove neighbours: HOLDS at lambda = 2; exact worst ratio 2, delta(1) = 1/3 (= RR_2)")

    m = histogram(replace_one_pairs(), "noisy histogram, replace one record")
    v = assert_not_dp(m, lam=1 / R)
    print("\nthe same histogram, replace-one neighbours: the claim lambda = 2 is REFUTED")
    print(v["refutation_text"].rstrip())
    # two counts move by one: RR_2 composed with itself, worst ratio 4, delta(2) = 2/9 (THEOREMS.md E.3)
    r = exactdp.profile(m, lambdas=[2])
    assert r["pure"]["ratio"] == 4 and r["at"][0]["delta"] == F(2, 9)
    assert_dp(m, lam=4)
    print("\nexact: worst ratio 4 = 2 ln 2 and delta(2) = 2/9, the profile of RR_2 twice; HOLDS at lambda = 4")


if __name__ == "__main__":
    main()
