#include "exactdp/io/claims.hpp"

#include "exactdp/io/json_reader.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/rational.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

namespace exactdp {
namespace {

using json = nlohmann::json;  // the audit report (output)
using io::Json;               // the claims file (input): io/json_reader.hpp

const char* const claims_format = "exactdp-claims/1";
const std::set<std::string> documentation_keys = {"description", "source", "comment", "accountant"};
const std::set<std::string> claim_keys = {"id", "mechanism", "mechanisms", "times", "neighbouring", "sampling", "delta",
                                          "claimed_epsilon", "epsilon", "claimed_delta"};

/// An exact number (io::JsonReader::exact: a rational string or an integer; floats refused).
Rational number(const Json& v, const std::string& source, const std::string& field) { return io::JsonReader(source).exact(v, field); }

unsigned long times_of(const Json& v, const std::string& source, const std::string& field) {
  Rational t = number(v, source, field);
  if (t.get_den() != 1 || t < 1 || t > 100000000)
    throw Error(source, field, io::shown(v),
                "times must be an integer between 1 and 100000000");
  return t.get_num().get_ui();
}

std::string text_of(const Json& v, const std::string& source, const std::string& field) {
  if (!v.is_string() || v.get<std::string>().empty())
    throw Error(source, field, v.dump(), "must be a non-empty string");
  return v.get<std::string>();
}

/// "mechanism" and "times" of @p c (a claim or an entry of "mechanisms").
ClaimComponent parse_component(const Json& c, const std::string& source, const std::string& at) {
  if (!c.contains("mechanism")) throw Error(source, at + "/mechanism", "", "missing");
  std::string mechanism = text_of(c["mechanism"], source, at + "/mechanism");
  auto spec = [&] {
    try {
      return parse_mechanism_spec(mechanism);
    } catch (const Error& e) {
      throw Error(source, at + "/mechanism", mechanism,
                  e.why() + (e.field().empty() ? "" : " (" + e.field() + (e.value().empty() ? "" : " = " + e.value()) + ")"));
    }
  }();
  unsigned long times = c.contains("times") ? times_of(c["times"], source, at + "/times") : 1;
  return {std::move(mechanism), std::move(spec), times};
}

/// "sampling": "poisson:q=R" (see claims.hpp), checked against the claim's mechanism.
void parse_sampling(Claim& claim, const Json& v, const std::string& source, const std::string& at) {
  const std::string field = at + "/sampling";
  const std::string text = text_of(v, source, field);
  const std::string prefix = "poisson:q=";
  if (text.rfind(prefix, 0) != 0)
    throw Error(source, field, text, "expected \"poisson:q=R\" (Poisson subsampling at rate R, 0 < R <= 1)");
  Rational q;
  try {
    q = parse_rational(text.substr(prefix.size()), "q");
  } catch (const Error& e) {
    throw Error(source, field, text, e.why());
  }
  if (sgn(q) <= 0 || q > 1) throw Error(source, field, text, "the sampling rate q must lie in (0, 1]");
  if (claim.heterogeneous)
    throw Error(source, field, text, "sampling applies to a single \"mechanism\" (with \"times\"), not to \"mechanisms\"");
  if (claim.neighbouring == "replace-one")
    throw Error(source, at + "/neighbouring", claim.neighbouring,
                "replace-one under Poisson subsampling is not modelled (its worst-case pair depends on the absent "
                "record's contribution); use add-remove");
  const ClaimComponent& comp = claim.components.front();
  const bool gauss = comp.spec.family() == MechanismFamily::gaussian;
  if (!gauss && !comp.spec.exact_loss())
    throw Error(source, at + "/mechanism", comp.mechanism,
                "Poisson subsampling is supported for mechanisms with exact tables (rr:lambda, krr:lambda, dlaplace:r) "
                "and for gauss");
  claim.sampling = text;
  claim.sampling_rate = q;
}

Claim parse_claim(const Json& c, const std::string& source, const std::string& at) {
  if (!c.is_object()) throw Error(source, at, c.dump(), "a claim must be a JSON object");
  for (const auto& [k, v] : c.items())
    if (!claim_keys.count(k) && !documentation_keys.count(k))
      throw Error(source, at + "/" + k, "",
                  "unknown field (expected id, mechanism, times, neighbouring, delta and claimed_epsilon, "
                  "or epsilon and claimed_delta)");
  auto required = [&](const char* key) -> const Json& {
    if (!c.contains(key)) throw Error(source, at + "/" + key, "", "missing");
    return c.at(key);
  };
  std::string id = text_of(required("id"), source, at + "/id");
  Claim claim{std::move(id), {}, false, "", Claim::Kind::epsilon_at_delta, Rational(0), Rational(0), "", std::nullopt};
  if (c.contains("mechanisms")) {
    if (c.contains("mechanism") || c.contains("times"))
      throw Error(source, at + "/mechanisms", "", "give either \"mechanism\" (and \"times\") or \"mechanisms\", not both");
    const Json& list = c["mechanisms"];
    if (!list.is_array() || list.empty())
      throw Error(source, at + "/mechanisms", list.dump(), "must be a non-empty array of {\"mechanism\": SPEC, \"times\": k}");
    claim.heterogeneous = true;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = at + "/mechanisms/" + std::to_string(i);
      if (!list[i].is_object()) throw Error(source, where, list[i].dump(), "must be an object {\"mechanism\": SPEC, \"times\": k}");
      for (const auto& [k, v] : list[i].items())
        if (k != "mechanism" && k != "times") throw Error(source, where + "/" + k, "", "unknown field (expected mechanism, times)");
      claim.components.push_back(parse_component(list[i], source, where));
      const auto& comp = claim.components.back();
      if (!comp.spec.exact_loss() && !comp.spec.certified_loss(min_precision + 62))
        throw Error(source, where + "/mechanism", comp.mechanism,
                    "dgauss, laplace and gauss have no exact or certified profile in a composition with other mechanisms");
    }
  } else {
    claim.components.push_back(parse_component(c, source, at));
    const auto& comp = claim.components.back();
    const bool grid_laplace = comp.spec.family() == MechanismFamily::laplace;  // k-fold: grid bracket
    if (!comp.spec.supports_composition(comp.times) && !grid_laplace)
      throw Error(source, at + "/times", std::to_string(comp.times),
                  "this mechanism has a certified profile for a single use only (" + comp.spec.to_string() + ")");
  }
  if (c.contains("neighbouring")) {
    claim.neighbouring = text_of(c["neighbouring"], source, at + "/neighbouring");
    if (claim.neighbouring != "add-remove" && claim.neighbouring != "replace-one")
      throw Error(source, at + "/neighbouring", claim.neighbouring, "expected \"add-remove\" or \"replace-one\"");
  }
  if (c.contains("sampling")) parse_sampling(claim, c["sampling"], source, at);
  const bool by_delta = c.contains("delta") || c.contains("claimed_epsilon");
  const bool by_epsilon = c.contains("epsilon") || c.contains("claimed_delta");
  if (by_delta == by_epsilon)
    throw Error(source, at, claim.id,
                "a claim gives either \"delta\" and \"claimed_epsilon\", or \"epsilon\" and \"claimed_delta\"");
  auto probability = [&](const char* key) {
    Rational p = number(required(key), source, at + "/" + key);
    if (sgn(p) < 0 || p > 1) throw Error(source, at + "/" + key, to_string(p), "must lie in [0, 1]");
    return p;
  };
  auto epsilon = [&](const char* key) {
    Rational e = number(required(key), source, at + "/" + key);
    if (sgn(e) < 0) throw Error(source, at + "/" + key, to_string(e), "epsilon must be non-negative");
    if (e > 100000) throw Error(source, at + "/" + key, to_string(e), "epsilon above 100000 is not supported");
    return e;
  };
  if (by_delta) {
    claim.kind = Claim::Kind::epsilon_at_delta;
    claim.given = probability("delta");
    claim.claimed = epsilon("claimed_epsilon");
  } else {
    claim.kind = Claim::Kind::delta_at_epsilon;
    claim.given = epsilon("epsilon");
    claim.claimed = probability("claimed_delta");
  }
  return claim;
}

TrueValue exact_value(const Rational& q, Precision precision) { return {q, false, Interval(q, precision)}; }
TrueValue certified_value(const Interval& x) { return {std::nullopt, false, x}; }

/// claimed − truth and (claimed − truth)/truth (negative for an unsound claim).
void set_slack(ClaimResult& r, Precision precision) {
  const TrueValue& t = r.truth;
  const Rational& c = r.claim.claimed;
  if (t.exact) {
    r.slack_absolute = exact_value(c - *t.exact, precision);
    if (sgn(*t.exact) != 0) r.slack_relative = exact_value((c - *t.exact) / *t.exact, precision);
    return;
  }
  Interval diff = Interval(c, precision) - t.enclosure;
  r.slack_absolute = certified_value(diff);
  if (t.enclosure.lower_is_finite() && sgn(t.enclosure.lower()) > 0) r.slack_relative = certified_value(diff / t.enclosure);
}

/// A decision with Lindemann–Weierstrass behind it: runs until decided (cap far above need).
const DecideOptions exact_decision{64, 1 << 20};

void audit_exact_epsilon(ClaimResult& r, const PrivacyProfile& profile, const AuditOptions& options) {
  ExtendedRational lambda = profile.least_lambda(r.claim.given);
  if (lambda.is_infinite()) {
    r.truth = {std::nullopt, true, Interval::infinity(options.start)};
    r.verdict = Verdict::unsound;
    return;
  }
  r.true_lambda = lambda.value();
  // unsound ⇔ claimed ε < ln λ
  Decision d = decide_log(lambda.value(), Relation::greater, r.claim.claimed, exact_decision);
  r.precision = d.precision;
  const Precision p = std::max(options.start, d.precision);
  if (lambda.value() == 1) r.truth = exact_value(Rational(0), p);
  else r.truth = certified_value(log(Interval(lambda.value(), p)));
  r.verdict = d.outcome == Tri::yes ? Verdict::unsound : d.outcome == Tri::no ? Verdict::sound : Verdict::undecided;
}

void audit_exact_delta(ClaimResult& r, const PrivacyProfile& profile, const AuditOptions& options) {
  const PiecewiseLinear f = profile.symmetric();
  const Rational& eps = r.claim.given;
  const Rational& claimed = r.claim.claimed;
  if (sgn(eps) == 0) {
    r.truth = exact_value(f(Rational(1)), options.start);
    r.verdict = claimed < *r.truth.exact ? Verdict::unsound : Verdict::sound;
    return;
  }
  // the piece a + s·λ of the profile that contains λ = e^ε (never a breakpoint: e^ε is irrational)
  const auto& pieces = f.pieces();
  std::size_t i = pieces.size() - 1;
  Precision used = 0;
  while (i > 0) {
    Decision d = decide_exp(eps, Relation::greater, pieces[i].start, exact_decision);
    used = std::max(used, d.precision);
    if (require_decided(d, "epsilon")) break;
    --i;
  }
  const Rational& a = pieces[i].intercept;
  const Rational& s = pieces[i].slope;
  if (sgn(s) == 0) {
    r.precision = used;
    r.truth = exact_value(a, options.start);
    r.verdict = claimed < a ? Verdict::unsound : Verdict::sound;
    return;
  }
  // unsound ⇔ claimed < a + s·e^ε ⇔ e^ε < (claimed − a)/s when s < 0 (> when s > 0)
  Decision d = decide_exp(eps, sgn(s) < 0 ? Relation::less : Relation::greater, (claimed - a) / s, exact_decision);
  r.precision = std::max(used, d.precision);
  const Precision p = std::max(options.start, r.precision);
  r.truth = certified_value(Interval(a, p) + Interval(s, p) * exp(Interval(eps, p)));
  r.verdict = d.outcome == Tri::yes ? Verdict::unsound : d.outcome == Tri::no ? Verdict::sound : Verdict::undecided;
}

/// The key of a claim's composition (its components, their uses and the sampling): claims that
/// share it — one accountant's answers at several δ or ε — share the composed law.
std::string composition_key(const Claim& c) {
  std::string key = c.sampling + "|";
  for (const auto& comp : c.components) key += comp.spec.to_string() + "*" + std::to_string(comp.times) + ";";
  return key;
}

/// The composed law of the last composition audited: consecutive claims on one composition (one
/// accountant's answers at several δ or ε) reuse it. Only the last one is kept — an exact 10 000-fold
/// composition can hold gigabytes of digits — and only for the duration of one audit_claims call.
template <class T>
class LastLaw {
 public:
  const T* find(const std::string& key) const { return value_ && key == key_ ? &*value_ : nullptr; }
  const T& put(const std::string& key, T value) {
    value_.reset();  // release the old law before the new one is stored
    key_ = key;
    value_.emplace(std::move(value));
    return *value_;
  }

 private:
  std::string key_;
  std::optional<T> value_;
};

/// What one audit_claims call shares between its claims.
struct AuditCache {
  LastLaw<PrivacyProfile> profile;
  LastLaw<CertifiedLoss> certified;
};

/// The k-fold composition of a certified loss, as CertifiedLoss::self_compose. A loss with two
/// atoms of finite positive ratios r₁ ≠ r₂ (the discrete Laplace with sensitivity 1, RR given by
/// ε) composes binomially: the outcomes with j uses on the first atom form one atom of ratio
/// r₁^j·r₂^{k−j} and masses C(k, j)·p₁^j·p₂^{k−j}, C(k, j)·q₁^j·q₂^{k−j} — the atoms repeated
/// squaring builds, distinct for distinct j because r₁ ≠ r₂ — in O(k) products instead of the
/// O(k²) of squaring (a 10 000-fold discrete Laplace takes milliseconds instead of a minute).
CertifiedLoss self_compose_certified(const CertifiedLoss& one, unsigned long k, Precision p) {
  const auto& a = one.atoms();
  if (k < 2 || a.size() != 2 || !a[0].ratio.is_positive_finite() || !a[1].ratio.is_positive_finite() ||
      k > 1000000)
    return one.self_compose(k);
  const SymbolicRatio& r1 = a[0].ratio;
  const SymbolicRatio& r2 = a[1].ratio;
  std::vector<CertifiedLossAtom> atoms;
  atoms.reserve(k + 1);
  mpz_class binomial = 1;  // C(k, j), updated in place
  for (unsigned long j = 0; j <= k; ++j) {
    if (j > 0) {
      binomial *= k - j + 1;
      mpz_divexact_ui(binomial.get_mpz_t(), binomial.get_mpz_t(), j);
    }
    const long i = static_cast<long>(j), rest = static_cast<long>(k - j);
    mpq_class c1, c2;
    mpz_pow_ui(c1.get_num_mpz_t(), r1.coefficient().get_num_mpz_t(), j);
    mpz_pow_ui(c1.get_den_mpz_t(), r1.coefficient().get_den_mpz_t(), j);
    mpz_pow_ui(c2.get_num_mpz_t(), r2.coefficient().get_num_mpz_t(), k - j);
    mpz_pow_ui(c2.get_den_mpz_t(), r2.coefficient().get_den_mpz_t(), k - j);
    const Rational coefficient = Rational(c1) * Rational(c2);  // canonicalised by the product
    const Rational exponent = r1.exponent() * i + r2.exponent() * rest;
    const Interval choose(Rational(binomial), p);
    atoms.push_back({SymbolicRatio::exponential(coefficient, exponent), choose * pow(a[0].p, i) * pow(a[1].p, rest),
                     choose * pow(a[0].q, i) * pow(a[1].q, rest)});
  }
  return CertifiedLoss::from_atoms(std::move(atoms), "binomial composition");
}

/// Certified truth at one precision: the composed certified PLD (exact likelihood ratios,
/// certified masses) for finite mechanisms, the spec's closed form for one infinite-support one.
Interval certified_truth(const Claim& c, Precision p, AuditCache& cache) {
  const ClaimComponent& only = c.components.front();
  if (c.components.size() == 1 && !only.spec.certified_loss(p)) {
    if (c.kind == Claim::Kind::epsilon_at_delta) return only.spec.epsilon_at_delta(c.given, only.times, p);
    return only.spec.delta_at_epsilon(Interval(c.given, p), only.times);
  }
  const std::string key = composition_key(c) + "@" + std::to_string(p);
  const CertifiedLoss* loss = cache.certified.find(key);
  if (!loss) {
    std::optional<CertifiedLoss> composed;
    for (const auto& comp : c.components) {
      CertifiedLoss k = self_compose_certified(*comp.spec.certified_loss(p), comp.times, p);
      composed = composed ? compose(*composed, k) : k;
    }
    loss = &cache.certified.put(key, std::move(*composed));
  }
  if (c.kind == Claim::Kind::epsilon_at_delta) return loss->least_epsilon(c.given);
  return loss->delta_at_epsilon(Interval(c.given, p));
}

/// Pure mechanisms (δ = 0 guarantee with an exact ε₀): k uses are exactly (k·ε₀, 0)-DP with
/// k·ε₀ the largest privacy loss, attained with positive probability (basic composition, tight).
/// So δ(ε) = 0 for ε ≥ k·ε₀ and the least ε at δ = 0 is k·ε₀ — true equalities that an
/// enclosure could never separate from a claim of exactly that value (decide.hpp). True when it
/// answered the claim exactly.
bool audit_pure(ClaimResult& r) {
  const Claim& c = r.claim;
  Rational total = 0;
  for (const auto& comp : c.components) {
    auto g = comp.spec.dp_guarantee();
    if (!g || sgn(g->delta) != 0) return false;
    auto eps0 = g->epsilon.exact_epsilon();
    if (!eps0) return false;
    total += *eps0 * Rational(static_cast<long>(comp.times));
  }
  r.method = "pure DP: the composition is exactly " + to_string(total) + "-DP, its largest privacy loss attained";
  if (c.kind == Claim::Kind::delta_at_epsilon && c.given >= total) {
    r.truth = exact_value(Rational(0), default_precision);
  } else if (c.kind == Claim::Kind::epsilon_at_delta && sgn(c.given) == 0) {
    r.truth = exact_value(total, default_precision);
  } else {
    return false;
  }
  r.verdict = c.claimed < *r.truth.exact ? Verdict::unsound : Verdict::sound;
  return true;
}

/// The continuous pair of a claim answered by a grid bracket (poisson.hpp), if it is one:
/// subsampled gauss, or laplace used more than once.
std::optional<ContinuousPair> grid_pair(const Claim& c) {
  if (c.components.size() != 1) return std::nullopt;
  const ClaimComponent& comp = c.components.front();
  const MechanismSpec& s = comp.spec;
  if (s.family() == MechanismFamily::gaussian && c.sampling_rate && *c.sampling_rate != 1)
    return ContinuousPair::gaussian(*s.parameter("sigma"), *s.parameter("sensitivity"), *c.sampling_rate);
  if (s.family() == MechanismFamily::laplace && comp.times > 1)
    return ContinuousPair::laplace(*s.parameter("b"), *s.parameter("sensitivity"));
  return std::nullopt;
}

/// Grid brackets at higher and higher resolutions until the claim is decided.
void audit_grid(ClaimResult& r, const ContinuousPair& pair, const AuditOptions& options) {
  const Claim& c = r.claim;
  const unsigned long k = c.components.front().times;
  if (options.grid_resolution_start < 1 || options.grid_resolution_max < options.grid_resolution_start)
    throw Error("audit", "grid_resolution", std::to_string(options.grid_resolution_max),
                "the resolutions tried must satisfy 1 <= start <= max");
  GridOptions g;
  g.precision = options.start;
  g.max_points = options.grid_max_points;
  for (unsigned res = options.grid_resolution_start; res <= options.grid_resolution_max; res *= 2) {
    g.resolution = res;
    const GridBracket b = c.kind == Claim::Kind::epsilon_at_delta ? grid_epsilon_at_delta(pair, k, c.given, g)
                                                                  : grid_delta_at_epsilon(pair, k, c.given, g);
    r.grid_step = b.step;
    r.grid_resolution = res;
    r.precision = g.precision;
    const Interval& t = b.value;
    r.method = "certified bracket: privacy-loss law split (upper) and merged (lower) onto grids of step " + to_string(b.step) +
               " to " + to_string(b.final_step) + " (resolution " + std::to_string(res) + ", " + std::to_string(b.points) +
               " points) for " + pair.describe() + ", " + std::to_string(k) + " uses";
    if (!t.lower_is_finite()) {
      r.truth = {std::nullopt, true, t};
      r.verdict = Verdict::unsound;
      return;
    }
    r.truth = certified_value(t);
    if (c.claimed < t.lower()) {
      r.verdict = Verdict::unsound;
      return;
    }
    if (t.upper_is_finite() && c.claimed >= t.upper()) {
      r.verdict = Verdict::sound;
      return;
    }
    r.verdict = Verdict::undecided;
    if (2 * b.points > options.grid_point_budget) return;  // the next resolution would exceed the budget
  }
}

void audit_certified(ClaimResult& r, const AuditOptions& options, AuditCache& cache) {
  if (audit_pure(r)) return;
  if (auto pair = grid_pair(r.claim)) return audit_grid(r, *pair, options);
  const Rational& claimed = r.claim.claimed;
  const auto& only = r.claim.components.front().spec;
  r.method = r.claim.components.size() > 1 || only.certified_loss(options.start)
                 ? "privacy-loss distribution with exact likelihood ratios and certified masses"
                 : "certified closed form (" + only.describe() + ")";
  for (Precision p = options.start;; p = std::min(2 * p, options.cap)) {
    Interval t = certified_truth(r.claim, p, cache);
    r.precision = p;
    if (!t.lower_is_finite()) {  // the point +∞: no finite ε exists
      r.truth = {std::nullopt, true, t};
      r.verdict = Verdict::unsound;
      return;
    }
    r.truth = certified_value(t);
    if (claimed < t.lower()) {
      r.verdict = Verdict::unsound;
      return;
    }
    if (t.upper_is_finite() && claimed >= t.upper()) {
      r.verdict = Verdict::sound;
      return;
    }
    if (p >= options.cap) {
      r.verdict = Verdict::undecided;
      return;
    }
  }
}

json value_json(const TrueValue& v, int digits) {
  if (v.infinite) return "inf";
  if (v.exact) return to_string(*v.exact);
  return {{"lo", v.enclosure.lower_string(digits)}, {"hi", v.enclosure.upper_string(digits)}};
}

/// Bits of the numerators and denominators of one atom's two masses, the most over the atoms.
std::size_t mass_bits(const PrivacyLoss& loss) {
  std::size_t most = 0;
  for (const auto& a : loss.atoms()) {
    const std::size_t bits = mpz_sizeinbase(a.p.get_num_mpz_t(), 2) + mpz_sizeinbase(a.p.get_den_mpz_t(), 2) +
                             mpz_sizeinbase(a.q.get_num_mpz_t(), 2) + mpz_sizeinbase(a.q.get_den_mpz_t(), 2);
    most = std::max(most, bits);
  }
  return most;
}

/// The exact privacy-loss distribution of the composition, when every component has exact tables
/// and the composition has at most options.max_exact_atoms atoms (by self_compose_size_bound) and
/// its masses and ratios are estimated to fit in options.max_exact_bytes.
std::optional<PrivacyLoss> exact_composition(const Claim& c, const AuditOptions& options) {
  std::vector<PrivacyLoss> ones;
  std::size_t atoms = 1;
  Integer bits_per_atom = 0;  // a composed atom's masses: up to the sum of k_i times one use's bits
  for (const auto& comp : c.components) {
    auto one = comp.spec.exact_loss();
    if (!one) return std::nullopt;
    if (c.sampling_rate) {
      // the subsampled pair of poisson.hpp; one orientation suffices for a symmetric base pair
      if (!(one->swapped() == *one))
        throw Error("audit", c.id, comp.mechanism, "Poisson subsampling of an asymmetric pair is not supported");
      one = poisson_subsample(*one, *c.sampling_rate);
      if (one->self_compose_size_bound(comp.times) > options.max_exact_atoms)
        throw Error("audit", c.id, std::to_string(comp.times),
                    "the exact subsampled composition would exceed " + std::to_string(options.max_exact_atoms) +
                        " atoms (" + std::to_string(one->self_compose_size_bound(comp.times)) + " estimated); use fewer uses");
    }
    const std::size_t bound = std::max<std::size_t>(1, one->self_compose_size_bound(comp.times));
    if (bound > options.max_exact_atoms / atoms) return std::nullopt;
    atoms *= bound;
    bits_per_atom += Integer(static_cast<unsigned long>(comp.times)) * Integer(static_cast<unsigned long>(mass_bits(*one)));
    // masses and ratio (whose size is at most the masses'): twice the masses' bits, in bytes
    if (Integer(static_cast<unsigned long>(atoms)) * bits_per_atom * 2 / 8 > Integer(static_cast<unsigned long>(options.max_exact_bytes)))
      return std::nullopt;
    ones.push_back(one->self_compose(comp.times));
  }
  PrivacyLoss loss = PrivacyLoss::identity();
  for (const auto& one : ones) loss = compose(loss, one);
  return loss;
}

}  // namespace

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::sound: return "sound";
    case Verdict::unsound: return "unsound";
    case Verdict::undecided: return "undecided";
  }
  return "undecided";
}

std::vector<Claim> parse_claims(std::string_view text, const std::string& source) {
  const Json doc = io::parse_json(text, source, "claims file");
  if (!doc.is_object()) throw Error(source, "", "", "the top level must be a JSON object");
  if (!doc.contains("format")) throw Error(source, "/format", "", std::string("missing (expected \"") + claims_format + "\")");
  if (doc["format"] != claims_format)
    throw Error(source, "/format", io::shown(doc["format"]), std::string("unsupported format (expected \"") + claims_format + "\")");
  for (const auto& [k, v] : doc.items())
    if (k != "format" && k != "claims" && !documentation_keys.count(k))
      throw Error(source, "/" + k, "", "unknown field (expected format, claims, description, source, comment, accountant)");
  if (!doc.contains("claims")) throw Error(source, "/claims", "", "missing");
  const Json& list = doc["claims"];
  if (!list.is_array() || list.empty()) throw Error(source, "/claims", io::shown(list), "must be a non-empty array of claims");
  std::vector<Claim> claims;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = "/claims/" + std::to_string(i);
    claims.push_back(parse_claim(list[i], source, at));
    if (!ids.insert(claims.back().id).second) throw Error(source, at + "/id", claims.back().id, "duplicate claim id");
  }
  return claims;
}

std::vector<Claim> load_claims_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_claims(text.str(), file.string());
}

namespace {

ClaimResult audit_claim_with(const Claim& claim, const AuditOptions& options, AuditCache& cache) {
  if (options.start < min_precision || options.cap < options.start)
    throw Error("audit", "precision", std::to_string(options.start), "need min_precision <= start <= cap");
  ClaimResult r{claim, Verdict::undecided, {}, std::nullopt, false, 0, "", std::nullopt, std::nullopt, std::nullopt};
  const std::string key = composition_key(claim);
  const PrivacyProfile* cached = cache.profile.find(key);
  if (!cached)
    if (auto loss = exact_composition(claim, options)) cached = &cache.profile.put(key, PrivacyProfile(*loss));
  if (cached) {
    const PrivacyProfile& profile = *cached;
    r.exact = true;
    r.method = "exact privacy-loss distribution of the composed pair (rational arithmetic)";
    if (claim.kind == Claim::Kind::epsilon_at_delta) audit_exact_epsilon(r, profile, options);
    else audit_exact_delta(r, profile, options);
  } else {
    audit_certified(r, options, cache);
  }
  if (r.verdict != Verdict::undecided && !r.truth.infinite) set_slack(r, std::max(options.start, r.precision));
  return r;
}

}  // namespace

ClaimResult audit_claim(const Claim& claim, const AuditOptions& options) {
  AuditCache cache;
  return audit_claim_with(claim, options, cache);
}

std::vector<ClaimResult> audit_claims(const std::vector<Claim>& claims, const AuditOptions& options) {
  std::vector<ClaimResult> out;
  out.reserve(claims.size());
  AuditCache cache;
  for (const auto& c : claims) out.push_back(audit_claim_with(c, options, cache));
  return out;
}

std::string audit_report_json(const std::vector<ClaimResult>& results, int digits) {
  json out{{"format", "exactdp-audit/1"}, {"results", json::array()}};
  std::size_t counts[3] = {0, 0, 0};
  for (const auto& r : results) {
    const Claim& c = r.claim;
    const bool eps = c.kind == Claim::Kind::epsilon_at_delta;
    json e{{"id", c.id}, {"verdict", to_string(r.verdict)}};
    if (c.heterogeneous) {
      e["mechanisms"] = json::array();
      for (const auto& comp : c.components) e["mechanisms"].push_back({{"mechanism", comp.mechanism}, {"times", comp.times}});
    } else {
      e["mechanism"] = c.components.front().mechanism;
      e["times"] = c.components.front().times;
    }
    if (!c.neighbouring.empty()) e["neighbouring"] = c.neighbouring;
    if (!c.sampling.empty()) e["sampling"] = c.sampling;
    if (r.grid_step) {
      e["grid_step"] = to_string(*r.grid_step);
      e["grid_resolution"] = r.grid_resolution;
    }
    e[eps ? "delta" : "epsilon"] = to_string(c.given);
    e[eps ? "claimed_epsilon" : "claimed_delta"] = to_string(c.claimed);
    e[eps ? "true_epsilon" : "true_delta"] = value_json(r.truth, digits);
    if (r.true_lambda) e["true_lambda"] = to_string(*r.true_lambda);
    e["exact"] = r.exact;
    e["precision"] = r.precision;
    e["method"] = r.method;
    if (r.slack_absolute)
      e["slack"] = {{"absolute", value_json(*r.slack_absolute, digits)},
                    {"relative", r.slack_relative ? value_json(*r.slack_relative, digits) : json(nullptr)}};
    else e["slack"] = nullptr;
    out["results"].push_back(e);
    ++counts[static_cast<int>(r.verdict)];
  }
  out["summary"] = {{"claims", results.size()},
                    {"sound", counts[static_cast<int>(Verdict::sound)]},
                    {"unsound", counts[static_cast<int>(Verdict::unsound)]},
                    {"undecided", counts[static_cast<int>(Verdict::undecided)]}};
  return out.dump(2);
}

}  // namespace exactdp
