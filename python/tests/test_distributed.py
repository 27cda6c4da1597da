"""exactdp.distributed, exactdp.testing.sweep and audit_all/theorems_sweep on a real Dask cluster.

A module fixture starts ``dask scheduler`` and two ``dask worker`` processes on localhost (random
free ports) and tears them down; the sweep's records and text, the audit's results and report and
the theorem table computed there are compared with a serial run of the same code. The sweep's
verdicts are also checked against a hand-derived closed form: for randomised response answering
truthfully with probability p, h rounds against adaptive adversaries are (ln λ, 0)-DP iff
(p / (1 - p))^h <= λ (p >= 1/2; the worst event answers "truth" every round). Skipped when dask
is not importable.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time
from fractions import Fraction as F

import pytest

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'exactdp[distributed]')")
import cloudpickle  # noqa: E402 - a dependency of distributed
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import exactdp  # noqa: E402
from exactdp import audit_all, theorems_sweep  # noqa: E402
from exactdp.distributed import Executor, Task, TaskError, decode, encode, stable_key  # noqa: E402
from exactdp.testing import format_sweep, sweep  # noqa: E402

# the workers cannot import this test module: its functions travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

CALLS = []  # factory calls in this process (the resume test)


def rr(p, rounds=1):
    """Randomised response, truthful with probability p, for ``rounds`` queries."""
    CALLS.append(p)

    def step(bit, message):
        return {(bit, bit): p, (1 - bit, bit): 1 - p}
    return exactdp.Mechanism.from_step(step, initial={"x": 0, "x'": 1}, neighbours={"type": "static", "worlds": ["x", "x'"]},
                                       messages=["q"], horizon=rounds, name="RR")


def broken(p, rounds=1):
    """Fails at p = 1/2 (a worker-side exception the sweep must report, not drop)."""
    if p == F(1, 2):
        raise ZeroDivisionError("no mechanism at p = 1/2")
    return rr(p, rounds)


def holds_by_closed_form(p, rounds, lam):
    ratio = max(p, 1 - p) / min(p, 1 - p) if min(p, 1 - p) > 0 else None
    return ratio is not None and ratio ** rounds <= lam


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two single-thread workers, each its own process; yields a connected Client."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [os.path.dirname(os.path.dirname(exactdp.__file__)),
                                                                   os.environ.get("PYTHONPATH", "")] if p))
    dask = [sys.executable, "-m", "dask"]
    procs = [subprocess.Popen(dask + ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(dask + ["worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                                                  "--memory-limit", "0", "--host", "127.0.0.1"],
                                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.time() + 30
        client = None
        while client is None:
            try:
                client = distributed.Client(address, timeout="2s")
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.3)
        client.wait_for_workers(2, timeout=40)
        yield client
        client.shutdown()  # the scheduler and the workers stop (faster than signals to each)
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


# ------------------------------------------------------------------------------ executor
values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.fractions()
                      | st.floats(allow_nan=False),
                      lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=10)


def same(a, b):
    """Equal and of the same types all the way down (1 == 1.0 == Fraction(1) would not do)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


@settings(max_examples=200, deadline=None)
@given(values)
def test_encode_round_trips_through_json(v):
    assert same(decode(json.loads(json.dumps(encode(v)))), v)


def test_stable_key_depends_on_the_parameters_only():
    # same parameters in another order: same key; another value: another key
    assert stable_key("t", {"a": 1, "b": F(1, 3)}) == stable_key("t", {"b": F(1, 3), "a": 1})
    assert stable_key("t", {"a": 1, "b": F(1, 3)}) != stable_key("t", {"a": 1, "b": F(2, 3)})
    with pytest.raises(ValueError, match="repeated task keys"):
        Executor("serial").run(pow, [Task.of("p", {"x": 1}, 2, 1), Task.of("p", {"x": 1}, 2, 2)])


def divide(a, b):
    return F(a, b)


def test_failures_keep_their_place_key_and_parameters(cluster):
    tasks = [Task.of("div", {"a": 1, "b": b}, 1, b) for b in (2, 0, 3)]
    for scheduler in ("serial", cluster):
        logged = []
        out = Executor(scheduler, log=logged.append).run(divide, tasks)
        assert out[0] == F(1, 2) and out[2] == F(1, 3)
        err = out[1]
        assert isinstance(err, TaskError) and err.key == tasks[1].key and err.params == {"a": 1, "b": 0}
        assert err.error == "ZeroDivisionError" and "divide" in err.traceback
        assert logged == [str(err)] and tasks[1].key in logged[0] and "b=0" in logged[0]


# ------------------------------------------------------------------------------ sweep
GRID = {"p": [F(1, 2), F(2, 3), F(3, 4), F(4, 5), F(9, 10)], "rounds": [1, 2]}


def test_sweep_on_the_cluster_equals_serial_and_the_closed_form(cluster):
    serial = sweep(rr, GRID, lam=3, scheduler="serial")
    dist = sweep(rr, GRID, lam=3, scheduler=cluster)
    assert serial == dist
    assert format_sweep(serial) == format_sweep(dist)
    assert [r.params for r in serial] == [{"p": p, "rounds": h} for p in GRID["p"] for h in GRID["rounds"]]
    for r in serial:
        assert r.holds == holds_by_closed_form(r.params["p"], r.params["rounds"], 3), r
        assert (r.witness is not None) == (not r.holds)
    # p = 4/5, one round: delta(3) = 4/5 - 3 * 1/5 = 1/5 (the event "truth")
    assert serial[6].params == {"p": F(4, 5), "rounds": 1} and serial[6].delta == F(1, 5)


def test_sweep_reports_a_failing_point_and_keeps_the_others(cluster):
    grid = {"p": [F(3, 4), F(1, 2), F(9, 10)]}
    for scheduler in ("serial", cluster):
        records = sweep(broken, grid, lam=3, scheduler=scheduler, log=lambda m: None)
        assert [r.verdict for r in records] == ["holds", "error", "refuted"]
        assert "ZeroDivisionError: no mechanism at p = 1/2" in records[1].error and 'point={"p": "1/2"}' in records[1].error
        assert records[1].error.startswith("task sweep-")


def test_sweep_resumes_from_its_results(tmp_path):
    grid = {"p": [F(2, 3), F(9, 10)]}
    first = sweep(rr, grid, lam=3, scheduler="serial", results=str(tmp_path))
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(x)["ok"] for x in lines)
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write('{"key": "sweep-cut sh')  # a line cut short by a crash is ignored
    CALLS.clear()
    again = sweep(rr, dict(grid, p=grid["p"] + [F(4, 5)]), lam=3, scheduler="serial", results=str(tmp_path),
                  log=lambda m: None)
    assert CALLS == [F(4, 5)]  # only the new point ran
    assert again[:2] == first and again[2].params == {"p": F(4, 5)}
    # another claim is another task
    CALLS.clear()
    sweep(rr, grid, lam=4, scheduler="serial", results=str(tmp_path))
    assert CALLS == grid["p"]


@pytest.fixture(scope="module")
def local_cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as c, distributed.Client(c) as client:
        yield client


fractions = st.builds(F, st.integers(1, 9), st.just(10))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(fractions, min_size=1, max_size=4, unique=True), st.lists(st.integers(1, 2), min_size=1, max_size=2, unique=True),
       st.integers(1, 6))
def test_sweep_serial_equals_local_cluster(local_cluster, ps, rounds, lam):
    grid = {"p": ps, "rounds": rounds}
    assert sweep(rr, grid, lam=lam, scheduler="serial") == sweep(rr, grid, lam=lam, scheduler=local_cluster)


# ------------------------------------------------------------------------------ audit
CLAIMS = {"format": "exactdp-claims/1", "accountant": "hand", "claims": [
    {"id": "sound", "mechanism": "rr:lambda=11/10", "times": 10, "delta": "1/1000", "claimed_epsilon": "0.72"},
    {"id": "unsound", "mechanism": "rr:lambda=11/10", "times": 10, "delta": "1/1000", "claimed_epsilon": "0.7"},
    {"id": "tv", "mechanism": "rr:lambda=2", "times": 2, "epsilon": "0", "claimed_delta": "1/2"},
    {"id": "gauss", "mechanism": "gauss:sigma=1", "epsilon": "1", "claimed_delta": "0.12"},
]}


def test_audit_claims_as_tasks_equal_the_whole_document(cluster):
    whole = exactdp.audit(CLAIMS)
    assert [r["verdict"] for r in whole] == ["sound", "unsound", "sound", "unsound"]  # as test_exactdp.py
    for scheduler in ("serial", cluster):
        ex = Executor(scheduler)
        assert audit_all._audit_as_tasks(CLAIMS, None, 1024, 40000, ex) == whole
        # every claim here is audited in milliseconds: one task for the four
        assert len(ex.batches) == 1 and len(ex.batches[0]) == 1


def test_audit_layout_keeps_shared_laws_together_and_splits_grid_brackets():
    sub = {"mechanism": "gauss:sigma=1", "sampling": "poisson:q=1/100", "times": 10}
    lap = {"mechanism": "laplace:b=1", "times": 10}
    cheap = [dict(c, id=c["id"] + "2") for c in CLAIMS["claims"]] * 20  # repeats: 80 cheap claims
    claims = (CLAIMS["claims"] + [dict(sub, id=f"s{d}", delta=f"1/10^{d}", claimed_epsilon="1") for d in (5, 10)]
              + [dict(lap, id=f"l{d}", delta=f"1/10^{d}", claimed_epsilon="3") for d in (5, 10)] + cheap)
    layout = audit_all._audit_layout({"claims": claims})
    assert sorted(i for t in layout for i in t) == list(range(len(claims)))  # each claim once
    assert [4] in layout and [5] in layout  # grid brackets share nothing: a task each
    assert [6, 7] in layout  # the k-fold Laplace claims share their composed law: one task
    # claims differing only in the claimed value share a task; cheap tasks hold several groups
    assert next(t for t in layout if 0 in t) == next(t for t in layout if 1 in t)
    assert all(len(t) > 2 for t in layout if t[0] not in (4, 5, 6))
    assert 1 < len([t for t in layout if t[0] not in (4, 5, 6)]) < 20


def test_a_bad_claim_is_named_by_its_place_in_the_document():
    bad = dict(CLAIMS, claims=CLAIMS["claims"][:2] + [dict(CLAIMS["claims"][2], sampling="poisson:q=2")])
    with pytest.raises(RuntimeError, match=r"1 of 1 tasks \(3 claims\) .*\n.*/claims/2/sampling"):
        audit_all._audit_as_tasks(bad, None, 1024, 40000, Executor("serial", log=lambda m: None))


def mask_times(text):
    text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "<date>", text)
    return re.sub(r"\d+(\.\d+)? ?s\b", "<t>", text)


def test_audit_report_on_the_cluster_equals_serial(cluster, tmp_path):
    pytest.importorskip("opendp", reason="opendp (the audited accountant of this test) is not installed")
    reports = {}
    for name, ex in (("plain", None), ("serial", Executor("serial")), ("cluster", Executor(cluster))):
        out = tmp_path / name
        report, _ = audit_all.run(["opendp"], "ci", str(out), log=lambda m: None, executor=ex)
        report.pop("seconds")
        for acc in report["accountants"].values():
            acc.pop("claims_file", None)
        reports[name] = (report, mask_times((out / "report.md").read_text().replace(str(out), "<out>")))
    assert reports["plain"][0]["accountants"]["opendp"]["results"]  # the audit did run
    assert reports["serial"] == reports["plain"] and reports["cluster"] == reports["plain"]


# ------------------------------------------------------------------------------ theorems
@pytest.mark.skipif(not os.environ.get("EXACTDP_BIN"), reason="EXACTDP_BIN (the exactdp command) is not set")
def test_theorem_table_on_the_cluster_equals_the_command(cluster, capsys):
    exe = os.environ["EXACTDP_BIN"]
    ids = theorems_sweep._ids(exe)[:4]
    cmd = subprocess.run([exe, "theorems", "check", *ids, "--budget", "small"], capture_output=True, text=True)
    status = theorems_sweep.main([*ids, "--budget", "small", "--exactdp-bin", exe,
                                  "--scheduler", cluster.scheduler.address])
    out = capsys.readouterr().out
    assert status == cmd.returncode
    mask = lambda t: re.sub(r"\d+\.\d\ds$", "<t>", t, flags=re.M)  # noqa: E731 - the time column
    assert mask(out) == mask(cmd.stdout) and len(out.splitlines()) > len(ids)


# ------------------------------------------------------------------------------ one game split into subgames
SVT = os.path.join(os.path.dirname(__file__), "..", "..", "spec", "mechanisms", "above-threshold.json")


@pytest.mark.parametrize("depth,grouping", [(1, "contiguous"), (2, "hash"), (3, "contiguous")])
def test_split_game_on_the_cluster_equals_the_whole_search(cluster, depth, grouping):
    # second route: the same engine run on the whole game (the empty history is the root)
    from exactdp._core import _hockey_stick_at_spec

    text = open(SVT, encoding="utf-8").read()
    (whole,), *_ = _hockey_stick_at_spec(text, SVT, [[]], "16", 5, 50_000_000, 1)
    for scheduler in ("serial", cluster):
        r = exactdp.distributed.solve_split(SVT, 16, depth=depth, horizon=5, tasks=3, grouping=grouping, scheduler=scheduler)
        assert (r.forward, r.backward) == (F(whole[0]), F(whole[1]))
        assert r.depth == depth and r.horizon == 5 and len(r.distinct_keys) <= 3
        assert sum(r.distinct_keys) > 0


def test_split_game_rejects_a_depth_at_the_horizon():
    with pytest.raises(exactdp.Error):
        exactdp.distributed.solve_split(SVT, 16, depth=5, horizon=5, scheduler="serial")


def test_a_worker_with_other_versions_or_threads_refuses_to_produce_claims():
    # the accountants' floats may change with numpy's version or BLAS's thread count; the check runs
    # before the accountant, and audit_all then produces those claims in the client instead
    here = {k: v for k, v in audit_all.environment().items() if k != "platform"}
    here["threads"] = exactdp.distributed.thread_settings()
    for field, other in (("numpy", "0.0"), ("threads", "OPENBLAS_NUM_THREADS=1" if "=" not in here["threads"] else "1 CPUs")):
        with pytest.raises(audit_all.OtherEnvironment, match=field):
            audit_all._produce_claims("opendp", "ci", dict(here, **{field: other}))


def _worker_settings():
    """What a worker process runs with: the variables Dask would set before spawning it, the
    objects frozen out of the garbage collector, and the event-loop tick."""
    import gc

    import dask

    from exactdp.distributed import _THREAD_VARIABLES
    return ({k: os.environ.get(k) for k in ("MALLOC_TRIM_THRESHOLD_", *_THREAD_VARIABLES)}, gc.get_freeze_count(),
            dask.config.get("distributed.admin.tick.interval"))


def test_the_executors_local_cluster_runs_its_workers_as_this_process():
    # Dask's defaults would set MALLOC_TRIM_THRESHOLD_=65536 and pin the BLAS threads to 1 in a
    # worker (distributed.yaml, nanny.pre-spawn-environ): expected here is this process's own
    # environment, read directly, and Dask's objects frozen by the executor's worker plugin
    with Executor(None, n_workers=1) as ex:
        (env, frozen, tick), = ex._client.run(_worker_settings).values()
    mine = {k: os.environ.get(k) for k in env}
    assert env == mine
    assert frozen > 1000  # distributed and tornado alone are tens of thousands of objects
    assert tick == "1s"
