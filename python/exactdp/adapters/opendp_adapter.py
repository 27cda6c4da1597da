"""Claims from OpenDP: its measurements' privacy maps, compositors and measure casts.

Pinned version: ``python3 -m pip install opendp==0.16.0``. For each mechanism the measurement's
privacy map at d_in = 1 (sensitivity 1) gives epsilon (max divergence: pure DP) or rho (zero-
concentrated divergence); ``make_composition`` composes k copies; ``make_zCDP_to_approxDP`` casts
zCDP to a privacy profile whose ``epsilon(delta)`` / ``delta(epsilon)`` are the claims. A pure
epsilon-DP answer is claimed at every delta of the grid (epsilon-DP implies (epsilon, delta)-DP).
Integer domains give OpenDP's discrete Laplace (P(x) ~ exp(-|x|/scale): exactdp
``dlaplace:epsilon=1/scale``) and discrete Gaussian (exactdp ``dgauss:sigma2=scale^2``, one use);
float domains the continuous mechanisms.
"""
from . import _common as C

PINNED = "0.16.0"
NAME = "opendp"
PACKAGE = "opendp"


def claims(grid="small"):
    import opendp.prelude as dp

    dp.enable_features("contrib")
    g = C.GRIDS[grid]
    acc = f"opendp {C.version(PACKAGE)}"
    out = []
    fl = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
    it = (dp.atom_domain(T=int), dp.absolute_distance(T=int))

    def composed(m, k):
        return m if k == 1 else dp.c.make_composition([m] * k)

    # pure DP: RR (randomized bool), discrete and continuous Laplace
    pure = []
    for p in (0.75, 0.9):
        from fractions import Fraction
        # p as written (0.9 is 9/10, lambda 9), not its binary64 neighbour, whose 53-bit lambda makes the
        # exact 10 000-fold composition gigabytes; the two differ at rounding level only
        lam = Fraction(str(p)) / (1 - Fraction(str(p)))
        pure.append((f"RR p={p}", f"rr:lambda={lam}", lambda p=p: dp.m.make_randomized_response_bool(prob=p), 1, 10000,
                     "replace-one"))
    for s in (1.0, 2.0):
        pure.append((f"discrete Laplace scale={s}", f"dlaplace:epsilon={C.exact(1 / s)}",
                     lambda s=s: dp.m.make_laplace(*it, scale=s), 1, 1000, "add-remove"))
        pure.append((f"Laplace scale={s}", f"laplace:b={C.exact(s)}", lambda s=s: dp.m.make_laplace(*fl, scale=s), 1.0, 100,
                     "add-remove"))
    for name, spec, make, d_in, kmax, nb in pure:
        for k in g["ks"]:
            if k > kmax:
                continue
            try:
                eps = float(composed(make(), k).map(d_in))
            except Exception:  # noqa: BLE001 - e.g. a composition OpenDP refuses
                continue
            for delta in (0.0,) + tuple(g["deltas"]):
                out.append(C.epsilon_claim(f"opendp/{name}/k={k}/delta={delta}", spec, k, delta, eps, acc, neighbouring=nb))
    # zCDP: continuous Gaussian (k-fold) and discrete Gaussian (one use), cast to approximate DP
    zc = [(f"Gaussian scale={s}", f"gauss:sigma={C.exact(s)}", lambda s=s: dp.m.make_gaussian(*fl, scale=s), 1.0, 10000)
          for s in (1.0, 4.0)]
    zc += [(f"discrete Gaussian scale={s}", f"dgauss:sigma2={C.exact(s * s)}", lambda s=s: dp.m.make_gaussian(*it, scale=s), 1, 1)
           for s in (1.0, 4.0)]
    for name, spec, make, d_in, kmax in zc:
        for k in g["ks"]:
            if k > kmax:
                continue
            try:
                profile = dp.c.make_zCDP_to_approxDP(composed(make(), k)).map(d_in)
            except Exception:  # noqa: BLE001
                continue
            for delta in g["deltas"]:
                try:
                    eps = float(profile.epsilon(delta))
                except Exception:  # noqa: BLE001
                    continue
                out.append(C.epsilon_claim(f"opendp/{name}/k={k}/delta={delta}", spec, k, delta, eps, acc))
            for eps in g["epsilons"]:
                try:
                    d = float(profile.delta(eps))
                except Exception:  # noqa: BLE001
                    continue
                out.append(C.delta_claim(f"opendp/{name}/k={k}/epsilon={eps}", spec, k, eps, d, acc))
    return C.document(acc, out)
