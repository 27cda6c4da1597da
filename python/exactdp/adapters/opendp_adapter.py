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


# OpenDP documents a privacy map as an upper bound: Measurement.check "If true, implies that if the
# distance between inputs is at most `d_in`, then the privacy usage is at most `d_out`", and map
# returns the d_out that check accepts; the zCDP cast's profile epsilon(delta) / delta(epsilon) is
# the (epsilon, delta) curve of that guarantee. All claims: bounds.
GUARANTEE = "bound"


def claims(grid="small"):
    g = C.GRIDS[grid]
    acc = f"opendp {C.version(PACKAGE)}"
    calls = C.Calls()
    out = []
    head = ("import opendp.prelude as dp\ndp.enable_features('contrib')\n"
            "fl = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))\n"
            "it = (dp.atom_domain(T=int), dp.absolute_distance(T=int))\n")

    def composed(make, k):
        return head + f"m = {make}" + ("" if k == 1 else f"\nm = dp.c.make_composition([m] * {k})")

    def value(setup, query):
        try:
            return calls.value(setup, query)
        except Exception:  # noqa: BLE001 - e.g. a composition OpenDP refuses; not a claim
            return None

    # pure DP: RR (randomized bool), discrete and continuous Laplace
    pure = []
    for p in (0.75, 0.9):
        from fractions import Fraction
        # p as written (0.9 is 9/10, lambda 9), not its binary64 neighbour, whose 53-bit lambda makes the
        # exact 10 000-fold composition gigabytes; the two differ at rounding level only
        lam = Fraction(str(p)) / (1 - Fraction(str(p)))
        pure.append((f"RR p={p}", f"rr:lambda={lam}", f"dp.m.make_randomized_response_bool(prob={p!r})", 1, 10000,
                     "replace-one", "make_randomized_response_bool"))
    for s in (1.0, 2.0):
        pure.append((f"discrete Laplace scale={s}", f"dlaplace:epsilon={C.exact(1 / s)}",
                     f"dp.m.make_laplace(*it, scale={s!r})", 1, 1000, "add-remove", "make_laplace(int)"))
        pure.append((f"Laplace scale={s}", f"laplace:b={C.exact(s)}", f"dp.m.make_laplace(*fl, scale={s!r})", 1.0, 100,
                     "add-remove", "make_laplace(float)"))
    for name, spec, make, d_in, kmax, nb, what in pure:
        for k in g["ks"]:
            if k > kmax:
                continue
            setup, query = composed(make, k), f"float(m.map({d_in!r}))"
            eps = value(setup, query)
            path = f"opendp.measurements.{what}" + ("" if k == 1 else " > combinators.make_composition") + ".map(d_in)"
            for delta in (0.0,) + tuple(g["deltas"]):
                out.append(C.epsilon_claim(f"opendp/{name}/k={k}/delta={delta}", spec, k, delta, eps, acc, neighbouring=nb,
                                           package=PACKAGE, path=path, guarantee=GUARANTEE,
                                           call=C.Calls.text(setup, query)))
    # zCDP: continuous Gaussian (k-fold) and discrete Gaussian (one use), cast to approximate DP
    zc = [(f"Gaussian scale={s}", f"gauss:sigma={C.exact(s)}", f"dp.m.make_gaussian(*fl, scale={s!r})", 1.0, 10000,
           "make_gaussian(float)") for s in (1.0, 4.0)]
    zc += [(f"discrete Gaussian scale={s}", f"dgauss:sigma2={C.exact(s * s)}", f"dp.m.make_gaussian(*it, scale={s!r})", 1, 1,
            "make_gaussian(int)") for s in (1.0, 4.0)]
    for name, spec, make, d_in, kmax, what in zc:
        for k in g["ks"]:
            if k > kmax:
                continue
            setup = composed(make, k) + f"\nprofile = dp.c.make_zCDP_to_approxDP(m).map({d_in!r})"
            path = (f"opendp.measurements.{what}" + ("" if k == 1 else " > combinators.make_composition") +
                    " > combinators.make_zCDP_to_approxDP.map(d_in)")
            for delta in g["deltas"]:
                query = f"float(profile.epsilon({delta!r}))"
                out.append(C.epsilon_claim(f"opendp/{name}/k={k}/delta={delta}", spec, k, delta, value(setup, query), acc,
                                           package=PACKAGE, path=path + ".epsilon(delta)", guarantee=GUARANTEE,
                                           call=C.Calls.text(setup, query)))
            for eps in g["epsilons"]:
                query = f"float(profile.delta({eps!r}))"
                out.append(C.delta_claim(f"opendp/{name}/k={k}/epsilon={eps}", spec, k, eps, value(setup, query), acc,
                                         package=PACKAGE, path=path + ".delta(epsilon)", guarantee=GUARANTEE,
                                         call=C.Calls.text(setup, query)))
    return C.document(acc, out)
