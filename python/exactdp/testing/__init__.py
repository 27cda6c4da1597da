"""Property testing of mechanisms: ``assert_dp`` for pytest, Hypothesis strategies in
``exactdp.testing.strategies`` (install the ``testing`` extra: ``pip install exactdp[testing]``).

>>> from exactdp.testing import assert_dp
>>> assert_dp(m, lam=3, delta=0)          # doctest: +SKIP
AssertionError: (ln λ, δ)-DP fails for "buggy counter" at λ = 3, δ = 0: worst δ(λ) = 1 up to horizon 2
  neighbours : world 0 and world 1 (pairs, at most 1 differing)
  rounds     : fails from round 2 (holds for 1)
  adversary  : send "1"
                 on "1": send "0" to world 0, "1" to world 1
               (any other answer: stop)
  ...

``assert_dp`` checks the claim with the same engine as ``exactdp check`` (``exactdp.check``). When
it is refuted, the witness is shrunk (src/exactdp/testing/witness.hpp): the engine already finds it
at the least horizon at which the claim fails; then subtrees of the adversary's decision tree are
cut while the claim still fails, the event keeps the fewest views whose excess is above δ, and the
branches that lead to none of them stop. The message shows the neighbouring worlds, the least
failing horizon, the tree as deep as needed, the event and both exact probabilities.

``sweep`` checks one claim at every point of a mechanism factory's parameter grid, each point a
task on Dask (``exactdp.testing.sweep``; the ``distributed`` extra) or in this process.
"""
from ..game import _check
from .sweep import SweepRecord, format_sweep, grid_points, sweep

__all__ = ["PrivacyViolation", "SweepRecord", "assert_dp", "assert_not_dp", "format_sweep", "grid_points", "sweep"]


class PrivacyViolation(AssertionError):
    """The AssertionError of a refuted claim. ``result`` is the check's dict; ``witness`` is the shrunk
    witness (``result["minimal_witness"]``): adversary tree, event, ``probability_world0/1``."""

    def __init__(self, text, result):
        super().__init__(text)
        self.result = result
        self.witness = result.get("minimal_witness")


def assert_dp(mechanism, lam=None, delta=0, horizon=None, *, epsilon=None, max_nodes=None):
    """Asserts that ``mechanism`` (an ``exactdp.Mechanism`` or a spec file's path) is
    (epsilon, delta)-DP against every adaptive adversary up to ``horizon`` (default: its own).

    The claim is ``lam`` = e^epsilon (exact: Fraction, int or a string such as "3/2") or a real
    ``epsilon``, with ``delta`` (default 0, pure DP). Returns ``exactdp.check``'s dict when the claim
    holds; raises ``PrivacyViolation`` (an AssertionError) whose message is the shrunk witness when it
    is refuted.
    """
    __tracebackhide__ = True  # pytest shows the caller's line and the witness, not this frame
    r = _check(mechanism, lam, epsilon, delta, horizon, max_nodes, minimal=True)
    if r["verdict"] == "holds":
        return r
    raise PrivacyViolation(r["refutation_text"], r)


def assert_not_dp(mechanism, lam=None, delta=0, horizon=None, *, epsilon=None, max_nodes=None):
    """The converse, for tests of deliberately broken variants: asserts that the claim is refuted and
    returns the check's dict with its shrunk witness (``"minimal_witness"``, ``"refutation_text"``);
    raises AssertionError when the claim holds."""
    __tracebackhide__ = True
    r = _check(mechanism, lam, epsilon, delta, horizon, max_nodes, minimal=True)
    if r["verdict"] == "holds":
        claim = f"lambda = {r['claim'].get('lambda', r['claim'].get('epsilon'))}, delta = {r['claim']['delta']}"
        raise AssertionError(f"expected the claim ({claim}) to be refuted, but it holds: the worst adaptive adversary up to "
                             f"horizon {r['horizon']} reaches delta = {r['delta']}")
    return r
