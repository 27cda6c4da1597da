"""prv-accountant 0.2.0's calibration: ``prv_accountant.dpsgd.find_noise_multiplier(sampling_probability,
num_steps, target_epsilon, target_delta)`` with its default ``eps_error=0.1``. Its docstring: "Find a
noise multiplier that satisfies a given target epsilon"; the code ends with
``assert compute_epsilon(bracket[1])[2] < target_epsilon + eps_error`` — its own upper bound on epsilon
at the returned sigma may exceed the target by up to ``eps_error`` ("Error allowed for final
epsilon"). Recorded as a **bound** on the target (the docstring's "satisfies") with
``documented_error`` {"eps_error": 0.1}; the row's truth shows how close to the target it lands.
The sampling probability must be below 1 here (the DP-SGD accountant), so only subsampled scenarios
are asked.
"""
from . import _calibration as K
from . import _common as C

PINNED = "0.2.0"
NAME = "prv_accountant_calibration"
PACKAGE = "prv-accountant"


def claims(grid="small"):
    acc_name = f"prv_accountant {C.version(PACKAGE)} calibration"
    calls = C.Calls()
    out = []
    for scenario in K.SCENARIOS[grid]:
        eps, delta, q, k = scenario
        if q == 1.0:
            continue
        setup = "from prv_accountant.dpsgd import find_noise_multiplier"
        query = f"float(find_noise_multiplier({q!r}, {k}, {eps!r}, {delta!r}))"
        path = "prv_accountant.dpsgd.find_noise_multiplier"
        cid = f"prv_accountant_calibration/{K.scenario_id(*scenario)}"
        sigma = calls.answer(cid, path, setup, query)
        out.append(K.record(cid, sigma, scenario, acc_name, package=PACKAGE, path=path, guarantee="bound",
                            call=C.Calls.text(setup, query), documented_error={"eps_error": 0.1}))
    return C.document(acc_name, out, calls.failures)
