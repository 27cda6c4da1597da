"""Audit every installed privacy accountant against exactdp and write a report.

    python3 -m exactdp.audit_all --accountants all --grid small --out audit-report

For each accountant adapter (exactdp.adapters: dp_accounting, opendp, prv_accountant, autodp, opacus) whose
package is installed, the adapter asks the accountant for epsilon(delta) / delta(epsilon) over the
scenario grid, writes the claims (exactdp-claims/1) to ``OUT/claims-NAME.json`` — each one
reproducible with ``exactdp audit OUT/claims-NAME.json`` — and audits them. The report is
``OUT/report.md`` (one table per accountant and a summary), ``OUT/results.json`` (every result),
and ``OUT/NAME.png`` plots of claimed against true epsilon when matplotlib is installed. Every
result records the accountant, its version, the API path called, the guarantee the accountant
documents for it (bound or estimate) and the raw value returned; estimates are reported with their
error and never counted as unsound. Each unsound claim gets a standalone reproducer,
``OUT/reproducers/NAME-NNN.py``, which imports only the accountant and mpmath (docs/audit.md).
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

from ._core import limits as _limits

# A relative shortfall below this is at the level of the accountant's floating-point arithmetic
# (binary64 has 2^-53 ~ 1.1e-16; a few thousand roundings stay far below 1e-9). Such claims are still
# unsound — exactdp decides them exactly — but the report lists them apart.
ROUNDING = 1e-9

ADAPTERS = {
    "dp_accounting": "exactdp.adapters.google_dp_accounting",
    "opendp": "exactdp.adapters.opendp_adapter",
    "prv_accountant": "exactdp.adapters.prv",
    "autodp": "exactdp.adapters.autodp_adapter",
    "opacus": "exactdp.adapters.opacus_adapter",
    # calibration APIs (docs/calibration.md): the returned noise audited as a claim at the target
    "dp_accounting_calibration": "exactdp.adapters.calibration_dp_accounting",
    "opacus_calibration": "exactdp.adapters.calibration_opacus",
    "prv_accountant_calibration": "exactdp.adapters.calibration_prv",
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
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _audit(doc, exactdp_bin, grid_resolution=_limits.default_grid_resolution, grid_points=_limits.default_grid_point_budget):
    """Results of an exactdp-claims/1 document: through the Python module, or the CLI when given."""
    if exactdp_bin:
        import subprocess
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
            json.dump(doc, f)
        try:
            out = subprocess.run([exactdp_bin, "audit", f.name, "--json", "--grid-resolution", str(grid_resolution),
                                  "--grid-points", str(grid_points)], capture_output=True, text=True)
        finally:
            os.unlink(f.name)
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


def _low_bound_check(rec, result):
    """prv_accountant's eps_low: an error when it exceeds the certified truth (a wrong lower bound)."""
    if "eps_low" not in rec or "true_epsilon" not in result or not isinstance(rec["eps_low"], float):
        return None
    low = Fraction(rec["eps_low"])
    t = result["true_epsilon"]
    hi = t[1] if isinstance(t, tuple) else t
    if hi != math.inf and low > hi:
        return f"eps_low {float(low):.8g} exceeds the true epsilon (at most {float(hi):.8g})"
    return None


def _bounds(t):
    """(lo, hi) of an exact truth or a certified bracket."""
    return t if isinstance(t, tuple) else (t, t)


def _slack(claimed, truth):
    """{'absolute', 'relative'} of claimed - truth with Fractions (brackets give brackets), as
    exactdp reports it; used where the claimed number is the raw one exactdp could not take."""
    if truth is None:
        return None
    lo, hi = _bounds(truth)
    if hi == math.inf:
        return {"absolute": (-math.inf, claimed - lo), "relative": None}
    ab = claimed - lo if lo == hi else (claimed - hi, claimed - lo)
    rel = None
    if lo > 0:
        # (claimed - t)/t = claimed/t - 1 is monotone in t > 0: its range over [lo, hi] is between the ends
        rel = ab / lo if lo == hi else tuple(sorted((claimed / hi - 1, claimed / lo - 1)))
    return {"absolute": ab, "relative": rel}


def _negative_epsilon_verdict(rec, truth_eps, exactdp_bin, grid_resolution, grid_points):
    """The verdict on a claimed epsilon below 0 (never clamped): unsound when the least non-negative
    epsilon is certified positive (the profile is decreasing, so delta(claimed) > delta(0) > delta);
    otherwise decided from the profile at the negative epsilon, delta(e) = 1 - e^e (1 - delta(-e))
    for e < 0 (H_g(P||Q) = 1 - g + g H_{1/g}(Q||P) for g < 1, and exactdp's profile is the max over
    both directions), with delta(-e) certified by exactdp and e^e enclosed by mpmath intervals."""
    if truth_eps is None:
        return "undecided", "exactdp gave no truth"
    lo, _ = _bounds(truth_eps)
    if lo > 0:
        return "unsound", "the true epsilon is positive"
    e = Fraction(rec["claimed_epsilon"])
    probe = {k: rec[k] for k in ("mechanism", "times", "neighbouring", "sampling") if k in rec}
    probe.update({"id": rec["id"] + "/profile at -epsilon", "epsilon": str(-e), "claimed_delta": "0"})
    r = _audit({"format": "exactdp-claims/1", "claims": [probe]}, exactdp_bin, grid_resolution, grid_points)[0]
    dlo, dhi = _bounds(r["true_delta"])
    from mpmath import iv

    iv.prec = 200

    def enclose(q):
        return iv.mpf(q.numerator) / iv.mpf(q.denominator)

    g = iv.exp(enclose(e))  # e^e < 1
    at_e_hi = 1 - g * (1 - enclose(dhi))
    at_e_lo = 1 - g * (1 - enclose(dlo))
    delta = enclose(Fraction(rec["delta"]))
    if at_e_hi.b <= delta.a:
        return "sound", "delta at the negative epsilon is within the target"
    if at_e_lo.a > delta.b:
        return "unsound", "delta at the negative epsilon exceeds the target"
    return "undecided", "delta at the negative epsilon straddles the target"


def _within(claimed, truth, err):
    """|claimed - truth| <= err: True, False, or None when the bracket does not decide it."""
    lo, hi = _bounds(truth)
    if hi == math.inf:
        return None
    far, near = max(abs(claimed - lo), abs(claimed - hi)), (0 if lo <= claimed <= hi else min(abs(claimed - lo), abs(claimed - hi)))
    if far <= err:
        return True
    if near > err:
        return False
    return None


VERSUS = {"unsound": "below the truth", "sound": "at or above the truth", "undecided": "undecided"}

# exactdp's verdict on a claim, in the report's words (the engine's vocabulary may name the same
# outcomes holds / refuted); any other word is an error, never a guess
EXACTDP_VERDICTS = {"sound": "sound", "holds": "sound", "unsound": "unsound", "refuted": "unsound",
                    "undecided": "undecided"}


# --- running the audit as tasks (exactdp.distributed: --serial, --scheduler, --results) --------------
#
# Three kinds of task, all submitted as soon as they can be, none waiting for another accountant:
# producing an accountant's claims (its package's calls), auditing groups of those claims, and the
# calibration brackets of the calibration accountants. Their results are read back accountant by
# accountant, in the order asked, so the report is the serial run's byte for byte (timings apart).
#
# The cost model (seconds on one core, measured on grid "small"; only the order and size of tasks
# depend on it, never a result): the tasks run costliest first (Task.cost is the Dask priority).
# * producing claims: _CLAIMS_COST per accountant, plus CLAIMS_FIRST so that they start before any
#   audit (their claims are the work of the tasks that follow);
# * auditing a claim: _claim_cost — a Poisson-subsampled Gaussian is audited by grid brackets
#   refined until decided (0.01-1.3 s each, 0.25 on average), k-fold Laplace by a certified PLD
#   (about 0.06 s at k = 10), everything else by exact tables or closed forms (milliseconds);
# * a calibration bracket: 3 s with sampling (a grid bracket at each level of the search), 0.3 s
#   without.
_CLAIMS_COST = {"dp_accounting_calibration": 15.0, "dp_accounting": 6.0, "opacus": 3.0, "opacus_calibration": 3.0,
                "prv_accountant_calibration": 3.0, "prv_accountant": 1.5, "autodp": 0.5, "opendp": 0.2}
CLAIMS_FIRST = 10_000.0
# groups of claims estimated below CHEAP seconds are audited together, up to CHUNK seconds a task:
# a Dask task costs a few milliseconds of scheduling, more than such a claim
CHEAP, CHUNK = 0.05, 0.25
GRID_COST = 0.25  # _claim_cost of a claim the grid brackets answer


def _claim_cost(c):
    """The estimated seconds of auditing claim ``c`` (an exactdp-claims/1 record)."""
    mechanisms = [c["mechanism"]] if "mechanism" in c else c.get("mechanisms", [])
    families = {str(m.get("mechanism", "") if isinstance(m, dict) else m).split(":")[0] for m in mechanisms}
    times = int(c.get("times", 1)) if str(c.get("times", 1)).isdigit() else 1
    if c.get("sampling") and families & {"gauss", "gaussian"}:
        return GRID_COST
    if times > 1 and families & {"laplace"}:
        return 0.06
    return 0.002


class OtherEnvironment(RuntimeError):
    """A worker's versions or thread settings differ from the client's: the client produces the
    accountant's claims itself."""


def _produce_claims(name, grid, expected):
    """One task: the claims document of accountant ``name`` on ``grid`` and the seconds it took.
    ``expected``: the versions the report states (the accountant's package and ``environment()``
    without the platform, as the client sees them) and the client's ``thread_settings()``; a worker
    with others refuses, since the accountant's floats may depend on them (dp_accounting's deltas
    change in their last bits with the number of OpenBLAS threads)."""
    from .adapters import _common as C

    from .distributed import thread_settings

    mod = importlib.import_module(ADAPTERS[name])
    here = {k: v for k, v in environment().items() if k != "platform"}
    here[mod.PACKAGE] = C.version(mod.PACKAGE)
    here["threads"] = thread_settings()
    differ = {k: (v, here.get(k)) for k, v in expected.items() if here.get(k) != v}
    if differ:
        raise OtherEnvironment("this worker has other versions or thread settings than the client: " +
                           ", ".join(f"{k} {b} here, {a} in the client" for k, (a, b) in differ.items()))
    t0 = time.perf_counter()
    doc = mod.claims(grid=grid)
    return {"doc": doc, "seconds": time.perf_counter() - t0}


def _audit_one(doc, indices, exactdp_bin, grid_resolution, grid_points):
    """One task: the results of a claims document holding some claims of a larger one, whose
    places there are ``indices`` (an error's JSON pointer /claims/j is rewritten to name it)."""
    try:
        return _audit(doc, exactdp_bin, grid_resolution, grid_points)
    except Exception as e:
        import re

        text = re.sub(r"/claims/(\d+)", lambda m: f"/claims/{indices[int(m.group(1))]}", str(e))
        if text == str(e):
            raise
        raise RuntimeError(text) from None


# the fields of a claim that only say where its mechanism is queried: claims equal but for them
# share the composed law the audit computes once per document (AuditCache, accounting/audit.cpp)
_QUERY_FIELDS = ("id", "delta", "epsilon", "claimed_epsilon", "claimed_delta", "accountant", "comment")


def _audit_layout(doc):
    """The claims of ``doc`` dealt into tasks: lists of claim indices, in the document's order.
    Claims that differ only in where the mechanism is queried share the composed law that one
    audit call caches, so they stay in one task — except those the grid brackets answer, which
    share nothing and run one claim a task. Consecutive groups estimated below CHEAP seconds are
    merged up to CHUNK seconds a task. Depends on the claims only, so the keys of the tasks are
    the same in every run (--results)."""
    def without(c):
        return json.dumps({k: v for k, v in c.items() if k not in _QUERY_FIELDS}, sort_keys=True)
    groups = {}
    for i, c in enumerate(doc["claims"]):
        groups.setdefault(without(c), []).append(i)
    layout, chunk, chunk_cost = [], [], 0.0
    for indices in groups.values():
        cost = sum(_claim_cost(doc["claims"][i]) for i in indices)
        if cost < CHEAP:
            if chunk and chunk_cost + cost > CHUNK:
                layout.append(chunk)
                chunk, chunk_cost = [], 0.0
            chunk, chunk_cost = chunk + indices, chunk_cost + cost
        elif _claim_cost(doc["claims"][indices[0]]) >= GRID_COST:  # grid brackets: nothing shared
            layout += [[i] for i in indices]
        else:
            layout.append(indices)
    if chunk:
        layout.append(chunk)
    return layout


def _submit_audit(doc, exactdp_bin, grid_resolution, grid_points, executor):
    """Submits the audit of the claims document ``doc`` (``_audit_layout``) to ``executor``;
    returns what ``_finish_audit`` needs."""
    from .distributed import Task

    via = "cli" if exactdp_bin else "module"
    layout = _audit_layout(doc)
    tasks = []
    for indices in layout:
        claims = [doc["claims"][i] for i in indices]
        tasks.append(Task.of("audit", {"accountant": doc.get("accountant"), "claims": claims,
                                       "grid_resolution": grid_resolution, "grid_points": grid_points, "via": via},
                             {**doc, "claims": claims}, indices, exactdp_bin, grid_resolution, grid_points,
                             cost=sum(_claim_cost(c) for c in claims)))
    return executor.submit(_audit_one, tasks), layout


def _finish_audit(doc, batch, layout, executor):
    """The results of the audit submitted by ``_submit_audit``, in the document's order. A task
    whose audit failed stops the run (as the serial audit would) after every other task has
    finished, with one line per failure: task key, claims, exception."""
    from .distributed import TaskError

    outcomes = executor.gather(batch)
    failed = [o for o in outcomes if isinstance(o, TaskError)]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(outcomes)} tasks ({len(doc['claims'])} claims) could not be audited:\n" +
                           "\n".join(str(e) for e in failed))
    results = [None] * len(doc["claims"])
    for indices, rs in zip(layout, outcomes):
        for i, r in zip(indices, rs):
            results[i] = r
    return results


def _audit_as_tasks(doc, exactdp_bin, grid_resolution, grid_points, executor):
    """The results of ``_audit(doc, ...)``, the claims audited as tasks of ``executor``."""
    return _finish_audit(doc, *_submit_audit(doc, exactdp_bin, grid_resolution, grid_points, executor), executor)


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


def _exactdp_verdict(r):
    try:
        return EXACTDP_VERDICTS[r["verdict"]]
    except KeyError:
        raise RuntimeError(f"{r.get('id')}: unknown exactdp verdict {r['verdict']!r} "
                           f"(expected one of {', '.join(EXACTDP_VERDICTS)})") from None


def judge(doc, exactdp_bin=None, grid_resolution=_limits.default_grid_resolution, grid_points=_limits.default_grid_point_budget, executor=None):
    """Audits a document of claim records (exactdp.adapters._common) and returns one row per record:
    the record's keys (accountant, package, version, path, guarantee, raw, ...), the truth and how it
    was obtained, the slack, and the verdict: "sound" / "unsound" / "undecided" for a bound,
    "estimate" for an estimate (whose "versus_truth" and "error" say where it lies, and
    "within_documented_error" whether it keeps the error the accountant states, when it states one).
    Claimed numbers outside exactdp's range (a negative epsilon, a delta outside [0, 1]) are judged
    here from the truth, never clamped (``judged_by`` says so)."""
    from .adapters import _common as C

    query = C.exactdp_document(doc)
    results = (_audit(query, exactdp_bin, grid_resolution, grid_points) if executor is None
               else _audit_as_tasks(query, exactdp_bin, grid_resolution, grid_points, executor))
    return _rows(doc, results, exactdp_bin, grid_resolution, grid_points)


def _rows(doc, results, exactdp_bin, grid_resolution, grid_points):
    """``judge``'s rows from exactdp's results on the document's claims."""
    from .adapters import _common as C

    if [r["id"] for r in results] != [c["id"] for c in doc["claims"]]:
        raise RuntimeError("exactdp returned results for other claims than those asked")
    rows = []
    for rec, r in zip(doc["claims"], results):
        kind = "epsilon" if "claimed_epsilon" in rec else "delta"
        truth = r.get("true_epsilon", r.get("true_delta"))
        claimed_text = rec.get("claimed_epsilon", rec.get("claimed_delta"))
        claimed = math.inf if claimed_text == "inf" else Fraction(claimed_text)
        why = C.out_of_range(rec)
        note = None
        if why is None:
            versus, slack, judged_by = _exactdp_verdict(r), r["slack"], "exactdp"
        else:
            judged_by = f"exactdp.audit_all ({why}: exactdp gave the truth, the raw number is compared here)"
            slack = _slack(claimed, truth) if claimed != math.inf else None
            if why == "negative delta":
                versus, note = "unsound", "a delta below 0 holds for no mechanism"
            elif why == "delta above 1":
                versus, note = "sound", "a delta above 1 holds for every mechanism"
            else:
                versus, note = _negative_epsilon_verdict(rec, truth, exactdp_bin, grid_resolution, grid_points)
        row = {k: v for k, v in rec.items() if k not in ("call",)}
        row.update({"kind": kind, "claimed": claimed, "truth": truth, "how": _how(r), "method": r.get("method", ""),
                    "judged_by": judged_by, "exactdp_verdict": _exactdp_verdict(r)})
        if "analysed" in r:  # replace-one: the specs whose pairs exactdp judged (accounting/replace_one.hpp)
            row["analysed"] = r["analysed"]
        if note:
            row["note"] = note
        if slack is not None:
            row["slack_absolute"], row["slack_relative"] = slack["absolute"], slack["relative"]
        else:
            row["slack_absolute"] = row["slack_relative"] = None
        if rec["guarantee"] == "estimate":
            row["verdict"] = "estimate"
            row["versus_truth"] = VERSUS[versus]
            row["error"] = {"absolute": row["slack_absolute"], "relative": row["slack_relative"]}
            err = (rec.get("documented_error") or {}).get("eps_error")
            if err is not None and kind == "epsilon" and truth is not None and claimed != math.inf:
                row["within_documented_error"] = _within(claimed, truth, Fraction(err))
        else:
            row["verdict"] = versus
        row["low_bound_error"] = _low_bound_check(rec, r)
        for k in ("grid_resolution", "grid_step", "exact"):
            if k in r:
                row[k] = r[k]
        row["_call"] = rec.get("call")
        rows.append(row)
    return rows


def _plot(name, rows, out):
    # the figure is exactdp.plot.plot_audit's (relative slack against the true epsilon, with the
    # certified bracket as a bar, one marker per API path); no figure without matplotlib
    from . import plot

    path = os.path.join(out, f"{name}.png")
    try:
        drawn = plot.plot_audit(rows, file=path, title=f"{name}: claimed vs true epsilon (below 0: unsound)")
    except ImportError:
        return None
    return path if drawn is not None else None


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


TINIEST = Fraction(1, 2 ** 1074)  # the smallest positive double


def _underflow(x):
    """An unsound delta of 0 whose truth is below the smallest positive double: the accountant's
    float cannot hold it (still unsound, listed apart)."""
    if x["verdict"] != "unsound" or x["kind"] != "delta" or x["claimed"] != 0 or x["truth"] is None:
        return False
    return _bounds(x["truth"])[1] < TINIEST


def _beyond_rounding(x):
    """Unsound by more than float rounding or underflow."""
    return x["verdict"] == "unsound" and not _underflow(x) and (x["rel_f"] is None or -x["rel_f"] > ROUNDING)


def environment():
    """The versions a verdict may depend on (a float accountant's answer can change with numpy's FFT
    or scipy's special functions, so the report states them rather than assuming them)."""
    import platform

    from .adapters import _common as C

    env = {"python": platform.python_version(), "platform": platform.platform()}
    for package in ("numpy", "scipy", "mpmath", "exactdp"):
        env[package] = C.version(package)
    return env


def _row_line(x):
    """One bullet of a finding: claimed, truth, shortfall, how, path."""
    short = ""
    rel = _num(x["slack_relative"])
    if rel is not None and x["verdict"] == "unsound":
        short = f", short by {-rel:.3g} relative"
    repro = f"; reproducer `{x['reproducer']}`" if x.get("reproducer") else ""
    return (f"- `{x['id']}`: `{x['path']}` returned {x['raw']!r}, true {x['kind']} {_truth_text(x)}{short} "
            f"— {x['how']}{repro}")


def _submit_all(accountants, grid, out, exactdp_bin, log, grid_resolution, grid_points, executor):
    """Submits the whole audit: the claims of every installed accountant at once, and each
    accountant's audit and calibration brackets as soon as its claims arrive (writing its claims
    file). Returns per accountant what ``run`` reads back: {"skipped"} (not installed), {"version",
    "failed"}, or {"version", "doc", "query", "path", "claims_seconds", "audit", "brackets",
    "task_keys"}."""
    from .adapters import _common as C
    from .distributed import Task, TaskError

    work, tasks = {}, []
    from .distributed import thread_settings

    env = {k: v for k, v in environment().items() if k != "platform"}
    env["threads"] = thread_settings()  # BLAS sums split over threads: the last bits of some claims
    for name in accountants:
        mod = importlib.import_module(ADAPTERS[name])
        ver = C.version(mod.PACKAGE)
        if ver is None:
            how = "pip install --no-deps" if name == "opacus" else "pip install"
            work[name] = {"skipped": f"{name}: not installed ({how} {mod.PACKAGE}=={mod.PINNED}); skipped"}
            continue
        if ver != mod.PINNED:
            log(f"{name}: installed {ver}, adapter pinned at {mod.PINNED}; auditing the installed version")
        work[name] = {"version": ver}
        tasks.append(Task.of("claims", {"accountant": name, "package": mod.PACKAGE, "version": ver, "grid": grid},
                             name, grid, {**env, mod.PACKAGE: ver}, cost=CLAIMS_FIRST + _CLAIMS_COST.get(name, 1.0)))
    brackets = {}  # calibration scenario -> (batch, index): one bracket per scenario, whichever accountant asks
    for i, got in executor.completed(executor.submit(_produce_claims, tasks)):
        name = tasks[i].params["accountant"]
        w = work[name]
        if isinstance(got, TaskError) and got.error == OtherEnvironment.__name__:
            log(f"{name}: {got.message}; producing its claims in this process")
            try:
                got = _produce_claims(*tasks[i].args)
            except Exception as e:  # noqa: BLE001 - an accountant failing is reported, not fatal
                got = TaskError(tasks[i].key, tasks[i].params, type(e).__name__, str(e))
        if isinstance(got, TaskError):
            w["failed"] = f"{got.error}: {got.message}"
            continue
        doc = got["doc"]
        query = C.exactdp_document(doc)
        path = os.path.join(out, f"claims-{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(query, f, indent=1)
        w.update(doc=doc, query=query, path=path, claims_seconds=got["seconds"],
                 audit=_submit_audit(query, exactdp_bin, grid_resolution, grid_points, executor))
        w["task_keys"] = [t.key for t in w["audit"][0].tasks]
        w["brackets"] = _submit_brackets(doc, exactdp_bin, brackets, executor, w["task_keys"])
    return work


def _submit_brackets(doc, exactdp_bin, brackets, executor, task_keys):
    """Submits exactdp's calibration brackets (calibration_audit) of the scenarios of ``doc`` not
    yet in ``brackets`` (which it updates); returns {scenario: (batch, index)} for ``doc``'s
    scenarios, and appends the keys of the tasks it submitted to ``task_keys``."""
    from . import calibration_audit
    from .distributed import Task

    mine, new = {}, []
    for rec in doc["claims"]:
        cal = rec.get("calibration")
        if not cal:
            continue
        key = calibration_audit.scenario(cal)
        if key not in brackets and key not in {k for k, _ in new}:
            width = calibration_audit.default_width(cal)
            new.append((key, Task.of("bracket", {"scenario": list(key), "relative_width": width,
                                                 "via": "cli" if exactdp_bin else "module"},
                                     cal, exactdp_bin, width, cost=3.0 if cal.get("sampling_rate") else 0.3)))
        mine[key] = None
    if new:
        batch = executor.submit(calibration_audit.exactdp_bracket, [t for _, t in new])
        for i, (key, t) in enumerate(new):
            brackets[key] = (batch, i)
            task_keys.append(t.key)
    return {key: brackets[key] for key in mine}


def _brackets(scenarios, executor):
    """{scenario: (status, bracket)} from the bracket tasks; a failed one stops the run, as the
    serial audit would."""
    from .distributed import TaskError

    out = {}
    for key, (batch, i) in scenarios.items():
        got = executor.gather(batch)[i]
        if isinstance(got, TaskError):
            raise RuntimeError(f"calibration bracket for {key}: {got}")
        out[key] = got
    return out


def run(accountants, grid, out, exactdp_bin=None, log=print, grid_resolution=_limits.default_grid_resolution, grid_points=_limits.default_grid_point_budget,
        reproducers=True, executor=None):
    """Audits ``accountants`` on ``grid`` into the directory ``out`` (module comment); returns the
    report (as ``results.json``) and whether some claim is unsound. ``executor``: where the tasks
    run (an ``exactdp.distributed.Executor``; default: this process, one after the other)."""
    from .distributed import SERIAL, Executor

    if executor is None:
        with Executor(SERIAL, log=log) as own:
            return run(accountants, grid, out, exactdp_bin, log, grid_resolution, grid_points, reproducers, own)
    os.makedirs(out, exist_ok=True)
    from .adapters import _common as C
    from .adapters import reproduce

    started = time.time()
    env = environment()
    report = {"grid": grid, "grid_resolution": grid_resolution, "grid_points": grid_points, "environment": env,
              "accountants": {}}
    md = [f"# exactdp audit of privacy accountants (grid: {grid})", ""]
    summary = []
    any_unsound = False
    work = _submit_all(accountants, grid, out, exactdp_bin, log, grid_resolution, grid_points, executor)
    for name in accountants:
        w = work[name]
        ver = w.get("version")
        if "skipped" in w:
            log(w["skipped"])
            summary.append(f"| {name} | not installed | | | | | | |")
            report["accountants"][name] = {"skipped": w["skipped"]}
            continue
        if "failed" in w:
            msg = f"{name} {ver}: producing the claims failed: {w['failed']}"
            log(msg)
            report["accountants"][name] = {"skipped": msg}
            summary.append(f"| {name} {ver} | failed | | | | | | |")
            continue
        doc, path = w["doc"], w["path"]
        rows = _rows(doc, _finish_audit(w["query"], *w["audit"], executor), exactdp_bin, grid_resolution, grid_points)
        if any(x.get("calibration") for x in rows):
            from . import calibration_audit
            calibration_audit.add_ratios(rows, exactdp_bin, log=log, brackets=_brackets(w["brackets"], executor))
        # timings: the seconds of the work itself, wherever and whenever it ran (0 for tasks read from --results)
        claims_s = w["claims_seconds"]
        audit_s = sum(executor.seconds.get(k) or 0 for k in w["task_keys"])
        for x in rows:
            x["truth_f"], x["claimed_f"], x["rel_f"] = _num(x["truth"]), _num(x["claimed"]), _num(x["slack_relative"])
        verdicts = ("sound", "unsound", "undecided", "estimate")
        counts = {v: sum(1 for x in rows if x["verdict"] == v) for v in verdicts}
        # unsound by more than float rounding: a relative shortfall above ROUNDING (or no finite truth),
        # and not a delta of 0 standing for a truth below the smallest positive double (underflow)
        counts["unsound_beyond_rounding"] = sum(1 for x in rows if _beyond_rounding(x))
        any_unsound |= counts["unsound"] > 0
        unsound_rows = [x for x in rows if x["verdict"] == "unsound"]
        if reproducers:
            for i, x in enumerate(unsound_rows):
                x["reproducer"] = reproduce.write(x, os.path.join(out, "reproducers", f"{name}-{i + 1:03d}.py"),
                                                  ", ".join(f"{k} {v}" for k, v in env.items() if v))
        if any(x.get("calibration") for x in rows):
            from . import calibration_audit
            md_calibration = calibration_audit.table(rows)
        else:
            md_calibration = []
        bounds = [x for x in rows if x["verdict"] != "estimate" and x["rel_f"] is not None]
        worst = min(bounds, key=lambda x: x["rel_f"], default=None)
        low_errors = [x for x in rows if x["low_bound_error"]]
        failures = doc.get("failures", [])
        counts["not_answered"] = len(failures)
        log(f"{name} {ver}: {len(rows)} claims, {counts['unsound']} unsound, {counts['undecided']} undecided, "
            f"{counts['estimate']} estimates (claims {claims_s:.1f}s, audit {audit_s:.1f}s)")
        summary.append(f"| {name} {ver} | {len(rows)} | {counts['sound']} | {counts['unsound']} "
                       f"({counts['unsound_beyond_rounding']}) | {counts['undecided']} | {counts['estimate']} | "
                       + (f"{worst['rel_f']:.3g} ({worst['id']})" if worst else "") + f" | {claims_s:.0f} s + {audit_s:.0f} s |")
        md += [f"## {name} {ver}", "",
               f"{len(rows)} claims from `{os.path.basename(path)}` (reproduce every verdict: `exactdp audit {path}`); "
               f"{counts['unsound']} unsound ({counts['unsound_beyond_rounding']} beyond float rounding), "
               f"{counts['undecided']} undecided, {counts['sound']} sound, {counts['estimate']} estimates (never "
               f"counted as unsound). Producing the claims took {claims_s:.1f} s, auditing them {audit_s:.1f} s.", ""]
        paths = sorted({x["path"] for x in rows})
        md += ["| API path | guarantee | claims | sound | unsound | undecided | estimates |", "|---|---|---|---|---|---|---|"]
        for pth in paths:
            sel = [x for x in rows if x["path"] == pth]
            md.append(f"| `{pth}` | {sel[0]['guarantee']} | {len(sel)} | "
                      + " | ".join(str(sum(1 for x in sel if x["verdict"] == v)) for v in verdicts) + " |")
        md.append("")
        md += md_calibration
        if unsound_rows:
            upath = os.path.join(out, f"unsound-{name}.json")
            with open(upath, "w", encoding="utf-8") as f:
                json.dump(C.exactdp_document(C.document(doc["accountant"], [
                    c for c in doc["claims"] if c["id"] in {x["id"] for x in unsound_rows}])), f, indent=1)
            md += [f"### Unsound claims ({len(unsound_rows)}; alone in `{os.path.basename(upath)}`: "
                   f"`exactdp audit {upath}`)", ""]
            material = [x for x in unsound_rows if _beyond_rounding(x)]
            underflow = [x for x in unsound_rows if _underflow(x)]
            rounding = [x for x in unsound_rows if x not in material and x not in underflow]
            for title, group in ((f"Beyond float rounding (relative shortfall > {ROUNDING:g})", material),
                                 (f"At float-rounding level (relative shortfall <= {ROUNDING:g})", rounding),
                                 ("Float underflow (a delta of 0 where the truth is below the smallest positive "
                                  "double, 2^-1074)", underflow)):
                if not group:
                    continue
                md += [f"{title}:", ""]
                md += [_row_line(x) for x in sorted(group, key=lambda x: x["rel_f"] if x["rel_f"] is not None else -math.inf)]
                md.append("")
        undecided_rows = [x for x in rows if x["verdict"] == "undecided"]
        if undecided_rows:
            md += [f"### Undecided claims ({len(undecided_rows)}): the claim lies inside the certified bracket", ""]
            md += [_row_line(x) for x in undecided_rows] + [""]
        estimates = [x for x in rows if x["verdict"] == "estimate"]
        if estimates:
            md += [f"### Estimates ({len(estimates)}): documented as approximations, reported with their error", "",
                   "| claim | raw | truth | versus truth | error (rel) | within documented error |", "|---|---|---|---|---|---|"]
            for x in estimates:
                if "within_documented_error" in x:
                    w = {True: "yes", False: "no", None: "undecided"}[x["within_documented_error"]]
                    w += f" ({x['documented_error']})"
                else:
                    w = "no error stated"
                md.append(f"| {x['id']} | {x['raw']!r} | {_show(x['truth'], 10)} | {x['versus_truth']} | "
                          f"{_show(x['slack_relative'], 4)} | {w} |")
            md.append("")
        if failures:
            md += [f"### Not answered ({len(failures)}): the accountant raised", ""]
            md += [f"- `{f['id']}`: `{f['path']}`: {f['error']}" for f in failures] + [""]
        if low_errors:
            md += ["### Lower bounds above the truth", ""] + [f"- {x['id']}: {x['low_bound_error']}" for x in low_errors] + [""]
        png = _plot(name, rows, out)
        if png:
            md += [f"![{name}: claimed / true epsilon]({os.path.basename(png)})", ""]
        md += ["### All claims", "", "| claim | API path | guarantee | raw | truth | verdict | slack (abs) | slack (rel) | truth from |",
               "|---|---|---|---|---|---|---|---|---|"]
        for x in rows:
            mark = "**unsound**" if x["verdict"] == "unsound" else x["verdict"]
            md.append(f"| {x['id']} | `{x['path']}` | {x['guarantee']} | {x['raw']!r} | {_show(x['truth'], 10)} | {mark} | "
                      f"{_show(x['slack_absolute'], 4)} | {_show(x['slack_relative'], 4)} | {x['how']} |")
        md.append("")
        report["accountants"][name] = {"version": ver, "claims_file": path, "counts": counts, "not_answered": failures,
                                       "results": [_jsonable({k: v for k, v in x.items()
                                                              if not k.endswith("_f") and not k.startswith("_")})
                                                   for x in rows]}
    total = time.time() - started
    report["seconds"] = round(total, 1)
    head = [f"Run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, {total:.0f} s in all; "
            f"grid brackets refined until decided, up to resolution {grid_resolution} or laws of "
            f"{grid_points // 2} points.", "",
            "Environment (a float accountant's answer may change with these; findings hold for them): "
            + ", ".join(f"{k} {v}" for k, v in env.items() if v) + ".", "",
            "## Summary", "",
            "| accountant | claims | sound | unsound (beyond rounding) | undecided | estimates | worst relative slack of a bound | time (claims + audit) |",
            "|---|---|---|---|---|---|---|---|"] + summary + ["",
            "Every claim records the accountant, its version, the API path called, the guarantee the "
            "accountant documents for that path (bound or estimate) and the raw value returned (docs/audit.md). "
            "Verdicts on bounds: **unsound** = the accountant claims less privacy loss than the exact or certified truth; "
            "sound = at least the truth (slack = claimed - true); undecided = the certified bracket of the truth "
            "contains the claim. Estimates are never counted as unsound: they are reported with their error "
            "(claimed - true) and, where the accountant states one, whether they keep its documented error. "
            "Truths are exact (rational tables), certified intervals (closed forms), or "
            "certified grid brackets (subsampled Gaussian, k-fold Laplace; docs/audit-subsampling.md). "
            "Every claim states the exact binary value of the float the accountant was given and returned, so each "
            "verdict concerns exactly that computation; negative values are judged as returned, not clamped. "
            "Each unsound claim has a standalone reproducer (imports only the accountant and mpmath).", ""]
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
    ap.add_argument("--grid-resolution", type=int, default=_limits.default_grid_resolution,
                    help="highest resolution of the grid brackets (points per deviation of the loss; default %(default)s)")
    ap.add_argument("--grid-points", type=int, default=_limits.default_grid_point_budget,
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
