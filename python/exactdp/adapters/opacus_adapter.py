"""Claims from Opacus's privacy accountants (RDP, PRV, GDP), loaded without torch.

Pinned version: ``python3 -m pip install --no-deps opacus==1.6.0`` (``--no-deps``: Opacus depends on
torch, which the accountants do not use; see exactdp.adapters.opacus_loader for how the accountant
files are loaded without ``opacus/__init__.py``). Each accountant is driven as DP-SGD drives it:
``accountant.step(noise_multiplier=sigma, sample_rate=q)`` once per step, then
``accountant.get_epsilon(delta)``. The mechanism is the Poisson-subsampled Gaussian with noise
multiplier sigma (exactdp ``gauss:sigma=...`` with ``sampling: poisson:q=...``, add/remove
neighbouring); ``sample_rate=1`` is the plain Gaussian mechanism used k times.

Guarantees, in Opacus 1.6.0's own words:

* ``RDPAccountant.get_epsilon``: RDP of the sampled Gaussian (``analysis.rdp.compute_rdp``) and
  ``analysis.rdp.get_privacy_spent``, whose docstring reads "Computes epsilon given a list of Renyi
  Differential Privacy (RDP) values at multiple RDP orders and target delta" via the conversion of
  Balle et al. 2020 ("Hypothesis testing interpretations and Renyi differential privacy",
  Theorem 21), an upper bound: **bound**.
* ``PRVAccountant.get_epsilon`` returns ``eps_upper`` of the discretised PRV with the comment
  "return upper bound as we want guarantee, not just estimate": **bound**.
* ``GaussianAccountant.get_epsilon`` (GDP via the central limit theorem) warns when constructed:
  "GDP accounting is experimental and can underestimate privacy expenditure": **estimate**, with no
  stated error (its measured error is reported).

Whether these match ``opacus.accountants`` imported with torch present: the files executed are the
installed package's own (the loader only replaces the torch-dependent import of
``opacus.optimizers``); python/tests/test_opacus_adapter.py compares both when torch is
importable and is skipped otherwise.
"""
import inspect

from . import _common as C
from . import opacus_loader

PINNED = "1.6.0"
NAME = "opacus"
PACKAGE = "opacus"

# (class, path method, guarantee): see the module docstring for the documentation of each
ACCOUNTANTS = (
    ("RDPAccountant", "bound"),
    ("PRVAccountant", "bound"),
    ("GaussianAccountant", "estimate"),
)

# the scenarios: (sigma, q); q = 1 is the plain Gaussian mechanism
SCENARIOS = ((1.0, 0.01), (2.0, 0.1), (0.8, 0.05), (1.0, 1.0), (4.0, 1.0))

PRELUDE = "opacus_loader"
PRV_MAX_PLAIN_USES = 1000


def loader_source():
    """The loader's source, prepended to Opacus reproducers (they must not import exactdp)."""
    return inspect.getsource(opacus_loader)


def claims(grid="small"):
    accountants = opacus_loader.load_opacus_accountants()
    g = C.GRIDS[grid]
    acc_name = f"opacus {C.version(PACKAGE)}"
    calls = C.Calls({"load_opacus_accountants": opacus_loader.load_opacus_accountants})
    out = []
    for cls, guarantee in ACCOUNTANTS:
        for sigma, q in SCENARIOS:
            ks = g["ks"] if q == 1.0 else g["sub_ks"]
            if cls == "PRVAccountant" and q == 1.0:
                # its grid spans [-L, L] with L about the epsilon at delta/4 and a mesh shrinking like
                # 1/sqrt(k): the plain Gaussian with sigma = 1 at 10 000 uses (epsilon in the thousands)
                # needs hundreds of millions of points (17 GB measured); DP-SGD's small epsilons do not
                ks = [k for k in ks if k <= PRV_MAX_PLAIN_USES]
            for k in ks:
                setup = ("import warnings\n"
                         "accountants = load_opacus_accountants()\n"
                         "with warnings.catch_warnings():\n"
                         "    warnings.simplefilter('ignore')\n"
                         f"    accountant = accountants.{cls}()\n"
                         f"for _ in range({k}):\n"
                         f"    accountant.step(noise_multiplier={sigma!r}, sample_rate={q!r})")
                for delta in g["deltas"]:
                    if delta < 1e-12 and cls == "PRVAccountant":
                        continue  # its floating-point guard refuses such deltas ("Floating point errors will dominate")
                    query = f"accountant.get_epsilon({delta!r})"
                    name = "Gaussian" if q == 1.0 else "subsampled Gaussian"
                    cid = f"opacus/{cls}/{name} sigma={sigma}" + ("" if q == 1.0 else f" q={q}") + f"/k={k}/delta={delta}"
                    path = f"opacus.accountants.{cls}.get_epsilon(step(noise_multiplier, sample_rate) x k)"
                    eps = calls.answer(cid, path, setup, query)  # None (and listed) when the accountant raises
                    rec = C.epsilon_claim(cid, f"gauss:sigma={C.exact(sigma)}", k, delta, eps, acc_name,
                                          sampling=None if q == 1.0 else q, package=PACKAGE, path=path,
                                          guarantee=guarantee, call=C.Calls.text(setup, query))
                    if rec is not None:
                        rec["prelude"] = PRELUDE  # the reproducer defines load_opacus_accountants first
                        out.append(rec)
    return C.document(acc_name, out, calls.failures)
