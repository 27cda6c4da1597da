#!/usr/bin/env python3
"""Times a claim decided for every r against one numeric instance of the same spec (issue 19 target).

For each case: `exactdp check SPEC --lambda EXPR --for-all r --no-cross-check` (the parametric
decision alone) against `exactdp check INSTANCE --lambda VALUE` on the spec instantiated at one
rational r (expressions evaluated with Python's Fraction; only for this timing). CPU time (user +
system of the child process, process start included in both), median of --repeat runs: the machine
is shared, so wall clock is not a measure of the work.

Usage: EXACTDP_BIN=build/rel/exactdp python3 bench/parametric/compare.py [--repeat 5]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import svt_table  # noqa: E402
from cpu_time import cpu_run  # noqa: E402

EXE = os.environ.get("EXACTDP_BIN", "exactdp")


def value(text, r):
    return str(eval(text.replace("^", "**"), {"r": Fraction(r)}))  # bench only


def instantiate(spec, r):
    d = json.loads(json.dumps(spec))
    del d["parameters"]
    if d["mechanism"]["type"] == "library":
        params = d["mechanism"]["params"]
        for key in ("r", "r_threshold", "r_query"):
            if isinstance(params.get(key), str):
                params[key] = value(params[key], r)
        return d
    for rules in d["mechanism"]["states"].values():
        for rows in rules.values():
            for row in rows:
                if isinstance(row["p"], str):
                    row["p"] = str(eval(row["p"].replace("^", "**"), {"r": Fraction(r)}))  # bench only
    return d


def timed(args, repeat):
    times = []
    for _ in range(repeat):
        t, p = cpu_run(EXE, args)
        times.append(t)
        if p.returncode not in (0, 1):
            raise SystemExit(p.stderr)
    return statistics.median(times), p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    cases = [("rr-parametric (event-level RR, p = r), T = 5", json.loads((ROOT / "spec/mechanisms/rr-parametric.json").read_text()), 5, "r/(1-r)", "2/3"),
             ("dlap-counter-parametric, T = 3", json.loads((ROOT / "spec/mechanisms/dlap-counter-parametric.json").read_text()), 3, "1/r^3", "1/2")]
    for c in (1, 2, 3):
        cases.append((f"AboveThreshold, DLap(r) clamped to [-{c},{c}], T = 5", svt_table.spec(c, 5), 5, "1/r^4", "1/2"))
    cases.append(("library svt-counter, r_threshold = r_query = r (unclamped), T = 5",
                  json.loads((HERE / "svt-counter-r.json").read_text()), 5, "1/r^3", "1/2"))
    cases.append(("library tree-counter, DLap(r) per node, T = 8", json.loads((HERE / "tree-counter-r.json").read_text()), 8, "1/r^4", "1/2"))
    with tempfile.TemporaryDirectory() as tmp:
        print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds (user + system), median of {a.repeat}")
        print("| case | for all r (s) | one instance (s) | ratio | verdict for all r |")
        print("|---|---|---|---|---|")
        for name, spec, horizon, lam, r in cases:
            sp = Path(tmp) / "p.json"
            sp.write_text(json.dumps(spec))
            ip = Path(tmp) / "i.json"
            ip.write_text(json.dumps(instantiate(spec, r)))
            lam_value = value(lam, r)
            tp, code = timed(["check", str(sp), "--lambda", lam, "--for-all", "r", "--horizon", str(horizon), "--no-cross-check"], a.repeat)
            tn, _ = timed(["check", str(ip), "--lambda", lam_value, "--horizon", str(horizon), "--threads", "1"], a.repeat)
            print(f"| {name} | {tp:.3f} | {tn:.3f} | {tp / tn:.2f} | {'holds' if code == 0 else 'refuted'} (λ = {lam}) |")


if __name__ == "__main__":
    main()
