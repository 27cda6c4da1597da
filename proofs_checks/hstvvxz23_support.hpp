/// @file
/// Instances and tools of the HSTVVXZ23 checks (THEOREMS.md C.4, E.9): the D.16 fixtures the
/// filter and post-processing checks launch (choice IM C, fresh RR₃, RR of a bit pair, random
/// finite-communication mechanisms), menus with parameters certified by the engine, random
/// post-processors, and the view tools the view-identity checks need — exact view laws keyed by
/// answer *names*, transcripts, and the replay of one adversary's decision tree on a second game
/// whose messages are related to the first game's by a renaming (dropping `privacy_loss`,
/// routing through Algorithm 12, …).
#pragma once

#include "exactdp/compose/launch.hpp"
#include "exactdp/compose/postprocess.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/game/engine.hpp"
#include "proofs_checks/support.hpp"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace exactdp::proofs::filters {

/// Engine options playing @p horizon rounds.
EngineOptions at_horizon(unsigned horizon);
/// f ≤ g pointwise for the engine's convex piecewise-linear profiles (the upper envelope is g).
bool below(const PiecewiseLinear& f, const PiecewiseLinear& g);
/// Both directions of @p lower below those of @p upper.
bool profile_below(const PrivacyProfile& lower, const PrivacyProfile& upper);

/// One-shot RR_{ln λ, δ} (library::randomized_response; D.1): message "q", answers "0"/"1" and
/// "leak0"/"leak1", then halted.
Game one_shot_rr(const Rational& lambda, const Rational& delta = 0);
/// The choice IM C of D.16: one query; "p" → RR₃(b), "a" → C(1, 1/3) on atoms A, +, −, B.
Game choice_im();
/// E.9 F3's M: every query "q" answered by a fresh RR₃(b), never halting (horizon 2).
Game fresh_rr3();
/// E.9 F3's post-processor: on "go" it asks M "q" twice and answers a₁ AND a₂ (@p use_and, named
/// "AND") or a₁ XOR a₂ (named "XOR").
PostProcessor ask_twice(bool use_and);
/// RR_{ln λ, δ} of a bit sent by the adversary (H11 of E.10, HSV T12.4): both worlds start in the
/// same state; the only allowed pair is (0, 1) (world b sends the bit b); the answer is RR of the
/// bit, with leak answers "leak0"/"leak1"; then halted.
Game rr_bit_game(const Rational& lambda, const Rational& delta);
/// A random finite-communication mechanism (E.11 sizes): @p states hidden states per level,
/// messages "0"/"1", answers "0"/"1", integer weights ≤ 3 (zero entries allowed); after
/// @p depth answers it halts. World b starts in state b of level 0. Menu entries of launch
/// compositions must halt by themselves: a launch composition ignores the entry's horizon.
Game random_finite_game(Rng& rng, int states, unsigned depth);

/// A menu entry whose asserted parameters are *computed* (never trusted): λ is given, δ is the
/// engine's exact δ(λ) over the entry's horizon, and the Rényi moment is the engine's exact
/// sup Φ_α in the worse direction (left empty when infinite).
MenuEntry certified_entry(const std::string& name, const Game& game, const Rational& lambda, unsigned long alpha = 2);
/// A menu entry with the given asserted parameters (for fixtures whose parameters are known in
/// closed form; the checks compare them with the engine where it matters).
MenuEntry entry(const std::string& name, Game game, const Rational& lambda, const Rational& delta = 0,
                std::optional<Rational> moment = std::nullopt);
/// "{A (λ=2, δ=0), …}".
std::string describe_menu(const std::vector<MenuEntry>& menu);

/// A canonical noninteractive pair standing for a menu entry (HSTVVXZ23 T3.3 with f the entry's
/// symmetrised worst-case trade-off envelope): T(Y, Y′) = T(Y′, Y) = f ≤ both envelopes, so the
/// entry is f-DP and the pair is the (Y, Y′) the reduction replaces it with.
Game canonical_pair_game(const std::string& name, const Game& game);

/// A random post-processor (HSV D2.14) over M's alphabet {"0","1"}: two idle states; a left
/// message ("0" or "1") is answered directly ("x") or forwarded to M as "0"/"1"; M's answer is
/// mapped to "x"/"y" or, once per left message, forwarded again. So every left message causes at
/// most two messages to M. Probabilities have denominators ≤ 6.
PostProcessor random_post_processor(Rng& rng);

/// One step of a transcript: the message sent in world 0 and in world 1, and the answer, by name.
struct Step {
  std::string message0, message1, answer;
};
/// The transcript of @p view under @p adversary (replaying the decision tree).
std::vector<Step> transcript(const Game& game, const Adversary& adversary, const View& view);

/// A view law keyed by answer names: name sequence ↦ (mass in world 0, mass in world 1).
using ViewLaw = std::map<std::vector<std::string>, std::array<Rational, 2>>;
/// The view law of one adversary, with every view mapped through @p project (given the full
/// transcript; default: the answer names).
ViewLaw view_law(const Game& game, const Adversary& adversary, unsigned horizon,
                 const std::function<std::vector<std::string>(const std::vector<Step>&)>& project = {});
/// "[a b] (p0, p1); …" (the first @p limit views).
std::string describe_law(const ViewLaw& law, std::size_t limit = 6);
/// The privacy loss of a view law.
PrivacyLoss loss_of(const ViewLaw& law);

/// What a message of the source game becomes in the target game, given the source messages sent
/// earlier on the same path (world-0 names): the target message name, or std::nullopt when the
/// source message is dropped (its answer must be deterministic — the source node then has one
/// child, which is followed).
using MessageMap = std::function<std::optional<std::string>(const std::vector<std::string>& earlier, const std::string& message)>;
/// Replays @p adversary (a tree on @p source) on @p target: at each node the message pair is
/// renamed by @p map (dropped messages are skipped), and a target answer continues with the
/// source child of the same answer name. Target answers without a source child stop the
/// replayed adversary. Throws exactdp::Error when a renamed message is not in the target's
/// alphabet or is not allowed by the target's verifier at that point, or when a dropped message
/// has more than one answer.
Adversary replay(const Game& source, const Adversary& adversary, const Game& target, const MessageMap& map, unsigned horizon);

/// A random full-depth deterministic adversary on @p game whose first message is @p first
/// (by name); std::nullopt when @p first is not allowed at the root.
std::optional<Adversary> random_adversary_from(const Game& game, const std::string& first, unsigned horizon, Rng& rng);

/// The deterministic adversary that follows @p policy: given the transcript so far (by names), the
/// next message (sent identically to both worlds) or std::nullopt to stop. Throws exactdp::Error
/// when the policy names a message the verifier does not allow there.
Adversary adversary_from_policy(const Game& game, const std::function<std::optional<std::string>(const std::vector<Step>&)>& policy,
                                unsigned horizon);

/// A certified rational λ_lo ≤ e^ε (B.15, "sound use of a real ε"): the lower end of an MPFI
/// enclosure of e^ε at 128 bits. Since δ(λ) is non-increasing, δ(λ_lo) ≤ δ proves (ε, δ)-DP.
Rational exp_lower(const Rational& epsilon);

// ------------------------------------------------------------------ shared by the hstvvxz23_*.cpp checks

/// The λ at which a profile is compared: the breakpoints of both directions of @p a and @p b,
/// plus 0 and 1.
std::vector<Rational> comparison_points(const std::vector<const PiecewiseLinear*>& curves);

/// A random menu entry that is an interactive mechanism with certified parameters (δ = the
/// engine's δ(λ), moment = the engine's sup Φ_α): MP, MA, sticky RR_u, IRR_{u,δ}, the choice IM
/// C, or a random finite mechanism of depth 1–2.
MenuEntry random_im_entry(Rng& rng, const std::string& name, unsigned long alpha = 2);

/// A random menu of @p size interactive entries.
std::vector<MenuEntry> random_im_menu(Rng& rng, std::size_t size, unsigned long alpha = 2);

/// A random menu of one-shot RR_{λ,δ} (noninteractive) entries with their exact parameters.
std::vector<MenuEntry> random_rr_menu(Rng& rng, std::size_t size, bool pure);

/// Launch slots of the random filter instances: 2 at the small budget, 3 beyond.
std::size_t slots(const CheckContext& ctx);

LaunchOptions launch_options(std::size_t instances, unsigned horizon);

/// A parameter-only rule refined by a seeded hash of the parameter sequence: continue iff @p base
/// continues and the hash of (salt, λ₁, δ₁, …, proposed) is not ≡ 0 mod 3. Deterministic and
/// order-independent, so it is one fixed function of the parameters (THEOREMS.md A.9).
ContinuationRule hashed_rule(std::uint64_t salt, ContinuationRule base);

// ------------------------------------------------------------------ accumulators and the L2.19 identity

/// 𝒢 = (Π λ_j, Σ δ_j) with threshold (λ_d, δ_d) (BG-RRUV16-BASIC's accumulator).
Accumulator approximate_accumulator(Rational lambda_d, Rational delta_d);

/// L2.19's view identity for one adversary A of the odometer: the truncated odometer view with the
/// `privacy_loss` answers deleted equals the filter's view of A with its `privacy_loss` messages
/// dropped (Algs 14/15; both games answer a refused/over-threshold launch with "halt", so the
/// relabelling of the halt message is the identity here). Returns "" when equal.
std::string odometer_filter_identity(const Game& odo, const Game& filt, const Adversary& a, unsigned h);

/// Runs the L2.19 comparison on one (menu, accumulator, filter rule): the odometer and filter
/// profiles are equal, the identity holds for @p adversaries random adversaries, and the
/// odometer's truncated view stays within the threshold (sup H_{λ_d} ≤ δ_d).
std::string odometer_round(CheckContext& ctx, const std::vector<MenuEntry>& menu, const Accumulator& acc, const ContinuationRule& rule,
                           std::size_t instances, unsigned h, const Rational& lambda_d, const Rational& delta_d, unsigned adversaries);

}  // namespace exactdp::proofs::filters
