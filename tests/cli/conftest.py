"""Shared by the command-line tests: the program under test and the one way they run it.

The binary is $EXACTDP_BIN (ctest passes the CLI it built, sanitized in CI), else `exactdp` on PATH.
Test files import these names (`from conftest import run`); pytest puts this folder on sys.path
because it has no __init__.py.
"""
import os
import subprocess

EXE = os.environ.get("EXACTDP_BIN", "exactdp")
# Set by tests/CMakeLists.txt when that binary is built with the sanitizers (the CI build).
SANITIZED = os.environ.get("EXACTDP_SANITIZED") == "1"


def run(*args, expect=0, stdin=None, timeout=600):
    """Runs `exactdp ARGS` (each passed through str()) with @p stdin as its input and returns the
    completed process. Fails the test, showing both streams, when the exit status is not @p expect;
    expect=None leaves the status to the caller. @p timeout guards against a hang (sanitized builds
    under load are slow, hence the generous default); it is not a speed requirement."""
    p = subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, timeout=timeout, input=stdin)
    if expect is not None:
        assert p.returncode == expect, f"exit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    return p
