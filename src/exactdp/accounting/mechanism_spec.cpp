#include "exactdp/accounting/mechanism_spec.hpp"

#include "exactdp/accounting/composition_plan.hpp"

#include "exactdp/bounds/gaussian.hpp"
#include "exactdp/bounds/laplace.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/mechanism/certified_noninteractive.hpp"
#include "exactdp/mechanism/discrete_gaussian.hpp"
#include "exactdp/mechanism/noninteractive.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace exactdp {
namespace {

// ------------------------------------------------------------------ the grammar's vocabulary

struct FamilyInfo {
  MechanismFamily family;
  const char* name;
  std::vector<const char*> keys;  ///< the accepted keys, in canonical order
};

const std::vector<FamilyInfo>& families() {
  static const std::vector<FamilyInfo> all{
      {MechanismFamily::randomized_response, "rr", {"lambda", "epsilon", "delta"}},
      {MechanismFamily::k_ary_randomized_response, "krr", {"k", "lambda", "epsilon"}},
      {MechanismFamily::discrete_laplace, "dlaplace", {"r", "a", "epsilon", "sensitivity"}},
      {MechanismFamily::discrete_gaussian, "dgauss", {"sigma2", "truncation", "sensitivity"}},
      {MechanismFamily::laplace, "laplace", {"b", "sensitivity"}},
      {MechanismFamily::gaussian, "gauss", {"sigma", "sensitivity"}},
  };
  return all;
}

const FamilyInfo& info(MechanismFamily family) {
  for (const auto& f : families())
    if (f.family == family) return f;
  throw Error("internal: unknown mechanism family");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string join_keys(const FamilyInfo& f) {
  std::string s;
  for (const char* k : f.keys) s += (s.empty() ? "" : ", ") + std::string(k);
  return s;
}

/// The raw items of a spec, by key, with the text of each value (for error messages).
struct RawItem {
  std::string item;   ///< "key=value" as written
  std::string value;  ///< "value" as written
};
using RawItems = std::map<std::string, RawItem, std::less<>>;

// ------------------------------------------------------------------ validation of one value

[[noreturn]] void reject(const std::string& field, const std::string& text, const std::string& why) {
  throw Error("", field, text, why);
}

/// Checks and canonicalises the parameters of one family; returns them in canonical order.
class Validator {
public:
  Validator(const FamilyInfo& f, const RawItems& items) : f_(f), items_(items) {}

  std::string field(const std::string& key) const { return std::string(f_.name) + ":" + key; }
  bool given(const std::string& key) const { return items_.count(key) > 0; }
  const std::string& text(const std::string& key) const { return items_.at(key).value; }
  Rational number(const std::string& key) const { return parse_rational(text(key), field(key)); }

  void add(const std::string& key, const Rational& value) { out_.push_back({key, value}); }

  /// Exactly one of two alternatives (e.g. lambda or epsilon); returns the one given.
  std::string one_of(const std::string& first, const std::string& second) const {
    if (given(first) && given(second))
      reject(field(second), text(second), "give either " + first + " or " + second + ", not both");
    if (!given(first) && !given(second))
      reject(field(first), "", "missing key: " + std::string(f_.name) + " needs " + first + "= or " + second + "=");
    return given(first) ? first : second;
  }
  void require(const std::string& key) const {
    if (!given(key)) reject(field(key), "", "missing key: " + std::string(f_.name) + " needs " + key + "=");
  }

  void lambda() { add("lambda", PrivacyParameter::parse_lambda(text("lambda"), field("lambda")).lambda()); }
  void epsilon(bool strictly_positive) {
    const auto e = PrivacyParameter::parse_epsilon(text("epsilon"), field("epsilon"));
    const Rational value = *e.exact_epsilon();
    if (strictly_positive && sgn(value) == 0)
      reject(field("epsilon"), text("epsilon"), "epsilon must be positive (r = e^(-epsilon/sensitivity) < 1)");
    add("epsilon", value);
  }
  void probability(const std::string& key) {
    const Rational d = given(key) ? number(key) : Rational(0);
    if (sgn(d) < 0 || d > 1) reject(field(key), text(key), key + " must lie in [0, 1]");
    add(key, d);
  }
  /// A noise scale: 0 is the noiseless (degenerate) mechanism, negative values are refused.
  void non_negative(const std::string& key, const std::string& what) {
    require(key);
    const Rational v = number(key);
    if (sgn(v) < 0) reject(field(key), text(key), what + " must be non-negative (0: no noise)");
    add(key, v);
  }
  void open_unit(const std::string& key) {
    require(key);
    const Rational v = number(key);
    if (sgn(v) < 0 || v >= 1) reject(field(key), text(key), "r = e^(-epsilon0) must lie in [0, 1) (0: no noise)");
    add(key, v);
  }
  void integer_at_least(const std::string& key, long least, unsigned long most, const std::string& what) {
    if (!given(key)) {
      add(key, Rational(least));  // only reached for sensitivity, whose default 1 is its least value
      return;
    }
    const Rational v = number(key);
    if (v.get_den() != 1 || v < least || v > most)
      reject(field(key), text(key), what);
    add(key, v);
  }
  void sensitivity_integer() {
    if (!given("sensitivity")) return add("sensitivity", Rational(1));
    integer_at_least("sensitivity", 0, max_table_outcomes,
                     "the sensitivity of a discrete mechanism must be a non-negative integer (at most " +
                         std::to_string(max_table_outcomes) + ")");
  }
  void sensitivity_rational() {
    const Rational v = given("sensitivity") ? number("sensitivity") : Rational(1);
    if (sgn(v) < 0) reject(field("sensitivity"), text("sensitivity"), "the sensitivity must be non-negative");
    add("sensitivity", v);
  }

  /// dlaplace's r (exact), a (r = e^{−a}, dp-accounting's parameter) or epsilon (r = e^{−ε/S}):
  /// exactly one. epsilon with a sensitivity other than 1 is refused as ambiguous (issue 20): read
  /// as dp-accounting's a it would be a different mechanism, so the message spells both readings.
  void discrete_laplace_scale() {
    const int n = int(given("r")) + int(given("a")) + int(given("epsilon"));
    if (n == 0) reject(field("r"), "", "missing key: dlaplace needs r=, a= or epsilon=");
    if (n > 1) {
      const std::string second = given("epsilon") ? "epsilon" : "a";
      reject(field(second), text(second), "give one of r (exact), a (r = e^(-a)) or epsilon (r = e^(-epsilon), sensitivity 1), not several");
    }
    if (given("r")) return open_unit("r");
    if (given("a")) {
      const Rational a = number("a");
      if (sgn(a) <= 0) reject(field("a"), text("a"), "a must be positive (r = e^(-a) < 1)");
      return add("a", a);
    }
    if (given("sensitivity") && number("sensitivity") != 1) {
      const Rational e = number("epsilon"), sens = number("sensitivity");
      reject(field("epsilon"), items_.at("epsilon").item + "," + items_.at("sensitivity").item,
             "ambiguous with a sensitivity other than 1: it can be read as r = e^(-epsilon/sensitivity) (an epsilon-DP "
             "mechanism: write dlaplace:a=" + exactdp::to_string(e / sens) + ",sensitivity=" + exactdp::to_string(sens) +
             ") or as dp-accounting's parameter a = epsilon, r = e^(-epsilon) (an (epsilon*sensitivity)-DP mechanism: "
             "write dlaplace:a=" + exactdp::to_string(e) + ",sensitivity=" + exactdp::to_string(sens) + "); or give r=");
    }
    epsilon(true);
  }

  std::vector<SpecParameter> result() && { return std::move(out_); }

private:
  const FamilyInfo& f_;
  const RawItems& items_;
  std::vector<SpecParameter> out_;
};

std::vector<SpecParameter> validate(const FamilyInfo& f, const RawItems& items) {
  Validator v(f, items);
  switch (f.family) {
    case MechanismFamily::randomized_response:
      v.one_of("lambda", "epsilon") == "lambda" ? v.lambda() : v.epsilon(false);
      v.probability("delta");
      break;
    case MechanismFamily::k_ary_randomized_response:
      v.require("k");
      v.integer_at_least("k", 1, std::numeric_limits<unsigned long>::max(),
                         "k-ary randomized response needs an integer k >= 1 (1: a single bucket, no information)");
      v.one_of("lambda", "epsilon") == "lambda" ? v.lambda() : v.epsilon(false);
      break;
    case MechanismFamily::discrete_laplace:
      v.discrete_laplace_scale();
      v.sensitivity_integer();
      break;
    case MechanismFamily::discrete_gaussian:
      v.non_negative("sigma2", "the variance sigma2");
      if (v.given("truncation"))  // dp-accounting's truncation bound T: the noise restricted to [-T, T]
        v.integer_at_least("truncation", 0, max_table_outcomes,
                           "the truncation bound T of the discrete Gaussian must be an integer in [0, " +
                               std::to_string(max_table_outcomes) + "]");
      v.sensitivity_integer();
      break;
    case MechanismFamily::laplace:
      v.non_negative("b", "the scale b");
      v.sensitivity_rational();
      break;
    case MechanismFamily::gaussian:
      v.non_negative("sigma", "the standard deviation sigma");
      v.sensitivity_rational();
      break;
  }
  return std::move(v).result();
}

}  // namespace

std::string to_string(MechanismFamily family) { return info(family).name; }

// ------------------------------------------------------------------ parsing

Rational parse_sampling_rate(std::string_view text) {
  constexpr std::string_view prefix = "poisson:q=";
  const std::string value(text);
  if (text.substr(0, prefix.size()) != prefix)
    throw Error("", "", value, "expected poisson:q=R (Poisson subsampling at rate R, 0 <= R <= 1)");
  Rational q;
  try {
    q = parse_rational(text.substr(prefix.size()), "q");
  } catch (const Error& e) {
    throw Error("", "q", value, e.why());
  }
  if (sgn(q) < 0 || q > 1) throw Error("", "q", value, "the sampling rate q must lie in [0, 1] (0: never sampled)");
  return q;
}

MechanismSpec parse_mechanism_spec(std::string_view text, std::uint64_t table_budget) {
  text = trim(text);
  const auto colon = text.find(':');
  const std::string name(trim(text.substr(0, colon)));
  const FamilyInfo* family = nullptr;
  for (const auto& f : families())
    if (name == f.name) family = &f;
  if (family == nullptr)
    throw Error("", "mechanism", name,
                name.empty() ? "missing mechanism family (expected e.g. rr:lambda=3)"
                             : "unknown mechanism family; known: rr, krr, dlaplace, dgauss, laplace, gauss");

  RawItems items;
  if (colon != std::string_view::npos) {
    std::string_view rest = text.substr(colon + 1);
    for (;;) {
      const auto comma = rest.find(',');
      const std::string_view item = trim(rest.substr(0, comma));
      const auto eq = item.find('=');
      if (item.empty() || eq == std::string_view::npos)
        throw Error("", family->name, std::string(item),
                    "expected key=value (keys of " + std::string(family->name) + ": " + join_keys(*family) + ")");
      const std::string key(trim(item.substr(0, eq)));
      const std::string field = std::string(family->name) + ":" + key;
      if (std::none_of(family->keys.begin(), family->keys.end(), [&](const char* k) { return key == k; }))
        throw Error("", field, std::string(item),
                    "unknown key; " + std::string(family->name) + " takes " + join_keys(*family));
      if (!items.emplace(key, RawItem{std::string(item), std::string(trim(item.substr(eq + 1)))}).second)
        throw Error("", field, std::string(item), "duplicate key");
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  MechanismSpec spec;
  spec.family_ = family->family;
  spec.parameters_ = validate(*family, items);
  // refuse tables that would not fit before anything is built (the standard: estimate, then refuse
  // naming the estimate and the option that raises the budget). Only dlaplace and truncated dgauss
  // have a key that makes them grow; rr and krr have three outcomes (as large as the numbers
  // written) and a degenerate pair one or two, so a tiny budget, meant for the planner, passes them.
  const bool grows = (spec.family_ == MechanismFamily::discrete_laplace || spec.family_ == MechanismFamily::discrete_gaussian) &&
                     spec.degenerate() == DegeneratePair::none;
  if (const SpecTableSize size = spec.table_size(); grows && size.bytes > table_budget) {
    const std::string key = family->family == MechanismFamily::discrete_gaussian ? "truncation" : "sensitivity";
    const auto it = items.find(key);
    throw Error("", std::string(family->name) + ":" + key, it != items.end() ? it->second.value : "1",
                "the tables of one use are estimated at " + human_bytes(size.bytes) + " (" + size.outcomes.get_str() +
                    " outcomes of up to " + size.bits_per_outcome.get_str() + " bits each), above the memory budget of " +
                    human_bytes(Integer(std::to_string(table_budget))) +
                    ": raise it with --max-memory (MiB; Python: max_memory, in bytes) or ask for a smaller " + key);
  }
  return spec;
}

// ------------------------------------------------------------------ accessors

std::optional<Rational> MechanismSpec::parameter(std::string_view key) const {
  for (const auto& p : parameters_)
    if (p.key == key) return p.value;
  return std::nullopt;
}

const Rational& MechanismSpec::get(std::string_view key) const {
  for (const auto& p : parameters_)
    if (p.key == key) return p.value;
  throw Error("internal: mechanism spec without parameter " + std::string(key));
}

unsigned long MechanismSpec::integer(std::string_view key) const { return get(key).get_num().get_ui(); }

namespace {
/// ε = a·S of a discrete Laplace spec given by a or epsilon (r = e^{−ε/S}).
Rational discrete_laplace_epsilon(const MechanismSpec& s) {
  if (auto a = s.parameter("a")) return *a * *s.parameter("sensitivity");
  return *s.parameter("epsilon");
}
}  // namespace

DegeneratePair MechanismSpec::degenerate() const {
  if (auto s = parameter("sensitivity"); s && sgn(*s) == 0) return DegeneratePair::identical;  // the query never moves
  if (family_ == MechanismFamily::k_ary_randomized_response && get("k") == 1) return DegeneratePair::identical;
  const char* scale = family_ == MechanismFamily::gaussian            ? "sigma"
                      : family_ == MechanismFamily::laplace           ? "b"
                      : family_ == MechanismFamily::discrete_gaussian ? "sigma2"
                      : family_ == MechanismFamily::discrete_laplace  ? "r"
                                                                       : nullptr;
  if (scale != nullptr)
    if (auto v = parameter(scale); v && sgn(*v) == 0) return DegeneratePair::disjoint;  // no noise
  return DegeneratePair::none;
}

std::string MechanismSpec::to_string() const {
  std::string s = exactdp::to_string(family_) + ":";
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    s += (i ? "," : "") + parameters_[i].key + "=" + exactdp::to_string(parameters_[i].value);
  return s;
}

std::string MechanismSpec::describe() const {
  auto q = [](const Rational& x) { return exactdp::to_string(x); };
  const bool eps = has("epsilon");
  switch (degenerate()) {
    case DegeneratePair::identical:
      return to_string() + ": degenerate, both neighbours have the same output law (delta = 0 at every epsilon >= 0; exact)";
    case DegeneratePair::disjoint:
      return to_string() + ": degenerate, no noise: the neighbours' output laws are disjoint (delta = 1 at every epsilon; exact)";
    case DegeneratePair::none: break;
  }
  switch (family_) {
    case MechanismFamily::randomized_response:
      return "randomized response RR with " + (eps ? "epsilon = " + q(get("epsilon")) : "lambda = " + q(get("lambda"))) +
             ", delta = " + q(get("delta")) +
             (exact_loss() ? " (exact tables)" : " (certified: lambda = e^epsilon is irrational)");
    case MechanismFamily::k_ary_randomized_response:
      return "k-ary randomized response with k = " + q(get("k")) + ", " +
             (eps ? "epsilon = " + q(get("epsilon")) : "lambda = " + q(get("lambda"))) +
             ", substitution neighbours" + (exact_loss() ? " (exact tables)" : " (certified)");
    case MechanismFamily::discrete_laplace:
      return "discrete Laplace mechanism with " +
             (has("a") ? "r = e^(-a), a = " + q(get("a")) + " (epsilon = a*sensitivity = " + q(discrete_laplace_epsilon(*this)) + ")"
              : eps    ? "r = e^(-epsilon/sensitivity), epsilon = " + q(get("epsilon"))
                       : "r = " + q(get("r"))) +
             ", sensitivity " + q(get("sensitivity")) + ": values 0 and sensitivity clamped to [0, sensitivity]" +
             " (same profile as unclamped, X-CLAMP-EXACT)" + (has("r") ? " (exact tables)" : " (certified)");
    case MechanismFamily::discrete_gaussian:
      if (has("truncation"))
        return "truncated discrete Gaussian mechanism: N_Z(0, sigma2) with sigma2 = " + q(get("sigma2")) +
               " restricted to [-" + q(get("truncation")) + ", " + q(get("truncation")) + "] and renormalised, sensitivity " +
               q(get("sensitivity")) + " (certified)";
      return "discrete Gaussian mechanism N_Z(0, sigma2) with sigma2 = " + q(get("sigma2")) + ", sensitivity " +
             q(get("sensitivity")) + ", rho = " + q(*zcdp()) + " zCDP (certified; single use)";
    case MechanismFamily::laplace:
      return "continuous Laplace mechanism with scale b = " + q(get("b")) + ", sensitivity " + q(get("sensitivity")) +
             ": epsilon0 = " + q(laplace_mechanism_epsilon(get("b"), get("sensitivity"))) + " (certified; single use)";
    case MechanismFamily::gaussian:
      return "continuous Gaussian mechanism with sigma = " + q(get("sigma")) + ", sensitivity " +
             q(get("sensitivity")) + ": mu = " + q(gaussian_mechanism_mu(get("sensitivity"), get("sigma"))) +
             " GDP, rho = " + q(*zcdp()) + " zCDP (certified)";
  }
  return "";
}

// ------------------------------------------------------------------ the size of the tables

namespace {

static_assert(limits::default_spec_table_budget == default_memory_budget,
              "one option (--max-memory, max_memory) raises both budgets, so their defaults agree");

Integer bit_size(const Integer& x) { return Integer(static_cast<unsigned long>(mpz_sizeinbase(x.get_mpz_t(), 2))); }

/// An upper bound on 32·log₂(x) for x ≥ 1: log₂ x = log₂(x³²)/32 ≤ bitsize(x³²)/32, and within
/// 1/32 bit of it (the bitsize of x itself would overestimate log₂ 2 = 1 by a factor 2). Above 64
/// bits the bitsize is within 2% and x³² is not worth computing (a spec's number may have millions
/// of bits: "1e-999999").
Integer log2_upper_32ths(const Integer& x) {
  if (mpz_sizeinbase(x.get_mpz_t(), 2) > 64) return 32 * bit_size(x);
  Integer p;
  mpz_pow_ui(p.get_mpz_t(), x.get_mpz_t(), 32);
  return bit_size(p);
}

/// Peak bytes per byte of one exact law's masses while its pair, its privacy-loss distribution and
/// one query's conversions are alive (measured with `exactdp compose -m SPEC --epsilon 1` and
/// --delta, --alpha 2, --tradeoff: about 24× one law's bytes for dlaplace:r=1/2 at S = 16 000 and
/// 32 000, 26× for r = 1/7 at S = 6 000), with a margin.
constexpr unsigned long exact_peak_factor = 30;
/// Bytes per outcome besides its digits (GMP headers, the atoms' vectors, the maps of a PLD).
constexpr unsigned long exact_outcome_overhead = 256;
/// Peak bytes per outcome of a certified table at the default precision (measured: 2.7 KiB for
/// dlaplace:a=1/1000,sensitivity=65536 and dgauss:sigma2=10^6,truncation=65536), with a margin.
constexpr unsigned long certified_outcome_peak = 3072;

}  // namespace

SpecTableSize MechanismSpec::table_size() const {
  const auto q_bits = [](const Rational& x) -> Integer { return bit_size(x.get_num()) + bit_size(x.get_den()); };
  switch (degenerate()) {
    case DegeneratePair::identical: return {1, 2, Integer(exact_outcome_overhead)};
    case DegeneratePair::disjoint: return {2, 2, Integer(2 * exact_outcome_overhead)};
    case DegeneratePair::none: break;
  }
  switch (family_) {
    case MechanismFamily::randomized_response:
    case MechanismFamily::k_ary_randomized_response: {  // three outcomes whatever k (the others merge)
      Integer bits = 8;  // a mass is a quotient of the parameters' parts
      for (const auto& p : parameters_) bits += 2 * q_bits(p.value);
      return {3, bits, 3 * (exact_peak_factor * bits / 8 + exact_outcome_overhead + certified_outcome_peak)};
    }
    case MechanismFamily::discrete_laplace: {
      const Integer s = get("sensitivity").get_num(), outcomes = s + 1;
      if (!has("r")) return {outcomes, 4 * default_precision, outcomes * certified_outcome_peak};
      // the mass of outcome k carries c·r^k (or r^(S−k)), c = (1 − r)/(1 + r): numerator and
      // denominator of r^k take at most k·(log₂ n + log₂ d) + 2 bits, c at most 2·(its parts' bits)
      const Rational& r = get("r");
      const Integer per_power = log2_upper_32ths(r.get_num()) + log2_upper_32ths(r.get_den());  // in 1/32 bits
      const Integer constant = 2 * q_bits(r) + 6;
      const Integer law_bits = per_power * s * (s + 1) / 64 + outcomes * constant;
      return {outcomes, per_power * s / 32 + constant,
              exact_peak_factor * law_bits / 8 + outcomes * exact_outcome_overhead};
    }
    case MechanismFamily::discrete_gaussian: {
      if (!has("truncation")) return {};  // closed forms (their own term limit: discrete_gaussian.hpp)
      // the supports [−T, T] and [S − T, S + T]: their union, 2T + 1 + S points or two disjoint blocks
      const Integer width = 2 * get("truncation").get_num() + 1, s = get("sensitivity").get_num();
      const Integer outcomes = s < width ? Integer(width + s) : Integer(2 * width);
      return {outcomes, 4 * default_precision, outcomes * certified_outcome_peak};
    }
    case MechanismFamily::laplace:
    case MechanismFamily::gaussian: return {};  // closed forms, no table
  }
  return {};
}

// ------------------------------------------------------------------ privacy-loss distributions

std::optional<PrivacyLoss> MechanismSpec::exact_loss() const {
  switch (degenerate()) {
    case DegeneratePair::identical: return PrivacyLoss::identity();
    case DegeneratePair::disjoint: return PrivacyLoss::from_masses({{Rational(1), Rational(0)}, {Rational(0), Rational(1)}});
    case DegeneratePair::none: break;
  }
  const bool exact_lambda = has("lambda") || (has("epsilon") && sgn(get("epsilon")) == 0);
  const Rational lambda = has("lambda") ? get("lambda") : Rational(1);
  switch (family_) {
    case MechanismFamily::randomized_response:
      if (!exact_lambda) return std::nullopt;
      return privacy_loss(randomized_response(lambda, get("delta")));
    case MechanismFamily::k_ary_randomized_response:
      if (!exact_lambda) return std::nullopt;
      return k_ary_randomized_response_loss(integer("k"), lambda);
    case MechanismFamily::discrete_laplace:
      if (!has("r")) return std::nullopt;
      return privacy_loss(discrete_laplace_pair(get("r"), integer("sensitivity")));
    default: return std::nullopt;
  }
}

std::optional<CertifiedLoss> MechanismSpec::certified_loss(Precision precision) const {
  if (auto exact = exact_loss()) return CertifiedLoss::from_exact(*exact, precision);
  switch (family_) {
    case MechanismFamily::randomized_response: return randomized_response_loss(get("epsilon"), get("delta"), precision);
    case MechanismFamily::k_ary_randomized_response: {
      // atoms: output 0 (ratio e^ε), output 1 (ratio e^−ε), the k − 2 others (ratio 1)
      const Rational& e = get("epsilon");
      const Interval lambda = exp(Interval(e, precision)), others(Rational(integer("k") - 1), precision);
      const Interval z = lambda + others, same = lambda / z, other = Interval(1L, precision) / z,
                     rest = Interval(Rational(integer("k") - 2), precision) / z;
      std::vector<CertifiedLossAtom> atoms{{SymbolicRatio::exponential(1, e), same, other},
                                           {SymbolicRatio::exponential(1, Rational(-e)), other, same},
                                           {SymbolicRatio(), rest, rest}};
      return CertifiedLoss::from_atoms(std::move(atoms), "krr");
    }
    case MechanismFamily::discrete_laplace:
      return discrete_laplace_loss(discrete_laplace_epsilon(*this), integer("sensitivity"), precision);
    case MechanismFamily::discrete_gaussian:
      if (!has("truncation")) return std::nullopt;  // infinite support: closed forms instead
      return truncated_discrete_gaussian_loss(get("sigma2"), integer("sensitivity"), integer("truncation"), precision);
    default: return std::nullopt;
  }
}

std::optional<DpGuarantee> MechanismSpec::dp_guarantee() const {
  // the identical pair is (0, 0)-DP, the disjoint one (0, 1)-DP (RR_{0,1}) and nothing better
  if (degenerate() != DegeneratePair::none)
    return DpGuarantee{PrivacyParameter::from_lambda(1), Rational(degenerate() == DegeneratePair::disjoint ? 1 : 0)};
  auto given = [&] {
    return has("lambda") ? PrivacyParameter::from_lambda(get("lambda")) : PrivacyParameter::from_epsilon(get("epsilon"));
  };
  switch (family_) {
    case MechanismFamily::randomized_response: return DpGuarantee{given(), get("delta")};
    case MechanismFamily::k_ary_randomized_response: return DpGuarantee{given(), 0};
    case MechanismFamily::discrete_laplace:
      if (has("r")) return DpGuarantee{PrivacyParameter::from_lambda(pow(1 / get("r"), integer("sensitivity"))), 0};
      return DpGuarantee{PrivacyParameter::from_epsilon(discrete_laplace_epsilon(*this)), 0};
    case MechanismFamily::laplace:
      return DpGuarantee{PrivacyParameter::from_epsilon(laplace_mechanism_epsilon(get("b"), get("sensitivity"))), 0};
    default: return std::nullopt;
  }
}

// ------------------------------------------------------------------ certified queries

bool MechanismSpec::supports_composition(unsigned long times) const {
  if (times < 1) return false;
  if (degenerate() != DegeneratePair::none) return true;  // an exact pair
  if (family_ == MechanismFamily::discrete_gaussian && has("truncation")) return true;  // finite: a certified PLD
  if (family_ == MechanismFamily::discrete_gaussian || family_ == MechanismFamily::laplace) return times == 1;
  return true;
}

void MechanismSpec::require_times(unsigned long times) const {
  if (times < 1) throw Error("", "times", std::to_string(times), "the number of uses must be at least 1");
  if (!supports_composition(times))
    throw Error("", "times", std::to_string(times),
                to_string() + " answers profiles for a single use only (its composition has no finite exact form "
                              "here); compose its Renyi divergences (renyi) or zCDP level instead");
}

namespace {

/// The `times`-fold composition of an exact-table spec along the planner's route
/// (composition_plan.hpp): the exact PLD when it fits the default budget, else the binomial
/// closed form (randomized response, discrete Laplace with sensitivity 1) or the certified PLD —
/// never an unbounded exact composition.
ComposedPrivacy composed(const MechanismSpec& spec, unsigned long times, Precision precision) {
  const std::vector<CompositionComponent> one{{spec.to_string(), spec, std::nullopt, times, std::nullopt}};
  const CompositionPlan plan = plan_composition(one);
  if (!plan.has_profile())
    throw Error("", "times", std::to_string(times), "no exact or certified profile within the memory budget: " + plan.reason);
  return ComposedPrivacy(one, plan, precision);
}

/// μ of `times` uses of the Gaussian mechanism: √times·Δ/σ (GDP composes as √(Σμ_i²); DRS22
/// Cor 3.3, the homogeneous case of exactdp::gaussian_dp_composition()).
Interval composed_mu(const Rational& sensitivity, const Rational& sigma, unsigned long times, Precision precision) {
  const Rational mu = gaussian_mechanism_mu(sensitivity, sigma);
  return sqrt(Interval(Rational(mu * mu * times), precision));
}

}  // namespace

Interval MechanismSpec::delta_at_epsilon(const Interval& epsilon, unsigned long times) const {
  require_times(times);
  if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite())
    throw Error("", "epsilon", epsilon.to_string(), "epsilon must be finite");
  if (epsilon.lower() < 0)  // the pair is symmetric: δ(ε) = 1 − e^ε + e^ε·δ(−ε) (divergence/direction.hpp)
    return delta_at_any_epsilon(epsilon, NeighbourDirection::both,
                                [&](const Interval& e, NeighbourDirection) { return delta_at_epsilon(e, times); });
  const Precision prec = epsilon.precision();
  if (exact_loss()) return composed(*this, times, prec).delta_at_epsilon(epsilon);
  switch (family_) {
    case MechanismFamily::randomized_response:
      return randomized_response_composition_delta(exp(Interval(get("epsilon"), prec)), get("delta"), times,
                                                   exp(epsilon));
    case MechanismFamily::k_ary_randomized_response:
    case MechanismFamily::discrete_laplace:
      return certified_loss(prec)->self_compose(times).delta_at_epsilon(epsilon);
    case MechanismFamily::discrete_gaussian:
      if (has("truncation")) return certified_loss(prec)->self_compose(times).delta_at_epsilon(epsilon);
      return discrete_gaussian_delta(get("sigma2"), integer("sensitivity"), epsilon, prec);
    case MechanismFamily::laplace: return laplace_dp_delta(get("b"), get("sensitivity"), epsilon);
    case MechanismFamily::gaussian:
      return gaussian_dp_delta(composed_mu(get("sensitivity"), get("sigma"), times, prec), epsilon);
  }
  return Interval::zero(prec);
}

Interval MechanismSpec::delta_at_epsilon(const Interval& epsilon, unsigned long times, NeighbourDirection) const {
  return delta_at_epsilon(epsilon, times);  // every direction of a symmetric pair has the both value
}

Interval MechanismSpec::epsilon_at_delta(const Rational& delta, unsigned long times, Precision precision,
                                         NeighbourDirection) const {
  return epsilon_at_delta(delta, times, precision);
}

Interval MechanismSpec::epsilon_at_delta(const Rational& delta, unsigned long times, Precision precision) const {
  require_times(times);
  if (sgn(delta) < 0 || delta > 1) throw Error("", "delta", exactdp::to_string(delta), "delta must lie in [0, 1]");
  const Precision prec = precision;
  if (exact_loss()) return composed(*this, times, prec).least_epsilon(delta);
  switch (family_) {
    case MechanismFamily::randomized_response:
      return randomized_response_composition_least_epsilon(exp(Interval(get("epsilon"), prec)), get("delta"), times,
                                                           delta);
    case MechanismFamily::k_ary_randomized_response:
    case MechanismFamily::discrete_laplace: return certified_loss(prec)->self_compose(times).least_epsilon(delta);
    case MechanismFamily::discrete_gaussian:
      if (has("truncation")) return certified_loss(prec)->self_compose(times).least_epsilon(delta);
      return discrete_gaussian_least_epsilon(get("sigma2"), integer("sensitivity"), delta, prec);
    case MechanismFamily::laplace: return laplace_least_epsilon(get("b"), get("sensitivity"), delta, prec);
    case MechanismFamily::gaussian:
      if (sgn(delta) == 0) return Interval::infinity(prec);  // the Gaussian profile is positive for every ε
    {
      GaussianSearchOptions search;
      search.precision = prec;
      search.max_precision = std::max<Precision>(search.max_precision, 2 * prec);
      search.tolerance = pow2(-static_cast<long>(prec / 2));
      return gaussian_dp_least_epsilon(composed_mu(get("sensitivity"), get("sigma"), times, prec), delta, search);
    }
  }
  return Interval::zero(prec);
}

Interval MechanismSpec::renyi(const Rational& alpha, Precision precision) const {
  if (alpha <= 1) throw Error("", "alpha", exactdp::to_string(alpha), "the Renyi order alpha must exceed 1");
  if (auto loss = exact_loss())
    return max(renyi_divergence(*loss, alpha, precision), renyi_divergence(loss->swapped(), alpha, precision));
  switch (family_) {
    case MechanismFamily::discrete_gaussian:
      if (has("truncation")) break;  // finite: its certified PLD, below
      return discrete_gaussian_renyi(get("sigma2"), integer("sensitivity"), alpha, precision);
    case MechanismFamily::laplace:  // symmetric: Lap(Δ, b) vs Lap(0, b) is the mirror image
      return laplace_mechanism_rdp(alpha, get("b"), get("sensitivity"), precision);
    case MechanismFamily::gaussian:
      return Interval(gaussian_mechanism_rdp(alpha, get("sensitivity"), get("sigma")), precision);
    default: break;
  }
  const CertifiedLoss loss = *certified_loss(precision);
  return max(loss.renyi_divergence(alpha), loss.swapped().renyi_divergence(alpha));
}

std::optional<Rational> MechanismSpec::zcdp() const {
  if (degenerate() == DegeneratePair::identical) return Rational(0);
  if (degenerate() == DegeneratePair::disjoint) return std::nullopt;  // no finite level
  // truncated: an outcome of one world only, so no finite Rényi divergence and no zCDP level
  if (family_ == MechanismFamily::discrete_gaussian && has("truncation")) return std::nullopt;
  if (family_ == MechanismFamily::discrete_gaussian) return discrete_gaussian_zcdp(get("sigma2"), integer("sensitivity"));
  if (family_ == MechanismFamily::gaussian) return gaussian_mechanism_zcdp(get("sensitivity"), get("sigma"));
  return std::nullopt;
}

}  // namespace exactdp
