/// @file
/// check_claim: a privacy claim about an interactive mechanism (a game, read from a spec file or
/// authored) answered against every adversary of a class up to the horizon, with a typed verdict
/// — holds, refuted with a witness, or undecided with an enclosure and what would decide it.
/// `exactdp check` and `exactdp.check` in Python are this function plus printing.
///
/// Claims: "(ln λ, δ)-DP" with λ exact; "(ε, δ)-DP" with a real ε, decided through rational λ on
/// either side of e^ε (decide_at_real_epsilon below); "(α, ε)-RDP" for an integer order α.
#pragma once

#include "exactdp/accounting/verdict.hpp"
#include "exactdp/game/adversary_class.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>
#include <optional>
#include <string>

namespace exactdp {

/// A claim about a game.
struct GameClaim {
  enum class Kind { approximate_dp, renyi };
  Kind kind = Kind::approximate_dp;
  std::optional<Rational> lambda;   ///< (approximate_dp) the exact λ = e^ε, or
  std::optional<Rational> epsilon;  ///< (approximate_dp) a real ε (exactly one of the two is set)
  Rational delta = 0;               ///< (approximate_dp) δ ∈ [0, 1]
  unsigned long renyi_alpha = 0;    ///< (renyi) the integer order α ≥ 2
  Rational renyi_epsilon = 0;       ///< (renyi) the RDP level ε ≥ 0
};

/// The option texts of a claim as a front end received them ("" when not given).
struct GameClaimText {
  std::string lambda, epsilon, delta = "0", renyi_alpha, renyi_epsilon;
};

/// Validates and parses a claim (the one place its options are checked). Errors name the option as
/// @p prefix + name ("--lambda" with prefix "--"; names lambda, epsilon, delta, renyi-alpha,
/// renyi-epsilon): a missing or doubled claim, λ < 1, ε < 0, δ ∉ [0, 1], α not an integer in
/// [2, 1000], an RDP ε < 0.
GameClaim read_game_claim(const GameClaimText& text, const std::string& prefix);

/// How a claim is checked.
struct ClaimCheckOptions {
  EngineOptions engine;  ///< horizon, limits, threads, progress
  AdversaryClass adversary = AdversaryClass::adaptive;
  /// The real-ε loop (and the RDP comparison) raise the precision of e^ε from 64 bits, doubling,
  /// up to this cap; a claim still undecided there is reported undecided.
  Precision max_precision = 4096;
};

/// The answer to a claim about a game.
struct ClaimVerdict {
  Verdict verdict = Verdict::undecided;
  unsigned horizon = 0;  ///< the rounds played
  /// (ε, δ) claims: the exact worst-case δ(λ_used) in both directions.
  Rational delta_forward, delta_backward;
  /// (ε, δ) claims: the rational λ at which the claim was decided — the claim's λ, or a rational
  /// λ ≤ e^ε where it holds (then it holds at e^ε), or λ ≥ e^ε where it fails (then it fails there).
  std::optional<Rational> lambda_used;
  /// How lambda_used relates to the claim: "exact", "below" (≤ e^ε) or "above" (≥ e^ε).
  std::string lambda_side;
  /// Refuted (adaptive and sequential adversaries): the adversary, the event and both probabilities.
  std::optional<Witness> witness;
  /// Undecided: an enclosure of the deciding quantity (e^ε for a real-ε claim, ln Φ_α/(α−1) for
  /// an RDP claim), the precision reached, and what would decide the claim.
  std::optional<Interval> enclosure;
  std::string to_decide;
  Precision precision = 0;  ///< bits of the enclosure that decided (0: decided exactly)
  /// RDP claims: the worst-case moment Φ_α in both directions, and how the comparison was decided.
  std::optional<ExtendedRational> moment_forward, moment_backward;
  std::string decided;
  EngineStats stats;

  /// max(delta_forward, delta_backward).
  Rational delta() const { return delta_forward < delta_backward ? delta_backward : delta_forward; }
};

/// One line introducing a refuted verdict's witness. The witness is found at the fewest rounds at
/// which the claim already fails (find_violation), so it may be shorter, and reach a smaller δ,
/// than the worst adversary over the whole horizon whose δ the verdict reports; the line says so
/// then, so that no reader takes the printed adversary for the worst one.
/// Precondition: @p v.witness is set.
std::string witness_heading(const ClaimVerdict& v, const Rational& claimed_delta);

/// Answers @p claim about @p game (see the file comment). Oblivious adversaries answer (ε, δ)
/// claims only. Throws exactdp::Error on bad input and exactdp::GameTooLarge past the limits.
ClaimVerdict check_claim(const Game& game, const GameClaim& claim, const ClaimCheckOptions& options = {});

/// The outcome of decide_at_real_epsilon: the verdict, the rational λ that decided it (and its
/// side of e^ε), the result of the check there, and the last enclosure of e^ε.
template <class Result>
struct RealEpsilonDecision {
  Verdict verdict = Verdict::undecided;
  Rational lambda_used;
  bool below = false;  ///< lambda_used ≤ e^ε (the claim held there) rather than ≥ e^ε (it failed)
  std::optional<Result> result;
  Interval enclosure;  ///< the last enclosure of e^ε
  Precision precision = 0;
};

/// Decides a claim "δ(e^ε) ≤ δ" about a non-increasing δ(λ) at a real ε ≥ 0 from exact checks at
/// rational λ (THEOREMS.md B.15): with λ_lo ≤ e^ε ≤ λ_hi the ends of a certified enclosure, the
/// claim holds if it holds at λ_lo and fails if it fails at λ_hi. The enclosure is narrowed from
/// 64 bits, doubling, up to @p cap; undecided only if λ_lo fails and λ_hi holds at the cap (e^ε
/// for rational ε ≠ 0 is irrational, so this needs δ to jump within the enclosure).
/// @p check_at(λ) returns whether the claim holds at λ and what the caller keeps of that check.
template <class Result>
RealEpsilonDecision<Result> decide_at_real_epsilon(const Rational& epsilon, Precision cap,
                                                   const std::function<std::pair<bool, Result>(const Rational&)>& check_at) {
  RealEpsilonDecision<Result> out;
  for (Precision p = 64; p <= cap; p *= 2) {
    out.enclosure = sgn(epsilon) == 0 ? Interval(Rational(1), p) : exp(Interval(epsilon, p));
    out.precision = p;
    auto [holds_lo, lo] = check_at(out.enclosure.lower());
    if (holds_lo) {
      out.verdict = Verdict::holds, out.lambda_used = out.enclosure.lower(), out.below = true, out.result = std::move(lo);
      return out;
    }
    auto [holds_hi, hi] = check_at(out.enclosure.upper());
    if (!holds_hi) {
      out.verdict = Verdict::refuted, out.lambda_used = out.enclosure.upper(), out.below = false, out.result = std::move(hi);
      return out;
    }
    out.lambda_used = out.enclosure.lower(), out.below = true, out.result = std::move(lo);  // the evidence kept when undecided
  }
  return out;
}

}  // namespace exactdp
