"""Exact noise on the integers, and latent noise that stays unbounded.

Everything here is exact: probabilities are ``fractions.Fraction``, computed in closed form by the
C++ library (``src/exactdp/noise/``), never by truncating an infinite support. Parameters are
``Fraction``, ``int`` or exact strings (``"0.1"`` is 1/10); a Python ``float`` is refused with
``TypeError``, and an invalid parameter raises ``exactdp.Error`` naming it.

Noise laws (``dlap``, ``geometric``, ``bernoulli``, ``uniform``, ``binomial``, ``point``,
``from_table``) have ``pmf(k)``, ``cdf(k) = Pr[Z <= k]`` and ``sf(k) = Pr[Z > k]``, so
``cdf(k) + sf(k) == 1``. Unbounded noise becomes a finite table in two ways, both by name:

* ``clamped(lo, hi)`` moves the mass beyond each end onto it: the law of ``clamp(Z, lo, hi)``.
  Clamping a *released* value is post-processing and keeps its privacy (THEOREMS.md B.14).
* ``truncated(lo, hi)`` conditions on ``lo <= Z <= hi`` and renormalises. It is not
  post-processing: with a fixed window the normalising constants of neighbouring inputs differ
  and a pure-DP mechanism can stop being pure-DP.

>>> from fractions import Fraction as F
>>> from exactdp import noise
>>> z = noise.dlap(F(1, 2))
>>> z.pmf(0), z.cdf(0), z.sf(0)
(Fraction(1, 3), Fraction(2, 3), Fraction(1, 3))
>>> z.clamped(-1, 1)
{-1: Fraction(1, 3), 0: Fraction(1, 3), 1: Fraction(1, 3)}
>>> z.truncated(-1, 1)
{-1: Fraction(1, 4), 0: Fraction(1, 2), 1: Fraction(1, 4)}

Noise that enters a *comparison* must not be clamped at all (B.14): ``latent_threshold`` carries the
exact posterior of an unbounded threshold noise as a hashable, canonical value, so that a step
function can keep it in its state. AboveThreshold with threshold noise DLap(1/4) and query noise
DLap(1/2), for a query of value ``q`` against the threshold ``t`` (margin ``t - q``):

>>> prior = noise.latent_threshold(F(1, 4))
>>> out = prior.compare(0, F(1, 2))        # q + nu > t + tau ?
>>> out["above"][0], out["below"][0]
(Fraction(13, 35), Fraction(22, 35))
>>> out["below"][1]
LatentThreshold('DLap(1/4)|below(0;1/2)')
>>> def step(state, margin):               # {(answer, next_state): probability}
...     return {(answer, nxt): p for answer, (p, nxt) in state.compare(margin, F(1, 2)).items()}
>>> sorted(a for a, _ in step(prior, 0))
['above', 'below']
>>> import exactdp
>>> exactdp.canonical_name(("count", out["below"][1]))    # a state component, canonically named
"('count', DLap(1/4)|below(0;1/2))"

**A parameter.** ``dlap``, ``latent_threshold`` and ``probability_of`` also take an expression in a
parameter (``exactdp.symbol``, inside (0, 1) for every value of its range): the probabilities are
then ``exactdp.Expression``s, exact rational functions computed by the same closed forms (the C++
templates over the parametric field policy), so that at a rational r they are the numbers the
numeric call with r returns. The other primitives refuse a symbol with ``exactdp.Error`` naming
the argument.

>>> import exactdp
>>> r = exactdp.symbol("r")
>>> noise.dlap(r).pmf(1)
exactdp.Expression('(r-r^2)/(1+r)', r in (0, 1))
"""
import functools
from fractions import Fraction

from . import _core
from ._core import Error
from .parametric import Expression

__all__ = ["Noise", "dlap", "geometric", "bernoulli", "uniform", "binomial", "point", "from_table",
           "RandomizedResponse", "rr", "KaryRandomizedResponse", "krr",
           "LatentThreshold", "latent_threshold", "probability_of", "report_noisy_max", "ParametricDlap", "ParametricLatentThreshold"]


class Noise:
    """An exact probability law on the integers (a value of ``dlap``, ``geometric``, … or a shift or
    sum of them). Methods return ``Fraction``; tables are ``{int: Fraction}``.

    >>> from exactdp import noise
    >>> g = noise.geometric("1/3")                   # Pr[Z = k] = (2/3)(1/3)^k, k >= 0
    >>> g.pmf(2), g.cdf(1), g.min, g.max
    (Fraction(2, 27), Fraction(8, 9), 0, None)
    >>> (noise.bernoulli("1/2") + noise.bernoulli("1/2")).table()
    {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    >>> (noise.dlap("1/2") + 3).pmf(3)
    Fraction(1, 3)
    """

    __slots__ = ("_z",)

    def __init__(self, core):
        self._z = core

    def pmf(self, k):
        """Pr[Z = k]."""
        return self._z.pmf(k)

    def cdf(self, k):
        """Pr[Z <= k]."""
        return self._z.cdf(k)

    def sf(self, k):
        """Pr[Z > k] (strict), so ``cdf(k) + sf(k) == 1``."""
        return self._z.sf(k)

    def probability(self, lo=None, hi=None):
        """Pr[lo <= Z <= hi]; ``None`` is an infinite end."""
        return self._z.probability(lo, hi)

    @property
    def min(self):
        """The least value of positive mass, or ``None`` when the support is unbounded below."""
        return self._z.min

    @property
    def max(self):
        """The largest value of positive mass, or ``None`` when the support is unbounded above."""
        return self._z.max

    @property
    def is_finite(self):
        return self.min is not None and self.max is not None

    @property
    def name(self):
        """A readable name such as ``'DLap(1/2) + 3'``."""
        return self._z.name

    def support(self):
        """The support as a sorted list (finite noise only; ``exactdp.Error`` otherwise)."""
        return self._z.support()

    def table(self):
        """``{value: probability}`` of a finite noise (``exactdp.Error`` when the support is infinite)."""
        return self._z.table()

    def clamped(self, lo, hi):
        """The law of ``clamp(Z, lo, hi)`` as ``{value: Fraction}``: ``Pr[lo] = cdf(lo)``,
        ``Pr[hi] = sf(hi - 1)``, the pmf in between. Post-processing of Z (THEOREMS.md B.14).

        >>> from exactdp import noise
        >>> noise.dlap("1/2").clamped(0, 2)
        {0: Fraction(2, 3), 1: Fraction(1, 6), 2: Fraction(1, 6)}
        """
        return self._z.clamped(lo, hi)

    def truncated(self, lo, hi):
        """The law of Z given ``lo <= Z <= hi``, renormalised, as ``{value: Fraction}``. NOT
        post-processing: it changes the privacy of a mechanism that uses it (THEOREMS.md B.14).

        >>> from exactdp import noise
        >>> noise.dlap("1/2").truncated(0, 2)            # (1, 1/2, 1/4) / (7/4)
        {0: Fraction(4, 7), 1: Fraction(2, 7), 2: Fraction(1, 7)}
        """
        return self._z.truncated(lo, hi)

    def shifted(self, v):
        """The law of Z + v (also ``noise + v``)."""
        return Noise(self._z.shifted(v))

    def __add__(self, other):
        """``noise + v`` shifts by an int; ``noise + other_noise`` is the law of the sum of independent
        draws (closed form when one of them is finite; ``exactdp.Error`` otherwise)."""
        if isinstance(other, Noise):
            return Noise(self._z.plus(other._z))
        if isinstance(other, int) and not isinstance(other, bool):
            return self.shifted(other)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, int) and not isinstance(other, bool):
            return self.shifted(-other)
        if isinstance(other, Noise):
            return self + (-other)
        return NotImplemented

    def __neg__(self):
        return Noise(self._z.negated())

    def __eq__(self, other):
        if not isinstance(other, Noise):
            return NotImplemented
        return self._z == other._z

    __hash__ = None

    def __repr__(self):
        return f"<Noise {self.name}>"


_PARAMETRIC = "noise.dlap, noise.latent_threshold and noise.probability_of"


def _refuse_symbol(function, **arguments):
    """An exactdp.Error naming the first argument that is an expression in a parameter."""
    for k, v in arguments.items():
        if isinstance(v, Expression):
            raise Error(f'exactdp.noise.{function}: field "{k}": value "{v}": a parameter (exactdp.symbol) is not supported here '
                        f"(this version); the noise primitives that take one: {_PARAMETRIC}")


class ParametricDlap:
    """DLap(r) for an expression r in a parameter: ``pmf``, ``cdf``, ``sf``, ``probability`` and
    ``clamped`` return ``exactdp.Expression``s (the closed forms of THEOREMS.md D.3, B.14)."""

    __slots__ = ("_r",)

    def __init__(self, r):
        self._r = r
        self._call("pmf", 0, None)  # validates: r in (0, 1) for every value of the range

    def _call(self, what, a, b):
        return _core._parametric_dlap(self._r.text, self._r.parameter._tuple(), what, a, b)

    def _expr(self, text):
        return Expression(text, self._r.parameter)

    @property
    def r(self):
        return self._r

    def pmf(self, k):
        return self._expr(self._call("pmf", k, None))

    def cdf(self, k):
        return self._expr(self._call("cdf", k, None))

    def sf(self, k):
        return self._expr(self._call("sf", k, None))

    def probability(self, lo=None, hi=None):
        """Pr[lo <= Z <= hi]; ``None`` is an infinite end."""
        return self._expr(self._call("probability", lo, hi))

    def clamped(self, lo, hi):
        """The law of clamp(Z, lo, hi) as ``{int: Expression}``."""
        return {k: self._expr(v) for k, v in self._call("clamped", lo, hi).items()}

    def at(self, value):
        """The numeric law ``dlap(r(value))``."""
        return dlap(self._r.at(value))

    def __repr__(self):
        return f"<Noise DLap({self._r.text}), {self._r.parameter.name} in {self._r.parameter}>"


def dlap(r):
    """The discrete Laplace law DLap(r), ``Pr[Z = k] = (1-r)/(1+r) * r**abs(k)`` for every integer k
    (THEOREMS.md D.3); ``r = e^-epsilon`` in (0, 1). ``v + dlap(r)`` is ``ln(1/r)``-DP for
    sensitivity 1.

    >>> from exactdp import noise
    >>> noise.dlap("1/2").sf(1)                      # Pr[Z >= 2] = r^2/(1+r)
    Fraction(1, 6)
    """
    if isinstance(r, Expression):
        return ParametricDlap(r)
    return Noise(_core._Noise.dlap(r))


def geometric(r):
    """The one-sided geometric law on {0, 1, 2, ...}: ``Pr[Z = k] = (1-r) * r**k`` — the number of
    failures before the first success with success probability ``1 - r``. ``dlap(r)`` is the
    difference of two independent ``geometric(r)``; r in (0, 1)."""
    _refuse_symbol("geometric", r=r)
    return Noise(_core._Noise.geometric(r))


def bernoulli(p):
    """Bernoulli(p) on {0, 1}: ``Pr[Z = 1] = p``, p in [0, 1]."""
    _refuse_symbol("bernoulli", p=p)
    return Noise(_core._Noise.bernoulli(p))


def uniform(a, b):
    """The uniform law on the integers ``a, a+1, ..., b`` (a <= b)."""
    _refuse_symbol("uniform", a=a, b=b)
    return Noise(_core._Noise.uniform(a, b))


def binomial(n, p):
    """Binomial(n, p) on {0, ..., n} (0 <= n <= 10000, p in [0, 1]).

    >>> from exactdp import noise
    >>> noise.binomial(4, "1/3").pmf(2)              # C(4,2) (1/3)^2 (2/3)^2
    Fraction(8, 27)
    """
    _refuse_symbol("binomial", n=n, p=p)
    return Noise(_core._Noise.binomial(n, p))


def point(v):
    """The point mass at the integer v."""
    _refuse_symbol("point", v=v)
    return Noise(_core._Noise.point(v))


def from_table(masses, name=""):
    """A finite law from ``{int: probability}`` (masses >= 0 summing to exactly 1)."""
    return Noise(_core._Noise.from_table(dict(masses), name))


class RandomizedResponse:
    """Randomized response RR_{lam, delta} on a secret bit b (THEOREMS.md A.2, D.1): with probability
    delta the answer is the leak ``"leak0"``/``"leak1"`` of b; otherwise ``0``/``1``, equal to b with
    probability ``p = lam/(1+lam)``. Answers are the ints 0, 1 and the strings of the leaks.

    >>> from exactdp import noise
    >>> noise.rr(3).given(0)
    {0: Fraction(3, 4), 1: Fraction(1, 4)}
    >>> noise.rr(p="3/4", delta="1/10").given(1)
    {0: Fraction(9, 40), 1: Fraction(27, 40), 'leak1': Fraction(1, 10)}
    """

    __slots__ = ("_rr",)

    def __init__(self, core):
        self._rr = core

    def given(self, b):
        """``{answer: probability}`` given the secret bit b (0 or 1)."""
        return self._rr.given(b)

    def pmf(self, answer, b):
        """Pr[answer | b]."""
        return self._rr.pmf(answer, b)

    @property
    def lam(self):
        return self._rr.lam

    @property
    def delta(self):
        return self._rr.delta

    @property
    def p(self):
        """The truth probability lam/(1+lam) (given no leak)."""
        return self._rr.p

    def __repr__(self):
        return f"rr(lam={self.lam!r}, delta={self.delta!r})"


def rr(lam=None, delta=0, *, p=None):
    """Randomized response, by ``lam = e^epsilon >= 1`` (the library's convention) or by the truth
    probability ``p = lam/(1+lam)`` in [1/2, 1); ``delta`` in [0, 1] is the leak probability."""
    _refuse_symbol("rr", lam=lam, delta=delta, p=p)
    return RandomizedResponse(_core._RandomizedResponse.make(lam, p, delta))


class KaryRandomizedResponse:
    """k-ary randomized response (THEOREMS.md A.2): input v in {0, ..., k-1}; answer v with
    probability lam/(lam+k-1), each other value with probability 1/(lam+k-1).

    >>> from exactdp import noise
    >>> noise.krr(3, 2).given(0)
    {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}
    """

    __slots__ = ("_rr",)

    def __init__(self, core):
        self._rr = core

    def given(self, v):
        return self._rr.given(v)

    def pmf(self, answer, v):
        return self._rr.pmf(answer, v)

    @property
    def k(self):
        return self._rr.k

    @property
    def lam(self):
        return self._rr.lam


def krr(k, lam):
    """k-ary randomized response with alphabet size k (2 .. 100000) and lam = e^epsilon >= 1."""
    _refuse_symbol("krr", k=k, lam=lam)
    return KaryRandomizedResponse(_core._KaryRandomizedResponse.make(k, lam))


def _wrap(core):
    t = LatentThreshold.__new__(LatentThreshold)
    t._t = core
    return t


@functools.total_ordering
class LatentThreshold:
    """The exact posterior of a latent threshold noise tau ~ DLap(r_threshold), given the outcomes of
    comparisons with fresh noisy values (THEOREMS.md B.13, D.5). A hashable, totally ordered value
    with a canonical printed form, equal to another iff the two posteriors are equal (for comparisons
    with one query-noise scale; see docs/noise.md), so it can be (part of) a mechanism state.

    A comparison with margin ``A = threshold - value`` and query noise ``nu ~ DLap(r_query)``
    (``r_query = 0``: no query noise) is "above" iff ``value + nu > threshold + tau``, i.e.
    ``nu - tau > A``. For ``>=`` use the margin ``A - 1``.

    >>> from exactdp import noise
    >>> t = noise.latent_threshold("1/4")
    >>> below = t.compare(0, "1/2")["below"][1]
    >>> below.compare(0, "1/2")["above"][0]          # Pr[stop at 2 | not at 1] = (62/315)/(22/35)
    Fraction(31, 99)
    >>> below == t.compare(0, "1/2")["below"][1], hash(below) == hash(t.compare(0, "1/2")["below"][1])
    (True, True)
    >>> str(t.compare(3, 0)["above"][1])             # no query noise: tau <= -4 exactly
    'DLap(1/4)|tau<=-4'
    """

    __slots__ = ("_t",)

    def __init__(self, r_threshold):
        _refuse_symbol("LatentThreshold", r_threshold=r_threshold)
        self._t = _core._LatentThreshold.prior(r_threshold)

    def compare(self, margin, r_query):
        """Compares a fresh noisy value with the threshold. Returns ``{"below": (p, next),
        "above": (p, next)}`` — the outcomes of positive probability, their exact conditional
        probabilities (summing to 1) and the canonical posteriors after them."""
        _refuse_symbol("LatentThreshold.compare", r_query=r_query)
        return {o: (p, _wrap(n)) for o, p, n in self._t.compare(margin, r_query)}

    def compare_values(self, value, threshold, r_query, *, inclusive=False):
        """``compare`` written with the values: "above" iff ``value + nu > threshold + tau`` (or
        ``>=`` with ``inclusive=True``)."""
        return self.compare(threshold - value - (1 if inclusive else 0), r_query)

    def probability_above(self, margin, r_query):
        """Pr["above" | the observations so far] for ``compare(margin, r_query)``."""
        return self._t.probability_above(margin, r_query)

    def probability_between(self, lower=None, upper=None):
        """Pr[lower <= tau <= upper | the observations so far]; ``None`` is an infinite end."""
        return self._t.probability_between(lower, upper)

    def conditioned(self, lower=None, upper=None):
        """The posterior after also observing lower <= tau <= upper (e.g. a reported noisy value
        ``y = value + nu`` after "above" bounds ``tau <= y - threshold - 1``; its likelihood is
        ``dlap(r_query).pmf(y - value)`` times ``probability_between``)."""
        return _wrap(self._t.conditioned(lower, upper))

    def pmf(self, j):
        """Pr[tau = j | the observations so far]."""
        return self._t.pmf(j)

    def cdf(self, j):
        """Pr[tau <= j | the observations so far]."""
        return self._t.cdf(j)

    def _description(self):
        return self._t.describe()

    @property
    def r_threshold(self):
        return self._description()[0]

    @property
    def comparisons(self):
        """The canonical comparisons as ``(outcome, margin, r_query)`` tuples, sorted."""
        return self._description()[1]

    @property
    def lower(self):
        """The least possible tau, or ``None``."""
        return self._description()[2]

    @property
    def upper(self):
        """The largest possible tau, or ``None``."""
        return self._description()[3]

    @property
    def masses(self):
        """The normalised posterior masses on [lower, upper] when it is tabulated, else ``()``."""
        return self._description()[4]

    def __eq__(self, other):
        if not isinstance(other, LatentThreshold):
            return NotImplemented
        return self._t == other._t

    def __lt__(self, other):
        if not isinstance(other, LatentThreshold):
            return NotImplemented
        return self._t < other._t

    def __hash__(self):
        return hash(self._t)

    def __str__(self):
        return str(self._t)

    def __exactdp_name__(self):
        """The canonical name used by ``exactdp.Mechanism.from_step`` (and ``exactdp.canonical_name``):
        the canonical printed form, e.g. ``'DLap(1/4)|below(0;1/2)'``."""
        return str(self._t)

    def __repr__(self):
        return f"LatentThreshold('{self._t}')"

    def __reduce__(self):
        return (_from_description, (self._description(),))


def _from_description(description):
    return _wrap(_core._LatentThreshold.from_description(description))


class ParametricLatentThreshold:
    """``LatentThreshold`` with r_threshold an expression in a parameter: ``compare`` gives
    ``exactdp.Expression`` probabilities and the next posteriors (hashable, canonically named, so
    they can be mechanism states); ``r_query`` is a number or an expression in the same parameter."""

    __slots__ = ("_t", "_parameter")

    def __init__(self, core, parameter):
        self._t, self._parameter = core, parameter

    def _query(self, r_query):
        if isinstance(r_query, Expression):
            return r_query.text
        if isinstance(r_query, (bool, float)):
            raise TypeError("r_query: pass a Fraction, an int, an exact string or an expression, not a float")
        return str(Fraction(r_query))

    def compare(self, margin, r_query):
        """``{"below": (p, next), "above": (p, next)}`` with p an ``exactdp.Expression``."""
        return {o: (Expression(p, self._parameter), ParametricLatentThreshold(n, self._parameter))
                for o, p, n in self._t.compare(int(margin), self._query(r_query))}

    def compare_values(self, value, threshold, r_query, *, inclusive=False):
        return self.compare(threshold - value - (1 if inclusive else 0), r_query)

    def probability_above(self, margin, r_query):
        return Expression(self._t.probability_above(int(margin), self._query(r_query)), self._parameter)

    def pmf(self, j):
        return Expression(self._t.pmf(int(j)), self._parameter)

    def cdf(self, j):
        return Expression(self._t.cdf(int(j)), self._parameter)

    def __eq__(self, other):
        if not isinstance(other, ParametricLatentThreshold):
            return NotImplemented
        return self._parameter == other._parameter and self._t == other._t

    def __hash__(self):
        return hash(self._t)

    def __str__(self):
        return str(self._t)

    def __exactdp_name__(self):
        """The canonical name (``exactdp.canonical_name``): the canonical printed form."""
        return str(self._t)

    def __repr__(self):
        return f"ParametricLatentThreshold('{self._t}')"


def latent_threshold(r_threshold):
    """The prior tau ~ DLap(r_threshold) of a latent threshold, nothing observed (see ``LatentThreshold``);
    with r_threshold an expression in a parameter, a ``ParametricLatentThreshold``."""
    if isinstance(r_threshold, Expression):
        return ParametricLatentThreshold(_core._ParametricLatentThreshold.prior(r_threshold.text, r_threshold.parameter._tuple()),
                                         r_threshold.parameter)
    return LatentThreshold(r_threshold)


def probability_of(r_threshold, comparisons):
    """The probability under the prior tau ~ DLap(r_threshold) that every comparison
    ``(outcome, margin, r_query)`` has its outcome, with independent fresh query noises — the exact
    sum of THEOREMS.md B.13. AboveThreshold's Pr[no stop] after margins 0, 0 (E.10 H12):

    >>> from exactdp import noise
    >>> noise.probability_of("1/4", [("below", 0, "1/2"), ("below", 0, "1/2")])
    Fraction(136, 315)
    """
    comparisons = [tuple(c) for c in comparisons]
    if isinstance(r_threshold, Expression):
        par = r_threshold.parameter
        texts = []
        for c in comparisons:
            if len(c) != 3:
                raise ValueError("comparisons: each entry is (outcome, margin, r_query)")
            q = c[2]
            if isinstance(q, Expression) and q.parameter != par:
                raise Error(f'exactdp.noise.probability_of: field "r_query": value "{q}": not in the parameter of r_threshold ({par.name} in {par})')
            texts.append((str(c[0]), int(c[1]), q.text if isinstance(q, Expression) else str(Fraction(q))))
        return Expression(_core._parametric_probability_of(r_threshold.text, par._tuple(), texts), par)
    for c in comparisons:
        _refuse_symbol("probability_of", r_query=c[2] if len(c) == 3 else None)
    return _core._latent_probability_of(r_threshold, comparisons)


def report_noisy_max(values, noise, ties="lowest_index"):
    """The exact law of the index ``argmax_i (values[i] + Z_i)``, Z_i independent, as a list of
    Fractions. ``noise`` is one ``Noise`` for all or a list with one per value (unbounded noise is
    summed in closed form, never clamped). ``ties``: ``"lowest_index"`` (the smallest maximiser
    wins) or ``"uniform"``.

    >>> from exactdp import noise
    >>> noise.report_noisy_max([0, 0], noise.dlap("1/2"))
    [Fraction(16, 27), Fraction(11, 27)]
    >>> noise.report_noisy_max([0, 0], noise.dlap("1/2"), ties="uniform")
    [Fraction(1, 2), Fraction(1, 2)]
    """
    values = list(values)
    noises = list(noise) if not isinstance(noise, Noise) else [noise] * len(values)
    for z in noises:
        if not isinstance(z, Noise):
            raise TypeError(f"noise: expected exactdp.noise.Noise values, got {type(z).__name__}")
    return _core._report_noisy_max(values, [z._z for z in noises], ties)
