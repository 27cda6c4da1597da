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

Routes. Mechanism specs go to the composition planner (accounting/composition_plan.hpp), the code
``exactdp compose`` runs, so the numbers are the ones ``exactdp compose --json`` prints. Where the
planner has no profile (a Poisson-subsampled Gaussian or Laplace mechanism, a Laplace mechanism used
more than once), the certified grid bracket of the audit (``grid_bracket``, docs/audit-subsampling.md)
answers, as ``exactdp compose`` does; ``relative_width`` refines its grid (up to resolution 2048).
Several Gaussians with different sigma and sensitivity compose in closed form (GDP). Pairs, and
mechanisms with exact tables under ``sampling_rate`` (their add/remove subsampled pair,
amplification/poisson.hpp; the base pair must be symmetric), go through the same planner as
``exactdp compose --pair FILE --sampling poisson:q=R``: the composed size is estimated under
``max_memory`` and the route chosen (or the question refused) as for specs.

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

from ._core import Error, PrivacyLoss, PrivacyProfile, parse_mechanism_spec
from ._core import _composition_of, _replace_one_components, default_memory_budget
from ._core import grid_bracket as _grid_bracket
from ._core import limits as _limits

_PRECISIONS = (128, 512, 2048)


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


def _narrow(value, relative_width):
    lo, hi = value
    return relative_width is None or hi == math.inf or hi - lo <= Fraction(relative_width) * hi


def _replace_one(comps, sampling_rate):
    """The replace-one question of (what, times, rate | mixture text | None) components, Poisson-subsampled
    at ``sampling_rate`` on top: each mechanism's replace-one spec, decided and refused (subsampling, pairs,
    mixtures) by the library (accounting/replace_one.hpp), asked in the direction "both" afterwards."""
    if sampling_rate is not None:
        rate = Fraction(_exact(sampling_rate, "sampling_rate"))
        comps = [(s, k, r if isinstance(r, str) else (rate if r is None else r * rate)) for s, k, r in comps]
    tuples = [(s, k, None if r is None else (r if isinstance(r, str) else f"{r.numerator}/{r.denominator}"))
              for s, k, r in comps]
    return _merge(_replace_one_components(tuples))


def _solve(what, times, delta, epsilon, sampling_rate, relative_width, max_memory, direction="both"):
    want_epsilon = delta is not None
    key = "epsilon" if want_epsilon else "delta"
    at = _exact(delta if want_epsilon else epsilon, "delta" if want_epsilon else "epsilon")
    if relative_width is not None:
        _exact(relative_width, "relative_width")
        relative_width = Fraction(relative_width)
        if not 0 < relative_width < 1:
            raise Error(f"relative_width: {relative_width} must lie in (0, 1)")
    comps = _merge(_components(what, times))
    if direction == "replace":
        comps, sampling_rate, direction = _replace_one(comps, sampling_rate), None, "both"
    mixtures = [c for c in comps if isinstance(c[2], str)]
    if mixtures:
        # a Gaussian mixture with several sensitivities: one use has a certified closed form
        # (bounds/gaussian_mixture.hpp); compositions of it (with each other, Gaussian and Laplace
        # mechanisms) the planner's grid bracket
        if sampling_rate is not None:
            raise Error("MixtureOfGaussiansDpEvent: a Gaussian mixture with several non-zero sensitivities cannot be "
                        "Poisson-sampled again")
        if len(comps) == 1 and comps[0][1] == 1:
            return _planned(comps, want_epsilon, at, relative_width, max_memory, direction)
        return _grid_planned(comps, want_epsilon, at, relative_width, max_memory, direction)
    if sampling_rate is not None:
        rate = Fraction(_exact(sampling_rate, "sampling_rate"))
        comps = [(s, k, rate if r is None else r * rate) for s, k, r in comps]
    comps = [(s, k, None if r == 1 else r) for s, k, r in comps]

    def gauss(s):  # the continuous mechanisms, whose subsampling only a grid bracket answers (not the
        # degenerate ones, sigma = 0, b = 0 or sensitivity 0: exact pairs, which the planner subsamples)
        return (isinstance(s, str) and (s.startswith("gauss:") or s.startswith("laplace:"))
                and parse_mechanism_spec(s).exact_loss() is None)
    if any(isinstance(s, PrivacyLoss) or (r is not None and not gauss(s)) for s, _, r in comps):
        # pairs, and mechanisms with exact tables Poisson-subsampled, go through the planner as
        # `exactdp compose --pair FILE --sampling poisson:q=R` does (estimated under max_memory)
        if any(r is not None and gauss(s) for s, _, r in comps):
            raise Error("sampling_rate: a Poisson-subsampled Gaussian or Laplace mechanism is answered by a grid bracket alone, "
                        "not composed with pairs or other mechanisms")
        components = [(s, k, None if r is None else f"{r.numerator}/{r.denominator}") for s, k, r in comps]
        for p in _PRECISIONS:
            out = _composition_of(components, delta=at if want_epsilon else None,
                                  epsilon=None if want_epsilon else at, precision=p, max_memory=max_memory,
                                  direction=direction)
            out[key] = tuple(out[key])
            if _narrow(out[key], relative_width):
                return out
        raise Error(f"relative_width: the planner's route ({out['route']}) gives {out[key]}, wider than {relative_width}")

    sampled = [c for c in comps if c[2] is not None]
    if sampled:
        if len(comps) != 1:
            raise Error("sampling_rate: Poisson subsampling is supported for one component (a Gaussian or Laplace mechanism) only")
        spec, k, rate = comps[0]
        # one use: the planner's closed forms (a Gaussian as the mixture {(0, 1-q), (sensitivity, q)},
        # bounds/gaussian_mixture.hpp; a Laplace mechanism by bounds/subsampled_laplace.hpp)
        if k == 1 and (spec.startswith("gauss:") or spec.startswith("laplace:")):
            return _planned([(spec, 1, f"{rate.numerator}/{rate.denominator}")], want_epsilon, at, relative_width,
                            max_memory, direction)
        return _grid(spec, k, delta, epsilon, rate, relative_width, direction)

    specs, counts = [s for s, _, _ in comps], [k for _, k, _ in comps]
    for p in _PRECISIONS:
        try:
            out = _composition_of([(s, k, None) for s, k in zip(specs, counts)], delta=at if want_epsilon else None,
                                  epsilon=None if want_epsilon else at, precision=p, max_memory=max_memory,
                                  direction=direction)
        except Error as e:
            # no planner profile: a single laplace used several times has the audit's grid bracket
            if len(comps) == 1 and "no exact or certified profile" in str(e) and specs[0].startswith("laplace:"):
                return _grid(specs[0], counts[0], delta, epsilon, None, relative_width, direction)
            if "no exact or certified profile" in str(e) and all(gauss(s) for s in specs):
                # heterogeneous Gaussian and Laplace mechanisms: the planner's grid bracket of the composition
                return _composition_of([(s, k, None) for s, k in zip(specs, counts)], delta=at if want_epsilon else None,
                                       epsilon=None if want_epsilon else at, precision=p, max_memory=max_memory,
                                       direction=direction, grid=True)
            raise
        out[key] = tuple(out[key])
        if _narrow(out[key], relative_width):
            return out
    raise Error(f"relative_width: the planner's route ({out['route']}) gives {out[key]}, wider than {relative_width}")


def _planned(components, want_epsilon, at, relative_width, max_memory, direction):
    """The planner's answer for (spec, times, rate text | mixture text) components, at rising precision
    until ``relative_width`` is met."""
    key = "epsilon" if want_epsilon else "delta"
    for p in _PRECISIONS:
        out = _composition_of(components, delta=at if want_epsilon else None, epsilon=None if want_epsilon else at,
                              precision=p, max_memory=max_memory, direction=direction)
        out[key] = tuple(out[key])
        if _narrow(out[key], relative_width):
            return out
    raise Error(f"relative_width: the planner's route ({out['route']}) gives {out[key]}, wider than {relative_width}")


def _grid_planned(components, want_epsilon, at, relative_width, max_memory, direction):
    """The planner's grid bracket for (spec, times, rate | mixture text) components at resolutions 32, 64,
    ... (by fourfold steps while far from the width asked) up to _MAX_PLANNED_GRID_RESOLUTION,
    intersected (each encloses the true value, so their intersection does), until ``relative_width``
    is met or the finest grid."""
    key = "epsilon" if want_epsilon else "delta"
    resolution, value, out = 32, None, None
    while True:
        out = _composition_of(components, delta=at if want_epsilon else None, epsilon=None if want_epsilon else at,
                              max_memory=max_memory, direction=direction, grid=True, grid_resolution=resolution)
        lo, hi = out[key]
        value = (lo, hi) if value is None else (max(value[0], lo), min(value[1], hi))
        if _narrow(value, relative_width) or relative_width is None or resolution >= _MAX_PLANNED_GRID_RESOLUTION:
            break
        # the width falls about fourfold per doubling (second order in the step): far from the
        # target, skip a resolution (the time grows about linearly in it)
        far = value[1] != math.inf and value[1] - value[0] > 64 * Fraction(relative_width) * value[1]
        resolution = min(resolution * (4 if far else 2), _MAX_PLANNED_GRID_RESOLUTION)
    out[key] = value
    out["resolution"] = resolution
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
    comps = _merge(_components(what, times))
    if direction == "replace":
        comps, sampling_rate, direction = _replace_one(comps, sampling_rate), None, "both"
    if sampling_rate is not None:
        rate = Fraction(_exact(sampling_rate, "sampling_rate"))
        if any(isinstance(r, str) for _, _, r in comps):
            raise Error("sampling_rate: a Gaussian mixture cannot be Poisson-sampled again")
        comps = [(s, k, rate if r is None else r * rate) for s, k, r in comps]
    components = [(s, k, None if r is None or r == 1 else (r if isinstance(r, str) else f"{r.numerator}/{r.denominator}"))
                  for s, k, r in comps]
    return tuple(_composed_renyi(components, f"{a.numerator}/{a.denominator}", precision=precision, direction=direction))


#: The finest grid epsilon_at / delta_at refine to when asked for a relative width.
_MAX_GRID_RESOLUTION = 2048
#: ... and on the planner's grid route (compositions of Gaussian mixtures, Gaussian and Laplace
#: mechanisms), whose laws may grow with the resolution (ComposedPrivacy::grid_options).
_MAX_PLANNED_GRID_RESOLUTION = _limits.max_grid_resolution


def _grid(spec, k, delta, epsilon, rate, relative_width, direction="both"):
    r = None if rate is None else str(rate)
    if delta is not None:
        b = _grid_bracket(spec, str(k), _exact(delta, "delta"), None, r, 8,
                          None if relative_width is None else str(relative_width), _MAX_GRID_RESOLUTION,
                          direction=direction)
        value = tuple(b["value"])
    else:
        # delta brackets: resolutions 8, 16, ... intersected (each encloses the true delta, so their
        # intersection does) until hi - lo <= relative_width * hi or the finest grid
        at = _exact(epsilon, "epsilon")
        resolution, value = 8, None
        while True:
            b = _grid_bracket(spec, str(k), None, at, r, resolution, direction=direction)
            lo, hi = b["value"]
            value = (lo, hi) if value is None else (max(value[0], lo), min(value[1], hi))
            if _narrow(value, relative_width) or relative_width is None or resolution >= _MAX_GRID_RESOLUTION:
                break
            resolution *= 2
    key = "epsilon" if delta is not None else "delta"
    return {"route": "grid_bracket", "reason": "certified grid bracket (docs/audit-subsampling.md)",
            key: value, "resolution": b["resolution"]}


def epsilon_at(what, times=1, delta=None, sampling_rate=None, relative_width=None, explain=False,
               max_memory=default_memory_budget, direction="both"):
    """The least epsilon with delta(epsilon) <= ``delta`` for ``times`` uses of ``what``, certified:
    ``(lo, hi)`` Fractions enclosing it (``(inf, inf)`` when no finite epsilon exists).

    ``what``: a SPEC string, a pair, a list of ``(what, times)``, or a dp_accounting DpEvent (see the
    module doc; DpEvent floats are taken at their exact binary values). ``delta`` is exact (Fraction,
    int or a string such as ``"1e-5"``; floats are refused). ``sampling_rate`` Poisson-subsamples
    (add/remove) every component: one Gaussian or Laplace mechanism (grid bracket), or pairs and mechanisms with exact tables. ``relative_width`` asks for hi - lo <= width * hi
    (more working precision, or a finer grid). With ``explain=True`` the planner's record comes back:
    ``{'route', 'reason', 'epsilon': (lo, hi), ...}``. ``direction``: ``"both"`` (default, the max),
    ``"remove"`` H(P||Q), ``"add"`` H(Q||P), or ``"replace"`` (replace-one neighbours; module doc).
    """
    if delta is None:
        raise TypeError("epsilon_at: delta is required")
    out = _solve(what, times, delta, None, sampling_rate, relative_width, max_memory, direction)
    return out if explain else out["epsilon"]


def delta_at(what, times=1, epsilon=None, sampling_rate=None, relative_width=None, explain=False,
             max_memory=default_memory_budget, direction="both"):
    """delta(``epsilon``) = the hockey-stick divergence at e^epsilon for ``times`` uses of ``what``,
    certified: ``(lo, hi)`` Fractions. Arguments as for :func:`epsilon_at`; ``epsilon`` is exact and
    may be negative (delta(epsilon) >= 1 - e^epsilon there)."""
    if epsilon is None:
        raise TypeError("delta_at: epsilon is required")
    out = _solve(what, times, None, epsilon, sampling_rate, relative_width, max_memory, direction)
    return out if explain else out["delta"]
