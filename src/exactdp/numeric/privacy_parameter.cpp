#include "exactdp/numeric/privacy_parameter.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {
namespace {

constexpr const char* lambda_too_small = "lambda = e^epsilon must be at least 1";
constexpr const char* epsilon_negative = "epsilon must be non-negative";

}  // namespace

PrivacyParameter::PrivacyParameter() = default;

PrivacyParameter::PrivacyParameter(Form form, Rational given)
    : form_(form), given_(std::move(given)), lambda_(form == Form::lambda ? given_ : Rational(1)) {}

PrivacyParameter PrivacyParameter::from_lambda(const Rational& lambda) {
  if (lambda < 1) throw Error("", "lambda", exactdp::to_string(lambda), lambda_too_small);
  return PrivacyParameter(Form::lambda, lambda);
}

PrivacyParameter PrivacyParameter::from_epsilon(const Rational& epsilon) {
  if (epsilon < 0) throw Error("", "epsilon", exactdp::to_string(epsilon), epsilon_negative);
  return PrivacyParameter(Form::epsilon, epsilon);
}

// The range checks are repeated here (not delegated to from_*) so that the error shows the text as
// the user wrote it ("0.5") rather than its canonical rational ("1/2"), under the caller's field.
PrivacyParameter PrivacyParameter::parse_lambda(std::string_view text, std::string_view field) {
  const Rational lambda = parse_rational(text, field);
  if (lambda < 1) throw Error("", std::string(field), std::string(text), lambda_too_small);
  return PrivacyParameter(Form::lambda, lambda);
}

PrivacyParameter PrivacyParameter::parse_epsilon(std::string_view text, std::string_view field) {
  const Rational epsilon = parse_rational(text, field);
  if (epsilon < 0) throw Error("", std::string(field), std::string(text), epsilon_negative);
  return PrivacyParameter(Form::epsilon, epsilon);
}

const Rational& PrivacyParameter::lambda() const {
  if (!is_exact())
    throw Error("", "epsilon", exactdp::to_string(given_),
                "lambda = e^epsilon is irrational for rational epsilon != 0; use lambda_bracket or "
                "lambda_enclosure");
  return lambda_;
}

std::optional<Rational> PrivacyParameter::exact_epsilon() const {
  if (form_ == Form::epsilon) return given_;
  if (given_ == 1) return Rational(0);
  return std::nullopt;
}

Interval PrivacyParameter::lambda_enclosure(Precision precision) const {
  if (is_exact()) return Interval(lambda_, precision);
  return exp(Interval(given_, precision));
}

Interval PrivacyParameter::epsilon_enclosure(Precision precision) const {
  if (form_ == Form::epsilon) return Interval(given_, precision);
  if (given_ == 1) return Interval::zero(precision);  // ln 1 = 0 exactly
  return log(Interval(given_, precision));
}

std::pair<Rational, Rational> PrivacyParameter::lambda_bracket(Precision precision) const {
  if (is_exact()) return {lambda_, lambda_};
  const Interval e = lambda_enclosure(precision);
  if (!e.upper_is_finite())
    throw Error("", "epsilon", exactdp::to_string(given_), "e^epsilon exceeds the exponent range of MPFR");
  // λ = e^ε ≥ 1 for ε ≥ 0, so raising a lower end below 1 to 1 stays sound (it cannot happen with
  // correct rounding, since 1 is representable, but the guarantee lo ≥ 1 should not depend on it).
  return {std::max(e.lower(), Rational(1)), e.upper()};
}

std::string PrivacyParameter::to_string() const {
  return std::string(form_ == Form::lambda ? "lambda=" : "epsilon=") + exactdp::to_string(given_);
}

bool operator==(const PrivacyParameter& a, const PrivacyParameter& b) {
  if (a.is_exact() && b.is_exact()) return a.lambda_ == b.lambda_;
  if (a.is_exact() != b.is_exact()) return false;  // a rational λ never equals an irrational e^ε
  return a.given_ == b.given_;                       // both epsilon form, ε ≠ 0: exp is injective
}

Decision decide_lambda(const PrivacyParameter& parameter, Relation rel, const Rational& q,
                       const DecideOptions& options) {
  if (parameter.is_exact()) return Decision{to_tri(holds(parameter.lambda(), rel, q)), 0};
  return decide_exp(*parameter.exact_epsilon(), rel, q, options);
}

Decision decide_epsilon(const PrivacyParameter& parameter, Relation rel, const Rational& q,
                        const DecideOptions& options) {
  if (auto epsilon = parameter.exact_epsilon()) return Decision{to_tri(holds(*epsilon, rel, q)), 0};
  return decide_log(parameter.lambda(), rel, q, options);
}

}  // namespace exactdp
