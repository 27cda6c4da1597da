"""The small CI audit of the installed accountants (scripts/test.sh installs them at the versions
pinned in python/pyproject.toml [audit]; a peer that is not installed is skipped with a message).

Each test asks one accountant for its claims over the "ci" grid, audits them with exactdp
(exactdp.audit_all.judge), and checks what the accountant documents about itself against exactdp's
exact or certified truth: a value it documents as an upper bound must not be unsound. These are real
checks: a documented upper bound below a certified lower bound of the truth fails the test
(exactdp's verdict "unsound" needs the claim to lie below a certified lower bound; "undecided" is
not a failure). Every row must carry the record keys of docs/audit.md.
"""
import importlib
from fractions import Fraction

import pytest

from exactdp.adapters import _common as C
from exactdp.audit_all import ADAPTERS, judge

# brackets refined at most to this resolution (audit_all's default is 1024): a claim within a coarser
# bracket stays undecided, which these tests accept, and the audit stays within seconds in CI's
# Debug+ASan build
GRID_RESOLUTION = 8

PACKAGES = {"dp_accounting": "dp_accounting", "opendp": "opendp", "prv_accountant": "prv_accountant",
            "autodp": "autodp", "opacus": None}


def run(name):
    package = PACKAGES[name]
    if package is not None:
        pytest.importorskip(package, reason=f"{name} is not installed (scripts/test.sh pip-installs the pinned version)")
    elif C.version("opacus") is None:
        pytest.skip("opacus is not installed (scripts/test.sh pip-installs it with --no-deps)")
    adapter = importlib.import_module(ADAPTERS[name])
    doc = adapter.claims(grid="ci")
    assert doc["format"] == "exactdp-claims/1" and doc["claims"]
    rows = judge(doc, grid_resolution=GRID_RESOLUTION)
    assert [r["id"] for r in rows] == [c["id"] for c in doc["claims"]]
    for r in rows:
        # the record keys of every audited number
        assert r["accountant"] and r["package"] == adapter.PACKAGE and r["version"] == C.version(adapter.PACKAGE)
        assert r["path"] and r["guarantee"] in ("bound", "estimate")
        # raw is the accountant's float, and the audited claim is its exact value (never clamped)
        assert isinstance(r["raw"], float) and r["claimed"] == Fraction(r["raw"])
        assert r["verdict"] in (("sound", "unsound", "undecided") if r["guarantee"] == "bound" else ("estimate",))
    return {r["id"]: r for r in rows}


def relative_shortfall(r):
    """How far below the truth a claim is, relative (0 for claims at or above it)."""
    if r["exactdp_verdict"] != "unsound" or r["slack_relative"] is None:
        return 0
    rel = r["slack_relative"]
    return -(rel[0] if isinstance(rel, tuple) else rel)


def test_opendp_upper_bounds_hold():
    # OpenDP's privacy maps are upper bounds by design (pure epsilon of Laplace/RR, the zCDP cast)
    results = run("opendp")
    assert all(r["verdict"] != "unsound" for r in results.values()), [i for i, r in results.items() if r["verdict"] == "unsound"]


def test_prv_eps_upper_is_an_upper_bound_and_estimates_are_not_judged():
    results = run("prv_accountant")
    bad = [i for i, r in results.items() if i.endswith("/upper") and r["verdict"] == "unsound"]
    assert not bad, bad
    estimates = {i: r for i, r in results.items() if i.endswith("/estimate")}
    assert estimates and all(r["verdict"] == "estimate" and r["guarantee"] == "estimate" for r in estimates.values())
    # the estimate is reported with its error and the error the accountant documents
    for r in estimates.values():
        assert r["documented_error"] == {"eps_error": 0.01} and r["versus_truth"] in (
            "below the truth", "at or above the truth", "undecided")


def test_autodp_gaussian_claims_hold_and_rr_errs_only_in_the_last_bits():
    results = run("autodp")
    gauss = {i: r for i, r in results.items() if "Gaussian" in i}
    assert gauss and all(r["verdict"] != "unsound" for r in gauss.values())
    # RR and one-use Laplace are answered to the last bits of a float: any shortfall is rounding
    assert all(relative_shortfall(r) < 1e-12 for r in results.values())


def test_dp_accounting_rdp_claims_are_upper_bounds_and_three_paths_are_audited():
    results = run("dp_accounting")
    rdp = {i: r for i, r in results.items() if i.startswith("rdp/")}
    assert rdp and all(r["verdict"] != "unsound" for r in rdp.values())
    prefixes = {i.split("/")[0] for i in results}
    assert prefixes == {"pld", "pldacc", "rdp"}
    assert "dp_accounting.pld.PLDAccountant.get_epsilon(SelfComposedDpEvent(GaussianDpEvent))" in {
        r["path"] for r in results.values()}


def test_opacus_rdp_and_prv_bounds_hold_gdp_is_an_estimate():
    results = run("opacus")
    by_class = {cls: {i: r for i, r in results.items() if i.split("/")[1] == cls}
                for cls in ("RDPAccountant", "PRVAccountant", "GaussianAccountant")}
    assert all(by_class.values())
    for cls in ("RDPAccountant", "PRVAccountant"):
        assert all(r["verdict"] != "unsound" for r in by_class[cls].values()), cls
    assert all(r["verdict"] == "estimate" for r in by_class["GaussianAccountant"].values())


def test_grids_are_well_formed():
    for g in C.GRIDS.values():
        assert set(g) == {"ks", "deltas", "epsilons", "sub_ks"}
