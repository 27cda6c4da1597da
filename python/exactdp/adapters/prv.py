"""Claims from Microsoft's prv-accountant (``eps_low``, ``eps_estimate``, ``eps_upper``).

Pinned version: ``python3 -m pip install prv-accountant==0.2.0``. Its ``PRVAccountant`` composes
privacy random variables: here the Poisson-subsampled Gaussian (DP-SGD, noise multiplier sigma,
rate q, add/remove; the deprecated ``Accountant`` wrapper points users to ``PRVAccountant`` with
``PoissonSubsampledGaussianMechanism``), the Gaussian and Laplace mechanisms and its pure-DP variable
(randomized response).

``PRVAccountant.compute_epsilon(delta, num_self_compositions)`` returns three numbers; its docstring:
"Return lower bound for epsilon, estimate for epsilon and upper bound for epsilon". Each answer
becomes two records: ``.../upper`` (``eps_upper``, guarantee **bound**) and ``.../estimate``
(``eps_estimate``, guarantee **estimate**, with the accountant's ``eps_error`` — "Maximum error
allowed in epsilon" in the constructor's docstring — as its documented error). ``eps_low`` (a
lower bound) is kept in the record (``eps_low``) and checked by ``exactdp.audit_all`` against the
certified truth: a lower bound above the truth is also an error.
"""
from . import _common as C

PINNED = "0.2.0"
NAME = "prv_accountant"
PACKAGE = "prv-accountant"

EPS_ERROR = 0.01


def claims(grid="small"):
    g = C.GRIDS[grid]
    acc = f"prv_accountant {C.version(PACKAGE)}"
    calls = C.Calls()
    out = []

    def both(cid, spec, k, delta, setup, query, sampling=None):
        try:
            lo, est, up = calls.value(setup, query)
        except Exception:  # noqa: BLE001 - the accountant refuses some corners; not a claim
            return
        path = "prv_accountant.PRVAccountant.compute_epsilon(delta, num_self_compositions)"
        for suffix, value, index, guarantee in (("upper", up, 2, "bound"), ("estimate", est, 1, "estimate")):
            rec = C.epsilon_claim(f"{cid}/{suffix}", spec, k, delta, value, acc, sampling=sampling, package=PACKAGE,
                                  path=f"{path}[{index}] (eps_{suffix})", guarantee=guarantee,
                                  call=C.Calls.text(setup, f"({query})[{index}]"),
                                  documented_error={"eps_error": EPS_ERROR} if guarantee == "estimate" else None)
            if rec is not None:
                rec["eps_low"] = C.raw_value(lo)
                out.append(rec)

    head = "from prv_accountant import PRVAccountant\nfrom prv_accountant import privacy_random_variables as prvs\n"
    # DP-SGD: Poisson-subsampled Gaussian (delta_error = delta/1000, as the deprecated Accountant sets it)
    for sigma, q in ((1.0, 0.01), (2.0, 0.1), (0.8, 0.05)):
        for delta in g["deltas"]:
            if delta < 1e-12:
                continue  # the accountant's eps_error targets do not reach this far
            kmax = max(g["sub_ks"])
            setup = (head + f"accountant = PRVAccountant(prvs=[prvs.PoissonSubsampledGaussianMechanism("
                     f"sampling_probability={q!r}, noise_multiplier={sigma!r})], max_self_compositions=[{kmax}], "
                     f"eps_error={EPS_ERROR!r}, delta_error={delta / 1000!r})")
            for k in g["sub_ks"]:
                both(f"prv/dpsgd sigma={sigma} q={q}/k={k}/delta={delta}", f"gauss:sigma={C.exact(sigma)}", k, delta,
                     setup, f"accountant.compute_epsilon(delta={delta!r}, num_self_compositions=[{k}])", sampling=q)
    # plain Gaussian and Laplace, and the pure-DP privacy random variable (the loss +eps with
    # probability e^eps/(1+e^eps), -eps otherwise: randomized response RR_eps, also the discrete
    # Laplace mechanism with a = eps and sensitivity 1)
    for name, spec, prv in (("Gaussian sigma=2.0", "gauss:sigma=2", "prvs.GaussianMechanism(noise_multiplier=2.0)"),
                            ("Laplace b=1.0", "laplace:b=1", "prvs.LaplaceMechanism(mu=1.0)"),
                            ("pure DP eps=1.0", "rr:epsilon=1", "prvs.PureDPMechanism(eps=1.0)")):
        # at most 1 000 uses: PRVAccountant at 10 000 uses and delta_error 1e-12 needs about 5 GB here
        ks = [k for k in g["ks"] if k <= (100 if "Laplace" in name else 1000)]
        # prvs is a list (a bare PRV makes the constructor fail on sum(max_self_compositions))
        setup = (head + f"accountant = PRVAccountant(prvs=[{prv}], max_self_compositions=[{max(ks)}], "
                 f"eps_error={EPS_ERROR!r}, delta_error=1e-12)")
        for k in ks:
            for delta in g["deltas"]:
                if delta < 1e-11:
                    continue
                both(f"prv/{name}/k={k}/delta={delta}", spec, k, delta, setup,
                     f"accountant.compute_epsilon(delta={delta!r}, num_self_compositions=[{k}])")
    return C.document(acc, out)
