/// @file
/// Instances and tools shared by the HSV checks (hsv_s*.cpp): small continual mechanisms as tables (RR
/// as a CM, Mir_p, the Rényi gadget, random CMs and IMs), a horizon-bounding verifier, menu entries and
/// launch options for ExtConComp, the RR bounds δ_opt and δ_RR with the points at which a profile is
/// compared with them, decision trees from policies, and the HSV §6 checker's instances of the
/// library's composites.
#pragma once

#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/compose/launch.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library_hsv.hpp"
#include "exactdp/mechanism/composite.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/reduce/complex_mechanism.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "proofs_checks/hstvvxz23_support.hpp"
#include "proofs_checks/support.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <variant>

namespace exactdp::proofs::hsv {

/// A pair of mass vectors: (P-mass, Q-mass) per outcome.
using Masses = std::vector<std::pair<Rational, Rational>>;

/// max(H_λ(P‖Q), H_λ(Q‖P)) of a privacy-loss distribution: the symmetric hockey-stick.
Rational sym_hs(const PrivacyLoss& l, const Rational& lambda);

// ------------------------------------------------------------------ mechanisms built for the checks
//
// Small continual mechanisms written out as tables here (THEOREMS.md D.1, D.11–D.13 in CM form):
// the library holds the IM forms, the launch compositions need CMs whose neighbouring relation is
// carried by message pairs, and every verifier below bounds the number of messages, so a created
// instance can never be used beyond the horizon at which its parameters were computed.

/// The rows of one cell of a table mechanism, and the named states of a table.
using Rows = std::vector<TableMechanism::Row>;
using States = std::vector<std::pair<std::string, TableMechanism::StateTable>>;
/// An edge of an automaton verifier (a pair allowed in a state, and the next state).
using Edge = AutomatonVerifier::Edge;

/// Appends the row (probability @p p, answer, next state) unless @p p is 0.
void add_row(Rows& rows, const Rational& p, const std::string& answer, const std::string& next);

/// A CM game: both worlds start in @p start; the verifier carries the difference (HSV D3.7).
Game cm_game(const std::string& name, std::shared_ptr<TableMechanism> mech, std::shared_ptr<const Verifier> verifier,
             const std::string& start, unsigned horizon);

/// The rows of RR_{λ,δ}(x) (A.2) with answers "leak<x>", "0", "1".
Rows rr_rows(const Rational& lambda, const Rational& delta, int x, const std::string& next);

/// RR_{λ,δ} as a CM under f_RR (D.1): exactly one message, a pair of bits; world b's bit is
/// answered by RR_{λ,δ}. Claim: (ln λ, δ)-DP w.r.t. f_RR, with exactly the profile of RR_{λ,δ}.
Game rr_cm(const Rational& lambda, const Rational& delta);

/// The relation of an IM written as a CM (A.3, D.11 "IM version"): the secret arrives first as a
/// pair of the messages 0, 1 (identical or not), then @p queries identical pairs of message 2.
std::shared_ptr<const Verifier> secret_first_relation(unsigned queries);

/// RR_{λ,δ} in IM form as a CM: the secret bit first ("ok"), then one query "q" answered by
/// RR_{λ,δ}(secret). Claim: (ln λ, δ)-DP, first-pair consistent (HSV D5.12).
Game rr_im_cm(const Rational& lambda, const Rational& delta);

/// Mir_p as a CM (D.13, CM form): message 1 is "q" (answer a1 or a2, 1/2 each); message 2 is a
/// pair of bits, identical or (0, 1), world b receiving x_b: after a1 the bit 0 is answered X with
/// probability p (else Y) and the bit 1 by Y; after a2 the roles of the bits are swapped. Claim:
/// (ln(1/(1−p)), p/2)-DP w.r.t. this relation (E.10 H7, HSV C5.7).
Game mirror_cm(const Rational& p);

/// Random kernel rows over answers {0, 1} and next states s0..s(n−1) (E.11 sizes); with @p pure
/// every weight is ≥ 1, so no answer has probability 0 in one world only.
Rows random_rows(Rng& rng, int states, bool pure, const std::string& prefix);

/// A random continual mechanism (E.11): 2–3 hidden states, the initial state s0 shared by both
/// worlds, bits in and out; its relation allows at most @p h message pairs of bits, at most one of
/// them non-identical (event-level, A.7).
Game random_cm(Rng& rng, unsigned h, bool pure);

/// A random IM written as a CM (A.3): the secret bit first (answer "ok", moving to state x0 or x1
/// of a random 2–3-state table), then @p queries identical queries "q".
Game random_im_cm(Rng& rng, unsigned queries, bool pure);

/// A verifier that lets through at most @p limit pairs of an inner verifier (finite communication,
/// HSV D14.4), so that a mechanism created inside a launch composition cannot be used beyond the
/// horizon at which its parameters were computed. State = inner state × messages sent.
class BoundedVerifier final : public Verifier {
public:
  BoundedVerifier(std::shared_ptr<const Verifier> inner, unsigned limit) : inner_(std::move(inner)), limit_(limit) {}
  VerifierState initial_state() const override { return encode(inner_->initial_state(), 0); }
  const std::vector<MessagePair>& allowed(VerifierState state) const override {
    return state % (limit_ + 1) < limit_ ? inner_->allowed(state / (limit_ + 1)) : none_;
  }
  VerifierState next(VerifierState state, std::size_t action) const override {
    return encode(inner_->next(state / (limit_ + 1), action), state % (limit_ + 1) + 1);
  }
  std::string describe() const override { return inner_->describe() + ", at most " + std::to_string(limit_) + " messages"; }

private:
  VerifierState encode(VerifierState inner, unsigned sent) const { return inner * (limit_ + 1) + sent; }
  std::shared_ptr<const Verifier> inner_;
  unsigned limit_;
  std::vector<MessagePair> none_;
};

/// @p g with at most @p limit messages (BoundedVerifier) and that horizon.
Game bounded(Game g, unsigned limit);

/// A menu entry of a launch composition with its certified parameters (λ, δ, and the Rényi moment
/// when the menu is used by a Rényi rule).
MenuEntry entry(const std::string& name, Game g, Rational lambda, Rational delta = 0, std::optional<Rational> moment = std::nullopt);

/// Launch options allowing @p instances creations over @p horizon messages.
LaunchOptions launch_options(std::size_t instances, unsigned horizon);

/// δ_opt(λ_g) of B.11 for the components (λ_i, δ_i) (ε_i = 0 enters as λ_i = 1, the limit ε_i → 0⁺).
Rational delta_opt(const std::vector<std::pair<Rational, Rational>>& components, const Rational& lambda_g);

/// The λ ≥ 1 at which two exact convex piecewise-linear profiles must be compared: the grid, the
/// breakpoints of the engine's curves and one point past the last (beyond it both are constant).
std::vector<Rational> comparison_points(const PrivacyProfile& p, const std::vector<Rational>& extra = {});

/// The first λ ≥ 1 where the engine's profile exceeds @p bound, with both values ("" if none).
/// The bound is convex piecewise linear with breakpoints @p bound_breaks (checked as well), so
/// the comparison at these points decides the inequality on all of [1, ∞).
std::string first_excess(const PrivacyProfile& p, const std::function<Rational(const Rational&)>& bound,
                         const std::vector<Rational>& bound_breaks = {});

/// The breakpoints r_S of δ_RR for the λ's (products and ratios of subsets), for first_excess.
std::vector<Rational> rr_breakpoints(const std::vector<Rational>& lambdas);

/// Whether profile @p a ≤ profile @p b at every λ ≥ 1 in both directions (compared at the union of
/// breakpoints, where the difference of two piecewise-linear functions is decided), with the first
/// excess in words.
std::string profile_excess(const PrivacyProfile& a, const PrivacyProfile& b);

// ------------------------------------------------------------------ HSV §6–9 composites

using library::CompositeModel;

/// The checker's instance of a library composite, with room for the larger toy sizes.
CompositeInstance instance_of(const CompositeModel& m);

/// The HSV §6 checker's verdict in words: the conditions that hold and the configurations explored,
/// or the violated condition with the inputs that reach it; @p taint says the taint rules were checked.
std::string verdict(const CompositeCheck& c, bool taint = false);

/// Records "profile of @p game ≤ @p bound(λ) at every λ of the grid".
template <class Bound>
void profile_at_most(CheckContext& ctx, const std::string& name, const Game& game, Bound bound, const std::string& bound_name) {
  bool ok = true;
  std::string out;
  for (const auto& lambda : lambda_grid()) {
    const Rational got = worst_case_hockey_stick(game, lambda).delta(), b = bound(lambda);
    ok = ok && got <= b;
    if (lambda == 1 || lambda == 2 || lambda == 4 || got > b) out += (out.empty() ? "" : "; ") + std::string("δ(") + str(lambda) + ") = " + str(got) + " ≤ " + str(b);
  }
  ctx.instance(name + ": sup_A H_λ ≤ " + bound_name + " on the λ grid", out, ok, game.horizon);
}

/// The exact pure level of each group of the histogram's sub-mechanisms (one SVT instance under f_S,
/// one Laplace instance under f_{L,1}, the d-counter under f_C) and the claimed levels of HSV L7.4,
/// the Laplace mechanism and C7.5.
struct HistogramSplit {
  ExtendedRational svt, laplace, counter;
  Rational svt_claim, laplace_claim, counter_claim;
};

/// The exact levels (worst-case ratios, by the engine on each sub-mechanism's own game) and the
/// claimed levels of the histogram with parameters @p p.
HistogramSplit split_of(const library::HistogramParams& p);

}  // namespace exactdp::proofs::hsv
