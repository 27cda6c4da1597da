"""Shared helpers of the calibration adapters: accountants' noise calibration turned into claims.

A calibration API returns a noise multiplier sigma for a target (eps, delta) after k steps of the
(optionally Poisson-subsampled) Gaussian mechanism. Its record is the claim "k uses of
gauss:sigma=SIGMA (sampled at q, add/remove) are (eps, delta)-DP", with ``sigma`` the exact binary
value of the float returned: the audit's verdict says whether the returned noise is enough
(sound) or not (unsound). ``raw`` is the sigma returned, and ``calibration`` records the question
(family, parameter, target, steps, sampling rate) so that ``exactdp.calibration_audit`` can put
the returned sigma next to exactdp's certified bracket of the least sigma (the ratio says how much
larger than necessary it is). docs/audit.md and docs/calibration.md.
"""
from fractions import Fraction

from . import _common as C

# (target eps, target delta, sampling rate (1: none), steps)
SCENARIOS = {
    "ci": ((1.0, 1e-5, 1.0, 1), (1.0, 1e-5, 0.1, 10)),
    "small": ((1.0, 1e-5, 1.0, 1), (1.0, 1e-5, 0.1, 10), (1.0, 1e-5, 1.0, 100), (1.0, 1e-5, 0.01, 1000)),
    "full": ((1.0, 1e-5, 1.0, 1), (1.0, 1e-5, 0.1, 10), (1.0, 1e-5, 1.0, 100), (1.0, 1e-5, 0.01, 1000),
             (2.0, 1e-5, 0.1, 100), (8.0, 1e-5, 0.01, 10000)),
}


def scenario_id(eps, delta, q, k):
    return f"eps={eps}/delta={delta}" + ("" if q == 1.0 else f"/q={q}") + f"/k={k}"


# the Laplace mechanism (dp-accounting's LaplaceDpEvent; exactdp "laplace:b=B"): (eps, delta, steps);
# delta = 0 asks for pure DP, where the least b is k/eps exactly
LAPLACE_SCENARIOS = {
    "ci": ((1.0, 0.0, 1),),
    "small": ((1.0, 0.0, 1), (1.0, 1e-5, 1), (1.0, 0.0, 10)),
    "full": ((1.0, 0.0, 1), (1.0, 1e-5, 1), (1.0, 0.0, 10), (0.5, 1e-5, 1)),
}


# dp-accounting's randomized response (RandomizedResponseDpEvent(p, K): the true bucket with
# probability 1 - p, else a uniform draw from the K buckets; replace-one): (eps, delta, K, steps).
# exactdp's "krr:k=K,lambda=L" with L = (K(1 - p) + p)/p, the ratio of the true bucket's probability
# to another's; delta = 0 asks for pure DP, where the least p is K/(e^(eps/steps) + K - 1) exactly.
RR_SCENARIOS = {
    "ci": ((1.0, 0.0, 2, 1), (1.0, 1e-5, 4, 10)),
    "small": ((1.0, 0.0, 2, 1), (1.0, 0.0, 4, 10), (1.0, 1e-5, 2, 10), (1.0, 1e-5, 4, 10), (1.0, 1e-5, 10, 100)),
    "full": ((1.0, 0.0, 2, 1), (1.0, 0.0, 4, 10), (1.0, 1e-5, 2, 10), (1.0, 1e-5, 4, 10), (1.0, 1e-5, 10, 100),
             (0.5, 1e-6, 2, 1000)),
}


def rr_lambda(p, buckets):
    """exactdp's lambda of dp-accounting's RR with noise parameter p (a Fraction) over K buckets."""
    return (buckets * (1 - p) + p) / p


def rr_noise_parameter(lam, buckets):
    """dp-accounting's noise parameter p of exactdp's k-ary RR with ratio lam: K/(lam + K - 1)."""
    return buckets / (lam + buckets - 1)


def record(cid, sigma, scenario, accountant, *, package, path, guarantee, call, documented_error=None,
           family="gauss", parameter="sigma", buckets=None):
    """The claim record of a returned noise parameter ``sigma`` (sigma of "gauss", b of "laplace",
    dp-accounting's noise_parameter p of randomized response over ``buckets`` buckets, judged as
    "krr:k=K,lambda=(K(1 - p) + p)/p" under replace-one), or None when the accountant returned
    nothing usable."""
    eps, delta, q, k = scenario
    if sigma is None:
        return None
    sigma = float(sigma)
    if not sigma > 0 or sigma != sigma or sigma == float("inf"):
        return None
    if buckets is None:
        spec, neighbouring = f"{family}:{parameter}={C.exact(sigma)}", "add-remove"
    else:
        if sigma > 1:
            return None
        lam = rr_lambda(Fraction(sigma), buckets)
        spec, neighbouring = f"krr:k={buckets},lambda={lam.numerator}/{lam.denominator}", "replace-one"
    rec = C.epsilon_claim(cid, spec, k, delta, eps, accountant, neighbouring=neighbouring,
                          sampling=None if q == 1.0 else q, package=package, path=path, guarantee=guarantee, call=call,
                          documented_error=documented_error,
                          comment="calibration: is the returned sigma enough for the target?")
    rec["raw"] = C.raw_value(sigma)
    # the reproducer's text: it recomputes sigma with the accountant alone and judges the target
    # epsilon (value) for the mechanism with the sigma recorded here
    rec["call"] = (call.rsplit("value = ", 1)[0] + f"sigma = {call.rsplit('value = ', 1)[1].strip()}\n"
                   f"print('returned {parameter}:', repr(float(sigma)), '(recorded: {sigma!r})')\n"
                   f"value = {eps!r}  # the target epsilon, which the returned sigma must meet\n")
    rec["calibration"] = {"family": family, "parameter": parameter, "returned": C.exact(sigma),
                          "target_epsilon": C.exact(eps), "target_delta": C.exact(delta), "times": int(k),
                          "sampling_rate": None if q == 1.0 else C.exact(q)}
    if buckets is not None:
        # exactdp calibrates lambda of "krr:k=K"; calibration_audit maps its bracket to p
        rec["calibration"].update({"family": f"krr:k={buckets}", "buckets": int(buckets)})
    return rec
