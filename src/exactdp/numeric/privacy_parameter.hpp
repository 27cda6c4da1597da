/// @file
/// A privacy parameter λ = e^ε, held exactly when it is rational and as a certified enclosure
/// when it is not (THEOREMS.md §0.3 and B.15).
#pragma once

#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace exactdp {

/// The privacy parameter λ = e^ε ≥ 1 of (ε, δ)-DP, in one of two forms:
///
///  - **base form**: λ given as an exact rational λ ≥ 1 (then ε = ln λ, irrational unless λ = 1);
///  - **epsilon form**: ε given as an exact rational ε ≥ 0 (typically a decimal such as 0.1 read
///    with parse_rational); then λ = e^ε is irrational for ε ≠ 0 (Lindemann–Weierstrass) and is
///    carried as a certified enclosure.
///
/// Exact machinery (privacy profiles δ(λ), which are non-increasing in λ) handles a real ε soundly
/// through lambda_bracket(): for rationals lo ≤ e^ε ≤ hi, δ(hi) ≤ δ(e^ε) ≤ δ(lo), so δ(lo) ≤ δ
/// proves (ε, δ)-DP and δ(hi) > δ refutes it (THEOREMS.md B.15).
///
/// A regular value type. Two parameters compare equal when they denote the same λ, whatever the
/// form: from_lambda(1) == from_epsilon(0), while a base form λ and an epsilon form ε ≠ 0 are
/// never equal (e^ε is irrational). This equality is exact, not approximate.
class PrivacyParameter {
public:
  /// Which quantity the parameter was given as.
  enum class Form { lambda, epsilon };

  /// λ = 1 (ε = 0), the parameter of perfect privacy.
  PrivacyParameter();

  /// Base form. Throws exactdp::Error (field "lambda", value λ) unless λ ≥ 1.
  static PrivacyParameter from_lambda(const Rational& lambda);
  /// Epsilon form. Throws exactdp::Error (field "epsilon", value ε) unless ε ≥ 0.
  static PrivacyParameter from_epsilon(const Rational& epsilon);
  /// Parses λ with parse_rational (so "3/2", "1.5", "15e-1" are all exactly 3/2) and applies
  /// from_lambda. Errors name @p field and the text as written: unparsable text, or λ < 1.
  static PrivacyParameter parse_lambda(std::string_view text, std::string_view field = "lambda");
  /// Parses ε with parse_rational (so "0.1" is exactly 1/10, not the binary double) and applies
  /// from_epsilon. Errors name @p field and the text as written: unparsable text, or ε < 0.
  static PrivacyParameter parse_epsilon(std::string_view text, std::string_view field = "epsilon");

  /// The form the parameter was given in.
  Form form() const { return form_; }
  /// True when λ is an exact rational: base form, or epsilon form with ε = 0 (λ = e^0 = 1).
  bool is_exact() const { return form_ == Form::lambda || given_ == 0; }
  /// The exact λ. Precondition: is_exact(); throws exactdp::Error (field "epsilon") otherwise,
  /// since e^ε is irrational for rational ε ≠ 0.
  const Rational& lambda() const;
  /// ε when it is an exact rational: epsilon form, or base form with λ = 1 (ε = 0). Otherwise
  /// (base form, λ > 1, where ln λ is irrational) std::nullopt.
  std::optional<Rational> exact_epsilon() const;

  /// A certified enclosure of λ = e^ε at @p precision: the tightest interval around the rational
  /// λ when exact, otherwise exp of the enclosure of ε (MPFI, rounded outward). Contains λ.
  Interval lambda_enclosure(Precision precision = default_precision) const;
  /// A certified enclosure of ε = ln λ at @p precision: the interval around the given ε in epsilon
  /// form; ln of the enclosure of λ in base form ([0, 0] exactly when λ = 1). Contains ε.
  Interval epsilon_enclosure(Precision precision = default_precision) const;
  /// Rationals (lo, hi) with 1 ≤ lo ≤ λ ≤ hi: both equal λ when is_exact(); otherwise the
  /// endpoints of lambda_enclosure(precision), where in fact lo < λ < hi (λ is irrational).
  /// The brackets shrink to λ as @p precision grows (width about λ·2^−precision). Throws
  /// exactdp::Error (field "epsilon") if e^ε overflows MPFR's exponent range (ε > ~7·10^8).
  ///
  /// Use: δ(λ) is non-increasing, so δ(hi) ≤ δ(λ) ≤ δ(lo) (THEOREMS.md B.15).
  std::pair<Rational, Rational> lambda_bracket(Precision precision = default_precision) const;

  /// The parameter as given: "lambda=3/2" or "epsilon=1/10" (exact rationals, lowest terms).
  std::string to_string() const;

  /// Same λ (exact; see the class comment).
  friend bool operator==(const PrivacyParameter& a, const PrivacyParameter& b);

private:
  PrivacyParameter(Form form, Rational given);

  Form form_ = Form::lambda;
  Rational given_{1};   ///< λ in base form, ε in epsilon form
  Rational lambda_{1};  ///< λ when is_exact(); unused otherwise
};

/// Decides `λ rel q` for the parameter's λ = e^ε and an exact rational q: exactly when λ is
/// rational (precision 0), otherwise by decide_exp(), which terminates for every q because
/// e^ε ≠ q (Lindemann–Weierstrass; THEOREMS.md B.15) unless the precision cap is reached.
Decision decide_lambda(const PrivacyParameter& parameter, Relation rel, const Rational& q,
                       const DecideOptions& options = {});
/// Decides `ε rel q` for the parameter's ε = ln λ: exactly in epsilon form or when λ = 1, otherwise
/// by decide_log() (which itself treats q = 0 exactly).
Decision decide_epsilon(const PrivacyParameter& parameter, Relation rel, const Rational& q,
                        const DecideOptions& options = {});

}  // namespace exactdp
