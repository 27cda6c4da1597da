"""``sweep``: one privacy claim checked at every point of a mechanism's parameter grid, as tasks.

>>> from fractions import Fraction
>>> import exactdp
>>> from exactdp.testing import sweep, format_sweep
>>> def rr(p):                                        # randomised response, truthful with prob. p
...     def step(bit, message):
...         return {(bit, bit): p, (1 - bit, bit): 1 - p}
...     return exactdp.Mechanism.from_step(step, initial={"x": 0, "x'": 1},
...         neighbours={"type": "static", "worlds": ["x", "x'"]}, messages=["q"], horizon=1, name="RR")
>>> records = sweep(rr, {"p": [Fraction(1, 2), Fraction(3, 4), Fraction(9, 10)]}, lam=3, scheduler="serial")
>>> [(r.params["p"], r.verdict) for r in records]
[(Fraction(1, 2), 'holds'), (Fraction(3, 4), 'holds'), (Fraction(9, 10), 'refuted')]

Each point is one task of ``exactdp.distributed.Executor``: on an embedded Dask ``LocalCluster``
by default, on a running cluster with ``scheduler="tcp://HOST:PORT"``, in this process with
``scheduler="serial"``. The records come back in grid order whatever the scheduler, so
``format_sweep(records)`` is the same text for every scheduler. With ``results=DIR`` finished
points are kept in ``DIR/results.jsonl`` and a rerun checks only the others.

On a cluster the factory is sent to the workers with cloudpickle: a factory defined in a script
(``__main__``) travels by value; one defined in a module must be importable on the workers (or
registered with ``cloudpickle.register_pickle_by_value(module)``).
"""
import itertools
from dataclasses import dataclass
from fractions import Fraction

from ..distributed import SERIAL, Executor, Task, TaskError

__all__ = ["SweepRecord", "format_sweep", "grid_points", "sweep"]


@dataclass(frozen=True)
class SweepRecord:
    """The outcome of the claim at one grid point.

    ``params``: the point (``{name: value}``); ``verdict``: the check's (``"holds"``,
    ``"refuted"``, or any other verdict ``exactdp.check`` gives, such as an undecided real-ε
    claim), or ``"error"`` (the factory or the check raised; ``error`` says what, with the task key);
    ``delta``: the exact δ the worst adversary reaches at the claimed λ (a Fraction; None on
    error); ``horizon``: the horizon checked, or for a refuted claim the least horizon at which it
    fails; ``witness``: for a refuted claim the shrunk witness as text (as ``assert_dp`` prints it).
    """
    params: dict
    verdict: str
    delta: Fraction = None
    horizon: int = None
    witness: str = None
    error: str = None

    @property
    def holds(self):
        return self.verdict == "holds"


def grid_points(grid):
    """The points of a grid ``{name: [values]}``: the Cartesian product, as dicts, in the order of
    ``itertools.product`` over the names in the dict's order (the last name varies fastest)."""
    if not isinstance(grid, dict) or not grid:
        raise TypeError("sweep: grid is a non-empty dict {parameter name: list of values}")
    names = list(grid)
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"sweep: grid parameter name {n!r} is not a str")
        if isinstance(grid[n], (str, bytes)) or not hasattr(grid[n], "__iter__"):
            raise TypeError(f"sweep: grid[{n!r}] is not a list of values")
    return [dict(zip(names, values)) for values in itertools.product(*(list(grid[n]) for n in names))]


def _at(x, params):
    """A claim parameter: a constant, or a function of the point's parameters."""
    return x(**params) if callable(x) else x


def _check_point(factory, params, lam, epsilon, delta, horizon, max_nodes, threads):
    """One task: builds the mechanism and checks the claim (the testing machinery's shrunk witness)."""
    from ..game import _check

    mechanism = factory(**params)
    r = _check(mechanism, _at(lam, params), _at(epsilon, params), _at(delta, params), _at(horizon, params),
               max_nodes, minimal=True, threads=threads)
    return {"verdict": r["verdict"], "delta": r["delta"], "horizon": r["horizon"],
            "witness": r.get("refutation_text") if r["verdict"] == "refuted" else None}


def _name(factory):
    return f"{getattr(factory, '__module__', '?')}.{getattr(factory, '__qualname__', type(factory).__name__)}"


def sweep(factory, grid, lam=None, delta=0, horizon=None, *, epsilon=None, scheduler=None, results=None,
          max_nodes=None, threads=None, n_workers=None, log=None):
    """Checks "(ε, δ)-DP against every adaptive adversary up to the horizon" for ``factory(**point)``
    at every point of ``grid`` and returns one ``SweepRecord`` per point, in grid order.

    @param factory   a function of the grid's parameters returning an ``exactdp.Mechanism`` (or a spec
                     file's path)
    @param grid      ``{name: [values]}``; the points are the product (``grid_points``); values must
                     be JSON-able exact data (int, str, bool, Fraction, tuples, …): they name the task
    @param lam       the claimed λ = e^ε (exact), or a function of the point's parameters giving it;
                     or give ``epsilon`` instead
    @param delta     the claimed δ (default 0), constant or a function of the parameters
    @param horizon   the rounds played (default: each mechanism's own), constant or a function
    @param scheduler None (an embedded LocalCluster), ``"serial"``, a scheduler address
                     ``"tcp://HOST:PORT"`` or a connected ``distributed.Client``
    @param results   a directory: finished points are kept in ``results.jsonl`` there and skipped
                     when the sweep is run again (the key is the factory's qualified name, the
                     point and the claim; delete the file after changing the factory's code)
    @param max_nodes the engine's limit on belief pairs per check (default: its own)
    @param threads   search threads per check (default: all cores serially, 1 per Dask worker)
    @param n_workers processes of the embedded LocalCluster (default: the cores)
    @param log       where failures and resume notes are written (default: stderr)
    @return a list of ``SweepRecord``; a point whose factory or check raised has verdict ``"error"``
            and ``error`` naming the task key, the parameters and the exception — no point is dropped
    """
    if (lam is None) == (epsilon is None):
        raise TypeError("sweep() takes exactly one of lam (lambda = e^epsilon) or epsilon")
    points = grid_points(grid)
    serial = scheduler == SERIAL
    if threads is None:
        threads = 0 if serial else 1
    claim = {k: (None if v is None else "<function of the parameters>" if callable(v) else str(v))
             for k, v in (("lam", lam), ("epsilon", epsilon), ("delta", delta), ("horizon", horizon))}
    claim["max_nodes"] = max_nodes
    name = _name(factory)
    tasks = []
    for p in points:
        key_params = {"factory": name, "point": p, "claim": claim}
        tasks.append(Task.of("sweep", key_params, factory, p, lam, epsilon, delta, horizon, max_nodes, threads))
    with Executor(scheduler, n_workers=n_workers, results=results, log=log) as ex:
        outcomes = ex.run(_check_point, tasks)
    records = []
    for p, out in zip(points, outcomes):
        if isinstance(out, TaskError):
            records.append(SweepRecord(p, "error", error=str(out)))
        else:
            records.append(SweepRecord(p, out["verdict"], out["delta"], out["horizon"], out["witness"]))
    return records


def format_sweep(records):
    """The records as a plain-text table (one line per point, then each witness): the same text for
    the same records, so serial and distributed runs can be compared byte for byte."""
    lines = []
    for r in records:
        point = ", ".join(f"{k}={v}" for k, v in r.params.items())
        if r.verdict == "error":
            lines.append(f"{point}: ERROR {r.error}")
        else:
            lines.append(f"{point}: {r.verdict}, delta = {r.delta}, horizon {r.horizon}")
    for r in records:
        if r.witness:
            point = ", ".join(f"{k}={v}" for k, v in r.params.items())
            lines += ["", f"witness at {point}:", r.witness]
    return "\n".join(lines) + "\n"
