"""dp-accounting 0.6.0's calibration: ``dp_accounting.mechanism_calibration.calibrate_dp_mechanism``.

Called as its docstring describes, with a fresh ``PLDAccountant`` (``pld``) or ``RdpAccountant``
(``rdp``) and the event ``SelfComposedDpEvent(GaussianDpEvent(sigma), k)`` — or
``SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), k)`` — built from the
parameter; default bracket (search from [0, 1]) and tolerance (1e-6). The Laplace mechanism is
calibrated too (b of ``LaplaceDpEvent(b)``, k uses, PLD accountant only), including pure targets
(delta = 0), where the least b is k/eps exactly. So is randomized response over K buckets (the
noise parameter p of ``RandomizedResponseDpEvent(p, K)``, k uses, both accountants with
``neighboring_relation=REPLACE_ONE``, the only relation they accept for it), judged as exactdp's
``krr:k=K,lambda=(K(1 - p) + p)/p``; at delta = 0 the least p is K/(e^(eps/k) + K - 1). The bracket
is given explicitly, [0, 0.999999]: the default search evaluates p = 1, which the PLD accountant
refuses. Guarantee, in its own words:
"We need to ensure that gap is not positive, guaranteeing the returned parameter gives no less
privacy than was requested" (the code checks epsilon_gap(root) <= 0 with the same accountant):
**bound**, as far as the accountant's epsilon is one.
"""
from . import _calibration as K
from . import _common as C

PINNED = "0.6.0"
NAME = "dp_accounting_calibration"
PACKAGE = "dp-accounting"

ACCOUNTANTS = (
    ("pld", "from dp_accounting.pld import pld_privacy_accountant as acc_mod\nmake = acc_mod.PLDAccountant"),
    ("rdp", "from dp_accounting.rdp import rdp_privacy_accountant as acc_mod\nmake = acc_mod.RdpAccountant"),
)


def claims(grid="small"):
    acc_name = f"dp_accounting {C.version(PACKAGE)} calibration"
    calls = C.Calls()
    out = []
    for mode, import_text in ACCOUNTANTS:
        for scenario in K.SCENARIOS[grid]:
            eps, delta, q, k = scenario
            event = "dp_accounting.GaussianDpEvent(s)"
            if q != 1.0:
                event = f"dp_accounting.PoissonSampledDpEvent({q!r}, {event})"
            setup = ("import dp_accounting\n"
                     "from dp_accounting import mechanism_calibration\n"
                     f"{import_text}\n"
                     f"def make_event(s):\n    return dp_accounting.SelfComposedDpEvent({event}, {k})")
            query = f"mechanism_calibration.calibrate_dp_mechanism(make, make_event, {eps!r}, {delta!r})"
            inner = "PoissonSampledDpEvent(GaussianDpEvent)" if q != 1.0 else "GaussianDpEvent"
            path = (f"dp_accounting.mechanism_calibration.calibrate_dp_mechanism({'PLDAccountant' if mode == 'pld' else 'RdpAccountant'}, "
                    f"SelfComposedDpEvent({inner}))")
            cid = f"dp_accounting_calibration/{mode}/{K.scenario_id(*scenario)}"
            sigma = calls.answer(cid, path, setup, query)
            out.append(K.record(cid, sigma, scenario, f"{acc_name} {mode}", package=PACKAGE, path=path,
                                guarantee="bound", call=C.Calls.text(setup, query)))
        for scenario in K.RR_SCENARIOS[grid]:
            eps, delta, buckets, k = scenario
            setup = ("import dp_accounting\n"
                     "from dp_accounting import mechanism_calibration\n"
                     f"{import_text}\n"
                     "def make_rr():\n    return make(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)\n"
                     f"def make_event(p):\n    return dp_accounting.SelfComposedDpEvent("
                     f"dp_accounting.RandomizedResponseDpEvent(p, {buckets}), {k})")
            # the default bracket search evaluates p = 1, which the PLD accountant refuses ("Noise
            # parameter must be strictly between 0 and 1"): an explicit bracket inside (0, 1)
            query = (f"mechanism_calibration.calibrate_dp_mechanism(make_rr, make_event, {eps!r}, {delta!r}, "
                     "bracket_interval=mechanism_calibration.ExplicitBracketInterval(0.0, 0.999999))")
            path = (f"dp_accounting.mechanism_calibration.calibrate_dp_mechanism({'PLDAccountant' if mode == 'pld' else 'RdpAccountant'}"
                    "(REPLACE_ONE), SelfComposedDpEvent(RandomizedResponseDpEvent))")
            cid = f"dp_accounting_calibration/{mode}/rr/eps={eps}/delta={delta}/buckets={buckets}/k={k}"
            p = calls.answer(cid, path, setup, query)
            out.append(K.record(cid, p, (eps, delta, 1.0, k), f"{acc_name} {mode}", package=PACKAGE, path=path,
                                guarantee="bound", call=C.Calls.text(setup, query), family="rr",
                                parameter="noise_parameter", buckets=buckets))
        if mode == "rdp":
            continue  # the RDP accountant's Laplace support is not audited here (see the module docstring)
        for scenario in K.LAPLACE_SCENARIOS[grid]:
            eps, delta, k = scenario
            setup = ("import dp_accounting\n"
                     "from dp_accounting import mechanism_calibration\n"
                     f"{import_text}\n"
                     f"def make_event(b):\n    return dp_accounting.SelfComposedDpEvent(dp_accounting.LaplaceDpEvent(b), {k})")
            query = f"mechanism_calibration.calibrate_dp_mechanism(make, make_event, {eps!r}, {delta!r})"
            path = ("dp_accounting.mechanism_calibration.calibrate_dp_mechanism(PLDAccountant, "
                    "SelfComposedDpEvent(LaplaceDpEvent))")
            cid = f"dp_accounting_calibration/{mode}/laplace/eps={eps}/delta={delta}/k={k}"
            b = calls.answer(cid, path, setup, query)
            out.append(K.record(cid, b, (eps, delta, 1.0, k), f"{acc_name} {mode}", package=PACKAGE, path=path,
                                guarantee="bound", call=C.Calls.text(setup, query), family="laplace", parameter="b"))
    return C.document(acc_name, out, calls.failures)
