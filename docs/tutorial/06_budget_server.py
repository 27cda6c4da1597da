"""A query server with a privacy budget, and an off-by-one in its budget check.

The server holds a dataset and answers counting queries with discrete Laplace noise. Two kinds of
query are offered: "count" (DLap(1/2): ln 2, one unit of budget) and "precise" (DLap(1/4): ln 4, two
units). The budget is two units, i.e. lambda = e^eps = 4 in total. A query that does not fit in
what is left is answered "refused" — an answer that depends on the queries only, never on the data.

The worlds are two neighbouring datasets fixed in advance (static neighbours): x with count 2 and
x' with one more person, count 3. The adversary chooses each query after seeing the previous
answers (adaptive), so the script also shows that the budget caps an *adaptive* adversary.

The buggy server checks `spent < budget` instead of `spent + cost <= budget`: after one "count"
(spent 1 < 2) it still answers a "precise" query, spending three units.

Answers are the noisy count clamped to [0, 5] as it is released (post-processing; THEOREMS.md B.14
keeps each answer's profile exactly that of the unclamped noisy count).

Run: python docs/tutorial/06_budget_server.py
"""
from fractions import Fraction as F

import exactdp
from exactdp import noise
from exactdp.testing import assert_dp, assert_not_dp

QUERIES = {"count": (F(1, 2), 1), "precise": (F(1, 4), 2)}    # query -> (DLap parameter r, cost)
BUDGET = 2


def server(fits, name):
    def step(state, query):
        count, spent = state
        r, cost = QUERIES[query]
        if not fits(spent, cost):
            return {("refused", state): 1}
        law = (noise.dlap(r) + count).clamped(0, 5)
        return {(answer, (count, spent + cost)): p for answer, p in law.items()}

    return exactdp.Mechanism.from_step(step, initial={"x": (2, 0), "x'": (3, 0)},
                                       neighbours={"type": "static", "worlds": ["x", "x'"]},
                                       messages=list(QUERIES), horizon=3, name=name)


def rr_delta(lambdas, lam):
    """delta(lam) of RR_l composed over l in lambdas, from the definition (THEOREMS.md A.2)."""
    views = [(F(1), F(1))]
    for l in lambdas:
        p, q = F(l, 1 + l), F(1, 1 + l)
        views = [(a * x, b * y) for a, b in views for x, y in ((p, q), (q, p))]
    return sum(max(F(0), a - lam * b) for a, b in views)


def main():
    good = server(lambda spent, cost: spent + cost <= BUDGET, "budget server")
    assert_dp(good, lam=4)
    r = exactdp.profile(good, lambdas=[1, 2, 3])
    # Each answer has the profile of RR_{1/r} (a DLap shift, D.7). Within the budget the adversary can
    # ask "precise" once (RR_4) or "count" twice (RR_2 twice); RR_4 is the worse at every lambda, so
    # delta(lambda) = (4 - lambda)/5 (A.2), and the worst ratio is exactly the budget, 4
    assert r["pure"]["ratio"] == 4
    for e in r["at"]:
        assert e["delta"] == max(rr_delta([4], e["lambda"]), rr_delta([2, 2], e["lambda"])) == (4 - e["lambda"]) / 5
    print("budget server (budget 2 units = ln 4): HOLDS at lambda = 4 against every adaptive adversary; "
          f"delta at lambda = 1, 2, 3: {', '.join(str(e['delta']) for e in r['at'])} (= RR_4)")

    bad = server(lambda spent, cost: spent < BUDGET, "budget server, off by one")
    v = assert_not_dp(bad, lam=4)
    print("\nbudget server checking `spent < budget`: the claim lambda = 4 is REFUTED")
    print(v["refutation_text"].rstrip())
    # the worst adversary asks "count", then "precise": RR_2 composed with RR_4, worst ratio 8 and
    # delta(4) = 8/15 - 4 * 1/15 = 4/15 (the view "both answers high")
    r = exactdp.profile(bad, lambdas=[4])
    assert r["pure"]["ratio"] == 8 and r["at"][0]["delta"] == rr_delta([2, 4], 4) == F(4, 15)
    print("\nexact: worst ratio 8 and delta(4) = 4/15, the profile of RR_2 followed by RR_4")


if __name__ == "__main__":
    main()
