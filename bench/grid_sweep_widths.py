# Relative widths of `exactdp compose` grid brackets (δ(1) and ε(10⁻⁵), default resolution 32) for
# subsampled Gaussians and k-fold Laplace, side by side for two binaries, with the ratio second/first
# and the CPU time of each binary over all cases (bench/README.md "Coarsening sweeps").
#
#   python3 bench/grid_sweep_widths.py BEFORE/exactdp AFTER/exactdp
import json, subprocess, sys, time, resource
from fractions import Fraction as F
bins = sys.argv[1:]
cases = []
for s in ["1/2", "1", "2"]:
    for q in ["1/100", "1/10", "1/2"]:
        for k in ["3", "30"]:
            cases.append(["-m", f"gauss:sigma={s}", "--sampling", f"poisson:q={q}", "-k", k])
for k in ["2", "10", "50"]:
    cases.append(["-m", "laplace:b=1", "-k", k])
def widths(b, c):
    t0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    p = subprocess.run([b, "compose", *c, "--delta", "1e-5", "--epsilon", "1", "--json", "--digits", "20"], capture_output=True, text=True)
    t = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - t0
    d = json.loads(p.stdout)
    out = []
    for a in d["at"]:
        v = a["delta"]; out.append((F(v["hi"]) - F(v["lo"])) / F(v["hi"]) if F(v["hi"]) > 0 else 0)
    for l in d["least"]:
        v = l["epsilon"]
        try: out.append((F(v["hi"]) - F(v["lo"])) / F(v["hi"]))
        except Exception: out.append(None)
    return out, t
tot = [0.0] * len(bins)
for c in cases:
    row = []
    for i, b in enumerate(bins):
        w, t = widths(b, c); tot[i] += t
        row.append(w)
    txt = " | ".join(" ".join(f"{float(x):.3g}" if x is not None else "-" for x in w) for w in row)
    ratio = [float(row[1][j] / row[0][j]) if row[0][j] else None for j in range(len(row[0]))] if len(row) > 1 else []
    print(" ".join(c), "::", txt, ":: ratio", " ".join(f"{r:.3g}" if r is not None else "-" for r in ratio), flush=True)
print("cpu", tot)
