"""Opacus 1.6.0's calibration: ``opacus.accountants.utils.get_noise_multiplier``, loaded without torch
(exactdp.adapters.opacus_loader), with ``accountant="rdp"``, ``"prv"`` and ``"gdp"``, ``steps=k``,
``sample_rate=q`` and the default ``epsilon_tolerance=0.01``. It doubles sigma from 10 until the
accountant's epsilon is below the target, then bisects, returning the upper end ``sigma_high``, whose
epsilon (by that accountant) is below the target. Guarantee: as the accountant's ``get_epsilon``
(docs/audit.md): RDP and PRV are **bounds**; GDP is an **estimate** ("GDP accounting is experimental
and can underestimate privacy expenditure").
"""
from . import _calibration as K
from . import _common as C
from . import opacus_loader

PINNED = "1.6.0"
NAME = "opacus_calibration"
PACKAGE = "opacus"
PRELUDE = "opacus_loader"

ACCOUNTANTS = (("rdp", "bound"), ("prv", "bound"), ("gdp", "estimate"))


def claims(grid="small"):
    opacus_loader.load_opacus_accountants()
    acc_name = f"opacus {C.version(PACKAGE)} calibration"
    calls = C.Calls({"load_opacus_accountants": opacus_loader.load_opacus_accountants})
    out = []
    for mode, guarantee in ACCOUNTANTS:
        for scenario in K.SCENARIOS[grid]:
            eps, delta, q, k = scenario
            setup = "accountants = load_opacus_accountants()"
            query = (f"accountants.get_noise_multiplier(target_epsilon={eps!r}, target_delta={delta!r}, "
                     f"sample_rate={q!r}, steps={k}, accountant={mode!r})")
            path = f"opacus.accountants.utils.get_noise_multiplier(accountant={mode!r})"
            cid = f"opacus_calibration/{mode}/{K.scenario_id(*scenario)}"
            sigma = calls.answer(cid, path, setup, query)
            rec = K.record(cid, sigma, scenario, f"{acc_name} {mode}", package=PACKAGE, path=path, guarantee=guarantee,
                           call=C.Calls.text(setup, query))
            if rec is not None:
                rec["prelude"] = PRELUDE
            out.append(rec)
    return C.document(acc_name, out, calls.failures)
