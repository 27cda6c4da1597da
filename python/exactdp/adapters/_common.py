"""Shared helpers of the accountant adapters: exact numbers, claim records, version checks.

Every parameter handed to an accountant is a Python float; the claim names the exact binary value
of that float (``Fraction(x)``), and the claimed epsilon or delta is the exact value of the float the
accountant returned. So the mechanism audited is exactly the one the accountant was asked about,
and no decimal rounding enters a verdict.

A claim record is an exactdp claim (``exactdp-claims/1``: id, mechanism, times, neighbouring,
sampling, delta + claimed_epsilon or epsilon + claimed_delta) plus what the audit report needs to be
fair to the accountant (see docs/audit.md):

* ``package`` and ``version``: the distribution audited and its installed version;
* ``path``: the exact API path called, e.g.
  ``dp_accounting.pld.PLDAccountant.get_epsilon(SelfComposedDpEvent(GaussianDpEvent))``;
* ``guarantee``: ``"bound"`` when the accountant documents the value as an upper bound (a
  guarantee), ``"estimate"`` when it documents it as an approximation; estimates are never
  counted as unsound;
* ``raw``: the value the accountant returned, unchanged (a negative epsilon stays negative; the
  claim's exact number is the exact value of that float);
* ``documented_error`` (estimates, when the accountant states one): the error it promises;
* ``call``: Python source that repeats the accountant's computation with the accountant alone (no
  exactdp), leaving the value in ``value``; used for the standalone reproducers.

``exactdp_claim`` turns a record into the claim that exactdp audits (the extra keys go into the
documentation keys ``source`` and ``comment``, which the claims format allows).
"""
import math
from fractions import Fraction
from importlib import metadata

# Scenario grids: "ci" is the audit of the test suite, "small" a quick look (minutes), "full" the
# long command of the README (hours).
GRIDS = {
    "ci": {"ks": (1, 10), "deltas": (1e-5,), "epsilons": (1.0,), "sub_ks": (1,)},
    "small": {"ks": (1, 10), "deltas": (1e-5, 1e-10), "epsilons": (1.0,), "sub_ks": (1, 10)},
    "full": {"ks": (1, 10, 100, 1000, 10000), "deltas": (1e-3, 1e-5, 1e-10, 1e-18), "epsilons": (0.5, 1.0, 10.0, 50.0),
             "sub_ks": (1, 10, 100, 1000, 10000)},
}

GUARANTEES = ("bound", "estimate")
# the keys of an exactdp-claims/1 claim (python/../src/exactdp/io/claims.cpp) that a record passes on
CLAIM_KEYS = ("id", "mechanism", "mechanisms", "times", "neighbouring", "sampling", "delta", "claimed_epsilon",
              "epsilon", "claimed_delta", "accountant", "comment")


def exact(x):
    """The exact value of a float (or int) as an exactdp number string."""
    return str(Fraction(x))


def version(package):
    """The installed version of ``package``, or None."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def raw_value(x):
    """The accountant's value as JSON can hold it: the float itself (repr round-trips), or "inf",
    "-inf", "nan"."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _record(cid, spec, k, neighbouring, sampling, accountant, package, path, guarantee, call, documented_error, comment):
    if guarantee not in GUARANTEES:
        raise ValueError(f"{cid}: guarantee must be one of {GUARANTEES}, not {guarantee!r}")
    if not path:
        raise ValueError(f"{cid}: every record names the API path called")
    c = {"id": cid, "mechanism": spec, "times": int(k), "neighbouring": neighbouring}
    if sampling is not None:
        c["sampling"] = f"poisson:q={exact(sampling)}"
    c.update({"accountant": accountant, "package": package, "version": version(package), "path": path,
              "guarantee": guarantee})
    if documented_error is not None:
        c["documented_error"] = documented_error
    if call is not None:
        c["call"] = call
    if comment:
        c["comment"] = comment
    return c


def epsilon_claim(cid, spec, k, delta, eps, accountant, neighbouring="add-remove", sampling=None, comment=None, *,
                  package, path, guarantee, call=None, documented_error=None):
    """A record "k uses of spec are (eps, delta)-DP", or None when eps is inf or nan (no claim: an
    infinite epsilon is vacuous). A negative eps is kept as it is (never clamped to 0)."""
    if eps is None or not math.isfinite(float(eps)):
        return None
    c = _record(cid, spec, k, neighbouring, sampling, accountant, package, path, guarantee, call, documented_error,
                comment)
    c["delta"] = exact(delta)
    c["claimed_epsilon"] = exact(float(eps))
    c["raw"] = raw_value(eps)
    return c


def delta_claim(cid, spec, k, eps, delta, accountant, neighbouring="add-remove", sampling=None, comment=None, *,
                package, path, guarantee, call=None, documented_error=None):
    """A record "k uses of spec have delta(eps) <= delta", or None when delta is nan. A delta
    outside [0, 1] is kept as it is (never clamped)."""
    if delta is None or math.isnan(float(delta)):
        return None
    c = _record(cid, spec, k, neighbouring, sampling, accountant, package, path, guarantee, call, documented_error,
                comment)
    c["epsilon"] = exact(eps)
    c["claimed_delta"] = "inf" if math.isinf(float(delta)) else exact(float(delta))
    c["raw"] = raw_value(delta)
    return c


def document(accountant, claims, failures=None):
    """The document of a list of claim records (None entries dropped); ``failures`` (Calls.failures)
    are the questions the accountant did not answer, listed by the report."""
    doc = {"format": "exactdp-claims/1", "accountant": accountant, "claims": [c for c in claims if c is not None]}
    if failures:
        doc["failures"] = list(failures)
    return doc


def out_of_range(c):
    """Why exactdp cannot take the claimed number as it is (a negative epsilon, a delta outside
    [0, 1]), or None. Such claims are judged by exactdp.audit_all from the truth (see there)."""
    if "claimed_epsilon" in c and Fraction(c["claimed_epsilon"]) < 0:
        return "negative epsilon"
    if "claimed_delta" in c:
        if c["claimed_delta"] == "inf" or Fraction(c["claimed_delta"]) > 1:
            return "delta above 1"
        if Fraction(c["claimed_delta"]) < 0:
            return "negative delta"
    return None


def exactdp_claim(c):
    """The exactdp-claims/1 claim of a record: its claim keys, the API path as ``source`` and the
    guarantee and raw value in ``comment``. A claimed number outside exactdp's range (negative
    epsilon, delta outside [0, 1]) is replaced by the nearest number in range so that exactdp
    returns the truth; the verdict on the raw number is then made from that truth (exactdp.audit_all)."""
    out = {k: c[k] for k in CLAIM_KEYS if k in c}
    out["source"] = c["path"]
    note = f"guarantee={c['guarantee']}; raw={c['raw']!r}"
    out["comment"] = note + (f"; {c['comment']}" if c.get("comment") else "")
    why = out_of_range(c)
    if why == "negative epsilon":
        out["claimed_epsilon"] = "0"
    elif why == "delta above 1":
        out["claimed_delta"] = "1"
    elif why == "negative delta":
        out["claimed_delta"] = "0"
    return out


def exactdp_document(doc):
    """The exactdp-claims/1 document that ``exactdp audit`` reads, from a document of records."""
    return {"format": "exactdp-claims/1", "accountant": doc["accountant"],
            "claims": [exactdp_claim(c) for c in doc["claims"]]}


class Calls:
    """Runs the accountant through the source text that a record keeps as ``call``, so the value
    audited is the value the standalone reproducer recomputes. ``setup`` (building the accountant)
    runs once per distinct text; ``query`` is an expression evaluated in its namespace. ``prelude``
    (a dict) seeds the namespace, e.g. with the Opacus loader."""

    def __init__(self, prelude=None):
        self._prelude = dict(prelude or {})
        self._spaces = {}
        self.failures = []  # {"id", "path", "error"} of the calls that raised (see answer)

    def answer(self, cid, path, setup, query):
        """``value(setup, query)``, or None when the accountant raises (it refuses the corner, or runs
        out of memory); the failure is kept in ``failures`` so the report lists what was not
        answered instead of dropping it silently."""
        try:
            return self.value(setup, query)
        except Exception as e:  # noqa: BLE001 - an accountant failing is reported, not fatal
            self.failures.append({"id": cid, "path": path, "error": f"{type(e).__name__}: {e}"[:300]})
            return None

    def value(self, setup, query):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy/scipy warnings of the accountant's own arithmetic
            ns = self._spaces.get(setup)
            if ns is None:
                ns = dict(self._prelude)
                exec(setup, ns)  # noqa: S102 - the adapter's own text
                self._spaces[setup] = ns
            return eval(query, ns)  # noqa: S307 - the adapter's own text

    @staticmethod
    def text(setup, query):
        """The ``call`` of a record: the setup, then ``value = query``."""
        return f"{setup}\nvalue = {query}\n"
