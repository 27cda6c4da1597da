/// @file
/// Randomized-response simulators of interactive mechanisms and their exact verification
/// (THEOREMS.md A.2, A.3, A.5, B.8–B.10; VW21 T5.2, LYU22 T3, HSV L4.7).
///
/// The reduction theorems say that the views of an (ε,δ)-DP interactive mechanism on neighbouring
/// inputs are an interactive post-processing of RR_{ε,δ}: draw c ← RR_{ε,δ}(b) once, hidden, then
/// answer every query with an interactive system T^c that does not depend on b (THEOREMS.md A.5,
/// "post-processing of a NIM by an interactive system"). This header holds the common objects:
///
/// * LikelihoodTree — the *system pair* (M⁰, M¹) of a game: every history h up to the horizon with
///   its exact system likelihoods M^b(h) (A.3, LYU22 (14)–(16)), computed once by the forward
///   recursion over beliefs;
/// * Simulator — one system per output c of RR_{ε,δ}, given by its conditional answer laws
///   Pr[T^c answers a | h, q] at every node, with the RR weights Pr[RR_{ε,δ}(b) = c];
/// * verify_simulator — the adversary-free exact check of equivalence (A.3): every conditional is a
///   probability vector and Σ_c Pr[RR(b) = c]·T^c(h) = M^b(h) for every history h and both b. By
///   the transcript factorisation (A.4) this is equality of views for every adversary.
///
/// The constructions live in vw_sim.hpp (pure, VW21), lyu_decomp.hpp (approximate, LYU22) and
/// simulator_lp.hpp (the exact linear programs of B.10 and the one-step KOV post-processor).
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace exactdp {

/// The system pair (M⁰, M¹) of a game as an explicit history tree (THEOREMS.md A.3).
///
/// Node 0 is the empty history ∅. A node's *branches* are the message pairs the verifier allows
/// after its history (for static neighbours: the identical queries (q, q), in alphabet order); a
/// branch's children are the answers with positive likelihood in at least one world, in increasing
/// answer id (the canonical order of B.9). Histories of likelihood 0 in both worlds are omitted:
/// every simulator gives them probability 0 as well. Nodes at depth = horizon are the *full
/// histories*; every other node has all its allowed branches.
struct LikelihoodTree {
  /// One answer below a branch.
  struct Child {
    AnswerId answer = 0;
    std::size_t node = 0;
  };
  /// One allowed message pair at a node and its answers.
  struct Branch {
    MessagePair pair;
    std::vector<Child> children;
  };
  /// One history.
  struct Node {
    std::size_t parent = 0;       ///< the parent node (0 for the root itself)
    std::size_t branch = 0;       ///< the index of the branch of the parent that leads here
    AnswerId answer = 0;          ///< the answer that leads here (unused at the root)
    unsigned depth = 0;           ///< the history length t
    std::array<Rational, 2> likelihood;  ///< M⁰(h), M¹(h)
    std::vector<Branch> branches;        ///< empty at full histories
  };

  std::shared_ptr<const InteractiveMechanism> mechanism;  ///< for names in reports
  std::string name;        ///< the game's name
  unsigned horizon = 0;    ///< T: the length of the full histories
  std::vector<Node> nodes; ///< node 0 is ∅; a parent always precedes its children

  /// Whether @p node is a full history: one of length T, or a shorter one after which the verifier
  /// allows no pair (the interaction is over, so the adversary's view ends there). The simulator
  /// identities (S2) of THEOREMS.md B.9/B.10 are imposed at exactly these histories.
  bool is_full(std::size_t node) const { return nodes[node].depth == horizon || nodes[node].branches.empty(); }
  /// The full histories (is_full), in node order.
  std::vector<std::size_t> full_histories() const;
  /// "(0, 1) (1, 0)": the history of @p node as (message, answer) steps with their names; "∅" at
  /// the root. A non-identical pair is written "(m0,m1)".
  std::string describe(std::size_t node) const;
  /// The history of @p node as (message pair, answer) steps from the root.
  std::vector<std::pair<MessagePair, AnswerId>> history(std::size_t node) const;
};

/// Builds the likelihood tree of @p game up to @p horizon rounds (std::nullopt: the game's own
/// horizon) by the forward recursion f_{h∘(q,a)}(s′) = Σ_s f_h(s)·κ(a, s′ | s, q_b) in each world
/// (THEOREMS.md A.3). The tree grows exponentially in the horizon, so it is refused with
/// exactdp::GameTooLarge (carrying estimate_game_size) when it would exceed @p max_nodes nodes.
/// Preconditions: a valid game (exactdp::Error otherwise).
LikelihoodTree likelihood_tree(const Game& game, std::optional<unsigned> horizon = std::nullopt,
                               std::uint64_t max_nodes = 200'000);

/// The flag of an output of RR_{ε,δ} (THEOREMS.md A.2; HSV D2.3 writes (⊤, b) for Leak).
enum class RRFlag { Leak, NoLeak };

/// One output c of randomized response, with its probability in each world.
/// For RR_ε = RR_{ε,0} (VW21) the outputs are plain bits and `flag` is empty.
struct RROutput {
  std::optional<RRFlag> flag;
  int bit = 0;
  std::array<Rational, 2> weight;  ///< Pr[RR(0) = c], Pr[RR(1) = c]
  /// "0", "1" (pure) or "(Leak,0)", "(NoLeak,1)", …
  std::string label() const;
};

/// The outputs of RR_{ε,0} with λ = e^ε: c = 0, 1 with Pr[RR(b) = b] = λ/(1+λ) (A.2).
/// Precondition: λ ≥ 1.
std::vector<RROutput> rr_outputs(const Rational& lambda);
/// The outputs of RR_{ε,δ}: (Leak,0), (Leak,1), (NoLeak,0), (NoLeak,1), with the masses of the
/// table in THEOREMS.md A.2. Preconditions: λ ≥ 1, 0 ≤ δ ≤ 1.
std::vector<RROutput> rr_outputs(const Rational& lambda, const Rational& delta);

/// One interactive system of a simulator: the conditional law of the next answer at every node
/// and branch of a LikelihoodTree — conditional[node][branch][child] = Pr[a | h, q]. Full
/// histories have no entries. At nodes the system never reaches the conditionals follow a fixed
/// convention (uniform), as in B.8.
struct SimulatorSystem {
  std::string name;  ///< "T^0", "E^1", "N'^0", …
  RROutput input;    ///< the RR output after which the simulator runs this system
  std::vector<std::vector<std::vector<Rational>>> conditional;
};

/// A randomized-response simulator of a system pair: draw c ← RR(b) once, then run system c.
struct Simulator {
  std::string method;  ///< "vw", "lyu", "lp", "lp+irr", "product"
  Rational lambda;     ///< γ = e^ε
  Rational delta;      ///< δ (0 for VW-SIM)
  std::vector<SimulatorSystem> systems;  ///< one per RR output
};

/// The likelihoods T(h) = Π Pr[a_i | h_{<i}, q_i] of one system at every node of @p tree.
std::vector<Rational> system_likelihoods(const LikelihoodTree& tree, const SimulatorSystem& system);

/// The outcome of verify_simulator.
struct SimulatorVerification {
  bool verified = false;
  std::string failure;              ///< the first failed check, in words, when not verified
  std::size_t nodes_checked = 0;    ///< histories at which the mixture identity was checked
  std::size_t full_histories = 0;   ///< of which full histories
  std::size_t conditionals_checked = 0;  ///< conditional answer laws checked to be probability vectors
};

/// Verifies a simulator exactly against its system pair (THEOREMS.md B.8 "Correctness", B.9
/// "Final verification", A.3 "Equivalence"):
/// 1. every system has a conditional law at every node and branch, of the right length, and each
///    is a probability vector (entries ≥ 0, sum exactly 1);
/// 2. the RR weights of every system are those of RR_{ε,δ} at the simulator's (λ, δ) (recomputed
///    from the table of A.2, not taken on trust);
/// 3. for every node h (in particular every full history) and both b,
///    Σ_c Pr[RR(b) = c]·T^c(h) = M^b(h), with T^c(h) recomputed as the product of conditionals.
/// Never throws on a wrong simulator: the answer says what failed.
SimulatorVerification verify_simulator(const LikelihoodTree& tree, const Simulator& simulator);

/// Why no simulator was built (exit code 1 of `exactdp simulate`).
struct SimulatorRefusal {
  std::string reason;                 ///< in words, with the exact numbers
  std::optional<std::size_t> node;    ///< the witness history, when there is one
};

/// The two factors of a concurrent product (THEOREMS.md A.8, B.12, X-FACTOR): component i's
/// history inside a composed history.
struct ProductFactor {
  const LikelihoodTree* tree = nullptr;
  const Simulator* simulator = nullptr;
};

/// The concurrent composition of two games with static neighbours, built directly (no combinator
/// of compose/ is used): the messages are "1:q" and "2:q", a message goes to that component, which
/// answers as it would alone; each component answers `halt` once it has received as many messages
/// as its own horizon (padding, A.3). The horizon is the sum of the components' horizons and world
/// b starts both components in their world-b states. Preconditions: both games have a
/// StaticVerifier and point-mass initial laws (exactdp::Error otherwise).
Game concurrent_product(const Game& first, const Game& second);

/// The product simulator of two per-component simulators on the tree of concurrent_product
/// (LYU22 App. A.1.2, THEOREMS.md B.12): its outputs are the pairs (c₁, c₂) with weights
/// Pr[RR₁(b) = c₁]·Pr[RR₂(b) = c₂], and system (c₁, c₂) answers a message to component i with
/// T_i^{c_i}'s conditional at component i's own sub-history. verify_simulator on the product tree
/// then checks Σ_{c₁,c₂} w·T₁T₂ = ConComp^b exactly. The product is not a simulator by RR_{ε,δ} of
/// a single (λ, δ), so its verification uses the weights it carries (`method` = "product").
/// Preconditions: @p product_tree comes from concurrent_product of the two components' games.
Simulator product_simulator(const LikelihoodTree& product_tree, const ProductFactor& first, const ProductFactor& second);

}  // namespace exactdp
