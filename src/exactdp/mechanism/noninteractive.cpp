#include "exactdp/mechanism/noninteractive.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/noise/dlap_closed_form.hpp"

#include <string>
#include <utility>
#include <vector>

namespace exactdp {
namespace {

void require_lambda(const Rational& lambda, const char* where) {
  if (lambda < 1) throw Error(where, "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
}

void require_delta(const Rational& delta, const char* where) {
  if (sgn(delta) < 0 || delta > 1) throw Error(where, "delta", to_string(delta), "delta must lie in [0, 1]");
}

void require_r(const Rational& r, const char* where) {
  if (sgn(r) <= 0 || r >= 1) throw Error(where, "r", to_string(r), "r = e^(-epsilon0) must lie strictly between 0 and 1");
}

/// |a − b| as an exact integer (no overflow of long arithmetic).
Integer distance(long a, long b) { return abs(Integer(a) - Integer(b)); }

}  // namespace

namespace mechanism_detail {

void check_window(const char* where, long value, long lo, long hi) {
  const std::string window = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (lo > hi) throw Error(where, "window", window, "the clamp window must satisfy lo <= hi");
  if (distance(hi, lo) >= max_table_outcomes)
    throw Error(where, "window", window, "the clamp window has more than " + std::to_string(max_table_outcomes) + " outcomes");
  if (distance(value, lo) > max_table_outcomes || distance(value, hi) > max_table_outcomes)
    throw Error(where, "value", std::to_string(value),
                "the released value lies more than " + std::to_string(max_table_outcomes) + " outcomes from the clamp window");
}

void check_sensitivity(const char* where, unsigned long sensitivity) {
  if (sensitivity < 1 || sensitivity > max_table_outcomes)
    throw Error(where, "sensitivity", std::to_string(sensitivity),
                "the sensitivity must be an integer between 1 and " + std::to_string(max_table_outcomes));
}

}  // namespace mechanism_detail

std::ostream& operator<<(std::ostream& os, Flag flag) { return os << (flag == Flag::leak ? "Leak" : "NoLeak"); }

std::ostream& operator<<(std::ostream& os, const FlaggedBit& y) { return os << '(' << y.flag << ", " << y.bit << ')'; }

Dist<FlaggedBit> randomized_response(const Rational& lambda, const Rational& delta, int bit) {
  constexpr const char* where = "randomized_response";
  require_lambda(lambda, where);
  require_delta(delta, where);
  if (bit != 0 && bit != 1) throw Error(where, "bit", std::to_string(bit), "the input of randomized response is a bit");
  const Rational keep = (1 - delta) * lambda / (1 + lambda), flip = (1 - delta) / (1 + lambda);
  return Dist<FlaggedBit>({{{Flag::leak, bit}, delta}, {{Flag::no_leak, bit}, keep}, {{Flag::no_leak, 1 - bit}, flip}},
                          MassKind::probability, where);
}

NeighbouringPair<FlaggedBit> randomized_response(const Rational& lambda, const Rational& delta) {
  return {randomized_response(lambda, delta, 0), randomized_response(lambda, delta, 1)};
}

Dist<long> k_ary_randomized_response(unsigned long k, const Rational& lambda, long input) {
  constexpr const char* where = "k_ary_randomized_response";
  if (k < 2 || k > max_table_outcomes)
    throw Error(where, "k", std::to_string(k),
                "k-ary randomized response needs 2 <= k <= " + std::to_string(max_table_outcomes) +
                    " (use k_ary_randomized_response_loss for larger k)");
  require_lambda(lambda, where);
  if (input < 0 || static_cast<unsigned long>(input) >= k)
    throw Error(where, "input", std::to_string(input), "the input must lie in {0, ..., k-1}");
  const Rational z = lambda + (k - 1);
  const Rational other = 1 / z, same = lambda / z;
  std::vector<std::pair<long, Rational>> m;
  m.reserve(k);
  for (unsigned long y = 0; y < k; ++y) m.emplace_back(static_cast<long>(y), static_cast<long>(y) == input ? same : other);
  return Dist<long>(m, MassKind::probability, where);
}

NeighbouringPair<long> k_ary_randomized_response(unsigned long k, const Rational& lambda) {
  return {k_ary_randomized_response(k, lambda, 0), k_ary_randomized_response(k, lambda, 1)};
}

PrivacyLoss k_ary_randomized_response_loss(unsigned long k, const Rational& lambda) {
  constexpr const char* where = "k_ary_randomized_response_loss";
  if (k < 2) throw Error(where, "k", std::to_string(k), "k-ary randomized response needs k >= 2");
  require_lambda(lambda, where);
  const Rational z = lambda + (k - 1);
  const Rational same = lambda / z, other = 1 / z, rest = Rational(k - 2) / z;
  return PrivacyLoss::from_masses({{same, other}, {other, same}, {rest, rest}}, where);
}

Rational discrete_laplace_cdf(const Rational& r, long m) {
  constexpr const char* where = "discrete_laplace_cdf";
  require_r(r, where);
  if (distance(m, 0) > max_table_outcomes)
    throw Error(where, "m", std::to_string(m), "|m| is too large for an exact power of r");
  return noise::dlap_cdf_value<noise::RationalField>(r, m);
}

Dist<long> discrete_laplace(const Rational& r, long value, long lo, long hi) {
  constexpr const char* where = "discrete_laplace";
  require_r(r, where);
  mechanism_detail::check_window(where, value, lo, hi);
  if (lo == hi) return Dist<long>::point(lo);

  const auto m = noise::clamped_dlap_masses<noise::RationalField>(r, value, lo, hi);  // the closed forms of D.3, B.14
  return Dist<long>(m, MassKind::probability, where);
}

NeighbouringPair<long> discrete_laplace_pair(const Rational& r, unsigned long sensitivity, long lo, long hi) {
  mechanism_detail::check_sensitivity("discrete_laplace_pair", sensitivity);
  return {discrete_laplace(r, 0, lo, hi), discrete_laplace(r, static_cast<long>(sensitivity), lo, hi)};
}

NeighbouringPair<long> discrete_laplace_pair(const Rational& r, unsigned long sensitivity) {
  mechanism_detail::check_sensitivity("discrete_laplace_pair", sensitivity);
  return discrete_laplace_pair(r, sensitivity, 0, static_cast<long>(sensitivity));
}

}  // namespace exactdp
