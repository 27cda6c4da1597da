"""Independent tasks in one process, on an embedded Dask ``LocalCluster``, or on a running cluster.

Sweeps (``exactdp.testing.sweep``), the accountant audit (``python -m exactdp.audit_all``) and the
theorem checks (``python -m exactdp.theorems_sweep``) are lists of independent tasks. ``Executor``
runs such a list and hands the results back **in the order of the list**, whatever order the
workers finish in, so a report built from them is the same, byte for byte, as the report of a
serial run (timings apart).

>>> from exactdp.distributed import Executor, Task
>>> with Executor("serial") as ex:                                  # or None: a LocalCluster,
...     ex.run(pow, [Task.of("pow", {"b": 2, "e": e}, 2, e) for e in range(4)])   # "tcp://host:8786"
[1, 2, 4, 8]

Where the tasks run (``scheduler``):

- ``None`` (default): an embedded ``distributed.LocalCluster`` of ``n_workers`` processes (default:
  the machine's cores), one thread each; closed with the executor.
- ``"serial"``: in this process, one task after the other, without importing Dask.
- ``"tcp://HOST:PORT"`` (any scheduler address): a running cluster (``dask scheduler`` and ``dask
  worker`` processes). The workers must import the same ``exactdp`` and whatever module defines
  the task's function (a function defined in ``__main__`` travels by value).
- a ``distributed.Client`` already connected: used as is and not closed.

**Many lists at once, longest first.** ``Executor.submit`` starts a list without waiting for it and
returns a ``Batch``; ``Executor.completed(batch)`` yields its results as they finish and
``Executor.gather(batch)`` returns them in the list's order. A caller can so submit more work
while earlier work runs (the audit submits each accountant's claims as soon as they are
produced: no barrier between accountants). A task's ``cost`` (an estimate in seconds, any scale)
becomes its Dask priority: the costliest tasks start first, so the long ones do not end up last
on one worker while the other idles (longest processing time first). Serially a list runs when
it is submitted, in its order.

**Failures.** A task that raises does not stop the others. Its slot in the result list holds a
``TaskError`` naming the task's key, its parameters, the exception's type and message and the
worker's traceback; ``Executor.run`` also writes one line per failure to ``log``. A worker that
dies (out of memory, a crash in compiled code) makes Dask retry its tasks elsewhere; a task that
keeps killing workers comes back as a ``TaskError`` of type ``KilledWorker``. Nothing is dropped:
the result list always has one entry per task.

**Resuming.** With ``results=DIR`` every finished task is appended, as soon as it finishes, to
``DIR/results.jsonl``: one JSON object per line, ``{"key", "params", "ok", "value"}`` (``"error"``
instead of ``"value"`` for a failure), exact numbers written losslessly (``encode``). A rerun with
the same directory reads the file and runs only the tasks whose key has no successful line yet;
failed tasks are run again. The key of a task is stable across runs and machines: a name and a
hash of its parameters (``stable_key``), so it changes when a parameter changes. A line cut short
by a crash is ignored (with a message).
"""
import hashlib
import json
import math
import os
import sys
import time
import traceback
import uuid
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["SERIAL", "Batch", "Executor", "SplitResult", "Task", "TaskError", "add_arguments", "decode", "encode",
           "executor_from_args", "solve_split", "stable_key", "thread_settings"]

#: The ``scheduler`` value that runs every task in this process.
SERIAL = "serial"


# ------------------------------------------------------------------------------ lossless JSON
def encode(value):
    """``value`` as JSON data that ``decode`` turns back into an equal value of the same types.

    Fractions become ``{"$fraction": "p/q"}``, tuples ``{"$tuple": [...]}``, infinite floats
    ``{"$float": "inf"}``; dicts (string keys), lists, str, int, bool, None and finite floats stay
    as they are (a float is written with ``repr``, which reads back to the same float). Anything
    else is a ``TypeError`` naming its type.
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$float": repr(value)}
    if isinstance(value, Fraction):
        return {"$fraction": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, tuple):
        return {"$tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"encode: dict key {k!r} is a {type(k).__name__}, not a str")
            out[k] = encode(v)
        return out
    raise TypeError(f"encode: cannot write a {type(value).__name__} losslessly ({value!r:.60})")


def decode(data):
    """The inverse of ``encode``."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if isinstance(data, dict):
        if len(data) == 1:
            (k, v), = data.items()
            if k == "$fraction":
                return Fraction(v)
            if k == "$tuple":
                return tuple(decode(x) for x in v)
            if k == "$float":
                return float(v)
        return {k: decode(v) for k, v in data.items()}
    return data


def _canonical_json(value):
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def stable_key(name, params):
    """The task key ``NAME-HASH``: ``HASH`` is the first 16 hex digits of the SHA-256 of the
    parameters' canonical JSON (sorted keys, ``encode``), so the key is the same in every process,
    run and machine, and differs when a parameter differs."""
    digest = hashlib.sha256(_canonical_json(params).encode("ascii")).hexdigest()[:16]
    return f"{name}-{digest}"


# ------------------------------------------------------------------------------ tasks
@dataclass(frozen=True)
class Task:
    """One unit of work: ``fn(*args)`` under the stable ``key``; ``params`` (a dict of JSON-able
    values) say in failures and in the results file what the task is about. ``affinity``: tasks
    with the same affinity string are sent to the same worker while it is alive (new affinities
    are dealt to the workers in turn), so a cache inside the worker process serves all of them.
    ``cost``: an estimate of the task's time
    (seconds, or any scale shared by the tasks of one executor); costlier tasks start first on a
    cluster. Neither changes a result, only where and when the work is done."""
    key: str
    params: dict
    args: tuple = ()
    affinity: str = None
    cost: float = None

    @classmethod
    def of(cls, name, params, *args, affinity=None, cost=None):
        """A task keyed ``stable_key(name, params)``."""
        return cls(stable_key(name, params), params, args, affinity, cost)


@dataclass(frozen=True)
class TaskError:
    """The result of a task that failed: its key and parameters, the exception's type name and
    message, and the traceback text from the worker."""
    key: str
    params: dict
    error: str
    message: str
    traceback: str = field(default="", compare=False)

    def __str__(self):
        return f"task {self.key} ({_short_params(self.params)}) failed: {self.error}: {self.message}"

    def as_json(self):
        return {"error": self.error, "message": self.message, "traceback": self.traceback}


class Batch:
    """The tasks of one ``Executor.submit`` call and their results as they arrive (read them with
    ``Executor.completed`` or ``Executor.gather``)."""

    _MISSING = object()

    def __init__(self, tasks):
        self.tasks = tasks
        self.results = [Batch._MISSING] * len(tasks)
        self._order = []  # indices in the order they finished

    def _put(self, i, value):
        self.results[i] = value
        self._order.append(i)

    @property
    def done(self):
        """True when every task has a result."""
        return len(self._order) == len(self.tasks)


def _plain(value):
    """Parameters as plain JSON for messages: fractions as "p/q", tuples as lists."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value if value is None or isinstance(value, (bool, int, float, str)) else repr(value)


def _short_params(params, limit=400):
    text = ", ".join(f"{k}={json.dumps(_plain(v), ensure_ascii=False)}" for k, v in params.items())
    return text if len(text) <= limit else text[:limit] + "…"


def _call(fn, args):
    """Runs a task and turns an exception into data, so failures look the same serially and on Dask
    (and an exception that does not pickle, such as a compiled module's, still arrives)."""
    started, cpu = time.perf_counter(), time.thread_time()
    try:
        ok, value = True, fn(*args)
    except Exception as e:  # noqa: BLE001 - a failing task is reported, never fatal to the others
        ok, value = False, (type(e).__name__, str(e), traceback.format_exc())
    return ok, value, (time.perf_counter() - started, time.thread_time() - cpu, os.getpid())


def _call_pickled(blob):
    """``_call`` on a task sent as one cloudpickle blob: cloudpickle, unlike the plain pickle Dask
    tries first on a task's arguments, sends by value the functions of ``__main__`` and of modules
    registered with ``cloudpickle.register_pickle_by_value`` wherever they sit in the arguments."""
    import cloudpickle

    fn, args = cloudpickle.loads(blob)
    return _call(fn, args)


# ------------------------------------------------------------------------------ checkpoint
class Checkpoint:
    """The results file ``DIR/results.jsonl`` (see the module comment)."""

    def __init__(self, directory, log):
        os.makedirs(directory, exist_ok=True)
        self.path = os.path.join(directory, "results.jsonl")
        self.done = {}
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if not line.strip():
                        continue
                    try:
                        rec = json.loads(line)
                        key, ok = rec["key"], rec["ok"]
                    except (ValueError, KeyError, TypeError):
                        log(f"{self.path}:{n}: unreadable line ignored (a run stopped while writing it?)")
                        continue
                    if ok:
                        self.done[key] = decode(rec["value"])
        self._file = open(self.path, "a", encoding="utf-8")

    def put(self, task, ok, value):
        rec = {"key": task.key, "params": encode(task.params), "ok": ok}
        if ok:
            rec["value"] = encode(value)
            self.done[task.key] = value
        else:
            rec["error"] = value.as_json()
        self._file.write(json.dumps(rec, sort_keys=True) + "\n")
        self._file.flush()

    def close(self):
        self._file.close()


# ------------------------------------------------------------------------------ executor
#: the environment variables that set the thread counts of numerical libraries (the number of
#: threads that split a BLAS sum can change its last bits)
_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "MKL_NUM_THREADS",
                     "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def thread_settings():
    """What decides the thread counts of numerical libraries in this process: the variables of
    ``_THREAD_VARIABLES`` that are set, and, when none is, the CPUs the process may run on (the
    libraries' default). Two processes with the same settings compute the same floats with the same
    libraries."""
    pinned = [f"{k}={os.environ[k]}" for k in _THREAD_VARIABLES if k in os.environ]
    if pinned:
        return ", ".join(pinned)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count()
    return f"{cpus} CPUs"


#: Dask settings of the executor's own LocalCluster. None changes a result; each is measured by
#: bench/dask_audit.py (docs/scaling.md, "What a worker costs").
_LOCAL_CLUSTER_CONFIG = {
    # the scheduler (in this process) hands a worker its next task only when the worker is free
    # (Dask's default, 1.1, sends one ahead): the queue stays ordered by priority
    "distributed.scheduler.worker-saturation": 1.0,
    # The workers inherit this process's environment as it is, without the variables Dask sets
    # before it spawns a worker:
    # * the thread counts of numerical libraries (Dask pins OpenBLAS, MKL and OpenMP to one thread):
    #   a float a task computes, such as an accountant's claim, can depend on how many threads
    #   split a sum, and a task must compute what it computes in a serial run;
    # * MALLOC_TRIM_THRESHOLD_=65536: setting it turns off glibc's sliding mmap threshold, so every
    #   block above 128 KiB (numpy's arrays in the accountants' convolutions) is a fresh mmap whose
    #   pages fault in zeroed, and is unmapped when freed. A loop of FFTs over 2^16 points took 2.8
    #   times the CPU in a worker with it; the accountants' claims 30-38 % more than serially.
    "distributed.nanny.pre-spawn-environ": {},
    # no statistical profiling of the tasks (a stack sample every 10 ms, for the dashboard only)
    "distributed.worker.profile.enabled": False,
    # Every server (scheduler, nannies, workers, client) wakes every 20 ms to time its event loop
    # (to warn when it is blocked) and every 0.5 s to sample the process's CPU, memory and network
    # for the dashboard: an idle 2-worker cluster spent 1.7 s of CPU a minute in this process and
    # 1 s in each worker, 0.5 s and 0.2 s with these. The memory limit is still watched every
    # 100 ms (distributed.worker.memory.monitor-interval).
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}


def _local_cluster(n_workers, memory_limit):
    """A LocalCluster of ``n_workers`` single-thread processes with ``_LOCAL_CLUSTER_CONFIG``."""
    import logging

    import dask
    from distributed import LocalCluster

    with dask.config.set(_LOCAL_CLUSTER_CONFIG):
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, memory_limit=memory_limit,
                            dashboard_address=":0", silence_logs=logging.ERROR)


class Executor:
    """Runs lists of independent tasks serially, on a LocalCluster or on a running cluster.

    ``scheduler``: ``None`` (an embedded LocalCluster), ``"serial"``, a scheduler address such as
    ``"tcp://10.0.0.1:8786"``, or a connected ``distributed.Client``. ``n_workers``: processes of
    the LocalCluster (default: the cores); ``memory_limit``: each of its workers' (Dask's
    ``"auto"`` shares the machine's memory; 0 for none). ``results``: a directory for the
    resumable results file. ``log``: where progress and failures are written (default: stderr).
    Use it as a context manager, or call ``close()``.
    """

    def __init__(self, scheduler=None, *, n_workers=None, memory_limit="auto", results=None, log=None):
        self._log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self._client = None
        self._cluster = None
        self._own_client = False
        self.scheduler = scheduler
        if scheduler is not None and not isinstance(scheduler, str):
            self._client = scheduler  # a distributed.Client
        elif scheduler != SERIAL:
            try:
                from distributed import Client
            except ImportError as e:
                raise ImportError("running on Dask needs dask.distributed: pip install 'exactdp[distributed]' "
                                  "(or pass --serial)") from e
            if scheduler is None:
                self._cluster = _local_cluster(n_workers or os.cpu_count() or 1, memory_limit)
                self._client = Client(self._cluster)
                from ._dask_worker import FreezeDaskHeap

                self._client.register_plugin(FreezeDaskHeap())
            else:
                self._client = Client(scheduler, timeout="30s")
            self._own_client = True
        self._checkpoint = Checkpoint(results, self._log) if results else None
        #: wall seconds of each task run by this executor, measured where it ran (None when its
        #: worker died); timings only, never part of a result
        self.seconds = {}
        #: CPU seconds of each task's thread, and the id of the process it ran in (timings only)
        self.cpu_seconds = {}
        self.process = {}
        #: the parameters of each task run, by key (what the timings above are about)
        self.params = {}
        #: for each call of run(), the keys of the tasks it ran (not those read from the results file)
        self.batches = []
        self._placement = {}  # affinity -> worker address
        self._pending = None  # distributed.as_completed of the futures not yet collected
        self._where = {}  # Dask key -> (Batch, index)

    @property
    def serial(self):
        """True when the tasks run in this process."""
        return self._client is None

    @property
    def workers(self):
        """The number of workers (1 when serial)."""
        if self._client is None:
            return 1
        return max(1, len(self._client.scheduler_info().get("workers", {})))

    def worker_cpu_seconds(self):
        """{worker address: CPU seconds of its process so far} (tasks, imports and Dask's own work);
        empty when serial. Timings only."""
        if self._client is None:
            return {}
        return self._client.run(time.process_time)

    def describe(self):
        """Where the tasks run, in a few words."""
        if self._client is None:
            return "serial (one process)"
        kind = "LocalCluster" if self._cluster is not None else f"cluster at {self._client.scheduler.address}"
        return f"{kind}, {self.workers} workers"

    def run(self, fn, tasks):
        """Runs ``fn(*task.args)`` for every task and returns the results in the order of ``tasks``;
        a failed task's entry is a ``TaskError``. Tasks already in the results file are not run."""
        return self.gather(self.submit(fn, tasks))

    def submit(self, fn, tasks):
        """Starts ``fn(*task.args)`` for every task without waiting (serially: runs them now, in
        order) and returns the ``Batch``; read it with ``completed`` or ``gather``. Tasks already in
        the results file are not run. On a cluster the costlier tasks (``Task.cost``) start first,
        whichever list they came in."""
        tasks = list(tasks)
        keys = [t.key for t in tasks]
        if len(set(keys)) != len(keys):
            dup = sorted({k for k in keys if keys.count(k) > 1})
            raise ValueError(f"Executor.submit: repeated task keys {dup[:5]} (two tasks with the same name and parameters)")
        batch = Batch(tasks)
        todo = []
        for i, t in enumerate(tasks):
            if self._checkpoint is not None and t.key in self._checkpoint.done:
                batch._put(i, self._checkpoint.done[t.key])
            else:
                todo.append(i)
        if self._checkpoint is not None and len(todo) < len(tasks):
            self._log(f"{len(tasks) - len(todo)} of {len(tasks)} tasks read from {self._checkpoint.path}")
        self.batches.append([tasks[i].key for i in todo])
        if self._client is None:
            for i in todo:
                batch._put(i, self._finish(tasks[i], *_call(fn, tasks[i].args)))
            return batch
        import cloudpickle
        from distributed import as_completed

        if self._pending is None:
            self._pending = as_completed()
        token = uuid.uuid4().hex[:8]  # Dask keys unique to this call: another client's tasks never mix in
        workers = sorted(self._client.scheduler_info()["workers"]) if any(tasks[i].affinity for i in todo) else []
        futures = []
        for i in todo:
            dkey = f"{tasks[i].key}-{token}"
            blob = cloudpickle.dumps((fn, tasks[i].args))
            where = {}
            if tasks[i].affinity and workers:
                # a new affinity goes to the next worker in turn; a known one where it went before
                target = self._placement.get(tasks[i].affinity)
                if target not in workers:
                    target = self._placement[tasks[i].affinity] = workers[len(self._placement) % len(workers)]
                where = {"workers": [target], "allow_other_workers": True}
            # Dask runs higher priorities first; a cost in milliseconds keeps 1 ms apart
            priority = int(round(1000 * tasks[i].cost)) if tasks[i].cost else 0
            fut = self._client.submit(_call_pickled, blob, key=dkey, pure=False, retries=0, priority=priority, **where)
            self._where[fut.key] = (batch, i)
            futures.append(fut)
        self._pending.update(futures)
        self._collect(block=False)  # write to the results file what finished meanwhile
        return batch

    def completed(self, batch):
        """Yields ``(index, result)`` for every task of ``batch`` as it finishes (those already
        finished first); results of other batches that finish meanwhile are kept for them."""
        given = 0
        while True:
            while given < len(batch._order):
                i = batch._order[given]
                given += 1
                yield i, batch.results[i]
            if given == len(batch.results):
                return
            self._collect(block=True)

    def gather(self, batch):
        """The results of ``batch`` in the order of its tasks, once all have finished."""
        for _ in self.completed(batch):
            pass
        return list(batch.results)

    def _collect(self, block):
        """Records finished futures with their batches: at least one when ``block``, else those
        ready now."""
        if self._pending is None:
            return
        if block:
            futures = [next(self._pending)]
        else:
            futures = []
        while self._pending.has_ready():
            futures.append(next(self._pending))
        for fut in futures:
            batch, i = self._where.pop(fut.key)
            task = batch.tasks[i]
            if fut.status == "finished":
                batch._put(i, self._finish(task, *fut.result()))
            else:  # the task never returned: its worker died (KilledWorker) or it was cancelled
                exc = fut.exception()
                tb = "".join(traceback.format_tb(fut.traceback())) if fut.traceback() is not None else ""
                batch._put(i, self._finish(task, False, (type(exc).__name__, str(exc), tb), None))
            fut.release()

    def _finish(self, task, ok, value, timing):
        self.seconds[task.key], self.cpu_seconds[task.key], self.process[task.key] = timing or (None, None, None)
        self.params[task.key] = task.params
        if not ok:
            value = TaskError(task.key, task.params, *value)
            self._log(str(value))
        if self._checkpoint is not None:
            self._checkpoint.put(task, ok, value)
        return value

    def close(self):
        if self._checkpoint is not None:
            self._checkpoint.close()
            self._checkpoint = None
        if self._own_client and self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._client = self._cluster = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ------------------------------------------------------------------------------ one game split into subgames
def _solve_subgames(text, source, histories, lam, horizon, max_nodes):
    """One task of ``solve_split``: the values below a batch of frontier histories, one memo."""
    from ._core import _hockey_stick_at_spec

    values, distinct, visited, hits, memo_bytes = _hockey_stick_at_spec(text, source, histories, lam, horizon, max_nodes, 1)
    return {"values": [list(v) for v in values], "distinct_keys": distinct, "nodes_visited": visited,
            "cache_hits": hits, "memo_bytes": memo_bytes}


@dataclass(frozen=True)
class SplitResult:
    """What ``solve_split`` found: sup_A H_λ in both directions (exact), and the cost of the split.

    ``distinct_keys`` lists the memo entries of each task; their sum against the memo entries of one
    whole run (``--stats``) is the work the split duplicates (belief pairs reachable below frontier
    nodes of different tasks are solved in each)."""
    forward: Fraction
    backward: Fraction
    horizon: int
    depth: int
    frontier: int          # distinct belief pairs at the split depth
    top_nodes: int         # distinct belief pairs above it (solved by the client)
    distinct_keys: tuple   # per task
    nodes_visited: tuple   # per task

    @property
    def delta(self):
        return max(self.forward, self.backward)


def solve_split(spec, lam, *, depth=2, horizon=0, tasks=None, grouping="contiguous", scheduler=None, n_workers=None,
                results=None, log=None, executor=None, max_nodes=50_000_000):
    """sup_A H_λ (both directions, exact) of a spec's game, split after ``depth`` rounds into
    independent subgames run as tasks (docs/scaling.md, "Split at a chosen depth").

    ``spec``: a spec file's path or spec text. The client lists the distinct belief pairs after
    ``depth`` rounds (the frontier), deals them into ``tasks`` batches (default: four per worker),
    each batch a task that solves its subgames with one memo, and completes the backward induction
    above the frontier from their exact values: the result equals ``exactdp check`` on the whole
    game. ``grouping``: ``"contiguous"`` keeps frontier nodes in the order they were found (siblings
    together: fewer belief pairs solved twice) or ``"hash"`` deals them round robin (even batches).
    ``scheduler``/``n_workers``/``results``/``log`` as ``Executor`` (or pass ``executor``).
    """
    from ._core import _join_split_spec, _split_spec

    if os.path.exists(spec):
        with open(spec, encoding="utf-8") as f:
            text, source = f.read(), str(spec)
    else:
        text, source = spec, "<spec text>"
    if grouping not in ("contiguous", "hash"):
        raise ValueError(f"solve_split: grouping {grouping!r} is neither 'contiguous' nor 'hash'")
    lam = str(Fraction(lam))
    horizon, frontier, top = _split_spec(text, source, horizon, depth, max_nodes)
    own = executor is None
    ex = executor or Executor(scheduler, n_workers=n_workers, results=results, log=log)
    try:
        n = max(1, min(len(frontier), tasks or 4 * ex.workers))
        if grouping == "contiguous":
            size = -(-len(frontier) // n)
            places = [list(range(i, min(i + size, len(frontier)))) for i in range(0, len(frontier), size)]
        else:
            places = [list(range(i, len(frontier), n)) for i in range(n)]
        batches = [[frontier[k] for k in p] for p in places]
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        job = [Task.of("subgame", {"spec": digest, "lambda": lam, "horizon": horizon, "depth": depth, "grouping": grouping,
                                   "batch": i, "of": len(batches)}, text, source, b, lam, horizon, max_nodes)
               for i, b in enumerate(batches)]
        out = ex.run(_solve_subgames, job)
    finally:
        if own:
            ex.close()
    failed = [r for r in out if isinstance(r, TaskError)]
    if failed:
        raise RuntimeError(f"solve_split: {len(failed)} of {len(out)} subgame tasks failed; first: {failed[0]}")
    values = [None] * len(frontier)  # back in frontier order, whatever the grouping
    for p, r in zip(places, out):
        for k, v in zip(p, r["values"]):
            values[k] = tuple(v)
    fwd, bwd = _join_split_spec(text, source, horizon, depth, lam, values, max_nodes)
    return SplitResult(Fraction(fwd), Fraction(bwd), horizon, depth, len(frontier), top,
                       tuple(r["distinct_keys"] for r in out), tuple(r["nodes_visited"] for r in out))


# ------------------------------------------------------------------------------ command lines
def add_arguments(parser):
    """Adds ``--scheduler``, ``--serial``, ``--workers`` and ``--results`` to an argparse parser."""
    g = parser.add_argument_group("where the tasks run (exactdp.distributed)")
    g.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run the tasks on this running Dask scheduler (default: an embedded LocalCluster)")
    g.add_argument("--serial", action="store_true", help="run the tasks one after the other in this process")
    g.add_argument("--workers", type=int, help="worker processes of the embedded LocalCluster (default: the cores)")
    g.add_argument("--results", metavar="DIR",
                   help="append each finished task to DIR/results.jsonl; a rerun skips the tasks found there")
    return parser


def executor_from_args(args, parser=None, log=None):
    """The ``Executor`` the options of ``add_arguments`` ask for."""
    if args.serial and args.scheduler:
        msg = "--serial and --scheduler exclude each other"
        if parser is not None:
            parser.error(msg)
        raise ValueError(msg)
    scheduler = SERIAL if args.serial else args.scheduler
    return Executor(scheduler, n_workers=args.workers, results=args.results, log=log)
