/// @file
/// The one verdict vocabulary of exactdp, the exit codes of the command line, and the validation
/// of the numbers a question is asked with (λ, ε, δ, α) — written once, used by the command line,
/// the Python package and the audit (docs/verdicts.md has the table that maps the words).
///
/// A claim about a mechanism is answered **holds**, **refuted** (with evidence) or **undecided**
/// (with an enclosure of the truth and what would decide it). The audit of an accountant's number
/// uses the words of its users — **sound** (the claim holds: it promises no less privacy loss than
/// the truth), **unsound** (it is refuted), **undecided** — for the same three outcomes.
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <string>

namespace exactdp {

/// The outcome of a claim.
enum class Verdict {
  holds,     ///< the claim is true (audit: sound)
  refuted,   ///< the claim is false, with evidence (audit: unsound)
  undecided  ///< a certified enclosure of the truth still straddles the claim (audit: undecided)
};

/// "holds", "refuted" or "undecided".
std::string to_string(Verdict v);
/// The audit's word for @p v: "sound", "unsound" or "undecided".
std::string audit_word(Verdict v);

/// Exit codes of the `exactdp` program, the same for every subcommand.
namespace exit_code {
inline constexpr int holds = 0;      ///< the claim holds / every audited claim is sound / success
inline constexpr int refuted = 1;    ///< a claim is refuted / some audited claim is unsound
inline constexpr int bad_input = 2;  ///< a usage or input error, or a computation refused before it started
inline constexpr int undecided = 3;  ///< undecided (and nothing refuted)
inline constexpr int internal = 4;   ///< an internal failure (e.g. out of memory the estimates did not foresee)
}  // namespace exit_code

/// The exit code of one verdict.
int exit_code_of(Verdict v);

/// Validated readers of the numbers of a question. Each parses @p text exactly
/// (exactdp::parse_rational: "0.1" is 1/10) and throws exactdp::Error(@p field, "", text, why)
/// when it is malformed or out of range.
///
/// λ = e^ε ≥ 1.
Rational read_lambda(const std::string& text, const std::string& field);
/// ε ≥ 0 (and at most @p max when max > 0).
Rational read_epsilon(const std::string& text, const std::string& field, long max = 0);
/// A λ = e^ε at which δ is asked (profiles, compositions): any λ > 0, so λ < 1 (ε < 0) too.
Rational read_profile_lambda(const std::string& text, const std::string& field);
/// An ε at which δ is asked: any sign (δ(ε) for ε < 0 is defined, divergence/direction.hpp);
/// |ε| ≤ @p max when max > 0.
Rational read_profile_epsilon(const std::string& text, const std::string& field, long max = 0);
/// δ ∈ [0, 1].
Rational read_delta(const std::string& text, const std::string& field);
/// A Rényi order 1 < α ≤ @p max.
Rational read_renyi_order(const std::string& text, const std::string& field, long max);

}  // namespace exactdp
