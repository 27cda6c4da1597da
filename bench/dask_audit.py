"""Wall and CPU time of the accountant audit (python -m exactdp.audit_all) serially against a Dask
LocalCluster, in one run, and their ratios; checks that both reports agree apart from timings.

    PYTHONPATH=python python bench/dask_audit.py --grid small --workers 2 [--accountants a,b] [--repeat N]

The serial run does all the work in this process (the executor "serial": the same tasks, one
after the other). The cluster run starts a LocalCluster of --workers single-thread processes (its
start counted), produces every accountant's claims, audits them and computes the calibration
brackets there, and closes it; this process only submits the tasks and writes the report.

Besides wall times it measures CPU time, which a machine shared with other work does not distort
as much: the serial run's process CPU; for the cluster run each worker process's CPU (tasks,
imports and Dask's own work, read from the worker before it closes) and this process's. With a
core per process the cluster's wall time could not be below its busiest process's CPU time, and
on C cores not below the CPU of all its processes (this one included: the scheduler, the nannies
and the report run here) over C; the larger of the two over the serial CPU, "CPU bound", is the
CPU-based figure of the wall ratio. Also printed: "busiest / serial" alone, the same over the
tasks' own thread CPU only, and the best any placement of the serial run's tasks on the workers
could do (the larger of the longest task and an even share). With --tasks, the thread CPU of each
claims task (one per accountant) serially and on the cluster, and the worker it ran on.
"""
import argparse
import os
import re
import resource
import sys
import tempfile
import time

from exactdp import audit_all
from exactdp.distributed import SERIAL, Executor


def _tree_cpu():
    """CPU seconds of this process and of its children that have ended (the cluster's workers once
    it is closed; any helper process Dask starts)."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def timed_run(accountants, grid, out, executor_factory):
    load = os.getloadavg()[0]
    t0, c0, a0 = time.perf_counter(), time.process_time(), _tree_cpu()
    ex = executor_factory()
    t_start = time.perf_counter() - t0
    try:
        report, _ = audit_all.run(accountants, grid, out, log=lambda m: None, executor=ex)
        workers = ex.worker_cpu_seconds()
    finally:
        ex.close()
    total, client, tree = time.perf_counter() - t0, time.process_time() - c0, _tree_cpu() - a0
    claims = sum(len(a.get("results", [])) for a in report["accountants"].values())
    tasks = [(k, c, ex.process[k]) for k, c in ex.cpu_seconds.items() if c is not None]
    per_process = {}
    for _, c, pid in tasks:
        per_process[pid] = per_process.get(pid, 0) + c
    names = {k: p.get("accountant", k) for k, p in ex.params.items()}
    return {"names": names, "tree": tree, "total": total, "start": t_start, "claims_n": claims, "client": client, "workers": workers,
            "tasks": tasks, "task_cpu": sum(c for _, c, _ in tasks), "busiest_tasks": max(per_process.values(), default=0),
            "n_tasks": len(tasks), "load": load, "load_end": os.getloadavg()[0]}


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
    ap.add_argument("--tasks", action="store_true", help="print each claims task's CPU, serial and on the cluster")
    ap.add_argument("--keep", metavar="DIR", help="write the runs' reports under DIR (default: a temporary directory)")
    args = ap.parse_args()
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    names = list(audit_all.ADAPTERS) if args.accountants == "all" else args.accountants.split(",")
    rows, same = [], True
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        for rep in range(args.repeat):
            order = ("serial", "dask") if rep % 2 == 0 else ("dask", "serial")
            got = {}
            for kind in order:
                out = os.path.join(tmp, f"{kind}{rep}")
                factory = (lambda: Executor(SERIAL)) if kind == "serial" else (lambda: Executor(None, n_workers=args.workers))
                got[kind] = dict(timed_run(names, args.grid, out, factory), rep=rep)
            same &= masked(os.path.join(tmp, f"serial{rep}", "report.md")) == masked(os.path.join(tmp, f"dask{rep}", "report.md"))
            rows.append(got)
    serial = rows[0]["serial"]
    print(f"audit of {', '.join(names)} on grid {args.grid!r}: {serial['claims_n']} claims, "
          f"{serial['n_tasks']} tasks; {os.cpu_count()} cores")
    print("| pair | run | load avg. (start → end) | wall total | cluster start | CPU: this process | CPU: worker processes | "
          "CPU: all processes |")
    print("|---|---|---|---|---|---|---|---|")
    for got in rows:
        for kind in ("serial", "dask"):
            r = got[kind]
            name = "serial" if kind == "serial" else f"LocalCluster, {args.workers} workers"
            w = ", ".join(f"{c:.1f} s" for c in sorted(r["workers"].values(), reverse=True)) or "—"
            print(f"| {r['rep'] + 1} | {name} | {r['load']:.1f} → {r['load_end']:.1f} | {r['total']:.1f} s | "
                  f"{r['start']:.1f} s | {r['client']:.1f} s | {w} | {r['tree']:.1f} s |")
    print()
    cores = os.cpu_count() or 1
    print(f"| pair | wall ratio | CPU bound: max(busiest, all / {cores} cores) / serial | CPU: busiest process / serial process | "
          "tasks: busiest worker / serial | tasks: best placement of the serial task times |")
    print("|---|---|---|---|---|---|")
    for got in rows:
        s, d = got["serial"], got["dask"]
        busiest = max([d["client"], *d["workers"].values()])
        spread = d["tree"] / cores
        longest = max((c for _, c, _ in s["tasks"]), default=0)
        best = max(longest, s["task_cpu"] / args.workers)
        print(f"| {s['rep'] + 1} | {d['total'] / s['total']:.2f} | max({busiest:.1f}, {spread:.1f}) / {s['client']:.1f} s = "
              f"{max(busiest, spread) / s['client']:.2f} | {busiest:.1f} / {s['client']:.1f} s = "
              f"{busiest / s['client']:.2f} | {d['busiest_tasks']:.1f} / {s['task_cpu']:.1f} s = "
              f"{d['busiest_tasks'] / max(s['task_cpu'], 1e-9):.2f} | {best / max(s['task_cpu'], 1e-9):.2f} |")
    print()
    print("Task thread CPU by kind (serial → cluster, summed over workers):")
    for got in rows:
        s, d = got["serial"], got["dask"]
        kinds = sorted({k.split("-")[0] for k, _, _ in s["tasks"] + d["tasks"]})
        print(f"pair {s['rep'] + 1}: " + "; ".join(
            f"{kind} {sum(c for k, c, _ in s['tasks'] if k.startswith(kind + '-')):.1f} → "
            f"{sum(c for k, c, _ in d['tasks'] if k.startswith(kind + '-')):.1f} s" for kind in kinds))
    if args.tasks:
        print()
        print("| pair | claims task | serial: thread CPU | cluster: thread CPU | worker (process id) |")
        print("|---|---|---|---|---|")
        for got in rows:
            s, d = got["serial"], got["dask"]
            here = {k: c for k, c, _ in s["tasks"]}
            for k, c, pid in sorted(d["tasks"], key=lambda t: -here.get(t[0], 0)):
                if k.startswith("claims-"):
                    print(f"| {s['rep'] + 1} | {d['names'].get(k, k)} | {here.get(k, 0):.2f} s | {c:.2f} s | {pid} |")
    print("reports equal apart from timings:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
