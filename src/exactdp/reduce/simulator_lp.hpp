/// @file
/// Exact linear programs for randomized-response simulators (THEOREMS.md B.10): the one-step KOV
/// post-processor of a noninteractive pair and the multi-step LP of HSV Lemma 4.7, with the
/// optional IRR constraints of HSV Lemma 5.6 (bullet 2), solved over the rationals by cddlib's
/// exact (GMP) dual simplex.
#pragma once

#include "exactdp/reduce/vw_sim.hpp"

#include <cstdint>

namespace exactdp {

/// The one-step post-processor of RR_{ε,δ} that reproduces a noninteractive pair (P₀, P₁)
/// (KOV15 universality; THEOREMS.md B.10 first bullet): on (Leak,b) output y ~ φ^b, on (NoLeak,c)
/// output y ~ ψ^c, so that δφ^b + (1−δ)(λψ^b + ψ^{1−b})/(1+λ) = P_b.
struct KovPostProcessor {
  std::array<std::vector<Rational>, 2> no_leak_mass;  ///< u_b(y): the no-leak mass, Σ_y u_b = 1 − δ
  std::array<std::vector<Rational>, 2> leak;          ///< φ^b = (P_b − u_b)/δ (P_b when δ = 0: never used)
  std::array<std::vector<Rational>, 2> no_leak;       ///< ψ^b = (λu_b − u_{1−b})/((1−δ)(λ−1))
};

/// Builds the KOV post-processor of the pair @p masses (y ↦ (P₀(y), P₁(y)), each column summing to
/// 1) at λ and δ. Construction (B.10): start from u_b = min(P_b, λP_{1−b}) (total 1 − H_λ(P_b‖P_{1−b}))
/// and remove the excess e_b = Σu_b − (1 − δ) outcome by outcome in the given order, each time as
/// much as the ratio constraints allow: u₀ ← max(u₀ − e₀, (u₁ − e₁)/λ, 0) and symmetrically. Edge
/// cases: λ = 1 gives ψ⁰ = ψ¹ = u/(1−δ); δ = 1 gives φ^b = P_b and ψ^b = P_b (weight 0).
/// Returns a refusal when H_λ(P_b‖P_{1−b}) > δ for some b (then no post-processor exists).
/// Preconditions: λ ≥ 1, 0 ≤ δ ≤ 1, valid columns (exactdp::Error otherwise).
std::variant<KovPostProcessor, SimulatorRefusal> kov_post_processor(const std::vector<std::pair<Rational, Rational>>& masses,
                                                                    const Rational& lambda, const Rational& delta);

/// How lp_simulator solves the LP.
enum class LpSolver {
  subtree,  ///< exact 2-D polygons propagated up the history tree (default; infeasibility confirmed densely while cheap)
  dense,    ///< cddlib's exact dual simplex on the whole LP, infeasibility with a checked Farkas certificate
};

/// Options of the multi-step LP.
struct SimulatorLpOptions {
  /// The solver (both exact; see lp_simulator).
  LpSolver solver = LpSolver::subtree;
  /// With the subtree solver, an infeasible verdict on a tree of at most this many nodes is also
  /// established by the dense LP with its Farkas certificate (and a disagreement is an error).
  std::size_t dense_confirmation_nodes = 300;
  /// Add (S3) of THEOREMS.md B.10 (HSV L5.6 bullet 2): φ⁰(h) = φ¹(h) and ψ⁰(h) = ψ¹(h) at every h
  /// reached through identical-law steps only (at each step of h, the answer law of the query
  /// asked is the same in both worlds, so the simulator has only seen IRR's b-independent flag).
  bool irr_constraints = false;
  /// Refuse trees with more nodes than this.
  std::size_t max_nodes = 200'000;
  /// Refuse LPs whose dense cddlib representation is estimated (lp_memory_estimate) above this many bytes.
  std::uint64_t max_memory_bytes = std::uint64_t{2} << 30;
};

/// The memory, in bytes, that lp_simulator's dense exact LP is estimated to take in cddlib: about 80
/// bytes per mpq_t entry of the constraint matrix, the LP tableau and the basis inverse (2·rows·cols +
/// cols² entries, with 2·nodes + 1 columns). An estimate from the sizes only, used to refuse before
/// any allocation; the real figure grows with the size of the rationals.
/// @param tree  the system pair  @param delta  δ  @param irr_constraints  whether (S3) rows are added
std::uint64_t lp_memory_estimate(const LikelihoodTree& tree, const Rational& delta, bool irr_constraints);

/// The multi-step LP of HSV Lemma 4.7 (THEOREMS.md B.10): unknowns φ^b(h), ψ^b(h) ≥ 0 at every node
/// with (S0) value 1 at ∅, (S1) Σ_a x(h∘(q,a)) = x(h) for every query q (so each is a system), and
/// (S2) M^b(h) = δφ^b(h) + (1−δ)(λψ^b(h) + ψ^{1−b}(h))/(1+λ) at every full history; with
/// @p options.irr_constraints also (S3). Solved exactly by cddlib (GMP rationals, dual simplex) in
/// an equivalent reduced form with half the unknowns: for 0 < δ < 1, (S2) defines φ^b from ψ⁰, ψ¹,
/// and φ^b is then automatically a system with φ^b(∅) = 1, so only φ^b ≥ 0 remains, as the leaf
/// inequality (1−δ)(λψ^b + ψ^{1−b}) ≤ (1+λ)M^b; for δ = 0 that row is an equality (φ carries no
/// weight); δ = 1 needs no LP (φ^b = M^b). (S3) reduces to ψ⁰ = ψ¹ at the tied nodes, where M⁰ = M¹.
///
/// Solvers (options.solver). *subtree* (default): the reduced LP couples a node's (ψ⁰, ψ¹) with its
/// children only, so the set F_h of values at h for which h's subtree can satisfy its constraints is
/// a convex polygon in [0, 1]² — at a full history two half-planes (two lines for δ = 0), above it
/// the intersection over queries of the Minkowski sums over answers, cut by the diagonal at tied
/// nodes — computed bottom-up exactly over ℚ; the LP is feasible iff (1, 1) ∈ F_∅, and a solution is
/// read off top-down (each value split among the answers of every query within the children's
/// sets). Cost: linear in the tree times polygon sizes, so trees of many thousands of histories are
/// solved. An infeasible verdict on a tree of at most options.dense_confirmation_nodes nodes is
/// also established by *dense*: cddlib's exact dual simplex on the whole reduced LP, whose
/// infeasibility comes with a Farkas certificate (weights on the constraints whose combination,
/// with ψ ≥ 0, is contradictory) found by a second exact LP and checked by exact matrix arithmetic
/// here; a disagreement of the two solvers is an exactdp::Error.
/// Feasible: the simulator whose systems (Leak,b) ∝ φ^b and (NoLeak,c) ∝ ψ^c (conditionals
/// x(h∘(q,a))/x(h), uniform where x(h) = 0), still to be checked with verify_simulator.
/// Infeasible: a refusal stating why.
/// Preconditions: λ ≥ 1, 0 ≤ δ ≤ 1 (exactdp::Error); a tree within options.max_nodes
/// (exactdp::GameTooLarge); for the dense solver, an LP within options.max_memory_bytes by
/// lp_memory_estimate (exactdp::Error naming the estimate).
SimulatorBuild lp_simulator(const LikelihoodTree& tree, const Rational& lambda, const Rational& delta,
                            const SimulatorLpOptions& options = {});

/// The nodes that (S3) ties together: every non-root node reached only through identical-law
/// steps (see SimulatorLpOptions::irr_constraints), in node order.
std::vector<std::size_t> identical_law_nodes(const LikelihoodTree& tree);

}  // namespace exactdp
