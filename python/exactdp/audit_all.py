"""Audit every installed privacy accountant against exactdp and write a report.

    python3 -m exactdp.audit_all --accountants all --grid small --out audit-report

For each accountant adapter (exactdp.adapters: dp_accounting, opendp, prv_accountant, autodp) whose
package is installed, the adapter asks the accountant for epsilon(delta) / delta(epsilon) over the
scenario grid, writes the claims (exactdp-claims/1) to ``OUT/claims-NAME.json`` — each one
reproducible with ``exactdp audit OUT/claims-NAME.json`` — and audits them. The report is
``OUT/report.md`` (one table per accountant and a summary), ``OUT/results.json`` (every result),
and ``OUT/NAME.png`` plots of claimed against true epsilon when matplotlib is installed.
Accountants that are not installed are skipped with a message. Exit status 1 when a claim is
unsound, 0 otherwise.
"""
import argparse
import importlib
import json
import math
import os
import sys
import time
from fractions import Fraction

# A relative shortfall below this is at the level of the accountant's floating-point arithmetic
# (binary64 has 2^-53 ~ 1.1e-16; a few thousand roundings stay far below 1e-9). Such claims are still
# unsound — exactdp decides them exactly — but the report lists them apart.
ROUNDING = 1e-9

ADAPTERS = {
    "dp_accounting": "exactdp.adapters.google_dp_accounting",
    "opendp": "exactdp.adapters.opendp_adapter",
    "prv_accountant": "exactdp.adapters.prv",
    "autodp": "exactdp.adapters.autodp_adapter",
}


def _float(x):
    """float(x), saturating to +-inf for Fractions beyond the double range (huge relative slacks)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _num(v):
    """A float for display: midpoint of a bracket, inf, or the exact value."""
    if v is None:
        return None
    if isinstance(v, tuple):
        lo, hi = v
        if hi == math.inf:
            return math.inf
        return _float((lo + hi) / 2)
    return _float(v)


def _show(v, digits=8):
    if v is None:
        return ""
    if v == math.inf:
        return "inf"
    if isinstance(v, tuple):
        lo, hi = v
        return f"[{_float(lo):.{digits}g}, {'inf' if hi == math.inf else format(_float(hi), f'.{digits}g')}]"
    return f"{_float(v):.{digits}g}"


def _jsonable(v):
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if v == math.inf:
        return "inf"
    return v


def _audit(doc, path, exactdp_bin, grid_resolution=1024, grid_points=40000):
    """Results of a claims document: through the Python module, or the CLI when given."""
    if exactdp_bin:
        import subprocess

        out = subprocess.run([exactdp_bin, "audit", path, "--json", "--grid-resolution", str(grid_resolution),
                              "--grid-points", str(grid_points)],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1, 3):  # 1: some claim unsound, 3: some undecided (docs/verdicts.md)
            raise RuntimeError(out.stderr)
        from .audit import _EXACT_KEYS, _value

        results = []
        for r in json.loads(out.stdout)["results"]:
            for k in _EXACT_KEYS:
                if k in r:
                    r[k] = _value(r[k])
            if r["slack"] is not None:
                r["slack"] = {k: _value(v) for k, v in r["slack"].items()}
            results.append(r)
        return results
    from . import audit

    return audit(doc, grid_resolution=grid_resolution, grid_points=grid_points)


def _low_bound_check(claim, result):
    """prv_accountant's eps_low: an error when it exceeds the certified truth (a wrong lower bound)."""
    note = claim.get("comment", "")
    if not note.startswith("eps_low=") or "true_epsilon" not in result:
        return None
    low = Fraction(note[len("eps_low="):])
    t = result["true_epsilon"]
    hi = t[1] if isinstance(t, tuple) else t
    if hi != math.inf and low > hi:
        return f"eps_low {float(low):.8g} exceeds the true epsilon (at most {float(hi):.8g})"
    return None


def _plot(name, rows, out):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    # relative slack (claimed - true)/true against the true epsilon: a symmetric-log axis shows both
    # the float-rounding shortfalls (~1e-16) and the loose bounds (x10) of one accountant
    pts = [(r["truth_f"], r["rel_f"], r["verdict"], r["id"].split("/")[0]) for r in rows
           if r["truth_f"] not in (None, math.inf) and r["kind"] == "epsilon" and r["truth_f"] > 0
           and r["rel_f"] is not None and math.isfinite(r["rel_f"])]
    if not pts:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.8))
    colors = {"sound": "tab:green", "unsound": "tab:red", "undecided": "tab:orange"}
    markers = ["o", "s", "^", "D", "v", "P"]
    modes = sorted({p[3] for p in pts})
    for v, c in colors.items():
        for mi, mode in enumerate(modes):
            sel = [p for p in pts if p[2] == v and p[3] == mode]
            if sel:
                ax.scatter([p[0] for p in sel], [p[1] for p in sel], s=16, c=c, marker=markers[mi % len(markers)],
                           label=f"{v} ({mode})" if len(modes) > 1 else v)
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1e-9)
    ax.set_xlabel("true epsilon (exact, or certified bracket midpoint)")
    ax.set_ylabel("relative slack (claimed - true) / true")
    ax.set_title(f"{name}: claimed vs true epsilon (below 0: unsound)")
    ax.legend(fontsize=7)
    path = os.path.join(out, f"{name}.png")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _how(r):
    """How the truth was obtained, in a few words."""
    if r.get("exact"):
        return "exact"
    if "grid_resolution" in r:
        return f"grid bracket (res. {r['grid_resolution']})"
    m = r.get("method", "")
    if m.startswith("pure DP"):
        return "exact (pure DP)"
    if "closed form" in m:
        return "certified closed form"
    return "certified PLD"


def _truth_text(x):
    """The truth with its nature: exact value or certified interval."""
    t = x["truth"]
    if isinstance(t, tuple):
        return f"in {_show(t, 12)}"
    return f"= {_show(t, 12)}" + (" (exact)" if x["how"].startswith("exact") else "")


# --- running the claims as tasks (exactdp.distributed: --serial, --scheduler, --results) ----------
def _audit_one(doc, indices, exactdp_bin, grid_resolution, grid_points):
    """One task: the results of a claims document holding some claims of a larger one, whose
    places there are ``indices`` (an error's JSON pointer /claims/j is rewritten to name it)."""
    try:
        if not exactdp_bin:
            return _audit(doc, None, None, grid_resolution, grid_points)
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "claims.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            return _audit(doc, path, exactdp_bin, grid_resolution, grid_points)
    except Exception as e:
        import re

        text = re.sub(r"/claims/(\d+)", lambda m: f"/claims/{indices[int(m.group(1))]}", str(e))
        if text == str(e):
            raise
        raise RuntimeError(text) from None


# the fields of a claim that only say where its mechanism is queried: claims equal but for them
# share the grid laws the audit caches in its process (amplification/grid_bracket.cpp)
_QUERY_FIELDS = ("id", "delta", "epsilon", "claimed_epsilon", "claimed_delta", "accountant", "comment")


def _audit_as_tasks(doc, exactdp_bin, grid_resolution, grid_points, executor):
    """The results of ``_audit(doc, ...)``, the claims audited as tasks of ``executor``, in the
    document's order. Claims that differ only in where the mechanism is queried form one task, and
    tasks of the same mechanism and sampling (any number of uses) go to the same worker, so the
    audit's per-process cache of composed laws serves them as in a serial run. A task whose audit
    failed stops the run (as the serial audit would) after every other task has finished, with one
    line per failure: task key, claims, exception."""
    from .distributed import Task, TaskError

    def without(c, fields):
        return json.dumps({k: v for k, v in c.items() if k not in fields}, sort_keys=True)
    groups = {}
    for i, c in enumerate(doc["claims"]):
        groups.setdefault(without(c, _QUERY_FIELDS), []).append(i)
    via = "cli" if exactdp_bin else "module"
    tasks = []
    for indices in groups.values():
        claims = [doc["claims"][i] for i in indices]
        tasks.append(Task.of("audit", {"accountant": doc.get("accountant"), "claims": claims,
                                       "grid_resolution": grid_resolution, "grid_points": grid_points, "via": via},
                             {**doc, "claims": claims}, indices, exactdp_bin, grid_resolution, grid_points,
                             affinity=without(claims[0], _QUERY_FIELDS + ("times",))))
    outcomes = executor.run(_audit_one, tasks)
    failed = [o for o in outcomes if isinstance(o, TaskError)]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(tasks)} tasks ({len(doc['claims'])} claims) could not be audited:\n" +
                           "\n".join(str(e) for e in failed))
    results = [None] * len(doc["claims"])
    for indices, rs in zip(groups.values(), outcomes):
        for i, r in zip(indices, rs):
            results[i] = r
    return results


def _executor(args, parser):
    """The executor of --serial/--scheduler/--results: an embedded LocalCluster by default; None
    (the audit in this process, as before) when dask.distributed is not installed and no option
    asks for it."""
    from . import distributed

    if not (args.serial or args.scheduler):
        try:
            import distributed as _  # noqa: F401
        except ImportError:
            print("dask.distributed is not installed (pip install 'exactdp[distributed]'): auditing in this process",
                  file=sys.stderr)
            return None if not args.results else distributed.Executor(distributed.SERIAL, results=args.results)
    return distributed.executor_from_args(args, parser)


def run(accountants, grid, out, exactdp_bin=None, log=print, grid_resolution=1024, grid_points=40000, executor=None):
    os.makedirs(out, exist_ok=True)
    from .adapters import _common as C

    started = time.time()
    report = {"grid": grid, "grid_resolution": grid_resolution, "grid_points": grid_points, "accountants": {}}
    md = [f"# exactdp audit of privacy accountants (grid: {grid})", ""]
    summary = []
    any_unsound = False
    for name in accountants:
        mod = importlib.import_module(ADAPTERS[name])
        ver = C.version(mod.PACKAGE)
        if ver is None:
            msg = f"{name}: not installed (pip install {mod.PACKAGE}=={mod.PINNED}); skipped"
            log(msg)
            summary.append(f"| {name} | not installed | | | | | |")
            report["accountants"][name] = {"skipped": msg}
            continue
        if ver != mod.PINNED:
            log(f"{name}: installed {ver}, adapter pinned at {mod.PINNED}; auditing the installed version")
        t0 = time.time()
        try:
            doc = mod.claims(grid=grid)
        except Exception as e:  # noqa: BLE001 - an accountant failing is reported, not fatal
            msg = f"{name} {ver}: producing the claims failed: {type(e).__name__}: {e}"
            log(msg)
            report["accountants"][name] = {"skipped": msg}
            summary.append(f"| {name} {ver} | failed | | | | | |")
            continue
        path = os.path.join(out, f"claims-{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        t1 = time.time()
        results = (_audit(doc, path, exactdp_bin, grid_resolution, grid_points) if executor is None
                   else _audit_as_tasks(doc, exactdp_bin, grid_resolution, grid_points, executor))
        t2 = time.time()
        claims = {c["id"]: c for c in doc["claims"]}
        rows = []
        for r in results:
            kind = "epsilon" if "claimed_epsilon" in r else "delta"
            truth = r.get("true_epsilon", r.get("true_delta"))
            claimed = r.get("claimed_epsilon", r.get("claimed_delta"))
            rel = r["slack"]["relative"] if r["slack"] else None
            absl = r["slack"]["absolute"] if r["slack"] else None
            rows.append({"id": r["id"], "kind": kind, "verdict": r["verdict"], "claimed": claimed, "truth": truth,
                         "slack_absolute": absl, "slack_relative": rel, "method": r.get("method", ""), "how": _how(r),
                         "low_bound_error": _low_bound_check(claims[r["id"]], r),
                         "truth_f": _num(truth), "claimed_f": _num(claimed), "rel_f": _num(rel)})
        counts = {v: sum(1 for x in rows if x["verdict"] == v) for v in ("sound", "unsound", "undecided")}
        # unsound by more than float rounding: a relative shortfall above ROUNDING (or no finite truth)
        counts["unsound_beyond_rounding"] = sum(1 for x in rows if x["verdict"] == "unsound" and
                                                (x["rel_f"] is None or -x["rel_f"] > ROUNDING))
        any_unsound |= counts["unsound"] > 0
        worst = min((x for x in rows if x["rel_f"] is not None), key=lambda x: x["rel_f"], default=None)
        low_errors = [x for x in rows if x["low_bound_error"]]
        log(f"{name} {ver}: {len(rows)} claims, {counts['unsound']} unsound, {counts['undecided']} undecided "
            f"(claims {t1 - t0:.1f}s, audit {t2 - t1:.1f}s)")
        summary.append(f"| {name} {ver} | {len(rows)} | {counts['sound']} | {counts['unsound']} "
                       f"({counts['unsound_beyond_rounding']}) | {counts['undecided']} | "
                       + (f"{worst['rel_f']:.3g} ({worst['id']})" if worst else "") + f" | {t1 - t0:.0f} s + {t2 - t1:.0f} s |")
        md += [f"## {name} {ver}", "",
               f"{len(rows)} claims from `{os.path.basename(path)}` (reproduce every verdict: `exactdp audit {path}`); "
               f"{counts['unsound']} unsound ({counts['unsound_beyond_rounding']} beyond float rounding), "
               f"{counts['undecided']} undecided, {counts['sound']} sound. "
               f"Producing the claims took {t1 - t0:.1f} s, auditing them {t2 - t1:.1f} s.", ""]
        unsound_rows = [x for x in rows if x["verdict"] == "unsound"]
        if unsound_rows:
            upath = os.path.join(out, f"unsound-{name}.json")
            with open(upath, "w", encoding="utf-8") as f:
                json.dump(C.document(doc.get("accountant", name),
                                     [claims[x["id"]] for x in unsound_rows]), f, indent=1)
            md += [f"### Unsound claims ({len(unsound_rows)}; alone in `{os.path.basename(upath)}`: "
                   f"`exactdp audit {upath}`)", ""]
            material = [x for x in unsound_rows if x["rel_f"] is None or -x["rel_f"] > ROUNDING]
            rounding = [x for x in unsound_rows if x not in material]
            for title, group in ((f"Beyond float rounding (relative shortfall > {ROUNDING:g})", material),
                                 (f"At float-rounding level (relative shortfall <= {ROUNDING:g})", rounding)):
                if not group:
                    continue
                md += [f"{title}:", ""]
                for x in sorted(group, key=lambda x: x["rel_f"] if x["rel_f"] is not None else -math.inf):
                    short = f", short by {-x['rel_f']:.3g} relative" if x["rel_f"] is not None else ""
                    md.append(f"- `{x['id']}`: claimed {_show(x['claimed'], 17)}, true {x['kind']} {_truth_text(x)}{short} "
                              f"— {x['how']}: {x['method']}")
                md.append("")
        undecided_rows = [x for x in rows if x["verdict"] == "undecided"]
        if undecided_rows:
            md += [f"### Undecided claims ({len(undecided_rows)}): the claim lies inside the certified bracket", ""]
            md += [f"- `{x['id']}`: claimed {_show(x['claimed'], 12)}, true {x['kind']} {_truth_text(x)} — {x['how']}"
                   for x in undecided_rows] + [""]
        if low_errors:
            md += ["### Lower bounds above the truth", ""] + [f"- {x['id']}: {x['low_bound_error']}" for x in low_errors] + [""]
        png = _plot(name, rows, out)
        if png:
            md += [f"![{name}: claimed / true epsilon]({os.path.basename(png)})", ""]
        md += ["### All claims", "", "| claim | claimed | truth | verdict | slack (abs) | slack (rel) | truth from |",
               "|---|---|---|---|---|---|---|"]
        for x in rows:
            mark = "**unsound**" if x["verdict"] == "unsound" else x["verdict"]
            md.append(f"| {x['id']} | {_show(x['claimed'], 12)} | {_show(x['truth'], 10)} | {mark} | "
                      f"{_show(x['slack_absolute'], 4)} | {_show(x['slack_relative'], 4)} | {x['how']} |")
        md.append("")
        report["accountants"][name] = {"version": ver, "claims_file": path, "counts": counts,
                                       "results": [_jsonable({k: v for k, v in x.items() if not k.endswith("_f")})
                                                   for x in rows]}
    total = time.time() - started
    report["seconds"] = round(total, 1)
    head = [f"Run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, {total:.0f} s in all; "
            f"grid brackets refined until decided, up to resolution {grid_resolution} or laws of "
            f"{grid_points // 2} points.", "",
            "## Summary", "",
            "| accountant | claims | sound | unsound (beyond rounding) | undecided | worst relative slack | time (claims + audit) |",
            "|---|---|---|---|---|---|---|"] + summary + ["",
            "Verdicts: **unsound** = the accountant claims less privacy loss than the exact or certified truth; "
            "sound = at least the truth (slack = claimed - true); undecided = the certified bracket of the truth "
            "contains the claim. Truths are exact (rational tables), certified intervals (closed forms), or "
            "certified grid brackets (subsampled Gaussian, k-fold Laplace; docs/audit-subsampling.md). "
            "Every claim states the exact binary value of the float the accountant was given and returned, so each "
            "verdict concerns exactly that computation. The relative slack is (claimed - true)/true: negative for an "
            "unsound claim (its shortfall), large for a loose one.", ""]
    md[2:2] = head
    with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
    return report, any_unsound


def main(argv=None):
    # exact truths of long compositions have thousands of digits (Python 3.11 caps int <-> decimal
    # string conversions at 4300 digits by default)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--accountants", default="all", help="all, or a comma-separated list of " + ", ".join(ADAPTERS))
    ap.add_argument("--grid", default="small", choices=("ci", "small", "full"))
    ap.add_argument("--out", default="audit-report")
    ap.add_argument("--exactdp-bin", help="audit through this exactdp executable instead of the Python module")
    ap.add_argument("--grid-resolution", type=int, default=1024,
                    help="highest resolution of the grid brackets (points per deviation of the loss; default 1024)")
    ap.add_argument("--grid-points", type=int, default=40000,
                    help="size budget of the grid brackets: no refinement beyond laws of half this many points")
    from . import distributed

    distributed.add_arguments(ap)
    args = ap.parse_args(argv)
    names = list(ADAPTERS) if args.accountants == "all" else [a.strip() for a in args.accountants.split(",")]
    for n in names:
        if n not in ADAPTERS:
            ap.error(f"unknown accountant {n!r} (expected one of {', '.join(ADAPTERS)})")
    executor = _executor(args, ap)
    try:
        _, unsound = run(names, args.grid, args.out, args.exactdp_bin, grid_resolution=args.grid_resolution,
                         grid_points=args.grid_points, executor=executor)
    finally:
        if executor is not None:
            executor.close()
    print(f"report: {os.path.join(args.out, 'report.md')}")
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())
