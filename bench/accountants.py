"""Time to produce epsilon(delta) for k-fold compositions, by each installed accountant and by exactdp.

    python3 bench/accountants.py [--ks 100,1000,10000] [--delta 1e-5] [--json OUT.json]
    python3 bench/accountants.py --widths 8,16,32      # exactdp's bracket width/time per resolution

Two scenarios (issue 6, "Benchmarks"): the discrete Laplace mechanism P(x) ~ e^{-a|x|} with a = 1,
sensitivity 1 (its privacy loss is the two-point loss of randomized response RR_a), and the
Poisson-subsampled Gaussian of DP-SGD (noise multiplier sigma = 1, rate q = 0.01, add/remove), each
composed k times, epsilon at delta = 1e-5. Every measurement runs in a fresh Python process (no
cache shared between measurements) and times only the call that produces epsilon (imports
excluded). exactdp answers with an exact profile (discrete Laplace: exact likelihood ratios and
certified masses) or with a certified bracket refined until its width is at most 1 % of epsilon
(subsampled Gaussian, exactdp.grid_bracket). The accountants answer at their default or documented
accuracy settings, stated in the table. Prints the table with the ratios time(exactdp)/time(accountant)
and exactdp's bracket widths; the figures are reported, never asserted.
"""
import argparse
import json
import os
import subprocess
import sys
import time

# Each entry: (accountant, scenario, setting, code). The code defines `run(k, delta)` returning a float
# epsilon or a (lo, hi) pair; it runs in a fresh interpreter.
CASES = [
    ("exactdp", "dlaplace", "exact-ratio PLD, certified masses", """
import exactdp
def run(k, delta):
    # the audit's route (binomial composition of the two-atom loss); the claim k = k*eps0 is the pure bound
    doc = {"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": "dlaplace:epsilon=1,sensitivity=1",
           "times": k, "delta": repr(delta), "claimed_epsilon": str(k)}]}
    return exactdp.audit(doc, digits=12)[0]["true_epsilon"]
"""),
    ("dp_accounting", "dlaplace", "PLD, from_discrete_laplace_mechanism", """
from dp_accounting.pld import privacy_loss_distribution as pld
def run(k, delta):
    return pld.from_discrete_laplace_mechanism(1.0, 1).self_compose(k).get_epsilon_for_delta(delta)
"""),
    ("opendp", "dlaplace", "pure-DP privacy map of make_composition", """
import opendp.prelude as dp
dp.enable_features("contrib")
def run(k, delta):
    m = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0)
    return float(dp.c.make_composition([m] * k).map(1))
"""),
    ("prv_accountant", "dlaplace", "PRVAccountant(PureDPMechanism), eps_error 0.01, eps_upper", """
from prv_accountant import PRVAccountant
from prv_accountant.privacy_random_variables import PureDPMechanism
def run(k, delta):
    a = PRVAccountant(prvs=[PureDPMechanism(eps=1.0)], max_self_compositions=[k], eps_error=0.01, delta_error=1e-10)
    lo, est, up = a.compute_epsilon(delta=delta, num_self_compositions=[k])
    return up
"""),
    ("autodp", "dlaplace", "PureDP_Mechanism + Composition (RDP)", """
from autodp import mechanism_zoo as mz, transformer_zoo as tz
def run(k, delta):
    return tz.Composition()([mz.PureDP_Mechanism(eps=1.0)], [k]).get_approxDP(delta)
"""),
    ("exactdp", "subsampled_gaussian", "certified bracket, width <= 1%", """
import exactdp
def run(k, delta):
    b = exactdp.grid_bracket("gauss:sigma=1", times=k, delta=str(delta), sampling_rate="1/100", resolution=4,
                             relative_width="1/100", max_resolution=64)
    return b["value"], b["resolution"]
"""),
    ("dp_accounting", "subsampled_gaussian", "PLDAccountant (default discretisation 1e-4)", """
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
def run(k, delta):
    acc = pld_privacy_accountant.PLDAccountant()
    acc.compose(dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(1.0)), k))
    return acc.get_epsilon(delta)
"""),
    ("dp_accounting (RDP)", "subsampled_gaussian", "RdpAccountant (default orders)", """
import dp_accounting
from dp_accounting.rdp import rdp_privacy_accountant as rdp
def run(k, delta):
    acc = rdp.RdpAccountant()
    acc.compose(dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(1.0)), k))
    return acc.get_epsilon(delta)
"""),
    ("prv_accountant", "subsampled_gaussian", "Accountant, eps_error 0.01, eps_upper", """
from prv_accountant import Accountant
def run(k, delta):
    a = Accountant(noise_multiplier=1.0, sampling_probability=0.01, delta=delta, max_compositions=k, eps_error=0.01)
    lo, est, up = a.compute_epsilon(num_compositions=k)
    return up
"""),
    ("autodp", "subsampled_gaussian", "AmplificationBySampling + Composition (RDP)", """
from autodp import mechanism_zoo as mz, transformer_zoo as tz
def run(k, delta):
    sub = tz.AmplificationBySampling(PoissonSampling=True)(mz.GaussianMechanism(sigma=1.0), 0.01, improved_bound_flag=True)
    return tz.Composition()([sub], [k]).get_approxDP(delta)
"""),
]

DRIVER = """
import json, sys, time, warnings
warnings.filterwarnings("ignore")
{code}
k, delta = int(sys.argv[1]), float(sys.argv[2])
t0 = time.perf_counter()
value = run(k, delta)
t = time.perf_counter() - t0
extra = None
if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], int):
    value, extra = value
if isinstance(value, tuple):
    value = [str(value[0]), str(value[1])]
else:
    value = float(value)
print(json.dumps({{"time": t, "value": value, "extra": extra}}))
"""


def measure(code, k, delta, timeout):
    try:
        p = subprocess.run([sys.executable, "-c", DRIVER.format(code=code), str(k), repr(delta)], capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    if p.returncode != 0:
        lines = (p.stderr or p.stdout).strip().splitlines()
        return {"error": lines[-1] if lines else f"exit {p.returncode}"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def fmt_value(v):
    from fractions import Fraction

    if isinstance(v, list):
        lo, hi = Fraction(v[0]), Fraction(v[1])
        return f"[{float(lo):.5f}, {float(hi):.5f}]", float((hi - lo) / hi) if hi else None
    return f"{v:.5f}", None


WIDTH_CODE = """
import exactdp
def run(k, delta):
    b = exactdp.grid_bracket("gauss:sigma=1", times=k, delta=str(delta), sampling_rate="1/100", resolution={res})
    return b["value"], b["resolution"]
"""


def widths(ks, delta, resolutions, timeout):
    """exactdp's certified DP-SGD brackets (sigma = 1, q = 1/100) at fixed resolutions: width and time."""
    print(f"exactdp grid brackets, subsampled Gaussian sigma = 1, q = 1/100, epsilon at delta = {delta}")
    print(f"{'k':>6} {'resolution':>10} {'time (s)':>9}  {'bracket':28} {'width':>8}")
    for k in ks:
        for res in resolutions:
            r = measure(WIDTH_CODE.format(res=res), k, delta, timeout)
            if "error" in r:
                print(f"{k:>6} {res:>10} {'-':>9}  {r['error'][:60]}")
                continue
            shown, width = fmt_value(r["value"])
            print(f"{k:>6} {res:>10} {r['time']:>9.2f}  {shown:28} {width:>8.3%}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--widths", help="instead: exactdp's bracket width and time at these resolutions (e.g. 8,16,32)")
    ap.add_argument("--ks", default="100,1000,10000")
    ap.add_argument("--delta", type=float, default=1e-5)
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--only", help="comma-separated accountants to run (default: all installed)")
    ap.add_argument("--json", help="also write the measurements here")
    args = ap.parse_args(argv)
    ks = [int(x) for x in args.ks.split(",")]
    if args.widths:
        widths(ks, args.delta, [int(x) for x in args.widths.split(",")], args.timeout)
        return 0
    only = set(args.only.split(",")) if args.only else None
    rows = []
    for scenario in ("dlaplace", "subsampled_gaussian"):
        for k in ks:
            base = None
            for acc, scen, setting, code in CASES:
                if scen != scenario or (only and acc not in only):
                    continue
                r = measure(code, k, args.delta, args.timeout)
                r.update({"accountant": acc, "scenario": scen, "setting": setting, "k": k})
                rows.append(r)
                if acc == "exactdp":
                    base = r
                print(json.dumps(r), file=sys.stderr, flush=True)
            for r in rows:
                if r["scenario"] == scenario and r["k"] == k:
                    r["ratio"] = (base["time"] / r["time"]) if base and "time" in base and "time" in r and r["time"] > 0 else None
    print(f"epsilon at delta = {args.delta}; ratio = time(exactdp) / time(accountant), one run each, this machine")
    print(f"{'scenario':20} {'k':>6} {'accountant':20} {'time (s)':>10} {'ratio':>8}  {'epsilon':28} {'width':>8}  setting")
    for r in rows:
        if "error" in r:
            print(f"{r['scenario']:20} {r['k']:>6} {r['accountant']:20} {'-':>10} {'-':>8}  {r['error'][:60]}")
            continue
        shown, width = fmt_value(r["value"])
        w = f"{width:.2%}" if width is not None else ""
        if r.get("extra"):
            w += f" (res {r['extra']})"
        ratio = f"{r['ratio']:.3g}" if r.get("ratio") else ""
        print(f"{r['scenario']:20} {r['k']:>6} {r['accountant']:20} {r['time']:>10.3f} {ratio:>8}  {shown:28} {w:>8}  {r['setting']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
