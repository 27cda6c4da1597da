"""SmartSum, a continual counter, and a buggy variant that forgets to reset the block sum.

SmartSum (Chan, Shi & Song 2011, the two-level counter; the form verified by Barthe et al. 2012)
releases a running count of a bit stream. The stream is cut into blocks of M items. Inside a block
each item is released with its own noise, added to the previous output; at the end of a block the
block's true sum is released with fresh noise and added to the total of earlier blocks, which
replaces the noisy running sum:

    next, n, sum = 0, 0, 0
    for i, x in enumerate(stream):
        if (i + 1) % M == 0:  n = n + sum + x + noise();  next = n;  sum = 0
        else:                 next = next + x + noise();  sum = sum + x
        output(next)

Each item enters two noisy pieces (its own and its block's), so with DLap(r) noise SmartSum is
2 ln(1/r)-DP for streams that differ in one item (event-level neighbours).

The buggy variant forgets `sum = 0`. An item then enters its own piece and the piece of *every*
later block, so its privacy loss grows with the length of the stream.

The pieces are clamped to a window as they are released (clamp(v + Z, lo, hi) with lo <= v and
hi >= v + 1): each clamped piece is a function of the noisy piece, and the outputs are sums of the
clamped pieces, so this is a post-processing that keeps the state space finite and, by
THEOREMS.md B.14 (X-CLAMP-EXACT), every piece keeps exactly the privacy profile of the unclamped one.

Run: python docs/tutorial/04_smartsum.py
"""
from fractions import Fraction as F

import exactdp
from exactdp import noise
from exactdp.testing import assert_dp, assert_not_dp

R = F(1, 2)          # DLap(1/2) per piece: ln 2 per piece
M = 2                # block size
T = 4                # stream length = horizon: two blocks

# event-level neighbours: at every step both worlds get a bit, at most one step with different bits
EVENT_LEVEL = {"type": "pairs", "allowed": [[0, 0], [1, 1], [0, 1], [1, 0]], "max_differing": 1}


def noisy(value, top):
    """The law of clamp(value + DLap(R), -1, top + 1): a released piece whose true value is in 0..top."""
    return (noise.dlap(R) + value).clamped(-1, top + 1)


def smartsum(reset_block_sum, name):
    def step(state, x):
        i, n, nxt, total = state             # position, released block total, last output, true block sum
        if i == T:
            return {("halt", state): 1}
        out = {}
        if (i + 1) % M == 0:                 # end of a block: the block sum, fresh noise
            block = total + x
            for piece, p in noisy(block, i + 1).items():
                n2 = n + piece
                out[(n2, (i + 1, n2, n2, 0 if reset_block_sum else block))] = p
        else:                                # inside a block: this item, fresh noise
            for piece, p in noisy(x, 1).items():
                out[(nxt + piece, (i + 1, n, nxt + piece, total + x))] = p
        return out

    return exactdp.Mechanism.from_step(step, initial=(0, 0, 0, 0), neighbours=EVENT_LEVEL, messages=[0, 1],
                                       horizon=T, name=name)


def rr_profile(lambdas, lam):
    """delta(lam) of the composition of RR_{l} for l in lambdas, from the definition (THEOREMS.md A.2):
    the pair of product laws over the answers 'agree'/'disagree', summed directly."""
    views = [(F(1), F(1))]
    for l in lambdas:
        p, q = F(l, 1 + l), F(1, 1 + l)
        views = [(a * x, b * y) for a, b in views for x, y in ((p, q), (q, p))]
    return sum(max(F(0), a - lam * b) for a, b in views)


def main():
    good = smartsum(reset_block_sum=True, name="SmartSum")
    # Chan-Shi-Song: 2 ln(1/r)-DP, lambda = 1/r^2 = 4
    assert_dp(good, lam=1 / R**2)
    r = exactdp.profile(good, lambdas=[1, F(3, 2), 2, 4])
    # The exact profile: the differing item enters two pieces, each a DLap shift, whose profile is that
    # of RR_{1/r} (D.7); so SmartSum's profile is that of RR_2 composed twice (THEOREMS.md E.3: 1/3,
    # 5/18, 2/9, 0), summed here from the definition
    assert r["pure"]["ratio"] == 4
    assert [e["delta"] for e in r["at"]] == [rr_profile([2, 2], e["lambda"]) for e in r["at"]]
    print(f"SmartSum, M = {M}, T = {T}, DLap(1/2): HOLDS at lambda = 4 (2 ln 2, Chan-Shi-Song); "
          f"delta at lambda = 1, 3/2, 2, 4: {', '.join(str(e['delta']) for e in r['at'])} (= RR_2 twice)")

    bad = smartsum(reset_block_sum=False, name="SmartSum, block sum not reset")
    v = assert_not_dp(bad, lam=4)
    print("\nSmartSum without `sum = 0`: the claim lambda = 4 is REFUTED")
    print(v["refutation_text"].rstrip())
    # the first item now enters three pieces (its own, block 1, block 2): RR_2 three times, lambda 8
    assert v["minimal_witness"]["rounds"] == 4          # it takes the second block to see it
    r = exactdp.profile(bad, lambdas=[4])
    assert r["pure"]["ratio"] == 8 and r["at"][0]["delta"] == rr_profile([2, 2, 2], 4) == F(4, 27)
    print("\nexact: worst ratio 8 and delta(4) = 4/27, the profile of RR_2 composed three times")


if __name__ == "__main__":
    main()
