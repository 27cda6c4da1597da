"""Claims from Microsoft's prv-accountant (``eps_low``, ``eps_estimate``, ``eps_upper``).

Pinned version: ``python3 -m pip install prv-accountant==0.2.0``. Its ``Accountant`` is the DP-SGD
accountant (Poisson-subsampled Gaussian, noise multiplier sigma, rate q, add/remove); its
``PRVAccountant`` composes privacy random variables, here the Gaussian and Laplace mechanisms and
its pure-DP variable (randomized response).

Each accountant answer becomes two claims: ``.../upper`` (eps_upper, which the library documents as
an upper bound of the true epsilon) and ``.../estimate`` (eps_estimate). ``eps_low`` (documented as
a lower bound) is kept in the claim's comment and checked by ``exactdp.audit_all`` against the
certified truth: a lower bound above the truth is also an error.
"""
from . import _common as C

PINNED = "0.2.0"
NAME = "prv_accountant"
PACKAGE = "prv-accountant"


def claims(grid="small"):
    from prv_accountant import Accountant, PRVAccountant
    from prv_accountant.privacy_random_variables import GaussianMechanism, LaplaceMechanism, PureDPMechanism

    g = C.GRIDS[grid]
    acc = f"prv_accountant {C.version(PACKAGE)}"
    out = []

    def both(cid, spec, k, delta, lo_est_up, sampling=None):
        lo, est, up = lo_est_up
        note = f"eps_low={C.exact(lo)}"
        out.append(C.epsilon_claim(cid + "/upper", spec, k, delta, up, acc, sampling=sampling, comment=note))
        out.append(C.epsilon_claim(cid + "/estimate", spec, k, delta, est, acc, sampling=sampling, comment=note))

    # DP-SGD: Poisson-subsampled Gaussian
    for sigma, q in ((1.0, 0.01), (2.0, 0.1), (0.8, 0.05)):
        for delta in g["deltas"]:
            if delta < 1e-12:
                continue  # the accountant's eps_error targets do not reach this far
            kmax = max(g["sub_ks"])
            try:
                a = Accountant(noise_multiplier=sigma, sampling_probability=q, delta=delta, max_compositions=kmax,
                               eps_error=0.01)
            except Exception:  # noqa: BLE001 - the accountant refuses some corners; not a claim
                continue
            for k in g["sub_ks"]:
                both(f"prv/dpsgd sigma={sigma} q={q}/k={k}/delta={delta}", f"gauss:sigma={C.exact(sigma)}", k, delta,
                     a.compute_epsilon(num_compositions=k), sampling=q)
    # plain Gaussian and Laplace through PRVAccountant, and its pure-DP privacy random variable (the
    # loss +eps with probability e^eps/(1+e^eps), -eps otherwise: randomized response RR_eps, also
    # the discrete Laplace mechanism with a = eps and sensitivity 1)
    for name, spec, prv in (("Gaussian sigma=2.0", "gauss:sigma=2", GaussianMechanism(noise_multiplier=2.0)),
                            ("Laplace b=1.0", "laplace:b=1", LaplaceMechanism(mu=1.0)),
                            ("pure DP eps=1.0", "rr:epsilon=1", PureDPMechanism(eps=1.0))):
        # at most 1 000 uses: PRVAccountant at 10 000 uses and delta_error 1e-12 needs about 5 GB here
        ks = [k for k in g["ks"] if k <= (100 if "Laplace" in name else 1000)]
        try:
            # prvs is a list (a bare PRV makes the constructor fail on sum(max_self_compositions))
            a = PRVAccountant(prvs=[prv], max_self_compositions=[max(ks)], eps_error=0.01, delta_error=1e-12)
        except Exception:  # noqa: BLE001
            continue
        for k in ks:
            for delta in g["deltas"]:
                if delta < 1e-11:
                    continue
                try:
                    r = a.compute_epsilon(delta=delta, num_self_compositions=[k])
                except Exception:  # noqa: BLE001
                    continue
                both(f"prv/{name}/k={k}/delta={delta}", spec, k, delta, r)
    return C.document(acc, out)
