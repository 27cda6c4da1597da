"""Wall time of the accountant audit (python -m exactdp.audit_all) serially against a Dask
LocalCluster, in one run, and the ratio; checks that both reports agree apart from timings.

    PYTHONPATH=python python bench/dask_audit.py --grid small --workers 2 [--accountants a,b]

The serial run audits claim after claim in this process (the executor "serial", the same tasks);
the cluster run starts a LocalCluster of --workers single-thread processes, audits on it and
closes it; its time includes the cluster's start. The claims are produced by the accountants in
this process in both runs (that part is not distributed); the table shows it apart.
"""
import argparse
import os
import re
import sys
import tempfile
import time

from exactdp import audit_all
from exactdp.distributed import SERIAL, Executor


def timed_run(accountants, grid, out, executor_factory):
    phases = {"claims": 0.0, "audit": 0.0}

    def log(msg):
        m = re.search(r"\(claims ([\d.]+)s, audit ([\d.]+)s\)", msg)
        if m:
            phases["claims"] += float(m.group(1))
            phases["audit"] += float(m.group(2))
    t0 = time.perf_counter()
    ex = executor_factory()
    t_start = time.perf_counter() - t0
    try:
        report, _ = audit_all.run(accountants, grid, out, log=log, executor=ex)
    finally:
        ex.close()
    total = time.perf_counter() - t0
    claims = sum(len(a.get("results", [])) for a in report["accountants"].values())
    # per run() call (one accountant): the CPU seconds of its tasks in each process
    batches = [[(ex.cpu_seconds[k], ex.process[k]) for k in b] for b in ex.batches]
    cpu = sum(c for b in batches for c, _ in b)
    span = sum(max((sum(c for c, p in b if p == q) for q in {p for _, p in b}), default=0) for b in batches)
    return {"total": total, "start": t_start, "claims_n": claims, "batches": batches, "cpu": cpu, "span": span, **phases}


def bound(batches, workers):
    """The least audit CPU time on ``workers`` workers of tasks timed serially, one accountant
    after the other (run() audits one accountant's claims at a time): per accountant, the larger
    of its longest task and its total over the workers."""
    return sum(max(max((c for c, _ in b), default=0), sum(c for c, _ in b) / workers) for b in batches)


def masked(path):
    text = open(path, encoding="utf-8").read().replace(os.path.dirname(path), "<out>")
    text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "<date>", text)
    return re.sub(r"\d+(\.\d+)? ?s\b", "<t>", text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", default="small", choices=("ci", "small", "full"))
    ap.add_argument("--accountants", default="all")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1,
                    help="pairs of runs, alternating the order (serial first, then cluster first, ...)")
    args = ap.parse_args()
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    names = list(audit_all.ADAPTERS) if args.accountants == "all" else args.accountants.split(",")
    rows, same = [], True
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.repeat):
            order = ("serial", "dask") if rep % 2 == 0 else ("dask", "serial")
            got = {}
            for kind in order:
                out = os.path.join(tmp, f"{kind}{rep}")
                load = os.getloadavg()[0]
                factory = (lambda: Executor(SERIAL)) if kind == "serial" else (lambda: Executor(None, n_workers=args.workers))
                got[kind] = dict(timed_run(names, args.grid, out, factory), load=load, rep=rep)
            same &= masked(os.path.join(tmp, f"serial{rep}", "report.md")) == masked(os.path.join(tmp, f"dask{rep}", "report.md"))
            rows.append(got)
    serial = rows[0]["serial"]
    print(f"audit of {', '.join(names)} on grid {args.grid!r}: {serial['claims_n']} claims; {os.cpu_count()} cores")
    print("| pair | run | load avg. at start | wall total | cluster start | producing claims | auditing claims |")
    print("|---|---|---|---|---|---|---|")
    for got in rows:
        for kind in ("serial", "dask"):
            r = got[kind]
            name = "serial" if kind == "serial" else f"LocalCluster, {args.workers} workers"
            print(f"| {r['rep'] + 1} | {name} | {r['load']:.1f} | {r['total']:.1f} s | {r['start']:.1f} s | "
                  f"{r['claims']:.1f} s | {r['audit']:.1f} s |")
    for got in rows:
        s, d = got["serial"], got["dask"]
        print(f"pair {s['rep'] + 1}: ratio cluster / serial: wall {d['total'] / s['total']:.2f}, "
              f"audit phase {d['audit'] / max(s['audit'], 1e-9):.2f}")
    print()
    print("CPU seconds of the audit tasks (thread time; what the wall time of the audit phase would be with "
          "a core per worker):")
    for got in rows:
        s, d = got["serial"], got["dask"]
        print(f"pair {s['rep'] + 1}: serial {s['cpu']:.1f} s; cluster {d['cpu']:.1f} s in all, busiest worker "
              f"per accountant summed {d['span']:.1f} s: ratio {d['span'] / max(s['cpu'], 1e-9):.2f} "
              f"(bound from the serial task times: {bound(s['batches'], args.workers) / max(s['cpu'], 1e-9):.2f})")
    print("reports equal apart from timings:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
