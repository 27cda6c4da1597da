#include "exactdp/accounting/verdict.hpp"

#include "exactdp/core/error.hpp"

namespace exactdp {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::holds: return "holds";
    case Verdict::refuted: return "refuted";
    case Verdict::undecided: return "undecided";
  }
  return "undecided";
}

std::string audit_word(Verdict v) {
  switch (v) {
    case Verdict::holds: return "sound";
    case Verdict::refuted: return "unsound";
    case Verdict::undecided: return "undecided";
  }
  return "undecided";
}

int exit_code_of(Verdict v) {
  switch (v) {
    case Verdict::holds: return exit_code::holds;
    case Verdict::refuted: return exit_code::refuted;
    case Verdict::undecided: return exit_code::undecided;
  }
  return exit_code::internal;
}

Rational read_lambda(const std::string& text, const std::string& field) {
  const Rational l = parse_rational(text, field);
  if (l < 1) throw Error(field, "", text, "lambda = e^epsilon must be at least 1");
  return l;
}

Rational read_epsilon(const std::string& text, const std::string& field, long max) {
  const Rational e = parse_rational(text, field);
  if (sgn(e) < 0) throw Error(field, "", text, "epsilon must be non-negative");
  if (max > 0 && e > max) throw Error(field, "", text, "epsilon above " + std::to_string(max) + " is not supported");
  return e;
}

Rational read_profile_lambda(const std::string& text, const std::string& field) {
  const Rational l = parse_rational(text, field);
  if (sgn(l) <= 0) throw Error(field, "", text, "lambda = e^epsilon must be positive");
  return l;
}

Rational read_profile_epsilon(const std::string& text, const std::string& field, long max) {
  const Rational e = parse_rational(text, field);
  if (max > 0 && abs(e) > max)
    throw Error(field, "", text, "epsilon outside [-" + std::to_string(max) + ", " + std::to_string(max) + "] is not supported");
  return e;
}

Rational read_delta(const std::string& text, const std::string& field) {
  const Rational d = parse_rational(text, field);
  if (sgn(d) < 0 || d > 1) throw Error(field, "", text, "delta must lie in [0, 1]");
  return d;
}

Rational read_renyi_order(const std::string& text, const std::string& field, long max) {
  const Rational a = parse_rational(text, field);
  if (a <= 1) throw Error(field, "", text, "the Renyi order alpha must exceed 1");
  if (a > max) throw Error(field, "", text, "Renyi orders above " + std::to_string(max) + " are not supported");
  return a;
}

}  // namespace exactdp
