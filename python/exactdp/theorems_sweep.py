"""The theorem checks of ``exactdp theorems check``, one theorem per task, on Dask or serially.

    python -m exactdp.theorems_sweep [ID ...] [--budget small|default|long] [--random N] [--seed S]
                                     [--max-horizon H] [--json] [--verbose]
                                     [--scheduler tcp://HOST:PORT | --serial] [--results DIR]

Every theorem is checked by its own ``exactdp theorems check ID ...`` process (the command line's
checks depend only on the budget, the seed and the theorem's id, so a theorem checked alone gives
the row it gives in a full run). The rows are printed in the registry's order under the command's
own header, so the output is the output of ``exactdp theorems check`` with the same options, byte
for byte apart from the time column (and the ``"seconds"`` fields with ``--json``). The exit status
follows the command's: 1 when a check failed, else 2 when a check was refused, else 0.

The executable is ``--exactdp-bin``, else ``$EXACTDP_BIN``, else ``exactdp`` on the PATH; on a
cluster it must exist at that path on every worker. A theorem whose process could not run (no
executable, a crash) is reported on stderr with its task key and makes the exit status 2.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

from . import distributed


def _ids(exe):
    """The registry's theorem ids, in its order (the first column of ``exactdp theorems``)."""
    out = subprocess.run([exe, "theorems"], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in out.stdout.splitlines() if line.strip()]


def _check_one(exe, theorem, options):
    """One task: ``exactdp theorems check ID OPTIONS``; returns its exit status and its output."""
    out = subprocess.run([exe, "theorems", "check", theorem, *options], capture_output=True, text=True)
    if out.returncode not in (0, 1, 2) or (out.returncode == 2 and not out.stdout):
        raise RuntimeError(f"exactdp exited with status {out.returncode}: {out.stderr.strip()[-2000:]}")
    return {"status": out.returncode, "stdout": out.stdout}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ids", nargs="*", metavar="ID", help="theorem ids (default: every registered theorem)")
    ap.add_argument("--budget", choices=("small", "default", "long"))
    ap.add_argument("--random", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--max-horizon", type=int)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--exactdp-bin", help="the exactdp executable (default: $EXACTDP_BIN, else exactdp on the PATH)")
    distributed.add_arguments(ap)
    args = ap.parse_args(argv)
    exe = args.exactdp_bin or os.environ.get("EXACTDP_BIN") or shutil.which("exactdp")
    if not exe:
        ap.error("no exactdp executable: pass --exactdp-bin or set EXACTDP_BIN")
    options = []
    for flag, value in (("--budget", args.budget), ("--random", args.random), ("--seed", args.seed),
                        ("--max-horizon", args.max_horizon)):
        if value is not None:
            options += [flag, str(value)]
    options += ["--json"] * args.json + ["--verbose"] * args.verbose
    ids = args.ids or _ids(exe)
    tasks = [distributed.Task.of("theorem", {"id": t, "options": options}, exe, t, options) for t in ids]
    with distributed.executor_from_args(args, ap) as ex:
        outcomes = ex.run(_check_one, tasks)
    status = 0
    rows, header, lost = [], None, False
    for t, o in zip(ids, outcomes):
        if isinstance(o, distributed.TaskError):
            lost = True
            continue
        status = max(status, 1 if o["status"] == 1 else 0)
        lost |= o["status"] == 2  # refused (or a bad id: the command said so on stderr)
        if args.json:
            doc = json.loads(o["stdout"])
            header = {k: v for k, v in doc.items() if k != "theorems"}
            rows += doc["theorems"]
        else:
            head, _, body = o["stdout"].partition("\n")
            header = head
            rows.append(body)
    if args.json:
        doc = dict(header or {"budget": args.budget or "default", "seed": args.seed})
        doc["theorems"] = rows
        sys.stdout.write(json.dumps(dict(sorted(doc.items())), indent=2, ensure_ascii=False) + "\n")
    elif header is not None:
        sys.stdout.write(header + "\n" + "".join(rows))
    return status if status else (2 if lost else 0)


if __name__ == "__main__":
    sys.exit(main())
