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
    return {"total": total, "start": t_start, "claims_n": claims, "batches": ex.batches, **phases}


def bound(batches, workers):
    """The least audit time on ``workers`` workers of the claims timed serially, accountant after
    accountant (run() audits one accountant's claims at a time): per batch, the larger of its
    longest claim and its total over the workers."""
    return sum(max(max(b, default=0), sum(b) / workers) for b in batches)


def masked(path):
    text = open(path, encoding="utf-8").read().replace(os.path.dirname(path), "<out>")
    text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "<date>", text)
    return re.sub(r"\d+(\.\d+)? ?s\b", "<t>", text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", default="small", choices=("ci", "small", "full"))
    ap.add_argument("--accountants", default="all")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    names = list(audit_all.ADAPTERS) if args.accountants == "all" else args.accountants.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        serial = timed_run(names, args.grid, os.path.join(tmp, "serial"), lambda: Executor(SERIAL))
        dask = timed_run(names, args.grid, os.path.join(tmp, "dask"),
                         lambda: Executor(None, n_workers=args.workers))
        same = masked(os.path.join(tmp, "serial", "report.md")) == masked(os.path.join(tmp, "dask", "report.md"))
    print(f"audit of {', '.join(names)} on grid {args.grid!r}: {serial['claims_n']} claims; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print("| run | wall total | cluster start | producing claims | auditing claims |")
    print("|---|---|---|---|---|")
    for name, r in (("serial", serial), (f"LocalCluster, {args.workers} workers", dask)):
        print(f"| {name} | {r['total']:.1f} s | {r['start']:.1f} s | {r['claims']:.1f} s | {r['audit']:.1f} s |")
    print(f"ratio cluster / serial: wall {dask['total'] / serial['total']:.2f}, "
          f"audit phase {dask['audit'] / max(serial['audit'], 1e-9):.2f}")
    tasks = sum(sum(b) for b in serial["batches"])
    print(f"serial claim audits {tasks:.1f} s in all; the longest claims bound the audit phase on "
          f"{args.workers} workers to at least {bound(serial['batches'], args.workers):.1f} s "
          f"(ratio >= {bound(serial['batches'], args.workers) / max(tasks, 1e-9):.2f})")
    print("reports equal apart from timings:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
