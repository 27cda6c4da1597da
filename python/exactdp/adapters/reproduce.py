"""Standalone reproducers of unsound audit findings, ready to attach to an upstream bug report.

``write(row, path)`` writes a Python script that imports only the accountant and mpmath — never
exactdp — repeats the accountant's computation exactly as the audit ran it (the record's ``call``
text, with the Opacus loader's source in front for Opacus), and prints the accountant's value next
to a high-precision truth computed with mpmath at 60 significant digits:

* Gaussian mechanism used k times (no subsampling): the k-fold composition is the Gaussian with
  mu = sqrt(k) * sensitivity / sigma, delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
  (Balle and Wang 2018, Theorem 8; Dong, Roth and Su 2019);
* randomized response (rr:lambda / rr:epsilon) and the discrete Laplace mechanism with sensitivity
  1 (dlaplace): the privacy loss of one use is +-ln(lambda) with probabilities lambda/(1+lambda) and
  1/(1+lambda), so k uses give the binomial sum delta(eps) = sum_j C(k,j) p^j (1-p)^(k-j)
  (1 - e^(eps - (2j-k) ln lambda))^+;
* Laplace mechanism used once: delta(eps) = 1 - e^((eps - eps0)/2) for eps < eps0 = sensitivity/b.

A replace-one claim's truth is that of the replace-one pair exactdp judged (the row's ``analysed``
spec: additive noise at twice the sensitivity, randomized response as it is); without it the script
falls back to exactdp's certified enclosure, never to the add/remove closed form.

For the claim "(eps, delta)-DP" the script prints the true delta at the accountant's epsilon (above
the target delta: the claim is false) and the true least epsilon (by bisection to 1e-40). Other
mechanisms (the subsampled Gaussian, k-fold Laplace, ...) have no closed form here: the script then
prints exactdp's certified bracket of the truth, written into it as exact decimals, and says so.
The script exits with status 1 when the accountant's claim is false, 0 otherwise.
"""
import os
from fractions import Fraction

HEADER = '''#!/usr/bin/env python3
"""Reproducer: {accountant}, {path}.

Audited claim ({guarantee} documented by the accountant): {mechanism_text} is
{claim_text}. exactdp's audit found it unsound: {truth_text}.

Run with only the accountant ({package}=={version}) and mpmath installed (no exactdp):
    python3 {name}
It prints the accountant's value next to a 60-digit truth computed with mpmath{truth_source}, and exits
with status 1 when the claim is false. Environment of the audit: {environment}.
"""
import sys

import mpmath
from mpmath import mp

mp.dps = 60
try:
    from importlib import metadata

    print("versions:", ", ".join(f"{{p}} {{metadata.version(p)}}" for p in ({package!r}, "numpy", "scipy", "mpmath")))
except Exception:  # noqa: BLE001 - a version lookup failing does not stop the reproducer
    pass
'''

TRUTH_GAUSS = '''
# k uses of the Gaussian mechanism (sensitivity D, standard deviation sigma) are the Gaussian
# mechanism with mu = sqrt(k) D / sigma: delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
MU = mpmath.sqrt({k}) * {sensitivity} / {sigma}


def true_delta(eps):
    return mpmath.ncdf(-eps / MU + MU / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / MU - MU / 2)


EPS_MAX = MU * MU / 2 + 40 * MU
'''

TRUTH_BINOMIAL = '''
# one use: privacy loss +ln(LAM) with probability p = LAM/(1+LAM), -ln(LAM) otherwise; k uses: the
# loss is (2j - k) ln(LAM) with j ~ Binomial(k, p)
LAM = {lam}
K = {k}
P = LAM / (1 + LAM)
TERMS = [(mpmath.exp(mpmath.log(mpmath.binomial(K, j)) + j * mpmath.log(P) + (K - j) * mpmath.log(1 - P)),
          (2 * j - K) * mpmath.log(LAM)) for j in range(K + 1)]


def true_delta(eps):
    return mpmath.fsum(w * (1 - mpmath.exp(eps - loss)) for w, loss in TERMS if loss > eps)


EPS_MAX = K * mpmath.log(LAM)
'''

TRUTH_LAPLACE = '''
# one use of the Laplace mechanism with eps0 = sensitivity / b: delta(eps) = 1 - e^((eps - eps0)/2)
EPS0 = {sensitivity} / {b}


def true_delta(eps):
    return 1 - mpmath.exp((eps - EPS0) / 2) if eps < EPS0 else mpmath.mpf(0)


EPS_MAX = EPS0
'''

TRUTH_CERTIFIED = '''
# No closed form for this mechanism here: the truth below is exactdp's certified enclosure, written as
# exact decimals ({how}).
TRUE_LO = mpmath.mpf({lo!r})
TRUE_HI = mpmath.mpf({hi!r})
'''

FOOTER_EPSILON = '''
DELTA = mpmath.mpf({delta!r})  # the accountant's delta, exactly
claimed = mpmath.mpf(float(value))
print("accountant epsilon:       ", repr(float(value)))
if "true_delta" in globals():
    at_claim = true_delta(claimed)
    lo, hi = mpmath.mpf(0), mpmath.mpf(EPS_MAX)
    while hi - lo > mpmath.mpf(10) ** -40:  # least eps with true_delta(eps) <= DELTA (true_delta decreases)
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if true_delta(mid) <= DELTA else (mid, hi)
    print("true least epsilon:       ", mpmath.nstr(hi, 20))
    print("true delta at the accountant's epsilon:", mpmath.nstr(at_claim, 20), " target delta:", mpmath.nstr(DELTA, 20))
    false = at_claim > DELTA
else:
    print("true least epsilon in:    ", mpmath.nstr(TRUE_LO, 20), mpmath.nstr(TRUE_HI, 20), "(certified by exactdp)")
    false = claimed < TRUE_LO
print("the claim is", "FALSE: the accountant under-reports epsilon" if false else "not shown false")
sys.exit(1 if false else 0)
'''

FOOTER_DELTA = '''
EPSILON = mpmath.mpf({epsilon!r})  # the accountant's epsilon, exactly
claimed = mpmath.mpf(float(value))
print("accountant delta:         ", repr(float(value)))
if "true_delta" in globals():
    truth = true_delta(EPSILON)
    print("true delta:               ", mpmath.nstr(truth, 20))
    false = claimed < truth
else:
    print("true delta in:            ", mpmath.nstr(TRUE_LO, 20), mpmath.nstr(TRUE_HI, 20), "(certified by exactdp)")
    false = claimed < TRUE_LO
print("the claim is", "FALSE: the accountant under-reports delta" if false else "not shown false")
sys.exit(1 if false else 0)
'''


def _spec(text):
    family, _, rest = text.partition(":")
    params = dict(p.split("=", 1) for p in rest.split(",") if p)
    return family, params


def _mp(q):
    """mpmath source text for the exact rational q (a numerator over a denominator)."""
    q = Fraction(q)
    return f"mpmath.mpf({q.numerator})" if q.denominator == 1 else f"(mpmath.mpf({q.numerator}) / {q.denominator})"


def _decimal(q, digits=40, up=False):
    """A decimal string of q rounded outward (down, or up when ``up``), for the certified constants."""
    q = Fraction(q)
    scale = 10 ** digits
    n = q.numerator * scale
    v = -((-n) // q.denominator) if up else n // q.denominator
    return f"{v}e-{digits}"


def _analysed_spec(row):
    """The spec whose pair the truth is about: the mechanism as written under add/remove; under
    replace-one the replace-one spec exactdp judged (the row's ``analysed``, from the library,
    accounting/replace_one.hpp), or None when the row does not carry it."""
    if row.get("neighbouring") != "replace-one":
        return row["mechanism"]
    analysed = row.get("analysed") or []
    return analysed[0] if len(analysed) == 1 else None


def truth_code(row):
    """The mpmath truth block of a row, and a few words on its source."""
    spec = _analysed_spec(row)
    if spec is None:  # never an add/remove closed form for a replace-one claim
        return _certified_truth(row)
    family, params = _spec(spec)
    k = int(row["times"])
    sampled = "sampling" in row
    sens = params.get("sensitivity", "1")
    if family == "gauss" and not sampled:
        return TRUTH_GAUSS.format(k=k, sensitivity=_mp(sens), sigma=_mp(params["sigma"])), ""
    if not sampled and sens == "1" and (family in ("rr", "dlaplace")) and Fraction(params.get("delta", "0")) == 0:
        if "lambda" in params:
            lam = _mp(params["lambda"])
        elif "epsilon" in params:
            lam = f"mpmath.exp({_mp(params['epsilon'])})"
        elif "r" in params:
            lam = f"(1 / {_mp(params['r'])})"
        else:
            lam = None
        if lam is not None and k <= 20000:
            return TRUTH_BINOMIAL.format(lam=lam, k=k), ""
    if family == "laplace" and not sampled and k == 1:
        return TRUTH_LAPLACE.format(sensitivity=_mp(sens), b=_mp(params["b"])), ""
    return _certified_truth(row)


def _certified_truth(row):
    """The truth block of exactdp's certified enclosure, written into the file."""
    lo, hi = row["truth"] if isinstance(row["truth"], tuple) else (row["truth"], row["truth"])
    return (TRUTH_CERTIFIED.format(how=row.get("how", "certified"), lo=_decimal(lo), hi=_decimal(hi, up=True)),
            " (for this mechanism: exactdp's certified enclosure, written into the file)")


def source(row, environment=""):
    """The text of the reproducer of an audit row (see the module docstring)."""
    from . import opacus_adapter

    if not row.get("_call"):
        raise ValueError(f"{row['id']}: the record keeps no call to reproduce")
    truth, truth_source = truth_code(row)
    mech = f"`{row['mechanism']}` used {row['times']} time(s)" + (f", {row['sampling']}" if "sampling" in row else "")
    mech += f" ({row['neighbouring']} neighbouring)"
    if row.get("neighbouring") == "replace-one" and row.get("analysed") and row["analysed"] != [row["mechanism"]]:
        mech += f", judged on its replace-one pair `{', '.join(row['analysed'])}`"
    if row["kind"] == "epsilon":
        claim = f"(epsilon = {row['raw']!r}, delta = {float(Fraction(row['delta']))!r})-DP"
        footer = FOOTER_EPSILON.format(delta=float(Fraction(row["delta"])))
    else:
        claim = f"delta({float(Fraction(row['epsilon']))!r}) <= {row['raw']!r}"
        footer = FOOTER_DELTA.format(epsilon=float(Fraction(row["epsilon"])))
    t = row["truth"]
    truth_text = (f"the true {row['kind']} is {float(t):.17g}" if not isinstance(t, tuple)
                  else f"the true {row['kind']} lies in [{float(t[0]):.17g}, {float(t[1]):.17g}]")
    text = HEADER.format(accountant=row["accountant"], path=row["path"], guarantee=row["guarantee"],
                         mechanism_text=mech, claim_text=claim, truth_text=truth_text, package=row["package"],
                         version=row["version"], name="THIS_FILE", truth_source=truth_source,
                         environment=environment or "see the audit's report.md")
    if row.get("prelude") == opacus_adapter.PRELUDE:
        text += "\n# --- Opacus's accountants, loaded without torch (exactdp/adapters/opacus_loader.py, verbatim) ---\n"
        text += opacus_adapter.loader_source() + "\n"
    text += "\n# --- the accountant's computation, as the audit ran it ---\n" + row["_call"]
    text += "\n# --- the truth ---" + truth + footer
    return text


def write(row, path, environment=""):
    """Writes the reproducer of ``row`` at ``path`` and returns the path."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    text = source(row, environment).replace("THIS_FILE", os.path.basename(path))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path
