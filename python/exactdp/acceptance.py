"""exactdp.acceptance: dp-accounting's own unit tests, asked of exactdp's public API.

dp-accounting ships its unit tests in its wheel (``dp_accounting/**/*_test.py``). This module reads
them from the installed package -- nothing is copied -- and turns every accountant question they ask
into a case for ``exactdp.epsilon_at`` / ``exactdp.delta_at``:

1. ``ast.parse`` the test file; every ``test*`` method of a test class is a test.
2. Its ``@parameterized.parameters`` / ``named_parameters`` / ``product`` arguments are evaluated in
   the test module's own namespace (the module is imported for its imports and helpers only).
3. The method's body (its syntax tree, decorators removed) is compiled and run once per parameter
   set against *recording stand-ins*: the accountant records ``compose(event, count)``,
   ``get_delta(epsilon)`` / ``get_epsilon(delta)`` return a record of the question (so do
   ``pld.accountant.get_smallest_*_noise``, answered by ``exactdp.calibrate``), and
   ``self.assertAlmostEqual(question, expected, delta=tol)`` records the case. Nothing of
   dp-accounting's own arithmetic runs.
4. Each case is answered by exactdp (certified ``(lo, hi)``) and judged: ``agrees`` when every
   value of the enclosure is within the test's tolerance of the expected number, ``disagrees`` when
   none is (the enclosure contains the truth; the CI test shows exactdp right by an independent
   computation), ``too-wide`` when the enclosure straddles the tolerance band, and
   ``unanswered`` with the reason otherwise (``judge``: ``agrees``, ``disagrees``, ``too-wide``).

The other test files of the wheel, and why none of their numbers is asked, are in :data:`NOT_READ`.

Run ``python -m exactdp.acceptance [--fast] [--json]``; ``python/tests/test_dp_accounting_suite.py``
runs the fast subset in CI. The table of reasons is in docs/acceptance.md.

Cases that need features not yet built are switched off through :data:`PENDING` (one table, keyed
by what the case needs). Directions (add / remove) and epsilon < 0 are asked: a privacy-loss
mechanism's ``adjacency_type`` becomes ``direction=`` (:func:`direction`).
"""
import ast
import importlib
import itertools
import json
import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction

from ._core import replace_one_subsampling_reason as _replace_one_subsampling_reason

#: Cases that need a feature of issue 20 being built elsewhere: key -> reason printed.
#: Remove an entry when the feature lands (the mapping below already knows how to ask).
PENDING = {}

#: Why a replace-one question is refused by design: the library's reason (src/exactdp/accounting/
#: replace_one.hpp), which its refusals carry (docs/acceptance.md).
REPLACE_REFUSED = _replace_one_subsampling_reason()

#: The fast subset run in CI (a few seconds): test methods by name.
FAST = {
    "test_gaussian_basic", "test_laplace_basic", "test_discrete_laplace_basic",
    "test_additive_noise_mechanisms_with_zero_noise_multiplier", "test_poisson_subsampling_with_zero_probability",
    "test_randomized_response", "test_randomized_response_with_single_bucket",
    "test_randomized_response_with_zero_noise_parameter",
    "test_laplace_get_delta_for_epsilon", "test_discrete_laplace_get_delta_for_epsilon",
    "test_gaussian_get_delta_for_epsilon", "test_get_delta_for_epsilon",
    "test_discrete_gaussian_get_delta_for_epsilon",
}
# test_mixture_of_gaussians_basic (compositions of Gaussian mixtures) is left out: its grid brackets
# are decided only at resolution 8192, tens of seconds of CPU per number (docs/acceptance.md);
# amplification tests check the mixture's grid law against its closed form.


# ----------------------------------------------------------------------------- recording stand-ins

@dataclass
class Question:
    """accountant.get_delta(epsilon) or accountant.get_epsilon(delta), with the events composed so
    far; or mechanism.get_delta_for_epsilon(epsilon) of one privacy-loss mechanism (``mechanism``)."""
    kind: str  # "delta" (at epsilon) or "epsilon" (at delta)
    at: float
    events: list
    relation: object
    mechanism: object = None  # a RecordingMechanism
    calibration: object = None  # (family, epsilon, delta, times, sensitivity, sampling_prob)


class _Unsupported(Exception):
    pass


class RecordingAccountant:
    """Stands in for the accountant class: records what is composed and what is asked."""

    def __init__(self, neighboring_relation=None, *args, **kwargs):
        self.relation = neighboring_relation
        self.events = []

    def compose(self, event, count=1):
        self.events.append((event, count))
        return self

    def supports(self, event):
        raise _Unsupported("supports(): not a number")

    def get_delta(self, target_epsilon):
        return Question("delta", target_epsilon, list(self.events), self.relation)

    def get_epsilon(self, target_delta):
        return Question("epsilon", target_delta, list(self.events), self.relation)


class RecordingMechanism:
    """Stands in for a dp_accounting.pld.privacy_loss_mechanism class: records its parameters; its
    get_delta_for_epsilon(epsilon) (a number or a list) returns questions."""

    def __init__(self, kind, *args, **kwargs):
        self.kind, self.args, self.kwargs = kind, args, kwargs

    def get_delta_for_epsilon(self, epsilon):
        if isinstance(epsilon, (list, tuple)):
            return [self.get_delta_for_epsilon(e) for e in epsilon]
        relation = self.kwargs.get("adjacency_type")
        return Question("delta", epsilon, [], relation, self)

    def __getattr__(self, name):
        raise _Unsupported(f"{self.kind}.{name}: not a privacy question")

    def spec(self):
        """(SPEC, sampling_rate) of the mechanism, or raises ValueError with the reason."""
        if self.kind == "MixtureGaussianPrivacyLoss":  # asked as the DpEvent of the same mechanism
            from dp_accounting import dp_event

            params = dict(zip(("standard_deviation", "sensitivities", "sampling_probs"), self.args))
            params.update(self.kwargs)
            return dp_event.MixtureOfGaussiansDpEvent(params["standard_deviation"], params["sensitivities"],
                                                      params["sampling_probs"]), None
        names = {"LaplacePrivacyLoss": ("parameter",), "GaussianPrivacyLoss": ("standard_deviation",),
                 "DiscreteLaplacePrivacyLoss": ("parameter",), "DiscreteGaussianPrivacyLoss": ("sigma",)}
        if self.kind not in names:
            raise ValueError(f"{self.kind} is not mapped")
        params = dict(zip(names[self.kind] + ("sensitivity",), self.args))
        params.update(self.kwargs)
        first = params[names[self.kind][0]]
        sens, rate = params.get("sensitivity", 1), params.get("sampling_prob", 1.0)
        q = lambda x: str(Fraction(x))  # the float's exact binary value
        if self.kind == "LaplacePrivacyLoss":
            spec = f"laplace:b={q(first)},sensitivity={q(sens)}"
        elif self.kind == "GaussianPrivacyLoss":
            if params.get("pessimistic_estimate", True) is False:
                raise ValueError("pessimistic_estimate=False asks dp-accounting's optimistic estimate, not the mechanism's value")
            spec = f"gauss:sigma={q(first)},sensitivity={q(sens)}"
        elif self.kind == "DiscreteLaplacePrivacyLoss":
            spec = f"dlaplace:a={q(first)},sensitivity={sens}"
        else:
            # dp-accounting's sigma is the parameter of exp(-x^2/(2 sigma^2)), restricted to [-T, T]; T
            # defaults to ceil(11.6 sigma), computed in floats as dp-accounting does (that is its mechanism)
            bound = params.get("truncation_bound")
            bound = math.ceil(11.6 * first) if bound is None else bound
            spec = f"dgauss:sigma2={Fraction(first) ** 2},truncation={bound},sensitivity={sens}"
        return spec, (None if rate == 1 else Fraction(rate))


@dataclass
class Case:
    test: str
    question: Question
    expected: float
    tolerance: float
    status: str = ""
    reason: str = ""
    value: tuple = None
    detail: dict = field(default_factory=dict)

    def label(self):
        if self.question.kind == "calibrate":
            return f"{self.test}: calibrate {self.question.calibration!r}"
        return f"{self.test}: {self.question.kind} at {self.question.at!r}"


class _Raises:
    def __init__(self, cases, test):
        self.cases, self.test = cases, test

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True  # refusal tests: the block's exception (or none) is not a number


class RecordingTestCase:
    """Stands in for ``self`` of the test: the assertions record cases."""

    def __init__(self, test, cases):
        self.test, self.cases = test, cases

    def _record(self, actual, expected, tolerance):
        if isinstance(expected, Question) and not isinstance(actual, Question):
            actual, expected = expected, actual  # assertAlmostEqual(expected, actual) is also written
        if isinstance(actual, Question) and isinstance(expected, (int, float)):
            self.cases.append(Case(self.test, actual, float(expected), float(tolerance)))

    def assertSequenceAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        for a, b in zip(first, second):
            self.assertAlmostEqual(a, b, places=places, delta=delta)

    def assertAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        self._record(first, second, delta if delta is not None else 0.5 * 10.0 ** -(7 if places is None else places))

    def assertEqual(self, first, second, msg=None):
        self._record(first, second, 0.0)

    def assertRaises(self, *args, **kwargs):
        return _Raises(self.cases, self.test)

    assertRaisesRegex = assertRaises

    def __getattr__(self, name):
        if name.startswith("assert"):
            return lambda *a, **k: None
        raise AttributeError(name)


def _calibration_stand_in(family):
    """pld.accountant.get_smallest_*_noise(privacy_parameters, num_queries, sensitivity=,
    sampling_prob=) -> a calibration question."""
    def ask(privacy_parameters, num_queries=1, sensitivity=1, sampling_prob=None):
        return Question("calibrate", privacy_parameters.delta, [], None,
                        calibration=(family, privacy_parameters.epsilon, privacy_parameters.delta, num_queries,
                                     sensitivity, sampling_prob))
    return ask


#: The test files read: the module the test imports (by its name there) and the classes of it that
#: are replaced by recording stand-ins.
_MECHANISMS = ("LaplacePrivacyLoss", "GaussianPrivacyLoss", "DiscreteLaplacePrivacyLoss", "DiscreteGaussianPrivacyLoss",
               "MixtureGaussianPrivacyLoss")
SUITES = {
    "dp_accounting.pld.pld_privacy_accountant_test": ("pld_privacy_accountant", {"PLDAccountant": RecordingAccountant}),
    "dp_accounting.pld.privacy_loss_mechanism_test": (
        "privacy_loss_mechanism",
        {name: (lambda n: lambda *a, **k: RecordingMechanism(n, *a, **k))(name) for name in _MECHANISMS}),
    "dp_accounting.pld.accountant_test": (
        "accountant",
        {"get_smallest_laplace_noise": _calibration_stand_in("laplace"),
         "get_smallest_discrete_laplace_noise": _calibration_stand_in("dlaplace"),
         "get_smallest_gaussian_noise": _calibration_stand_in("gauss"),
         "get_smallest_subsampled_gaussian_noise": _calibration_stand_in("gauss")}),
}

#: The other test files in the wheel and why no number of theirs is asked (docs/acceptance.md).
NOT_READ = {
    "dp_accounting.rdp.rdp_privacy_accountant_test":
        "RDP accountant: its numbers are RDP bounds at its own orders and conversion, or private helpers "
        "(_compute_rdp_*, _compute_log_a); exactdp's Renyi route is certified but answers different questions",
    "dp_accounting.pld.privacy_loss_distribution_test":
        "PLD objects: discretised pmfs at a value_discretization_interval (dp-accounting's approximation "
        "itself, not the mechanism's privacy)",
    "dp_accounting.pld.pld_pmf_test": "dp-accounting's pmf data structure (no mechanism)",
    "dp_accounting.pld.common_test": "numerical helpers (no mechanism)",
    "dp_accounting.pld.test_util_test": "test helpers (no mechanism)",
    "dp_accounting.mechanism_calibration_test": "the generic bisection of calibrate_dp_mechanism on toy "
                                                "epsilon functions (no mechanism)",
    "dp_accounting.privacy_accountant_test": "the abstract accountant interface (no numbers of a mechanism)",
    "dp_accounting.dp_event_test": "DpEvent construction (no numbers of a mechanism)",
    "dp_accounting.dp_event_builder_test": "DpEvent construction (no numbers of a mechanism)",
    "dp_accounting.gaussian_mechanism_test": "round trips of get_sigma_gaussian / get_epsilon_gaussian "
                                             "(each the other's inverse; no expected number)",
}

# ----------------------------------------------------------------------------- reading the tests

def _parameter_sets(decorator, namespace):
    """The argument tuples/dicts a parameterized decorator expands to (None: not parameterized)."""
    if not isinstance(decorator, ast.Call):
        return None
    name = ast.unparse(decorator.func)
    if not name.startswith("parameterized."):
        return None
    kind = name.split(".", 1)[1]
    args = [eval(compile(ast.Expression(a), "<decorator>", "eval"), namespace) for a in decorator.args]
    kwargs = {k.arg: eval(compile(ast.Expression(k.value), "<decorator>", "eval"), namespace) for k in decorator.keywords}
    if kind == "product":
        keys = list(kwargs)
        return [dict(zip(keys, values)) for values in itertools.product(*kwargs.values())]
    if kind in ("parameters", "named_parameters"):
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and args[0] and isinstance(args[0][0], (tuple, dict)):
            args = list(args[0])
        out = []
        for a in args:
            if kind == "named_parameters":
                if isinstance(a, dict):
                    a = {k: v for k, v in a.items() if k != "testcase_name"}
                else:
                    a = tuple(a[1:])
            out.append(a if isinstance(a, (tuple, dict)) else (a,))
        return out
    return None


def read_tests(module_name, accountant_module, stand_ins, only=None):
    """The cases of one test file: (cases, tests_read, tests_without_numbers)."""
    module = importlib.import_module(module_name)
    tree = ast.parse(open(module.__file__).read(), module.__file__)
    cases, read, silent = [], [], []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")):
            if only is not None and fn.name not in only:
                continue
            namespace = dict(vars(module))
            stub = type(accountant_module, (), {k: staticmethod(v) for k, v in stand_ins.items()})
            real = getattr(module, accountant_module)
            for attr in dir(real):  # keep NeighborRel, AdjacencyType and the other public names
                if not attr.startswith("_") and attr not in stand_ins:
                    setattr(stub, attr, getattr(real, attr))
            namespace[accountant_module] = stub
            sets = None
            for d in fn.decorator_list:
                sets = _parameter_sets(d, namespace) or sets
            body = ast.Module(body=[ast.FunctionDef(fn.name, fn.args, fn.body, [], fn.returns, fn.type_comment)],
                              type_ignores=[])
            ast.fix_missing_locations(body)
            exec(compile(body, module.__file__, "exec"), namespace)
            function = namespace[fn.name]
            before = len(cases)
            for i, params in enumerate(sets if sets is not None else [()]):
                name = fn.name if sets is None else f"{fn.name}[{i}]"
                try:
                    if isinstance(params, dict):
                        function(RecordingTestCase(name, cases), **params)
                    else:
                        function(RecordingTestCase(name, cases), *params)
                except (_Unsupported, TypeError, AttributeError, ValueError):
                    pass  # the test asks something that is not a privacy number (recorded cases kept)
            read.append(fn.name)
            if len(cases) == before:
                silent.append(fn.name)
    return cases, read, silent


# ----------------------------------------------------------------------------- asking exactdp

def _relation_name(relation):
    return "" if relation is None else getattr(relation, "name", str(relation)).lower()


def _pending(case):
    """The PENDING key a case needs, or None."""
    return None


def _rr_replace_special(p, k):
    """Randomized response with noise p over k buckets, a record replaced by the special record whose
    output is uniform (dp-accounting's REPLACE_SPECIAL): the exact pair R(x) = (1 - p + p/k on x,
    p/k elsewhere) against R(bot) = uniform, outputs other than x merged (same ratio)."""
    p = Fraction(p)
    if k == 1:
        return ({0: Fraction(1)}, {0: Fraction(1)})
    return ({0: 1 - p + p / k, 1: (k - 1) * p / k}, {0: Fraction(1, k), 1: Fraction(k - 1, k)})


def _replace_special_events(events):
    """The exactdp question of an accountant's composed events under REPLACE_SPECIAL, a list of
    (what, count): additive noise is add/remove (the special record contributes 0, as removing it
    does: dp-accounting composes the same PLD), randomized response the pair of _rr_replace_special.
    (REPLACE_ONE needs no mapping here: exactdp's direction="replace" answers it, replace_one.hpp.)"""
    out = []

    def walk(e, count):
        name = type(e).__name__
        if name == "SelfComposedDpEvent":
            return walk(e.event, count * e.count)
        if name == "ComposedDpEvent":
            for x in e.events:
                walk(x, count)
            return
        if name == "RandomizedResponseDpEvent":
            return out.append((_rr_replace_special(e.noise_parameter, e.num_buckets), count))
        return out.append((e, count))

    for e, c in events:
        walk(e, c)
    return out  # exactdp.delta_at takes (what, times) lists of specs, pairs and DpEvents alike


def direction(case):
    """The exactdp direction of a case. A privacy-loss mechanism is one direction
    (``adjacency_type``, dp-accounting's default REMOVE): remove = H(P||Q) (dp-accounting's
    ``_pmf_remove``), add = H(Q||P) (``_pmf_add``). The accountant's add-or-remove-one relation is
    the max of the two, exactdp's "both"."""
    q = case.question
    if q.mechanism is None:
        return "both"
    rel = _relation_name(q.relation)
    return "add" if rel == "add" else "remove"


def answer(case, relative_width=None):
    """exactdp's certified (lo, hi) for a case, or raises exactdp.Error / ValueError with the reason.
    The events go to exactdp.epsilon_at / delta_at as they are (composition.py maps DpEvents,
    degenerate parameters included, onto specs and exact pairs)."""
    import exactdp
    from dp_accounting import dp_event

    q = case.question
    if q.kind == "calibrate":
        return _calibrate(case, relative_width)
    rel = _relation_name(q.relation)
    if q.mechanism is not None:
        spec, rate = q.mechanism.spec()
        if rel == "replace":  # privacy_loss_mechanism.AdjacencyType.REPLACE: the library's replace-one pair
            return exactdp.delta_at(spec, epsilon=Fraction(q.at), sampling_rate=rate, relative_width=relative_width,
                                    direction="replace")
        return exactdp.delta_at(spec, epsilon=Fraction(q.at), sampling_rate=rate, relative_width=relative_width,
                                direction=direction(case))
    if not q.events:
        raise ValueError("no event composed")
    if rel == "replace_special":
        what = _replace_special_events(q.events)
        at = Fraction(q.at)
        if q.kind == "delta":
            return exactdp.delta_at(what, epsilon=at, relative_width=relative_width)
        return exactdp.epsilon_at(what, delta=at, relative_width=relative_width)
    what = dp_event.ComposedDpEvent([dp_event.SelfComposedDpEvent(e, c) if c != 1 else e for e, c in q.events])
    at = Fraction(q.at)
    # REPLACE_ONE: the library's replace-one pairs (replace_one.hpp); ADD_OR_REMOVE_ONE: "both"
    relation = "replace" if rel == "replace_one" else "both"
    if q.kind == "delta":
        return exactdp.delta_at(what, epsilon=at, relative_width=relative_width, direction=relation)
    return exactdp.epsilon_at(what, delta=at, relative_width=relative_width, direction=relation)


def _calibrate(case, relative_width=None, probes=()):
    """exactdp.calibrate's certified bracket of the least noise, in dp-accounting's parameter: the
    scale b or sigma as it is; for the discrete Laplace, a = -ln r (dp-accounting's parameter) from
    exactdp's bracket of r, widened outwards by 10^-30 after a 50-digit mpmath logarithm. ``probes``
    (sigma or b) are judged first (exactdp.calibrate's ``probes``). An ``undecided`` search still
    returns its bracket: both ends are certified, it is only wider than asked (the case's detail
    records the status and the stop reason)."""
    import exactdp

    family, eps, delta, times, sens, rate = case.question.calibration
    q = lambda x: str(Fraction(x))
    spec = f"{family}:sensitivity={q(sens)}"
    width = relative_width if relative_width is not None else Fraction(1, 1000)
    report = exactdp.calibrate(spec, epsilon=q(eps), delta=q(delta), times=times,
                               sampling_rate=None if rate is None else q(rate), relative_width=width,
                               probes=[q(p) for p in probes])
    case.detail["calibration"] = {"status": report["status"], "stop_reason": report["stop_reason"],
                                  "levels_judged": report["levels_judged"], "refinements": report["refinements"],
                                  "probes": [(str(p["value"]), p["verdict"]) for p in report["probes"]]}
    if "lo" not in report:
        raise ValueError(f"calibration: status {report['status']}: {report['stop_reason']}")
    lo, hi = Fraction(report["lo"]), Fraction(report["hi"])
    if family != "dlaplace":
        return lo, hi
    import mpmath

    with mpmath.workdps(50):
        a_lo = Fraction(str(-mpmath.log(mpmath.mpf(hi.numerator) / hi.denominator))) - Fraction(1, 10 ** 30)
        a_hi = Fraction(str(-mpmath.log(mpmath.mpf(lo.numerator) / lo.denominator))) + Fraction(1, 10 ** 30)
    return a_lo, a_hi


def _band_probes(case):
    """Two levels just outside the tolerance band of a calibration case, in its parameter: the
    decimal at the tolerance's tenth below the band and the one above it. A certified "meets" below
    the band puts the least noise below it (the test's noise is larger than needed); a certified
    "fails" above it puts the least noise above it (the test's noise is not enough). Either
    disagrees at a cost of two levels; each judged only where the known bracket leaves it open.
    None for the discrete Laplace, whose band is in a = -ln r (exactdp's parameter is r)."""
    if case.question.calibration[0] == "dlaplace" or case.tolerance <= 0:
        return None
    e, t = Fraction(case.expected), Fraction(case.tolerance)
    digits = max(0, math.ceil(-math.log10(case.tolerance / 10)))
    scale = 10 ** digits
    below = Fraction(math.floor((e - t) * scale), scale)
    above = Fraction(math.ceil((e + t) * scale), scale)
    if below == e - t:
        below -= Fraction(1, scale)
    if above == e + t:
        above += Fraction(1, scale)
    return [below, above]


def _settle_calibration(case):
    """A calibration case whose first bracket straddles the tolerance band: the band's edges are
    probed first (_band_probes), with the first bracket's ends, at the first bracket's own width, so
    that no bisection runs; only if that leaves the band straddled is the search asked for the
    width the tolerance needs (_width_for), starting from the bracket the probes gave."""
    first = case.value
    probes = _band_probes(case)
    if probes is not None:
        lo, hi = first
        inside = [p for p in probes if lo < p < hi]
        case.value = _calibrate(case, (hi - lo) / lo, probes=[lo, hi] + inside)
        case.status = judge(case, case.value)
        if case.status != "too-wide":
            return
        first = case.value
    case.value = _calibrate(case, _width_for(case), probes=list(first) if probes is not None else ())


def _width_for(case):
    """The relative width that settles a case at its tolerance (clipped to [1e-9, 1/2])."""
    e = abs(Fraction(case.expected)) if case.expected not in (0, math.inf) else Fraction(1)
    if case.question.kind == "calibrate":
        # the bracket's ends must both land in the band: a quarter of it; for the discrete Laplace
        # the bracket is of r = e^-a, whose relative width is about the width in a
        band = Fraction(case.tolerance) / 4
        return max(Fraction(1, 10 ** 9), band if case.question.calibration[0] == "dlaplace" else band / e)
    # a quarter of the band, as for calibration: a bracket as wide as the band straddles its edge
    # whenever the truth lies near it (the composed mixtures' least epsilon lies 0.5e-6 inside)
    return min(Fraction(1, 2), max(Fraction(1, 10 ** 9), Fraction(case.tolerance) / e / 4))


def judge(case, value):
    """The test asserts |actual - expected| <= tolerance. "agrees": every value in exactdp's enclosure
    satisfies it; "disagrees": none does (the enclosure contains the truth, so dp-accounting's number is
    off by more than its tolerance -- see docs/acceptance.md for those shown right independently);
    "too-wide": the enclosure straddles the tolerance band."""
    lo, hi = value
    e, t = case.expected, case.tolerance
    if math.isinf(e) or math.isinf(hi) or math.isinf(lo):
        if math.isinf(e) and lo == hi == e:
            return "agrees"
        return "disagrees" if math.isinf(lo) or not math.isinf(hi) else "too-wide"
    lo, hi = Fraction(lo), Fraction(hi)
    band_lo, band_hi = Fraction(e) - Fraction(t), Fraction(e) + Fraction(t)
    if band_lo <= lo and hi <= band_hi:
        return "agrees"
    if hi < band_lo or lo > band_hi:
        return "disagrees"
    return "too-wide"


def run(only=None, verbose=False):
    """Reads the suites, answers every case; returns the list of cases with their status."""
    import exactdp

    out = []
    for module_name, (acc_module, stand_ins) in SUITES.items():
        cases, _, _ = read_tests(module_name, acc_module, stand_ins, only)
        for case in cases:
            key = _pending(case)
            if key is not None:
                case.status, case.reason = "unanswered", PENDING[key]
                out.append(case)
                continue
            try:
                case.value = answer(case)
            except (exactdp.Error, ValueError) as err:
                case.status, case.reason = "unanswered", f"unanswered: {err}"
                out.append(case)
                continue
            case.status = judge(case, case.value)
            if case.status == "too-wide":  # ask again for the width the test's tolerance needs
                try:
                    if case.question.kind == "calibrate":
                        _settle_calibration(case)
                    else:
                        case.value = answer(case, _width_for(case))
                except (exactdp.Error, ValueError) as err:
                    case.reason = f"refinement refused: {err}"
                case.status = judge(case, case.value)
            out.append(case)
            if verbose:
                print(case.label(), case.status, case.value, file=sys.stderr)
    return out


def _summary(cases):
    counts = {}
    for c in cases:
        counts[c.status] = counts.get(c.status, 0) + 1
    return counts


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fast", action="store_true", help="only the fast subset CI runs")
    ap.add_argument("--json", action="store_true", help="one JSON record per case")
    args = ap.parse_args(argv)
    cases = run(FAST if args.fast else None)
    for c in cases:
        if args.json:
            print(json.dumps({"test": c.test, "kind": c.question.kind, "at": c.question.at, "expected": c.expected,
                              "tolerance": c.tolerance, "status": c.status, "reason": c.reason,
                              "value": None if c.value is None else [str(c.value[0]), str(c.value[1])]}))
        else:
            v = "" if c.value is None else f" exactdp [{float(c.value[0]):.9g}, {float(c.value[1]):.9g}]"
            print(f"{c.status:11s} {c.label()} expected {c.expected!r} ±{c.tolerance:g}{v} {c.reason}")
    s = _summary(cases)
    print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(s.items())), file=sys.stderr)
    return 1 if s.get("disagrees") else 0


if __name__ == "__main__":
    sys.exit(main())
