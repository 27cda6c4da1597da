"""The Opacus adapter: accountants loaded without torch (exactdp.adapters.opacus_loader).

Skipped unless opacus is installed (scripts/test.sh: pip install --no-deps opacus==1.6.0). The RDP
accountant's answer for the plain Gaussian (sample_rate = 1) is checked against an independent
route: the Gaussian mechanism's RDP is k alpha / (2 sigma^2) (Mironov 2017, Proposition 7), converted
with the formula of Balle et al. 2020 (Theorem 21) that Opacus documents,
eps = min over alpha of rdp - (ln delta + ln alpha)/(alpha - 1) + ln((alpha - 1)/alpha), over
Opacus's default orders (restated here). When torch is importable, the accountants are also
compared with ``opacus.accountants`` imported the ordinary way.
"""
import importlib.util
import math
import subprocess
import sys

import pytest

from exactdp.adapters import _common as C

if C.version("opacus") is None:
    pytest.skip("opacus is not installed (scripts/test.sh pip-installs it with --no-deps)", allow_module_level=True)

from exactdp.adapters import opacus_loader  # noqa: E402

ORDERS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))


def test_loader_imports_neither_torch_nor_the_opacus_package():
    code = ("import sys\nfrom exactdp.adapters import opacus_loader\nacc = opacus_loader.load_opacus_accountants()\n"
            "assert 'torch' not in sys.modules, 'torch imported'\nassert 'opacus' not in sys.modules\n"
            "assert acc.RDPAccountant.__module__ == '_exactdp_opacus.accountants.rdp'\nprint('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    acc = opacus_loader.load_opacus_accountants()
    # the files executed are the installed package's own
    assert acc.analysis.rdp.__file__.startswith(acc.opacus_dir)


@pytest.mark.parametrize("sigma,k,delta", [(1.0, 1, 1e-5), (1.0, 10, 1e-5), (4.0, 100, 1e-10)])
def test_rdp_epsilon_of_the_gaussian_against_the_closed_form(sigma, k, delta):
    acc = opacus_loader.load_opacus_accountants().RDPAccountant()
    for _ in range(k):
        acc.step(noise_multiplier=sigma, sample_rate=1.0)
    expected = min(k * a / (2 * sigma ** 2) - (math.log(delta) + math.log(a)) / (a - 1) + math.log((a - 1) / a)
                   for a in ORDERS)
    assert acc.get_epsilon(delta) == pytest.approx(expected, rel=1e-12)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed: the accountants cannot "
                    "be compared with opacus imported the ordinary way")
def test_same_answers_as_opacus_imported_with_torch():
    import opacus.accountants as real

    mine = opacus_loader.load_opacus_accountants()
    for cls in ("RDPAccountant", "PRVAccountant"):
        a, b = getattr(real, cls)(), getattr(mine, cls)()
        for _ in range(10):
            a.step(noise_multiplier=1.0, sample_rate=0.01)
            b.step(noise_multiplier=1.0, sample_rate=0.01)
        assert a.get_epsilon(1e-5) == b.get_epsilon(1e-5), cls


def test_claims_carry_the_documented_guarantees():
    from exactdp.adapters import opacus_adapter

    doc = opacus_adapter.claims("ci")
    guarantees = {c["path"].split(".")[2]: c["guarantee"] for c in doc["claims"]}
    assert guarantees == {"RDPAccountant": "bound", "PRVAccountant": "bound", "GaussianAccountant": "estimate"}
    assert all(c["package"] == "opacus" and c["version"] == C.version("opacus") for c in doc["claims"])
