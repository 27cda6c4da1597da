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


# autodp documents get_approxDP as the mechanism's approximate-DP guarantee: the Mechanism class
# comment lists "Approximate DP: epsilon as a function of delta" among the privacy guarantees it
# propagates (from RDP by its converters, "take the minimum of all of them in each category"): a bound.
GUARANTEE = "bound"
PATH = "autodp.autodp_core.Mechanism.get_approxDP(delta)"


def claims(grid="small"):
    g = C.GRIDS[grid]
    acc = f"autodp {C.version(PACKAGE)}"
    calls = C.Calls()
    out = []
    head = "import warnings\nwarnings.filterwarnings('ignore')\nfrom autodp import mechanism_zoo as mz\nfrom autodp import transformer_zoo as tz\n"

    def composed(make, k):
        return head + f"mech = {make}" + ("" if k == 1 else f"\nmech = tz.Composition()([mech], [{k}])")

    def claim(cid, spec, k, delta, setup, neighbouring="add-remove", sampling=None, how=""):
        query = f"float(mech.get_approxDP({delta!r}))"
        try:
            eps = calls.value(setup, query)
        except Exception:  # noqa: BLE001 - autodp raises on some corners; not a claim
            return
        out.append(C.epsilon_claim(cid, spec, k, delta, eps, acc, neighbouring=neighbouring, sampling=sampling,
                                   package=PACKAGE, path=PATH + how, guarantee=GUARANTEE, call=C.Calls.text(setup, query)))

    scen = []
    for p in (0.75, 0.9):
        # p as written (0.9 is 9/10, lambda 9), not its binary64 neighbour, whose 53-bit lambda makes the
        # exact 10 000-fold composition gigabytes; the two differ at rounding level only
        lam = Fraction(str(p)) / (1 - Fraction(str(p)))
        scen.append((f"RR p={p}", f"rr:lambda={lam}", f"mz.RandresponseMechanism(p={p!r})", 10000, " of RandresponseMechanism"))
    for b in (1.0, 2.0):
        scen.append((f"Laplace b={b}", f"laplace:b={C.exact(b)}", f"mz.LaplaceMechanism(b={b!r})", 100, " of LaplaceMechanism"))
    for s in (1.0, 4.0):
        scen.append((f"Gaussian sigma={s}", f"gauss:sigma={C.exact(s)}", f"mz.GaussianMechanism(sigma={s!r})", 10000,
                     " of GaussianMechanism"))
    for name, spec, make, kmax, how in scen:
        for k in g["ks"]:
            if k > kmax:
                continue
            for delta in g["deltas"]:
                claim(f"autodp/{name}/k={k}/delta={delta}", spec, k, delta, composed(make, k),
                      neighbouring="replace-one" if name.startswith("RR") else "add-remove",
                      how=how + ("" if k == 1 else " after transformer_zoo.Composition"))
    for sigma, q in ((1.0, 0.01), (2.0, 0.1)):
        for k in g["sub_ks"]:
            make = (f"tz.AmplificationBySampling(PoissonSampling=True)(mz.GaussianMechanism(sigma={sigma!r}), {q!r}, "
                    "improved_bound_flag=True)")
            for delta in g["deltas"]:
                if delta < 1e-12:
                    continue
                claim(f"autodp/subsampled Gaussian sigma={sigma} q={q}/k={k}/delta={delta}",
                      f"gauss:sigma={C.exact(sigma)}", k, delta, composed(make, k), sampling=q,
                      how=" of AmplificationBySampling(PoissonSampling=True)(GaussianMechanism)" +
                      ("" if k == 1 else " after transformer_zoo.Composition"))
    return C.document(acc, out)
