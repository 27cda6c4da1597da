/// @file
/// The worst case over all adaptive adversaries: backward induction over belief pairs
/// (THEOREMS.md B.1–B.7), exact.
///
/// A game node is (σ, r, m₀, m₁): verifier state, rounds left and the unnormalised beliefs of the
/// two worlds (measures over mechanism states jointly with the observed history). Every value
/// computed here is positively homogeneous in (m₀, m₁) (degree 1 for hockey-stick and Rényi
/// moments, degree 0 for the max ratio), so nodes are memoised on the *normalised* belief pair
/// (m₀/Z, m₁/Z), Z = |m₀| + |m₁|: histories that lead to proportional beliefs are evaluated once
/// (B.1). The supremum over randomised adaptive adversaries equals the maximum over deterministic
/// ones (A.4; VW21 L1, HSV C11.2), and the argmax policy is an optimal decision tree (X-BI-EXACT,
/// B.2; LYU22 Claim 1; HSV D10.2–D10.3).
///
/// Directions: "forward" is world 0 against world 1, sup_A H_λ(V₀‖V₁) (and Φ_α(V₀‖V₁), max
/// V₀/V₁); "backward" is the reverse. Both are computed in one pass over the belief tree.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/piecewise_linear.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace exactdp {

/// What a long search reports about itself (EngineOptions::progress).
struct EngineProgress {
  const char* phase = "search";  ///< "explore" (the mechanism, before the search) or "search"
  double seconds = 0;            ///< since the run started
  std::uint64_t keys = 0;        ///< memo entries so far (distinct belief pairs)
  /// memo entries by rounds left (index r), so the levels the search has reached can be shown
  std::vector<std::uint64_t> keys_by_rounds;
  double keys_per_second = 0;
  std::uint64_t bytes = 0;       ///< the memo's memory (key and value arenas and tables)
  std::uint64_t estimate = 0;    ///< the up-front estimate of the memo entries (0 if none)
};

/// The game engine's default limit on distinct belief pairs (memo entries): EngineOptions::max_nodes,
/// `--max-nodes` of `exactdp check` and `exactdp profile`.
inline constexpr std::uint64_t default_engine_max_nodes = 50'000'000;
/// The game engine's default memory budget for its memo, in bytes: 8 GiB (EngineOptions::max_bytes,
/// `--max-memory` in MiB of `exactdp check` and `exactdp profile SPEC`). A game above it has no
/// cheaper route, so it is refused: the budget is as large as a workstation allows. It is not the
/// composition planner's budget (accounting/composition_plan.hpp, default_memory_budget), which
/// bounds one composed privacy-loss distribution and has cheaper routes to fall back on.
inline constexpr std::uint64_t default_engine_memory_budget = std::uint64_t(8) << 30;

/// Limits, switches and hooks of a run, passed explicitly (STYLE.md: no globals).
struct EngineOptions {
  /// Rounds to play; std::nullopt: the game's own horizon.
  std::optional<unsigned> horizon;
  /// Most distinct belief pairs (memo entries) a run may create; a game whose up-front estimate
  /// (estimate_game_size) exceeds it is refused before the search, and a run that reaches it is
  /// stopped, both with exactdp::GameTooLarge (`--max-nodes`).
  std::uint64_t max_nodes = default_engine_max_nodes;
  /// The memory budget of the memo in bytes, enforced like max_nodes on the estimate and during
  /// the run (`--max-memory`, in MiB on the command line). Default default_engine_memory_budget.
  std::uint64_t max_bytes = default_engine_memory_budget;
  /// Worker threads of the search; 0: all cores, or one (the calling thread, no pool) for a game
  /// whose up-front estimate is at most 10 000 memo entries (docs/engine.md). Values, witnesses
  /// and node counts do not depend on it.
  unsigned threads = 0;
  /// Reduce the game before the search: merge mechanism states by horizon-bounded bisimulation,
  /// drop duplicate message pairs and stop at nodes whose value no continuation can change
  /// (compiled_game.hpp). Values and witnesses do not depend on it; off only to test it.
  bool reduce = true;
  /// Record when each worker is busy during the search, so that EngineStats::timings can say how
  /// long exactly one worker (or none) was working while the others waited: two clock reads and
  /// 16 bytes per memo entry (the `--stats` of the engine bench). The phase times are measured
  /// whatever this says.
  bool record_busy_time = false;
  /// Called about once a second, from one worker at a time, once a run has lasted two seconds.
  /// The library never prints; the command line installs a printer.
  std::function<void(const EngineProgress&)> progress;
};

/// Where the wall time of one run went, for the serial fraction of the parallel search (Amdahl):
/// the phases on the calling thread alone, the parallel search, and (with
/// EngineOptions::record_busy_time) how long, during the search, at most one worker was working.
/// Seconds of wall time; unlike the node counts they vary from run to run.
struct EngineTimings {
  double estimate = 0;  ///< the up-front size estimate (one thread)
  double compile = 0;   ///< exploring and reducing the mechanism (one thread)
  double setup = 0;     ///< the solver: the worker pool and the memo's tables (one thread)
  double search = 0;    ///< the search itself, summed over the root requests of the run
  unsigned workers = 0; ///< the search's worker threads (1: run on the calling thread, no pool)
  std::uint64_t tasks = 0;  ///< node expansions run as separate tasks (0 when run without a pool)
  /// With EngineOptions::record_busy_time: Σ over workers of the time spent expanding and
  /// combining nodes (the search's work; busy / tasks is the mean task size) ...
  double busy = 0;
  double one_busy = 0;   ///< ... the search time during which exactly one worker was busy ...
  double none_busy = 0;  ///< ... and none (scheduling, waking the pool, stealing).
  /// Whether busy, one_busy and none_busy were recorded (EngineOptions::record_busy_time with
  /// more than one worker).
  bool busy_recorded = false;
  /// The run's wall time from its start to its result (the phases above and what lies between
  /// them: the root's preparation, reading the values, building a witness).
  double total = 0;

  /// Wall time with at most one thread working: everything outside the search (total − search,
  /// all on the calling thread) and, when busy_recorded, the search time with one worker busy or
  /// none. Without the record a run of several workers counts its whole search as parallel, so
  /// the share below is then a lower bound.
  double serial() const { return total - search + (busy_recorded ? one_busy + none_busy : 0); }
  /// The serial fraction f of the run's work (Amdahl): serial() against the work, the serial time
  /// plus `workers` times the time more than one worker was busy (with one worker: the search).
  double serial_fraction() const {
    const double parallel = search - (busy_recorded ? one_busy + none_busy : 0);
    const double work = serial() + static_cast<double>(std::max(workers, 1u)) * parallel;
    return work > 0 ? serial() / work : 0;
  }
  /// Amdahl's prediction of the speed-up on @p cores cores from serial_fraction():
  /// 1 / (f + (1 − f) / cores).
  double amdahl_speedup(unsigned cores) const {
    const double f = serial_fraction();
    return 1 / (f + (1 - f) / static_cast<double>(std::max(cores, 1u)));
  }
};

/// Counters of one run (the `--stats` of the command line). The node counts are the same
/// whatever the thread count.
struct EngineStats {
  std::uint64_t nodes_visited = 0;  ///< node values requested (root and every child, leaves included)
  /// distinct canonical belief pairs memoised. Nodes valued without search (no rounds left, no
  /// allowed pair, or one world without mass) are counted in nodes_visited but not memoised.
  std::uint64_t distinct_keys = 0;
  std::uint64_t cache_hits = 0;        ///< requests answered from the memo
  std::uint64_t memo_bytes = 0;        ///< memory of the memo (arenas and hash tables), bytes
  std::uint64_t mechanism_states = 0;  ///< mechanism states explored within the horizon
  std::uint64_t state_classes = 0;     ///< Σ over rounds left of the bisimulation classes
  std::uint64_t estimate = 0;          ///< the up-front estimate of distinct_keys (estimate_game_size)
  EngineTimings timings;               ///< where the wall time went (not deterministic)
};

/// The refusal of a game larger than EngineOptions::max_nodes. Carries the up-front estimate of
/// the game size (estimate_game_size) and the limit.
class GameTooLarge : public Error {
public:
  /// @param where     the engine entry point that refused
  /// @param estimate  the estimated size (see estimate_game_size)
  /// @param limit     the limit that was exceeded (EngineOptions::max_nodes)
  /// @param what      what exceeded the limit (default: distinct belief pairs of the game)
  /// @param field     the EngineOptions field that sets the limit
  /// @param flag      the command-line flag that sets it
  GameTooLarge(const std::string& where, std::uint64_t estimate, std::uint64_t limit,
               const std::string& what = "distinct belief pairs", const std::string& field = "max_nodes",
               const std::string& flag = "--max-nodes");
  std::uint64_t estimate() const { return estimate_; }
  std::uint64_t limit() const { return limit_; }

private:
  std::uint64_t estimate_, limit_;
};

/// An estimate of the number of memo entries (distinct canonical belief pairs with at least one
/// round left) of the unreduced game up to @p horizon rounds, measured from the growth of its
/// first levels: the levels are enumerated exactly while they stay small (a level of at most
/// 2 000 nodes, within a fixed budget of work counted in belief × kernel-row products, never in
/// seconds: the same figure on every machine and under any load), and each later level is
/// extrapolated from the last measured growth. It is an estimate, not a bound: memoisation and the
/// end of a mechanism's horizon often make later levels grow slower. Saturates at UINT64_MAX.
/// Reads the mechanism on the calling thread. The first stage of estimate_game.
std::uint64_t estimate_game_size(const Game& game, unsigned horizon);

/// The engine's up-front estimate of a run (estimate_game), as solve_game makes it before it
/// searches and on which it refuses a game. Deterministic: the same game and limits give the same
/// estimate on any machine, under any load and for any thread count.
struct GameSizeEstimate {
  std::uint64_t entries = 0;  ///< estimated memo entries (distinct belief pairs with a round left); saturates
  std::uint64_t bytes = 0;    ///< their estimated memo bytes; saturates
  /// The levels enumerated exactly: entries after t rounds, t = 0, 1, … (of the compiled game when
  /// `compiled`, else of the unreduced game); later levels are extrapolated.
  std::vector<std::uint64_t> levels;
  std::uint64_t products = 0;  ///< the work spent, in belief × kernel-row products (the budget's unit)
  /// Measured a second time on the compiled (reduced) game — always, unless the unreduced
  /// estimate was over a limit and the game could not be compiled within the estimate's budget
  /// (docs/engine.md, "Estimate").
  bool compiled = false;
  /// The limit the estimate exceeds, so that solve_game would refuse the game: "max_nodes",
  /// "max_bytes", or empty.
  std::string over;
};

/// The up-front size estimate solve_game makes with @p options (horizon, limits, reduce), without
/// searching: the unreduced game's first levels; then the game is compiled (when the unreduced
/// estimate exceeds a limit, only within a budget of kernels, states and rows read from the
/// mechanism, past which the unreduced estimate stands and refuses) and the compiled game's first
/// levels are measured and extrapolated by its bisimulation classes per level. Throws
/// exactdp::Error on an invalid game or horizon, exactdp::GameTooLarge when the mechanism has more
/// states than options.max_nodes.
GameSizeEstimate estimate_game(const Game& game, const EngineOptions& options = {});

/// sup_A H_λ in both directions at one λ (THEOREMS.md B.2).
struct HockeyStickResult {
  Rational forward;   ///< sup_A H_λ(V₀‖V₁)
  Rational backward;  ///< sup_A H_λ(V₁‖V₀)
  EngineStats stats;
  /// δ(λ) = max(forward, backward): the game is (ln λ, δ)-DP up to the horizon iff δ(λ) ≤ δ.
  const Rational& delta() const { return forward < backward ? backward : forward; }
};

/// The worst-case hockey-stick divergence at @p lambda over all adaptive adversaries, exact
/// (BI-δ, THEOREMS.md B.2). Preconditions: λ ≥ 0; a valid game (exactdp::Error otherwise).
/// Throws exactdp::GameTooLarge beyond options.max_nodes.
inline HockeyStickResult worst_case_hockey_stick(const Game& game, const Rational& lambda, const EngineOptions& options = {});

/// The full worst-case profile and its stats.
struct ProfileResult {
  PrivacyProfile profile;  ///< forward = λ ↦ sup_A H_λ(V₀‖V₁), backward = the reverse, on [0, ∞)
  EngineStats stats;
};

/// Both directional worst-case profiles as exact piecewise-linear functions of λ on all of
/// [0, ∞) (BI over PL functions, THEOREMS.md B.3): each is the upper envelope of the H_λ curves of
/// all deterministic adversaries, convex, non-increasing, with value 1 at λ = 0.
/// Feeds least_lambda (B.6: PrivacyProfile::least_lambda) and the trade-off envelope (B.7).
inline ProfileResult worst_case_profile(const Game& game, const EngineOptions& options = {});

/// Both directional worst-case profiles over **oblivious** adversaries: the message-pair sequence
/// (allowed by the verifier) is fixed in advance, and the view is the whole answer history
/// (THEOREMS.md A.4, adversary taxonomy). The maximum over the |pairs|^T sequences of the exact
/// profile of the pair of view distributions, each computed by forward propagation of beliefs in
/// which histories with proportional belief pairs are merged (their likelihood ratios and futures
/// agree, so the merge is a sufficient-statistic merge). Always ≤ worst_case_profile pointwise.
/// stats.nodes_visited counts belief expansions; refused with exactdp::GameTooLarge when they
/// exceed options.max_nodes.
inline ProfileResult worst_case_profile_oblivious(const Game& game, const EngineOptions& options = {});

/// A pair of possibly infinite directional values and the run's stats.
struct DirectionalResult {
  ExtendedRational forward, backward;
  EngineStats stats;
  const ExtendedRational& max() const { return forward < backward ? backward : forward; }
};

/// sup_A Φ_α(V₀‖V₁) and sup_A Φ_α(V₁‖V₀) for an integer α ≥ 2 (BI-Rényi, THEOREMS.md B.4),
/// exact, +∞ where some adversary reaches a view of positive mass in one world and zero in the
/// other. The RDP level is ε(α) = ln(max)/(α − 1). Precondition: α ≥ 2 (exactdp::Error).
inline DirectionalResult worst_case_renyi_moment(const Game& game, unsigned long alpha, const EngineOptions& options = {});

/// A game node named by its history from the root: the message pairs sent and the answers
/// received, in order (THEOREMS.md B.1).
using GameHistory = std::vector<std::pair<MessagePair, AnswerId>>;

/// The worst-case Rényi value of BI-Rényi (THEOREMS.md B.4) at one node of the game.
struct NodeRenyiMoment {
  /// M⁰(h), M¹(h): the probability of h's answers given h's messages in each world (the system
  /// likelihoods of THEOREMS.md A.3; for a composition, the product over its components).
  std::array<Rational, 2> likelihood;
  /// W^b(h) in the unnormalised form of B.4: the supremum, over the adversary's continuations after
  /// h for the remaining rounds, of Σ over the full views v extending h of M^b(v)^α·M^{1−b}(v)^{1−α}
  /// (forward: b = 0, backward: b = 1). At the root it is sup_A Φ_α(V_b‖V_{1−b}); at a full history
  /// it is M^b(h)^α·M^{1−b}(h)^{1−α}. The conditional value of B.4 (LYU22's remaining budget
  /// ℓ_t = V^{1/(α−1)}) is V^b(h) = W^b(h) / (M^b(h)^α·M^{1−b}(h)^{1−α}) where both likelihoods are
  /// positive.
  DirectionalResult moment;
};

/// Node-level access to BI-Rényi (THEOREMS.md B.4), for checks that need the value below a given
/// history (LYU22 Claim 3, the potential argument of X-RENYI-PRODUCT): for each history h in
/// @p histories, its likelihoods and W^b(h) with the rounds left after h (the horizon minus |h|).
/// All histories share one memo, so asking for every node of a small game costs about one run.
/// Exact, integer α ≥ 2.
/// Preconditions (exactdp::Error naming the history otherwise): α ≥ 2; each history is at most
/// the horizon long, sends only pairs the verifier allows at that point, and has positive
/// likelihood in at least one world. Throws exactdp::GameTooLarge beyond options.max_nodes.
inline std::vector<NodeRenyiMoment> worst_case_renyi_moment_at(const Game& game, const std::vector<GameHistory>& histories,
                                                        unsigned long alpha, const EngineOptions& options = {});

/// A certified enclosure of a possibly infinite Rényi moment.
struct CertifiedMoment {
  bool infinite = false;  ///< +∞ (some view has positive mass in one world only)
  Interval enclosure;     ///< the moment's enclosure when finite (outward rounded)
  /// "inf" or "[lo, hi]".
  std::string to_string(int digits = 17) const { return infinite ? "inf" : enclosure.to_string(digits); }
};

/// Certified directional Rényi moments and the run's stats.
struct CertifiedDirectionalResult {
  CertifiedMoment forward, backward;
  EngineStats stats;
};

/// sup_A Φ_α(V₀‖V₁) and sup_A Φ_α(V₁‖V₀) for a real (rational) order α > 1 (BI-Rényi over
/// certified intervals, THEOREMS.md B.4 "non-integer α"): the recursion of
/// worst_case_renyi_moment with leaf p^α q^{1−α} = p·exp((α−1)·ln(p/q)) enclosed at @p precision
/// bits, sums and maxima taken in interval arithmetic (outward rounding), so the true supremum lies
/// in the returned enclosure. Deterministic adversaries suffice because Φ_α is jointly convex (A.4).
/// Preconditions: α > 1 (exactdp::Error otherwise). For integer α prefer the exact routine.
/// @param game  a valid game  @param alpha  the order α > 1  @param options  limits
/// @param precision  MPFI working precision in bits
inline CertifiedDirectionalResult worst_case_renyi_moment_certified(const Game& game, const Rational& alpha,
                                                             const EngineOptions& options = {}, Precision precision = 128);

/// sup over **oblivious** adversaries (the pair sequence fixed in advance, as in
/// worst_case_profile_oblivious) of Φ_α(V₀‖V₁) and Φ_α(V₁‖V₀), integer α ≥ 2, exact. Always
/// ≤ worst_case_renyi_moment. @param game  a valid game  @param alpha  α ≥ 2  @param options  limits
inline DirectionalResult worst_case_renyi_moment_oblivious(const Game& game, unsigned long alpha, const EngineOptions& options = {});

/// The pure-DP ratio over oblivious adversaries. It equals worst_case_ratio (every view an adaptive
/// adversary reaches is reached by the oblivious adversary sending that view's pair sequence),
/// which makes it an independent check of the engine. @param game  a valid game
/// @param options  limits
inline DirectionalResult worst_case_ratio_oblivious(const Game& game, const EngineOptions& options = {});

/// The process's peak resident set size so far in KiB (getrusage ru_maxrss on Linux), the "peak
/// memory" of `--stats`. It covers the whole process, not one engine run.
std::uint64_t peak_resident_kib();

/// The pure-DP ratio in both directions (THEOREMS.md B.5): max over views reachable by any
/// adversary of V₀(h)/V₁(h) (forward) and V₁(h)/V₀(h) (backward), +∞ if some view has mass in one
/// world only. The game is ln γ-DP up to the horizon iff γ ≥ max().
inline DirectionalResult worst_case_ratio(const Game& game, const EngineOptions& options = {});

/// e^{PrivLoss(δ)} (THEOREMS.md B.6): the least λ ≥ 1 with sup_A H_λ ≤ δ in both directions, an
/// exact rational, or +∞ when δ is below the catastrophic mass. Solved on the exact PL profile
/// (worst_case_profile(...).profile.least_lambda(δ)). Precondition: 0 ≤ δ ≤ 1.
inline ExtendedRational worst_case_least_lambda(const Game& game, const Rational& delta, const EngineOptions& options = {});

/// The same λ by the Newton iteration of B.6 over BI-δ runs (an independent route used to
/// cross-check the PL profile): from λ = 1, adopt the line a − λ′c of the violating direction's
/// optimal adversary (a = P_b(S_b), c = P_{1−b}(S_b)) and move to its root (a − δ)/c. Each iterate is
/// at most the answer and adopts a different adversary piece, so it terminates exactly.
inline ExtendedRational least_lambda_by_iteration(const Game& game, const Rational& delta, const EngineOptions& options = {});

/// The trade-off envelope (THEOREMS.md B.7): the tightest f with T(V₀^A, V₁^A) ≥ f for every
/// adversary A, computed from the backward profile by TradeOff::from_profile, and the same for
/// the reversed pair from the forward profile.
struct TradeOffEnvelope {
  TradeOff world0_vs_world1;  ///< T(V₀, V₁): tests reject "world 0"; dual to the backward profile
  TradeOff world1_vs_world0;  ///< T(V₁, V₀); dual to the forward profile
};
/// The envelope of a worst-case profile (B.7).
TradeOffEnvelope tradeoff_envelope(const PrivacyProfile& profile);

/// A witness of sup_A H_λ(V_b‖V_{1−b}) in direction b (THEOREMS.md B.2, "Witness"): the
/// maximising deterministic adversary, the distinguishing event S (views reached with
/// V_b(h) > λ·V_{1−b}(h)) and both exact probabilities, so that
/// P_b(S) − λ·P_{1−b}(S) = sup_A H_λ(V_b‖V_{1−b}).
struct Witness {
  unsigned direction = 0;  ///< b: 0 = H_λ(V₀‖V₁), 1 = H_λ(V₁‖V₀)
  Rational lambda;
  unsigned rounds = 0;     ///< the horizon it was found at (its tree's depth is at most this)
  Adversary adversary;
  std::vector<View> event;        ///< S, sorted
  Rational probability_world0;    ///< P₀(S)
  Rational probability_world1;    ///< P₁(S)
  /// P_b(S) − λ·P_{1−b}(S).
  Rational delta() const;
  /// A readable multi-line account: the neighbouring pair, the tree, the event, both probabilities.
  std::string describe(const Game& game) const;
};

/// The optimal adversary at @p lambda in @p direction up to the horizon (B.2), as a witness.
/// Preconditions: λ ≥ 0, direction ∈ {0, 1}.
inline Witness worst_case_adversary(const Game& game, const Rational& lambda, unsigned direction,
                             const EngineOptions& options = {});

/// The verdict on a claim "(ln λ, δ)-DP against adaptive adversaries up to the horizon".
struct ClaimCheck {
  bool holds = false;
  unsigned horizon = 0;
  Rational delta_forward;    ///< sup_A H_λ(V₀‖V₁) at the full horizon (exact)
  Rational delta_backward;   ///< sup_A H_λ(V₁‖V₀) at the full horizon (exact)
  std::optional<Witness> witness;  ///< when refuted: a witness at the fewest rounds
  EngineStats stats;
};

/// Checks "(ln λ, δ)-DP up to the horizon" (δ = 0: pure ln λ-DP) with one shared memo: the exact
/// δ(λ) in both directions at the full horizon, and when δ(λ) > δ the witness of find_violation
/// (fewest rounds). Preconditions: λ ≥ 0, 0 ≤ δ ≤ 1 (exactdp::Error otherwise).
inline ClaimCheck check_approximate_dp(const Game& game, const Rational& lambda, const Rational& delta,
                                const EngineOptions& options = {});

/// Refutes the claim "(ln λ, δ)-DP up to the horizon": std::nullopt if δ(λ) ≤ δ; otherwise a
/// witness with P_b(S) − λ·P_{1−b}(S) > δ found at the fewest rounds t ≤ T at which the claim
/// already fails (iterative deepening on one shared memo), in the direction with the larger
/// violation at that t. Preconditions: λ ≥ 0, 0 ≤ δ ≤ 1 (exactdp::Error otherwise).
inline std::optional<Witness> find_violation(const Game& game, const Rational& lambda, const Rational& delta,
                                      const EngineOptions& options = {});

// ------------------------------------------------------------------ the one entry point

/// The adversaries a worst case is taken over (THEOREMS.md A.4 taxonomy).
enum class Adversaries {
  adaptive,   ///< every adaptive deterministic adversary (backward induction, B.1–B.7)
  oblivious,  ///< the pair sequence fixed in advance (forward propagation over the sequences)
};

/// What solve_game computes. Each kind names the fields of GameQuestion it reads and the
/// alternative of GameAnswer it returns.
enum class GameQuantity {
  hockey_stick,            ///< sup_A H_λ both directions at `lambda` (B.2) → HockeyStickResult
  profile,                 ///< both profiles on [0, ∞) (B.3) → ProfileResult
  renyi_moment,            ///< sup_A Φ_α, integer `alpha` ≥ 2, exact (B.4) → DirectionalResult
  renyi_moment_at,         ///< W^b(h) at each of `histories`, integer `alpha` (B.4) → std::vector<NodeRenyiMoment>
  renyi_moment_certified,  ///< sup_A Φ_α, rational `alpha` > 1, at `precision` (B.4) → CertifiedDirectionalResult
  ratio,                   ///< the pure-DP ratio (B.5) → DirectionalResult
  least_lambda,            ///< least λ with δ(λ) ≤ `delta`, on the PL profile (B.6) → ExtendedRational
  least_lambda_iterated,   ///< the same λ by the Newton iteration of B.6 over BI-δ runs → ExtendedRational
  witness,                 ///< the optimal adversary at `lambda` in `direction` (B.2) → Witness
  claim,                   ///< "(ln `lambda`, `delta`)-DP": δ(λ) and a shortest witness when refuted → ClaimCheck
  violation,               ///< a shortest witness of δ(λ) > `delta`, if any → std::optional<Witness>
};

/// A question to the engine: what to compute and over which adversaries.
struct GameQuestion {
  GameQuantity quantity = GameQuantity::hockey_stick;
  /// Oblivious adversaries are offered for profile, renyi_moment and ratio only.
  Adversaries adversaries = Adversaries::adaptive;
  Rational lambda = 1;              ///< λ = e^ε ≥ 0 (hockey_stick, witness, claim, violation)
  Rational delta = 0;               ///< δ ∈ [0, 1] (least_lambda*, claim, violation)
  Rational alpha = 2;               ///< the Rényi order (renyi_*)
  Precision precision = 128;        ///< MPFI bits (renyi_moment_certified)
  unsigned direction = 0;           ///< b ∈ {0, 1} (witness)
  std::vector<GameHistory> histories;  ///< renyi_moment_at
};

/// The answer of solve_game: the alternative named by GameQuantity.
using GameAnswer = std::variant<HockeyStickResult, ProfileResult, DirectionalResult, std::vector<NodeRenyiMoment>,
                                CertifiedDirectionalResult, ExtendedRational, Witness, ClaimCheck, std::optional<Witness>>;

/// The engine's one entry point: compiles @p game to the horizon (explores and reduces it,
/// compiled_game.hpp), estimates its size and refuses it with exactdp::GameTooLarge if the
/// estimate exceeds options.max_nodes or options.max_bytes, then answers @p question by the
/// memoised backward induction on options.threads workers (THEOREMS.md B.1–B.7). Values and
/// witnesses are exact and do not depend on the thread count or on options.reduce.
/// Preconditions (exactdp::Error naming the field otherwise): those of the kind (λ ≥ 0,
/// 0 ≤ δ ≤ 1, α ≥ 2 integer for the exact moments, α > 1 for the certified one, direction ≤ 1).
GameAnswer solve_game(const Game& game, const GameQuestion& question, const EngineOptions& options = {});

// ------------------------------------------------------------------ the game split into subgames

/// The game cut after its first `depth` rounds into independent subgames (docs/scaling.md, "Split
/// at a chosen depth"): the frontier is one history per distinct canonical belief pair (over
/// mechanism states, with the verifier's state) reached after exactly `depth` rounds, in a
/// deterministic order. Each subgame is solved on its own (worst_case_hockey_stick_at, e.g. one
/// Dask task per batch of frontier nodes) and join_split completes the backward induction above
/// the frontier. split_game, worst_case_hockey_stick_at and join_split at the same horizon
/// (EngineOptions::horizon) give exactly worst_case_hockey_stick's values.
struct GameSplit {
  unsigned horizon = 0;              ///< rounds of the whole game
  unsigned depth = 0;                ///< rounds played above the frontier
  std::vector<GameHistory> frontier; ///< one history per distinct frontier node
  std::uint64_t top_nodes = 0;       ///< distinct nodes above the frontier (at fewer than `depth` rounds)
};
/// The frontier of the game at @p depth. Preconditions: a valid game, depth < the horizon
/// (exactdp::Error otherwise). Throws exactdp::GameTooLarge when the nodes above the frontier
/// exceed options.max_nodes.
GameSplit split_game(const Game& game, unsigned depth, const EngineOptions& options = {});
/// Unnormalised sup_A H_λ in both directions below each history (with the rounds left after it),
/// one memo shared by the histories; stats counts that memo (the work of one subgame task).
struct HockeyStickAtResult {
  /// values[i] = {forward, backward} at histories[i]: the supremum, over the continuations after
  /// the history, of Σ over the full views v extending it of (V_b(v) − λ·V_{1−b}(v))⁺ (B.2)
  std::vector<std::array<Rational, 2>> values;
  EngineStats stats;
};
/// sup_A H_λ below each history (THEOREMS.md B.2, unnormalised as in B.1). Preconditions: λ ≥ 0;
/// each history at most the horizon long, allowed by the verifier and of positive likelihood in
/// one world at least (exactdp::Error naming `histories[i]` otherwise).
HockeyStickAtResult worst_case_hockey_stick_at(const Game& game, const std::vector<GameHistory>& histories, const Rational& lambda,
                                               const EngineOptions& options = {});
/// sup_A H_λ at the root from the frontier's values (values[i] for split_game(game, depth,
/// options).frontier[i]): backward induction over the first `depth` rounds (B.2). Its stats are
/// empty. Preconditions: as split_game; one value pair per frontier node (exactdp::Error).
HockeyStickResult join_split(const Game& game, unsigned depth, const Rational& lambda, const std::vector<std::array<Rational, 2>>& values,
                             const EngineOptions& options = {});

// ------------------------------------------------------------------ the named entry points (thin wrappers)

namespace engine_detail {
template <class T>
T ask(const Game& game, GameQuestion q, const EngineOptions& options) {
  return std::get<T>(solve_game(game, q, options));
}
inline GameQuestion question(GameQuantity k, Adversaries a = Adversaries::adaptive) {
  GameQuestion q;
  q.quantity = k;
  q.adversaries = a;
  return q;
}
}  // namespace engine_detail

inline HockeyStickResult worst_case_hockey_stick(const Game& game, const Rational& lambda, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::hockey_stick);
  q.lambda = lambda;
  return engine_detail::ask<HockeyStickResult>(game, std::move(q), options);
}
inline ProfileResult worst_case_profile(const Game& game, const EngineOptions& options) {
  return engine_detail::ask<ProfileResult>(game, engine_detail::question(GameQuantity::profile), options);
}
inline ProfileResult worst_case_profile_oblivious(const Game& game, const EngineOptions& options) {
  return engine_detail::ask<ProfileResult>(game, engine_detail::question(GameQuantity::profile, Adversaries::oblivious), options);
}
inline DirectionalResult worst_case_renyi_moment(const Game& game, unsigned long alpha, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::renyi_moment);
  q.alpha = Rational(alpha);
  return engine_detail::ask<DirectionalResult>(game, std::move(q), options);
}
inline std::vector<NodeRenyiMoment> worst_case_renyi_moment_at(const Game& game, const std::vector<GameHistory>& histories,
                                                               unsigned long alpha, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::renyi_moment_at);
  q.alpha = Rational(alpha);
  q.histories = histories;
  return engine_detail::ask<std::vector<NodeRenyiMoment>>(game, std::move(q), options);
}
inline CertifiedDirectionalResult worst_case_renyi_moment_certified(const Game& game, const Rational& alpha,
                                                                    const EngineOptions& options, Precision precision) {
  auto q = engine_detail::question(GameQuantity::renyi_moment_certified);
  q.alpha = alpha;
  q.precision = precision;
  return engine_detail::ask<CertifiedDirectionalResult>(game, std::move(q), options);
}
inline DirectionalResult worst_case_renyi_moment_oblivious(const Game& game, unsigned long alpha, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::renyi_moment, Adversaries::oblivious);
  q.alpha = Rational(alpha);
  return engine_detail::ask<DirectionalResult>(game, std::move(q), options);
}
inline DirectionalResult worst_case_ratio_oblivious(const Game& game, const EngineOptions& options) {
  return engine_detail::ask<DirectionalResult>(game, engine_detail::question(GameQuantity::ratio, Adversaries::oblivious), options);
}
inline DirectionalResult worst_case_ratio(const Game& game, const EngineOptions& options) {
  return engine_detail::ask<DirectionalResult>(game, engine_detail::question(GameQuantity::ratio), options);
}
inline ExtendedRational worst_case_least_lambda(const Game& game, const Rational& delta, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::least_lambda);
  q.delta = delta;
  return engine_detail::ask<ExtendedRational>(game, std::move(q), options);
}
inline ExtendedRational least_lambda_by_iteration(const Game& game, const Rational& delta, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::least_lambda_iterated);
  q.delta = delta;
  return engine_detail::ask<ExtendedRational>(game, std::move(q), options);
}
inline Witness worst_case_adversary(const Game& game, const Rational& lambda, unsigned direction, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::witness);
  q.lambda = lambda;
  q.direction = direction;
  return engine_detail::ask<Witness>(game, std::move(q), options);
}
inline ClaimCheck check_approximate_dp(const Game& game, const Rational& lambda, const Rational& delta, const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::claim);
  q.lambda = lambda;
  q.delta = delta;
  return engine_detail::ask<ClaimCheck>(game, std::move(q), options);
}
inline std::optional<Witness> find_violation(const Game& game, const Rational& lambda, const Rational& delta,
                                             const EngineOptions& options) {
  auto q = engine_detail::question(GameQuantity::violation);
  q.lambda = lambda;
  q.delta = delta;
  return engine_detail::ask<std::optional<Witness>>(game, std::move(q), options);
}

}  // namespace exactdp
