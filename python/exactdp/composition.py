"""exactdp.composition: one entry point for "how private is this composition?".

``epsilon_at(what, times, delta=...)`` and ``delta_at(what, times, epsilon=...)`` return certified
``(lo, hi)`` Fractions (an exact value v comes back as ``(v, v)``). ``what`` is

* a mechanism SPEC string, as ``exactdp compose --mechanism`` takes it (``"gauss:sigma=1"``,
  ``"dlaplace:epsilon=1"``, ``"rr:lambda=3/2"``, ...);
* a pair ``(P, Q)`` of dicts outcome -> exact mass, or an ``exactdp.PrivacyLoss``;
* a list of ``(what, times)`` for a heterogeneous composition;
* a ``dp_accounting`` DpEvent: ``GaussianDpEvent``, ``LaplaceDpEvent``, ``RandomizedResponseDpEvent``,
  ``PoissonSampledDpEvent`` (of a Gaussian, Laplace or discrete Laplace), ``SelfComposedDpEvent`` and ``ComposedDpEvent``, nested.
  Any other event type is refused with ``exactdp.Error`` naming it. A DpEvent's parameters are
  Python floats; each is taken at its exact binary value (``Fraction(x)``: ``0.1`` is
  3602879701896397/36028797018963968, not 1/10), so the answer is certified for the mechanism the
  event describes bit for bit.

Routes. Every question goes to the library's one entry point (accounting/composition_query.hpp), the
code ``exactdp compose`` runs, so the numbers are the ones ``exactdp compose --json`` prints: the
components are assembled there (``sampling_rate`` Poisson-subsamples every component on top of its own
rate; mechanisms with exact tables and pairs become their add/remove subsampled pair, whose base pair
must be symmetric; mixtures and replace-one pairs as below), the planner chooses the route under
``max_memory`` (exact, binomial, certified PLD, fast convolution, closed forms, the certified grid
bracket of docs/audit-subsampling.md for Gaussian, Laplace and mixture components), and
``relative_width`` refines the answer: finer grids intersected (resolution 32 up to 8192; the finest
bracket comes back even when still wider) or more working precision (128, 512, 2048 bits; refused
with the route's bracket when still wider). What cannot be answered is refused there, naming this
module's argument (``sampling_rate``, ``direction``, ``relative_width``, ``what``).

Degenerate DpEvents are the exact pairs they are: no noise (``noise_multiplier=0``, discrete
Laplace ``noise_parameter=0``, RR ``noise_parameter=0``) is a pair of disjoint laws (delta = 1 at
every epsilon; Poisson-subsampled at rate q, delta = q), sampling probability 0, a single bucket or
only zero sensitivities a pair of identical laws (delta = 0). ``DiscreteLaplaceDpEvent(a, S)`` is
``dlaplace:a=a,sensitivity=S`` (r = e^-a, an (a*S)-DP mechanism), ``MixtureOfGaussiansDpEvent`` with
one non-zero sensitivity c the Gaussian of sensitivity c Poisson-subsampled at the probability of c,
with several the Gaussian mixture (one use: a certified closed form, bounds/gaussian_mixture.hpp;
several uses, alone or with Gaussian and Laplace mechanisms: the grid bracket, refined for ``relative_width``);
its probabilities are divided by their exact sum (dp-accounting accepts sums within math.isclose of 1).

Directions. ``direction="both"`` (the default) is max(H(P||Q), H(Q||P)), the add-or-remove-one
profile; ``"remove"`` is H(P||Q) and ``"add"`` H(Q||P), with P the law when the record is present
(for a Poisson-subsampled Gaussian, P = q*N(1, s^2) + (1-q)*N(0, s^2), Q = N(0, s^2)): dp-accounting's
``pmf_remove`` and ``pmf_add`` (src/exactdp/divergence/direction.hpp, docs/composition.md).
A pair ``(P, Q)`` is taken in that orientation. ``epsilon`` may be negative in ``delta_at``.
``direction="replace"`` asks replace-one neighbouring instead: each mechanism is replaced by its
replace-one pair as the library defines it (src/exactdp/accounting/replace_one.hpp: additive noise at
twice the sensitivity, randomized response and RandomizedResponseDpEvent as they are), whose directions
coincide; Poisson subsampling (a ``sampling_rate`` or a PoissonSampledDpEvent with probability in (0, 1)),
pairs and Gaussian mixtures are refused with the reason (``exactdp.Error``, field "direction").
"""
import math
from fractions import Fraction

from ._core import Error, PrivacyLoss, _composition_of, default_memory_budget


def _exact(x, field):
    """An exact number as text for the C++ parsers; floats and bools are refused."""
    if isinstance(x, (float, bool)):
        raise TypeError(f"{field}: Python floats are binary approximations; pass a Fraction, an int or a string such as '0.1'")
    if isinstance(x, (int, Fraction, str)):
        return str(x)
    raise TypeError(f"{field}: expected a Fraction, an int or an exact string, not {type(x).__name__}")


def _times(k, field="times"):
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise Error(f"{field}: {k!r} must be a positive integer")
    return k


def _binary(x, field):
    """A DpEvent float at its exact binary value; nan, inf and non-numbers are refused."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise Error(f"{field}: {x!r} is not a finite number")
    return Fraction(x)


def _q(x, field="DpEvent parameter"):
    """A DpEvent float at its exact binary value, as exact text."""
    f = x if isinstance(x, Fraction) else _binary(x, field)
    return f"{f.numerator}/{f.denominator}" if f.denominator != 1 else str(f.numerator)


def _event_components(event, times, rate=None):
    """Components (spec, times, sampling_rate) of a dp_accounting DpEvent."""
    name = type(event).__name__
    module = type(event).__module__ or ""
    if not module.startswith("dp_accounting"):
        raise Error(f"what: unsupported object of type {name}")
    if name == "SelfComposedDpEvent":
        return _event_components(event.event, times * _times(event.count, "SelfComposedDpEvent.count"), rate)
    if name == "ComposedDpEvent":
        out = []
        for e in event.events:
            out += _event_components(e, times, rate)
        return out
    degenerate = _degenerate(event)
    if degenerate is not None:
        return [(_DEGENERATE_SPECS[degenerate], times, rate)]
    if name == "PoissonSampledDpEvent":
        if rate is not None:
            raise Error("PoissonSampledDpEvent: nested Poisson sampling is not supported")
        return _event_components(event.event, times, _binary(event.sampling_probability, "PoissonSampledDpEvent.sampling_probability"))
    if name == "GaussianDpEvent":
        return [(f"gauss:sigma={_q(event.noise_multiplier, 'GaussianDpEvent.noise_multiplier')}", times, rate)]
    if name == "LaplaceDpEvent":
        return [(f"laplace:b={_q(event.noise_multiplier, 'LaplaceDpEvent.noise_multiplier')}", times, rate)]
    if name == "DiscreteLaplaceDpEvent":
        # dp-accounting's a: r = e^(-a), an (a*sensitivity)-DP mechanism (dlaplace:a, never dlaplace:epsilon)
        s = event.sensitivity
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            raise Error(f"DiscreteLaplaceDpEvent.sensitivity: {s!r} must be a positive integer")
        return [(f"dlaplace:a={_q(event.noise_parameter, 'DiscreteLaplaceDpEvent.noise_parameter')},sensitivity={s}", times, rate)]
    if name == "MixtureOfGaussiansDpEvent":
        # sensitivity c_i with probability p_i against N(0, s^2): with one non-zero sensitivity c this
        # is the Gaussian (sensitivity c) Poisson-subsampled at the probability of c
        nonzero = {_binary(c, "MixtureOfGaussiansDpEvent.sensitivities") for c in event.sensitivities} - {0}
        if rate is not None:
            raise Error("MixtureOfGaussiansDpEvent: a mixture nested in Poisson sampling is not supported")
        if len(nonzero) > 1:
            return [(f"gauss:sigma={_q(event.standard_deviation, 'MixtureOfGaussiansDpEvent.standard_deviation')}",
                     times, _mixture_text(event))]
        c = nonzero.pop()
        # the probabilities divided by their exact sum, as for several sensitivities (_mixture_text)
        total = sum(_binary(pr, "MixtureOfGaussiansDpEvent.sampling_probs") for pr in event.sampling_probs)
        p = sum(_binary(pr, "MixtureOfGaussiansDpEvent.sampling_probs")
                for cc, pr in zip(event.sensitivities, event.sampling_probs) if _binary(cc, "sensitivity") == c) / total
        sigma = _q(event.standard_deviation, "MixtureOfGaussiansDpEvent.standard_deviation")
        return [(f"gauss:sigma={sigma},sensitivity={_q(c)}", times, None if p == 1 else p)]
    if name == "RandomizedResponseDpEvent":
        # with probability p a uniform bucket of k, else the input: P(same)/P(other) = (k(1-p)+p)/p
        p, k = _binary(event.noise_parameter, "RandomizedResponseDpEvent.noise_parameter"), event.num_buckets
        if not 0 < p <= 1 or k < 2:
            raise Error(f"RandomizedResponseDpEvent: noise_parameter={event.noise_parameter!r}, num_buckets={k!r}: "
                        "need 0 < noise_parameter <= 1 and num_buckets >= 2")
        return [(f"krr:k={k},lambda={_q((k * (1 - p) + p) / p)}", times, rate)]
    if name == "TruncatedSubsampledGaussianDpEvent":
        raise Error("TruncatedSubsampledGaussianDpEvent is not modelled by design: its worst case depends on the other "
                    "records sampled (no single pair), and dp-accounting's PLD for it is an upper bound built with a "
                    "replace-one subsampled Gaussian, not a pair's exact privacy (docs/acceptance.md)")
    raise Error(f"DpEvent of type {name} is not supported; supported: GaussianDpEvent, LaplaceDpEvent, "
                "RandomizedResponseDpEvent, PoissonSampledDpEvent, SelfComposedDpEvent, ComposedDpEvent")


def _mixture_text(event):
    """"mixture:c=w,..." of a MixtureOfGaussiansDpEvent (composition_plan.hpp's sensitivity mixture):
    each sensitivity and probability at its exact binary value, the probabilities divided by their
    exact sum (dp-accounting accepts any sum within math.isclose of 1; binary 0.2 + 0.8 is 1 + 2^-54)."""
    pairs = {}
    for c, w in zip(event.sensitivities, event.sampling_probs):
        c, w = _binary(c, "MixtureOfGaussiansDpEvent.sensitivities"), _binary(w, "MixtureOfGaussiansDpEvent.sampling_probs")
        if w < 0:
            raise Error(f"MixtureOfGaussiansDpEvent.sampling_probs: {float(w)!r} is negative")
        if w > 0:
            pairs[c] = pairs.get(c, 0) + w
    total = sum(pairs.values())
    return "mixture:" + ",".join(f"{c.numerator}/{c.denominator}={(w / total).numerator}/{(w / total).denominator}"
                                 for c, w in sorted(pairs.items()))


def _degenerate(event):
    """A DpEvent whose parameters make its pair degenerate: "disjoint" (no noise: the laws of the
    neighbours do not overlap, delta = 1 at every epsilon), "identical" (sampling probability 0, only
    zero sensitivities, a single bucket: delta = 0), or None."""
    name = type(event).__name__
    if name == "GaussianDpEvent" or name == "LaplaceDpEvent":
        return "disjoint" if event.noise_multiplier == 0 else None
    if name == "DiscreteLaplaceDpEvent":
        return "disjoint" if event.noise_parameter == 0 else None
    if name == "MixtureOfGaussiansDpEvent":
        if all(c == 0 for c in event.sensitivities):
            return "identical"
        return "disjoint" if event.standard_deviation == 0 else None
    if name == "RandomizedResponseDpEvent":
        if event.num_buckets == 1:
            return "identical"
        return "disjoint" if event.noise_parameter == 0 else None
    if name == "PoissonSampledDpEvent" and event.sampling_probability == 0:
        return "identical"
    return None


#: The library mechanisms whose pairs the degenerate events' are: RR_{0,1} (lambda = 1, delta = 1) is
#: the pair of disjoint laws, k-ary RR with one bucket the pair of identical laws. Specs rather than
#: pairs, so that the library also answers their Poisson subsampling (the add/remove pair
#: (qP + (1-q)Q, Q), here ((q, 1-q), (0, 1))) and their replace-one pair (the same pair again).
_DEGENERATE_SPECS = {"disjoint": "rr:lambda=1,delta=1", "identical": "krr:k=1,lambda=1"}


def _is_pair(what):
    return isinstance(what, PrivacyLoss) or (isinstance(what, tuple) and len(what) == 2 and
                                             all(isinstance(x, dict) for x in what))


def _loss(pair):
    if isinstance(pair, PrivacyLoss):
        return pair
    P, Q = pair
    outcomes = list(P) + [y for y in Q if y not in P]
    return PrivacyLoss.from_masses([(P.get(y, 0), Q.get(y, 0)) for y in outcomes])


def _components(what, times):
    """A flat list of (spec string | PrivacyLoss, times, sampling_rate)."""
    times = _times(times)
    if isinstance(what, str):
        return [(what, times, None)]
    if _is_pair(what):
        return [(_loss(what), times, None)]
    if isinstance(what, list):
        out = []
        for i, item in enumerate(what):
            if not (isinstance(item, tuple) and len(item) == 2):
                raise Error(f"what[{i}]: expected a (what, times) tuple, got {item!r}")
            out += _components(item[0], times * _times(item[1], f"what[{i}] times"))
        return out
    if isinstance(what, dict):
        raise Error("what: a pair is a tuple (P, Q) of two dicts of exact masses")
    return _event_components(what, times)


def _merge(comps):
    """Equal components merged (SelfComposed inside Composed yields repeats), order kept."""
    out = []
    for spec, k, rate in comps:
        for j, (s2, k2, r2) in enumerate(out):
            if isinstance(spec, str) and s2 == spec and r2 == rate:
                out[j] = (s2, k2 + k, r2)
                break
        else:
            out.append((spec, k, rate))
    return out


def _tuples(comps):
    """(spec | PrivacyLoss, times, rate text | mixture text | None) tuples for the library."""
    return [(s, k, r if r is None or isinstance(r, str) else f"{r.numerator}/{r.denominator}") for s, k, r in comps]


def _solve(what, times, delta, epsilon, sampling_rate, relative_width, max_memory, direction="both",
           per_direction=False):
    """The library's answer (accounting/composition_query.hpp: route, refinement, refusals) for the
    components of ``what``; here only the arguments are converted."""
    want_epsilon = delta is not None
    at = _exact(delta if want_epsilon else epsilon, "delta" if want_epsilon else "epsilon")
    width = None if relative_width is None else _exact(relative_width, "relative_width")
    rate = None if sampling_rate is None else _exact(sampling_rate, "sampling_rate")
    out = _composition_of(_tuples(_merge(_components(what, times))), delta=at if want_epsilon else None,
                          epsilon=None if want_epsilon else at, max_memory=max_memory, direction=direction,
                          sampling_rate=rate, relative_width=width, per_direction=per_direction)
    key = "epsilon" if want_epsilon else "delta"
    out[key] = tuple(out[key])
    return out


def renyi_at(what, times=1, alpha=None, sampling_rate=None, direction="both", precision=128):
    """The Renyi divergence of order ``alpha`` > 1 (exact: Fraction, int or string) of ``times`` uses of
    ``what`` (as for :func:`epsilon_at`), certified: ``(lo, hi)``, ``(inf, inf)`` for +inf. Divergences add
    per direction; a Poisson-subsampled Gaussian is certified at every order (a binomial sum at integer
    orders, MTZ19; between them an enclosure from convexity, bounds/subsampled_renyi.hpp), its add
    direction refused; a subsampled Laplace mechanism in the remove direction only; a subsampled pair with
    certified masses (dlaplace by a or epsilon, rr/krr by epsilon, truncated dgauss) in both directions at
    every order (the finite sum over its atoms, amplification/subsampled_loss.hpp). ``direction="replace"``:
    the replace-one pairs (module doc)."""
    if alpha is None:
        raise TypeError("renyi_at: alpha is required")
    from ._core import _composed_renyi
    a = Fraction(_exact(alpha, "alpha"))
    rate = None if sampling_rate is None else _exact(sampling_rate, "sampling_rate")
    return tuple(_composed_renyi(_tuples(_merge(_components(what, times))), f"{a.numerator}/{a.denominator}",
                                 precision=precision, direction=direction, sampling_rate=rate))


def epsilon_at(what, times=1, delta=None, sampling_rate=None, relative_width=None, explain=False,
               max_memory=default_memory_budget, direction="both"):
    """The least epsilon with delta(epsilon) <= ``delta`` for ``times`` uses of ``what``, certified:
    ``(lo, hi)`` Fractions enclosing it (``(inf, inf)`` when no finite epsilon exists).

    ``what``: a SPEC string, a pair, a list of ``(what, times)``, or a dp_accounting DpEvent (see the
    module doc; DpEvent floats are taken at their exact binary values). ``delta`` is exact (Fraction,
    int or a string such as ``"1e-5"``; floats are refused). ``sampling_rate`` Poisson-subsamples
    (add/remove) every component: Gaussian and Laplace mechanisms (closed form for one use, grid bracket
    otherwise), pairs and mechanisms with exact or certified tables. ``relative_width`` asks for hi - lo <= width * hi
    (more working precision, or a finer grid). With ``explain=True`` the planner's record comes back:
    ``{'route', 'reason', 'epsilon': (lo, hi), ...}``. ``direction``: ``"both"`` (default, the max),
    ``"remove"`` H(P||Q), ``"add"`` H(Q||P), or ``"replace"`` (replace-one neighbours; module doc).
    """
    if delta is None:
        raise TypeError("epsilon_at: delta is required")
    replace = explain and direction == "replace"
    out = _solve(what, times, delta, None, sampling_rate, relative_width, max_memory, direction, per_direction=replace)
    if replace:
        _replace_record(out, "epsilon")
    return out if explain else out["epsilon"]


def delta_at(what, times=1, epsilon=None, sampling_rate=None, relative_width=None, explain=False,
             max_memory=default_memory_budget, direction="both"):
    """delta(``epsilon``) = the hockey-stick divergence at e^epsilon for ``times`` uses of ``what``,
    certified: ``(lo, hi)`` Fractions. Arguments as for :func:`epsilon_at`; ``epsilon`` is exact and
    may be negative (delta(epsilon) >= 1 - e^epsilon there)."""
    if epsilon is None:
        raise TypeError("delta_at: epsilon is required")
    replace = explain and direction == "replace"
    out = _solve(what, times, None, epsilon, sampling_rate, relative_width, max_memory, direction, per_direction=replace)
    if replace:
        _replace_record(out, "delta")
    return out if explain else out["delta"]


def _replace_record(out, key):
    """The explain record of a replace-one question, shaped as an entry of ``exactdp compose --direction
    replace --json`` (docs/json-output.md): ``direction`` "replace", ``neighbouring`` "replace-one", and the
    value under ``replace`` (the max), ``remove`` and ``add`` (the replace-one pairs' two divergences,
    which the library's _composition_of(per_direction=True) adds)."""
    out["direction"], out["neighbouring"] = "replace", "replace-one"
    out["replace"] = {key: out[key]}
