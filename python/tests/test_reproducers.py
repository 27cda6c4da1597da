"""Standalone reproducers (exactdp.adapters.reproduce): each runs with exactdp unimportable.

A reproducer is run in a fresh interpreter with a clean environment (no PYTHONPATH) in which
``import exactdp`` fails (``sys.modules["exactdp"] = None`` before the script runs), so any use of
exactdp would crash it. The accountant and mpmath come from the interpreter's site-packages.
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from exactdp.adapters import _common as C
from exactdp.adapters import reproduce
from exactdp.audit_all import judge

BLOCK = "import sys, runpy; sys.modules['exactdp'] = None; runpy.run_path(sys.argv[1], run_name='__main__')"


def run_without_exactdp(path, tmp_path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-c", BLOCK, str(path)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)


def test_blocking_exactdp_really_blocks_it(tmp_path):
    script = tmp_path / "uses_exactdp.py"
    script.write_text("import exactdp\n")
    out = run_without_exactdp(script, tmp_path)
    assert out.returncode != 0 and ("ImportError" in out.stderr or "ModuleNotFoundError" in out.stderr)


def test_dp_accounting_rr_reproducer_runs_without_exactdp(tmp_path):
    pytest.importorskip("dp_accounting")
    pytest.importorskip("mpmath")
    from exactdp.adapters import google_dp_accounting as adapter

    doc = adapter.claims(ks=(10,), only=("randomized response p=0.5",))
    rec = next(c for c in doc["claims"] if c["id"] == "pldacc/randomized response p=0.5/k=10/delta=1e-05")
    [row] = judge(C.document("t", [rec]))
    path = reproduce.write(row, str(tmp_path / "dp_accounting-001.py"), "test")
    text = open(path, encoding="utf-8").read()
    assert not re.search(r"^\s*(import|from)\s+exactdp", text, re.M)  # and the run below would fail if it did
    out = run_without_exactdp(path, tmp_path)
    assert out.stderr == "" or "Warning" in out.stderr, out.stderr
    assert repr(rec["raw"]) in out.stdout
    # the truth printed: eps* = 10 ln 3 + ln(1 - 1e-5/(3/4)^10), hand-derived (test_adapters.py)
    truth = 10 * math.log(3) + math.log1p(-1e-5 / 0.75 ** 10)
    line = next(x for x in out.stdout.splitlines() if x.startswith("true least epsilon"))
    assert abs(float(line.split()[-1]) - truth) < 1e-12
    # exit status 1 exactly when the accountant's epsilon is below the truth
    assert out.returncode == (1 if rec["raw"] < truth else 0), out.stdout


def test_gaussian_reproducer_truth_is_the_gdp_closed_form(tmp_path):
    # a hand-made record whose call returns a fixed number: sigma = 1, k = 100 (mu = 10), delta = 1e-10;
    # the truth is 112.840327 (test_adapters.py), so 112.84 is false and 113 holds
    pytest.importorskip("mpmath")
    for value, status in ((112.84, 1), (113.0, 0)):
        rec = C.epsilon_claim("g", "gauss:sigma=1,sensitivity=1", 100, 1e-10, value, "hand", package="mpmath",
                              path="hand.value", guarantee="bound", call=f"value = {value!r}\n")
        row = dict(rec, kind="epsilon", truth=(Fraction("112.840326"), Fraction("112.840328")), how="hand",
                   _call=rec["call"])
        out = run_without_exactdp(reproduce.write(row, str(tmp_path / f"g{status}.py")), tmp_path)
        assert out.returncode == status, out.stdout + out.stderr
        line = next(x for x in out.stdout.splitlines() if x.startswith("true least epsilon"))
        assert abs(float(line.split()[-1]) - 112.840327) < 1e-6


def test_opacus_reproducer_inlines_the_loader(tmp_path):
    if C.version("opacus") is None:
        pytest.skip("opacus is not installed (scripts/test.sh pip-installs it with --no-deps)")
    from exactdp.adapters import opacus_adapter

    rec = opacus_adapter.claims("ci")["claims"][0]
    assert rec["prelude"] == opacus_adapter.PRELUDE
    # a certified truth well below the claim: the script must run and find nothing false
    row = dict(rec, kind="epsilon", truth=(Fraction(0), Fraction(1, 100)), how="hand", _call=rec["call"])
    out = run_without_exactdp(reproduce.write(row, str(tmp_path / "opacus-001.py")), tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert repr(rec["raw"]) in out.stdout and "not shown false" in out.stdout
