"""Claims from Google's dp-accounting for ``exactdp.audit``: three API paths side by side.

Install the pinned version: ``python3 -m pip install dp-accounting==0.6.0``. Then::

    python3 -m exactdp.adapters.google_dp_accounting --out claims.json      # write the claims
    python3 -m exactdp.adapters.google_dp_accounting --audit                # and audit them

The paths audited (each record names its path, e.g.
``dp_accounting.pld.PLDAccountant.get_epsilon(SelfComposedDpEvent(GaussianDpEvent))``):

* ``pld``: ``PrivacyLossDistribution`` built by ``privacy_loss_distribution.from_*``, composed with
  ``self_compose(k)``, queried with ``get_epsilon_for_delta`` / ``get_delta_for_epsilon``;
* ``pldacc``: ``PLDAccountant().compose(event)`` with a ``DpEvent`` (``GaussianDpEvent``,
  ``LaplaceDpEvent``, ``DiscreteLaplaceDpEvent``, ``RandomizedResponseDpEvent`` with
  ``REPLACE_ONE``, ``PoissonSampledDpEvent(GaussianDpEvent)``, inside ``SelfComposedDpEvent`` for k
  uses), then ``get_epsilon`` / ``get_delta`` — the path most users call;
* ``rdp``: ``RdpAccountant().compose(event)`` with the same events (no discrete Laplace: the RDP
  accountant does not support it), then ``get_epsilon`` / ``get_delta``.

Guarantees, from dp-accounting 0.6.0's own words (all three are documented as bounds):

* ``PrivacyLossDistribution.get_epsilon_for_delta``: "When this privacy loss distribution
  corresponds to a mechanism and the rounding is pessimistic, the returned value corresponds to an
  epsilon for which the mechanism is (epsilon, delta)-differentially private"; ``from_*`` default to
  ``pessimistic_estimate=True`` ("the rounding is done in such a way that the resulting
  epsilon-hockey stick divergence computation gives an upper estimate to the real value"), and
  ``PLDAccountant`` builds its distributions with that default.
* ``RdpAccountant.get_epsilon`` is ``compute_epsilon`` of the RDP curve, whose comments name the
  conversions it uses ("Basic bound ... Proposition 3", "Improved bound from
  https://arxiv.org/abs/2004.00010 Proposition 12"): an upper bound.

Every mechanism parameter handed to dp-accounting is a Python float; the exactdp SPEC of a claim
names the exact binary value of that float (``Fraction(x)``), and the claimed ε or δ is the exact
value of the float the accountant returned. Poisson-subsampled Gaussian claims (add/remove, the
accountant's default ``ADD_OR_REMOVE_ONE``) and k-fold continuous Laplace claims are answered by
exactdp's certified grid brackets.
"""
import argparse
import json
import sys
from fractions import Fraction

from . import _common as C

PINNED = "0.6.0"
NAME = "dp_accounting"
PACKAGE = "dp-accounting"

BOUND = "bound"  # see the module docstring for the documentation of each path


def _exact(x):
    """The exact value of a float as an exactdp number string."""
    return str(Fraction(x))


def _rr_lambda(p, buckets=2):
    """dp-accounting's randomized response (answer truthfully with probability 1 - p, else a uniform
    bucket) over 2 buckets as exactdp's rr:lambda: lambda = (1 - p + p/2)/(p/2)."""
    return (1 - Fraction(p) + Fraction(p) / buckets) / (Fraction(p) / buckets)


def _kept(name, only):
    """Whether the scenario ``name`` is kept by the filter ``only`` (None keeps all)."""
    return only is None or any(o in name for o in only)


def _mechanisms(ks, only=None):
    """(name, exactdp SPEC, neighbouring, PLD constructor text, DpEvent text or None, RDP supports it,
    numbers of uses), those kept by ``only``."""
    return [m for m in _all_mechanisms(ks) if _kept(m[0], only)]


def _all_mechanisms(ks):
    out = []
    for p in (0.5, 0.125):
        out.append((f"randomized response p={p}", f"rr:lambda={_rr_lambda(p)}", "replace-one",
                    f"pld.from_randomized_response({p!r}, 2)", f"dp_event.RandomizedResponseDpEvent({p!r}, 2)",
                    True, ks))
    for a in (0.5, 1.0):  # discrete Laplace P(x) ~ exp(-a|x|), sensitivity 1: exactdp r = e^{-E}, E = a
        out.append((f"discrete Laplace a={a}", f"dlaplace:epsilon={_exact(a)},sensitivity=1", "add-remove",
                    f"pld.from_discrete_laplace_mechanism({a!r}, 1)", f"dp_event.DiscreteLaplaceDpEvent({a!r}, 1)",
                    False, [k for k in ks if k <= 1000]))
    for b in (1.0, 2.0):  # continuous Laplace: k-fold by exactdp's grid bracket
        out.append((f"Laplace b={b}", f"laplace:b={_exact(b)},sensitivity=1", "add-remove",
                    f"pld.from_laplace_mechanism({b!r}, 1)", f"dp_event.LaplaceDpEvent({b!r})", True,
                    [k for k in ks if k <= 100]))
    for s in (1.0, 4.0):
        out.append((f"Gaussian sigma={s}", f"gauss:sigma={_exact(s)},sensitivity=1", "add-remove",
                    f"pld.from_gaussian_mechanism({s!r}, 1)", f"dp_event.GaussianDpEvent({s!r})", True, ks))
    return out


def _event_name(event_text, k):
    """The DpEvent's type path: GaussianDpEvent, SelfComposedDpEvent(GaussianDpEvent),
    SelfComposedDpEvent(PoissonSampledDpEvent(GaussianDpEvent))."""
    inner = event_text.split("(", 1)[0].rsplit(".", 1)[-1]
    if inner == "PoissonSampledDpEvent":
        inner = "PoissonSampledDpEvent(GaussianDpEvent)"
    return inner if k == 1 else f"SelfComposedDpEvent({inner})"


def _accountant_setup(kind, event_text, k, neighbouring):
    """Setup text of an accountant that has composed the event k times."""
    rel = "REPLACE_ONE" if neighbouring == "replace-one" else "ADD_OR_REMOVE_ONE"
    cls = "pld_privacy_accountant.PLDAccountant" if kind == "pldacc" else "rdp_privacy_accountant.RdpAccountant"
    module = "pld import pld_privacy_accountant" if kind == "pldacc" else "rdp import rdp_privacy_accountant"
    event = event_text if k == 1 else f"dp_event.SelfComposedDpEvent({event_text}, {k})"
    return (f"from dp_accounting import dp_event\nfrom dp_accounting.{module}\n"
            f"from dp_accounting.privacy_accountant import NeighboringRelation\n"
            f"accountant = {cls}(neighboring_relation=NeighboringRelation.{rel})\n"
            f"accountant.compose({event})")


def _path(kind, method, event_text=None, k=1):
    if kind == "pld":
        return (f"dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution"
                f"{'.self_compose' if k > 1 else ''}.{method}")
    cls = "dp_accounting.pld.PLDAccountant" if kind == "pldacc" else "dp_accounting.rdp.RdpAccountant"
    return f"{cls}.{method}({_event_name(event_text, k)})"


def _claims_of(calls, kind, name, spec, neighbouring, setup, event_text, k, deltas, epsilons, sampling=None):
    acc = f"dp_accounting {C.version(PACKAGE)} {kind}"
    eps_m, delta_m = ("get_epsilon_for_delta", "get_delta_for_epsilon") if kind == "pld" else ("get_epsilon", "get_delta")
    target = "composed" if kind == "pld" else "accountant"
    out = []
    for d in deltas:
        q, cid, path = f"{target}.{eps_m}({d!r})", f"{kind}/{name}/k={k}/delta={d}", _path(kind, eps_m, event_text, k)
        out.append(C.epsilon_claim(cid, spec, k, d, calls.answer(cid, path, setup, q), acc,
                                   neighbouring=neighbouring, sampling=sampling, package=PACKAGE,
                                   path=path, guarantee=BOUND, call=C.Calls.text(setup, q)))
    for e in epsilons:
        q, cid, path = f"{target}.{delta_m}({e!r})", f"{kind}/{name}/k={k}/epsilon={e}", _path(kind, delta_m, event_text, k)
        out.append(C.delta_claim(cid, spec, k, e, calls.answer(cid, path, setup, q), acc,
                                 neighbouring=neighbouring, sampling=sampling, package=PACKAGE,
                                 path=path, guarantee=BOUND, call=C.Calls.text(setup, q)))
    return out


def pld_claims(ks=(1, 10, 100), deltas=(1e-5, 1e-10), epsilons=(1.0,), calls=None, only=None):
    """Claims of the ``PrivacyLossDistribution.self_compose`` path."""
    calls = calls or C.Calls()
    out = []
    for name, spec, nb, make, _, _, uses in _mechanisms(ks, only):
        for k in uses:
            setup = ("from dp_accounting.pld import privacy_loss_distribution as pld\n"
                     f"composed = {make}" + (f".self_compose({k})" if k > 1 else ""))
            out += _claims_of(calls, "pld", name, spec, nb, setup, None, k, deltas, epsilons)
    return out


def accountant_claims(kind, ks=(1, 10, 100), deltas=(1e-5, 1e-10), epsilons=(1.0,), calls=None, only=None):
    """Claims of ``PLDAccountant`` (kind "pldacc") or ``RdpAccountant`` (kind "rdp") over DpEvents."""
    calls = calls or C.Calls()
    out = []
    for name, spec, nb, _, event, rdp_ok, uses in _mechanisms(ks, only):
        if kind == "rdp" and not rdp_ok:
            continue
        for k in uses:
            out += _claims_of(calls, kind, name, spec, nb, _accountant_setup(kind, event, k, nb), event, k, deltas, epsilons)
    return out


def rdp_claims(ks=(1, 10, 100), deltas=(1e-5, 1e-10), sigmas=None, calls=None):
    """Claims of the RDP accountant (kept for callers of the earlier API)."""
    return accountant_claims("rdp", ks, deltas, (1.0,), calls)


def subsampled_claims(ks=(1, 10), deltas=(1e-5, 1e-10), calls=None, only=None):
    """Claims of the PLD and RDP accountants for the Poisson-subsampled Gaussian (DP-SGD)."""
    calls = calls or C.Calls()
    out = []
    for sigma, q in ((1.0, 0.01), (2.0, 0.1), (0.8, 0.05)):
        if not _kept(f"subsampled Gaussian sigma={sigma} q={q}", only):
            continue
        event = f"dp_event.PoissonSampledDpEvent({q!r}, dp_event.GaussianDpEvent({sigma!r}))"
        for k in ks:
            for kind in ("pldacc", "rdp"):
                setup = _accountant_setup(kind, event, k, "add-remove")
                out += _claims_of(calls, kind, f"subsampled Gaussian sigma={sigma} q={q}", f"gauss:sigma={_exact(sigma)}",
                                  "add-remove", setup, event, k, deltas, (), sampling=q)
    return out


def claims(ks=(1, 10, 100), grid=None, only=None):
    """The claims document of the three paths over the scenario grid (``grid``: a key of
    exactdp.adapters._common.GRIDS, which overrides ``ks``). ``only``: keep the scenarios whose
    name contains one of these strings (e.g. ``("Gaussian sigma=1.0",)``), for quick checks."""
    calls = C.Calls()
    deltas, epsilons, sub_ks = (1e-5, 1e-10), (1.0,), ()
    if grid is not None:
        g = C.GRIDS[grid]
        ks, deltas, epsilons, sub_ks = g["ks"], g["deltas"], g["epsilons"], g["sub_ks"]
    body = (pld_claims(ks, deltas, epsilons, calls, only) + accountant_claims("pldacc", ks, deltas, epsilons, calls, only) +
            accountant_claims("rdp", ks, deltas, epsilons, calls, only) +
            subsampled_claims(sub_ks, tuple(d for d in deltas if d >= 1e-12), calls, only))
    return C.document(f"dp_accounting {C.version(PACKAGE)}", body, calls.failures)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the claims file (exactdp-claims/1) here")
    ap.add_argument("--audit", action="store_true", help="audit the claims and print a table")
    ap.add_argument("--k", type=int, action="append", help="numbers of uses (default 1, 10, 100)")
    args = ap.parse_args(argv)
    doc = claims(tuple(args.k) if args.k else (1, 10, 100))
    query = C.exactdp_document(doc)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(query, f, indent=1)
    if not args.audit:
        if not args.out:
            json.dump(query, sys.stdout, indent=1)
        return 0
    from exactdp.audit_all import judge

    rows = judge(doc, None)
    for r in rows:
        print(f"{r['verdict']:9} {r['id']:60} {r['path']}  raw {r['raw']!r}")
    bad = sum(r["verdict"] == "unsound" for r in rows)
    print(f"{len(rows)} claims, {bad} unsound")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
