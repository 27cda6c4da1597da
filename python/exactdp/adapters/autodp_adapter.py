"""Claims from autodp (Yu-Xiang Wang et al.): its mechanism zoo and transformers.

Pinned version: ``python3 -m pip install autodp==0.2.3.1``. ``get_approxDP(delta)`` of a mechanism
(RDP-based, with autodp's own conversions) is the claimed epsilon; compositions use
``transformer_zoo.Composition``, Poisson subsampling ``AmplificationBySampling(PoissonSampling=True)``.
autodp states add/remove neighbouring for Poisson sampling; the base mechanisms are given by their
sensitivity-1 parameters (RR by the probability p of answering truthfully: lambda = p/(1-p)).
"""
from fractions import Fraction

from . import _common as C

PINNED = "0.2.3.1"
NAME = "autodp"
PACKAGE = "autodp"


def claims(grid="small"):
    import warnings

    from autodp import mechanism_zoo as mz
    from autodp import transformer_zoo as tz

    warnings.filterwarnings("ignore")
    g = C.GRIDS[grid]
    acc = f"autodp {C.version(PACKAGE)}"
    out = []

    def eps_of(mech, delta):
        try:
            return float(mech.get_approxDP(delta))
        except Exception:  # noqa: BLE001 - autodp raises on some corners; not a claim
            return None

    def composed(m, k):
        return m if k == 1 else tz.Composition()([m], [k])

    scen = []
    for p in (0.75, 0.9):
        # p as written (0.9 is 9/10, lambda 9), not its binary64 neighbour, whose 53-bit lambda makes the
        # exact 10 000-fold composition gigabytes; the two differ at rounding level only
        lam = Fraction(str(p)) / (1 - Fraction(str(p)))
        scen.append((f"RR p={p}", f"rr:lambda={lam}", lambda p=p: mz.RandresponseMechanism(p=p), 10000))
    for b in (1.0, 2.0):
        scen.append((f"Laplace b={b}", f"laplace:b={C.exact(b)}", lambda b=b: mz.LaplaceMechanism(b=b), 100))
    for s in (1.0, 4.0):
        scen.append((f"Gaussian sigma={s}", f"gauss:sigma={C.exact(s)}", lambda s=s: mz.GaussianMechanism(sigma=s), 10000))
    for name, spec, make, kmax in scen:
        for k in g["ks"]:
            if k > kmax:
                continue
            m = composed(make(), k)
            for delta in g["deltas"]:
                out.append(C.epsilon_claim(f"autodp/{name}/k={k}/delta={delta}", spec, k, delta, eps_of(m, delta), acc,
                                           neighbouring="replace-one" if name.startswith("RR") else "add-remove"))
    for sigma, q in ((1.0, 0.01), (2.0, 0.1)):
        for k in g["sub_ks"]:
            sub = tz.AmplificationBySampling(PoissonSampling=True)(mz.GaussianMechanism(sigma=sigma), q,
                                                                  improved_bound_flag=True)
            m = composed(sub, k)
            for delta in g["deltas"]:
                if delta < 1e-12:
                    continue
                out.append(C.epsilon_claim(f"autodp/subsampled Gaussian sigma={sigma} q={q}/k={k}/delta={delta}",
                                           f"gauss:sigma={C.exact(sigma)}", k, delta, eps_of(m, delta), acc, sampling=q))
    return C.document(acc, out)
