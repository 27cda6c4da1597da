#!/usr/bin/env python3
"""AboveThreshold written as a Python step function against the library's C++ mechanism (issue 15,
items 3-4): the same exact delta at lambda = 16, and the ratio of the two times, measured in one run.

The authored mechanism is AboveThreshold (Dwork & Roth Alg. 1): threshold noise tau ~ DLap(1/4)
drawn once, query noise nu ~ DLap(1/2) per query, halting at the first "above" (the library's
default cutoff of one "above"; no Sparse-style cutoff c > 1); messages are the margins
v = q(x) - Thresh in {-1, 0, 1}, neighbours any two margins at distance at most one at every query;
6 queries. Its state is the exact posterior of tau (exactdp.noise.LatentThreshold), so nothing is
clamped. The library mechanism is `above-threshold` with the same parameters (a spec file with
"type": "library"). Both are checked with exactdp.check(..., lam=16), i.e. the same parser and
engine; the authored time includes exploring the step function and writing its spec text.

Usage: python bench/authored_vs_library.py [--queries 6] [--repeat 3] [--threads 0]
Prints both deltas (which must be equal, at lambda = 16 and, untimed, at 1, 2, 4, 8), the
best-of-repeat times, the ratio authored/library, and where the authored time goes (exploration,
spec text, parse and engine). Exit 1 if the deltas differ.
"""
import argparse
import json
import os
import sys
import tempfile
import time
from fractions import Fraction as F

import exactdp
from exactdp import noise

R_THRESHOLD, R_QUERY, LAMBDA = F(1, 4), F(1, 2), 16
MARGINS = (-1, 0, 1)


def step(state, v):
    if state == "halted":
        return {("halt", "halted"): 1}
    return {(answer, "halted" if answer == "above" else posterior): p
            for answer, (p, posterior) in state.compare(-v, R_QUERY).items()}


def authored(queries):
    pairs = [[a, b] for a in MARGINS for b in MARGINS if abs(a - b) <= 1]
    return exactdp.Mechanism.from_step(step, initial=noise.latent_threshold(R_THRESHOLD), messages=list(MARGINS),
                                       neighbours={"type": "pairs", "allowed": pairs}, horizon=queries,
                                       name="AboveThreshold (authored)", explore="horizon", progress=False)


def library_spec(queries, directory):
    path = os.path.join(directory, "above-threshold.json")
    with open(path, "w") as f:
        json.dump({"format": "exactdp/1", "name": "AboveThreshold (library)", "horizon": queries,
                   "mechanism": {"type": "library", "name": "above-threshold",
                                 "params": {"r_threshold": str(R_THRESHOLD), "r_query": str(R_QUERY), "queries": queries}}},
                  f)
    return path


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each route; the best time is reported")
    ap.add_argument("--threads", type=int, default=0, help="engine threads (0: all cores), the same for both")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as d:
        path = library_spec(a.queries, d)
        lib_times, auth_times, phases = [], [], []
        for _ in range(a.repeat):
            lib, t = timed(lambda: exactdp.check(path, lam=LAMBDA, threads=a.threads))
            lib_times.append(t)
            m, t_explore = timed(lambda: authored(a.queries))
            _, t_text = timed(m.spec_text)            # the spec dict is cached; check() serialises it again
            auth, t_check = timed(lambda: exactdp.check(m, lam=LAMBDA, threads=a.threads))
            auth_times.append(t_explore + t_text + t_check)
            phases.append((t_explore, t_text, t_check))

    if (auth["delta_forward"], auth["delta_backward"]) != (lib["delta_forward"], lib["delta_backward"]):
        print(f"MISMATCH: authored delta {auth['delta']} ({auth['delta_forward']}, {auth['delta_backward']}) "
              f"!= library {lib['delta']} ({lib['delta_forward']}, {lib['delta_backward']})")
        return 1
    # lambda = 16 is the claim's bound, where delta is 0; the profiles must agree below it too (untimed)
    others = [1, 2, 4, 8]
    with tempfile.TemporaryDirectory() as d:
        lib_at = exactdp.profile(library_spec(a.queries, d), lambdas=others)["at"]
    auth_at = exactdp.profile(m, lambdas=others)["at"]
    if [e["delta"] for e in lib_at] != [e["delta"] for e in auth_at]:
        print(f"MISMATCH below lambda = 16: authored {[str(e['delta']) for e in auth_at]}, library {[str(e['delta']) for e in lib_at]}")
        return 1
    best_lib, best_auth = min(lib_times), min(auth_times)
    explore, text, check = phases[auth_times.index(best_auth)]
    print(f"AboveThreshold, {a.queries} queries, r_threshold = 1/4, r_query = 1/2, margins -1..1, lambda = {LAMBDA}")
    print(f"  delta (both routes, exact): {lib['delta']}   verdict: {lib['verdict']}")
    print(f"  delta at lambda = {', '.join(map(str, others))} (both routes, exact): {', '.join(str(e['delta']) for e in lib_at)}")
    print(f"  mechanism states explored by the authored route: {len(m.states)}")
    print(f"  library  (spec file, C++ mechanism):          {best_lib:8.3f} s   (runs: {', '.join(f'{t:.3f}' for t in lib_times)})")
    print(f"  authored (Python step function, explored):    {best_auth:8.3f} s   (runs: {', '.join(f'{t:.3f}' for t in auth_times)})")
    print(f"    of which exploration {explore:.3f} s, spec text {text:.3f} s, parse + engine {check:.3f} s")
    print(f"  ratio authored / library: {best_auth / best_lib:.2f}x   (target: at most 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
