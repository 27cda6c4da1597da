"""Adaptive against oblivious adversaries: the lottery.

The lottery (THEOREMS.md D.14) holds a secret bit b. Its first answer is a number r drawn uniformly
from 1..n, released in the clear; afterwards a message k is answered with the secret if k == r,
and "miss" otherwise. An adversary that chooses its messages after seeing the answers (adaptive)
sends k = r and learns b with certainty: delta = 1 at every lambda. An adversary that must fix its
messages in advance (oblivious) hits r with probability 1/n: delta = 1/n. The same mechanism, two
threat models, two very different verdicts — which is why a claim names its adversary class.

Run: python docs/tutorial/07_adversary_classes.py
"""
from fractions import Fraction as F

import exactdp

N = 3


def lottery(state, k):
    b, drawn = state
    if drawn is None:                                       # first message: draw and release r
        return {(f"r={r}", (b, r)): F(1, N) for r in range(1, N + 1)}
    return {(f"secret={b}" if k == drawn else "miss", state): 1}


def main():
    m = exactdp.Mechanism.from_step(lottery, initial={"x": (0, None), "x'": (1, None)},
                                    neighbours={"type": "static", "worlds": ["x", "x'"]},
                                    messages=list(range(1, N + 1)), horizon=2, name="lottery")
    results = {}
    for adversary in ("adaptive", "sequential", "oblivious"):
        results[adversary] = exactdp.profile(m, lambdas=[1, 100], adversary=adversary)["at"]
        print(f"{adversary:>10} adversaries: delta(1) = {results[adversary][0]['delta']}, "
              f"delta(100) = {results[adversary][1]['delta']}")
    # D.14, by hand: an adaptive adversary reads r and sends it, so "secret=1" has probability 1 in x'
    # and 0 in x: delta = 1 at every lambda. An oblivious one fixes k in advance; the views are
    # (r=j, miss) for j != k, equally likely in both worlds, and (r=k, secret=b), of probability 1/n
    # in world b only: delta = 1/n at every lambda. A single mechanism is not a composition, so
    # sequential adversaries are the adaptive ones.
    assert [e["delta"] for e in results["adaptive"]] == [1, 1]
    assert [e["delta"] for e in results["sequential"]] == [1, 1]
    assert [e["delta"] for e in results["oblivious"]] == [F(1, N), F(1, N)]
    print(f"\nadaptive: delta = 1 (not private at all); oblivious: delta = 1/{N} (THEOREMS.md D.14)")


if __name__ == "__main__":
    main()
