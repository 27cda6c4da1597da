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


def _audit(doc, exactdp_bin, grid_resolution=1024, grid_points=40000):
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


# --- running the claims as tasks (exactdp.distributed: --serial, --scheduler, --results) ----------
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


def _audit_as_tasks(doc, exactdp_bin, grid_resolution, grid_points, executor):
    """The results of ``_audit(doc, ...)``, the claims audited as tasks of ``executor``, in the
    document's order. Claims that differ only in where the mechanism is queried form one task, and
    tasks of the same mechanism and sampling (any number of uses) go to the same worker, so the
    audit's cache of composed laws serves them as in a serial run. A task whose audit
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


def _exactdp_verdict(r):
    try:
        return EXACTDP_VERDICTS[r["verdict"]]
    except KeyError:
        raise RuntimeError(f"{r.get('id')}: unknown exactdp verdict {r['verdict']!r} "
                           f"(expected one of {', '.join(EXACTDP_VERDICTS)})") from None


def judge(doc, exactdp_bin=None, grid_resolution=1024, grid_points=40000, executor=None):
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


def run(accountants, grid, out, exactdp_bin=None, log=print, grid_resolution=1024, grid_points=40000,
        reproducers=True, executor=None):
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
    for name in accountants:
        mod = importlib.import_module(ADAPTERS[name])
        ver = C.version(mod.PACKAGE)
        if ver is None:
            how = "pip install --no-deps" if name == "opacus" else "pip install"
            msg = f"{name}: not installed ({how} {mod.PACKAGE}=={mod.PINNED}); skipped"
            log(msg)
            summary.append(f"| {name} | not installed | | | | | | |")
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
            summary.append(f"| {name} {ver} | failed | | | | | | |")
            continue
        path = os.path.join(out, f"claims-{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(C.exactdp_document(doc), f, indent=1)
        t1 = time.time()
        rows = judge(doc, exactdp_bin, grid_resolution, grid_points, executor=executor)
        if any(x.get("calibration") for x in rows):
            from . import calibration_audit
            calibration_audit.add_ratios(rows, exactdp_bin, log=log)
        t2 = time.time()
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
            f"{counts['estimate']} estimates (claims {t1 - t0:.1f}s, audit {t2 - t1:.1f}s)")
        summary.append(f"| {name} {ver} | {len(rows)} | {counts['sound']} | {counts['unsound']} "
                       f"({counts['unsound_beyond_rounding']}) | {counts['undecided']} | {counts['estimate']} | "
                       + (f"{worst['rel_f']:.3g} ({worst['id']})" if worst else "") + f" | {t1 - t0:.0f} s + {t2 - t1:.0f} s |")
        md += [f"## {name} {ver}", "",
               f"{len(rows)} claims from `{os.path.basename(path)}` (reproduce every verdict: `exactdp audit {path}`); "
               f"{counts['unsound']} unsound ({counts['unsound_beyond_rounding']} beyond float rounding), "
               f"{counts['undecided']} undecided, {counts['sound']} sound, {counts['estimate']} estimates (never "
               f"counted as unsound). Producing the claims took {t1 - t0:.1f} s, auditing them {t2 - t1:.1f} s.", ""]
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
