"""The calibration audit's second question: how much larger than necessary is an accountant's noise?

``exactdp.audit_all`` judges each calibration record (exactdp.adapters._calibration) as a claim —
"the returned sigma makes the composition (eps, delta)-DP" — which answers the first question (is
the noise enough: sound / unsound). ``add_ratios`` answers the second: for each scenario it runs
exactdp's certified calibration (accounting/calibration.hpp, ``exactdp.calibrate``) and adds to the
row's ``calibration`` entry

* ``exactdp_bracket``: [lo, hi], the certified bracket of the least sigma (exact "p/q"; for
  dp-accounting's randomized response, of the least noise parameter p = K/(lambda + K - 1), mapped
  from exactdp's bracket of lambda), and
  ``exactdp_status`` ("bracketed", or why not);
* ``ratio``: [sigma/hi, sigma/lo] as exact "p/q" and ``ratio_float`` as floats: the returned sigma
  over the least one lies in this interval (above 1: more noise than necessary; below 1 at its
  upper end: not enough, which the verdict then also says);
* ``consistent``: False when a sound sigma lies at or below lo (or an unsound one at or above hi),
  which the monotonicity of docs/calibration.md rules out; None when not decided.

The brackets come from the Python module, or from ``exactdp calibrate --json`` when ``exactdp_bin``
is given, at ``relative_width`` — by default 10^-6 without sampling (closed-form levels, a fraction of a
second) and 1/1000 with it (grid brackets at each level: seconds to minutes).
"""
import json
import subprocess
from fractions import Fraction


def scenario(cal):
    """The scenario of a calibration entry: records with the same scenario share exactdp's bracket."""
    return (cal["family"], cal["target_epsilon"], cal["target_delta"], cal["times"], cal.get("sampling_rate"))


def default_width(cal, relative_width=None):
    """The relative width asked of exactdp's bracket (module comment)."""
    return relative_width or ("1/1000" if cal.get("sampling_rate") else "1/1000000")


def exactdp_bracket(cal, exactdp_bin, relative_width):
    """(status, (lo, hi) or None): exactdp's certified bracket of the least sigma of the scenario."""
    args = {"epsilon": cal["target_epsilon"], "delta": cal["target_delta"], "times": cal["times"],
            "sampling_rate": cal.get("sampling_rate")}
    if exactdp_bin:
        cmd = [exactdp_bin, "calibrate", cal["family"], "--epsilon", args["epsilon"], "--delta", args["delta"],
               "--times", str(args["times"]), "--relative-width", str(relative_width), "--json"]
        if args["sampling_rate"]:
            cmd += ["--sampling-rate", args["sampling_rate"]]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode not in (0, 3):
            raise RuntimeError(f"exactdp calibrate failed ({p.returncode}): {p.stderr.strip()}")
        r = json.loads(p.stdout)
        status = r["status"]
        if "bracket" not in r:
            return status, None
        return status, (Fraction(r["bracket"]["lo"]), Fraction(r["bracket"]["hi"]))
    from .calibration import calibrate
    r = calibrate(cal["family"], relative_width=str(relative_width), **args)
    return r["status"], ((r["lo"], r["hi"]) if "lo" in r else None)


def add_ratios(rows, exactdp_bin=None, relative_width=None, log=None, brackets=None):
    """Adds exactdp's bracket and the ratio to every row with a ``calibration`` entry (in place).
    ``brackets``: {``scenario(cal)``: ``exactdp_bracket(...)``} already computed (at the default width), used
    instead of computing them again."""
    cache = dict(brackets or {})
    for row in rows:
        cal = row.get("calibration")
        if not cal:
            continue
        key = scenario(cal)
        if key not in cache:
            if log:
                log(f"calibration: exactdp's bracket for {key}")
            cache[key] = exactdp_bracket(cal, exactdp_bin, default_width(cal, relative_width))
        status, bracket = cache[key]
        if bracket is not None and cal.get("buckets"):
            # exactdp's bracket is of lambda (noisier: smaller); dp-accounting's p = K/(lambda + K - 1)
            # is noisier when larger, so the lambda ends swap
            k = cal["buckets"]
            bracket = (Fraction(k) / (bracket[1] + k - 1), Fraction(k) / (bracket[0] + k - 1))
        cal = dict(cal)
        cal["exactdp_status"] = status
        if bracket is not None:
            lo, hi = bracket
            sigma = Fraction(cal["returned"])
            cal["exactdp_bracket"] = [str(lo), str(hi)]
            cal["ratio"] = [str(sigma / hi), str(sigma / lo)]
            cal["ratio_float"] = [float(sigma / hi), float(sigma / lo)]
            cal["exactdp_bracket_float"] = [float(lo), float(hi)]
            verdict = row.get("exactdp_verdict", row.get("verdict"))
            if verdict == "sound":
                cal["consistent"] = sigma > lo
            elif verdict == "unsound":
                cal["consistent"] = sigma < hi
            else:
                cal["consistent"] = None
        row["calibration"] = cal
    return rows


def table(rows):
    """Markdown lines: one row per calibration record."""
    sel = [x for x in rows if x.get("calibration")]
    if not sel:
        return []
    out = ["### Calibration: is the returned noise enough, and how much larger than necessary is it?", "",
           "The claim of each row is \"the returned sigma makes the composition (eps, delta)-DP\"; the ratio is "
           "the returned sigma over exactdp's certified bracket [lo, hi] of the least sigma (docs/calibration.md).", "",
           "| scenario | API path | guarantee | returned sigma | verdict | true eps at sigma | exactdp least sigma in | ratio |",
           "|---|---|---|---|---|---|---|---|"]
    for x in sel:
        c = x["calibration"]
        scen = f"eps={float(Fraction(c['target_epsilon']))}, delta={float(Fraction(c['target_delta'])):g}, k={c['times']}"
        if c.get("sampling_rate"):
            scen += f", q={float(Fraction(c['sampling_rate']))}"
        br = c.get("exactdp_bracket")
        br_text = f"[{float(Fraction(br[0])):.10g}, {float(Fraction(br[1])):.10g}]" if br else c.get("exactdp_status", "")
        rf = c.get("ratio_float")
        ratio = f"[{rf[0]:.7f}, {rf[1]:.7f}]" if rf else ""
        truth = x.get("truth")
        if isinstance(truth, tuple):
            truth = f"[{float(truth[0]):.7g}, {float(truth[1]):.7g}]"
        out.append(f"| {scen} | `{x['path']}` | {x['guarantee']} | {x['raw']!r} | {x['verdict']} | {truth} | {br_text} | {ratio} |")
    return out + [""]
