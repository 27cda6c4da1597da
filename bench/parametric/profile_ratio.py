#!/usr/bin/env python3
"""Times `exactdp profile SPEC --parametric --json` (the worst pure ratio as a piecewise function of r,
its upper envelope of candidate ratios; docs/parametric.md, "The upper envelope").

CPU time of the child process (user + system, process start included), median of --repeat runs,
with the statistics the JSON reports: distinct candidate ratios, certified comparisons, rational
sub-intervals examined, pieces of the answer. The machine is shared: wall time is not a measure.

Usage: EXACTDP_BIN=build/rel/exactdp python3 bench/parametric/profile_ratio.py [--repeat 3] [--horizons 2 3 4]
"""
import argparse
import json
import os
import statistics
from pathlib import Path

from cpu_time import cpu_run

HERE = Path(__file__).resolve().parent
EXE = os.environ.get("EXACTDP_BIN", "exactdp")


def run(args, repeat):
    times = []
    for _ in range(repeat):
        t, p = cpu_run(EXE, args)
        times.append(t)
        if p.returncode != 0:
            return statistics.median(times), None, p.stderr.strip().splitlines()[-1]
    return statistics.median(times), json.loads(p.stdout), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--horizons", type=int, nargs="*", default=[2, 3, 4])
    a = ap.parse_args()
    cases = [("library svt-counter, r_threshold = r_query = r", HERE / "svt-counter-r.json")]
    print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds (user + system), median of {a.repeat}")
    print("| case | T | CPU (s) | candidates | comparisons | intervals | pieces |")
    print("|---|---|---|---|---|---|---|")
    for name, spec in cases:
        for t in a.horizons:
            cpu, out, error = run(["profile", str(spec), "--parametric", "--horizon", str(t), "--json"], a.repeat)
            if out is None:
                print(f"| {name} | {t} | {cpu:.3f} | refused: {error} | | | |")
                continue
            st = out["stats"]
            print(f"| {name} | {t} | {cpu:.3f} | {st['candidates']} | {st.get('comparisons', '')} | {st.get('intervals', '')} | {len(out['pieces'])} |")


if __name__ == "__main__":
    main()
