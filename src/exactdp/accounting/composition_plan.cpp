#include "exactdp/accounting/composition_plan.hpp"

#include "exactdp/bounds/composition_bounds.hpp"
#include "exactdp/bounds/gaussian.hpp"
#include "exactdp/bounds/laplace.hpp"
#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/bounds/renyi_conversions.hpp"
#include "exactdp/bounds/subsampled_renyi.hpp"
#include "exactdp/compose/fast_convolution.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/divergence/renyi.hpp"

#include <algorithm>
#include <sstream>

namespace exactdp {
namespace {

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

Integer integer(std::size_t n) { return Integer(static_cast<unsigned long>(n)); }

/// Bytes of one atom of a certified PLD: two intervals (four MPFR numbers with their limbs, at
/// 1024 bits — the highest precision the audit escalates to) and the symbolic ratio.
constexpr unsigned long certified_atom_bytes = 64 + 4 * (32 + 1024 / 8);
/// Bytes of an exact atom besides its digits: three mpq_t (mass P, mass Q, ratio).
constexpr unsigned long exact_atom_overhead = 3 * 32;

/// Upper bound on the atoms of the k-fold composition of a loss with @p atoms atoms and no
/// lattice structure: the multisets of size k, C(k + n − 1, n − 1).
Integer multiset_bound(std::size_t atoms, unsigned long k) {
  if (atoms <= 1) return 1;
  return binomial(k + atoms - 1, atoms - 1);
}

/// The one-use λ enclosure and δ of a component that composes binomially (BinomialComposition):
/// randomized response with λ > 1 (or ε > 0), and the discrete Laplace with sensitivity 1, which
/// is RR with λ = 1/r (THEOREMS.md D.3).
struct BinomialForm {
  Interval lambda;
  Rational delta;
};

std::optional<BinomialForm> binomial_form(const CompositionComponent& c, Precision p) {
  if (!c.spec || c.pair || c.sampling_rate) return std::nullopt;
  const MechanismSpec& s = *c.spec;
  auto lambda = [&]() -> std::optional<Interval> {
    if (auto l = s.parameter("lambda")) return *l > 1 ? std::optional(Interval(*l, p)) : std::nullopt;
    if (auto r = s.parameter("r")) return Interval(Rational(1 / *r), p);
    if (auto e = s.parameter("epsilon")) return sgn(*e) > 0 ? std::optional(exp(Interval(*e, p))) : std::nullopt;
    if (auto a = s.parameter("a")) return exp(Interval(*a, p));  // dlaplace with sensitivity 1: λ = e^a
    return std::nullopt;
  };
  if (s.family() == MechanismFamily::randomized_response) {
    if (auto l = lambda()) return BinomialForm{*l, *s.parameter("delta")};
  } else if (s.family() == MechanismFamily::discrete_laplace && s.parameter("sensitivity") == Rational(1)) {
    if (auto l = lambda()) return BinomialForm{*l, Rational(0)};
  }
  return std::nullopt;
}

/// The exact composed PLD's atoms and bytes (masses up to Σ times_i·bits_i per atom, the ratio at
/// most as large), or nullopt when some component has no exact tables.
std::optional<std::pair<Integer, Integer>> exact_estimate(const std::vector<CompositionComponent>& comps) {
  Integer atoms = 1, bits = 0;
  for (const auto& c : comps) {
    auto one = c.exact_loss();
    if (!one) return std::nullopt;
    atoms *= integer(std::max<std::size_t>(1, one->self_compose_size_bound(c.times)));
    bits += Integer(c.times) * integer(mass_bits(*one));
  }
  return std::pair{atoms, atoms * (bits * 2 / 8 + exact_atom_overhead)};
}

/// Bytes of the certified composed PLD, or nullopt when some component is not finite.
std::optional<Integer> certified_estimate(const std::vector<CompositionComponent>& comps) {
  Integer atoms = 1;
  for (const auto& c : comps) {
    if (auto exact = c.exact_loss()) {
      atoms *= integer(std::max<std::size_t>(1, exact->self_compose_size_bound(c.times)));
      continue;
    }
    auto one = c.certified_loss(64);
    if (!one) return std::nullopt;
    atoms *= one->size() == 2 ? Integer(c.times + 1) : multiset_bound(one->size(), c.times);
  }
  return atoms * certified_atom_bytes;
}

bool closed_form(const CompositionComponent& c) {
  return c.spec && !c.pair && !c.sampling_rate && c.mixture.empty() && !c.spec->certified_loss(64) &&
         c.spec->supports_composition(c.times);
}

/// One use of a Gaussian mixture (a subsampled Gaussian included): bounds/gaussian_mixture.hpp.
bool mixture_form(const CompositionComponent& c) { return c.times == 1 && c.gaussian_mixture().has_value(); }

/// One use of a Poisson-subsampled Laplace mechanism (0 < q < 1, b and sensitivity positive; the
/// degenerate values are exact pairs): bounds/subsampled_laplace.hpp.
std::optional<SubsampledLaplace> subsampled_laplace_form(const CompositionComponent& c) {
  if (!c.spec || c.pair || !c.mixture.empty() || c.times != 1 || !c.sampling_rate || c.spec->family() != MechanismFamily::laplace)
    return std::nullopt;
  const Rational& q = *c.sampling_rate;
  const Rational b = *c.spec->parameter("b"), s = *c.spec->parameter("sensitivity");
  if (sgn(q) <= 0 || q >= 1 || sgn(b) <= 0 || sgn(s) <= 0) return std::nullopt;
  return SubsampledLaplace(b, s, q);
}

bool grid_form(const CompositionComponent& c) {
  if (c.spec && !c.pair && !c.mixture.empty()) return c.times > 1;  // several uses of a Gaussian mixture
  if (!c.spec || c.pair || !c.mixture.empty()) return false;
  const bool sampled = c.sampling_rate && *c.sampling_rate != 1;
  if (c.spec->family() == MechanismFamily::gaussian) return sampled;
  return c.spec->family() == MechanismFamily::laplace && (c.times > 1 || sampled);
}

/// The continuous pair of a gauss or laplace component (any sampling rate) or of a Gaussian mixture, if any.
std::optional<ContinuousPair> grid_pair(const CompositionComponent& c) {
  if (c.spec && !c.pair && !c.mixture.empty()) return ContinuousPair::gaussian_mixture(*c.gaussian_mixture());
  if (!c.spec || c.pair || !c.mixture.empty()) return std::nullopt;
  return continuous_pair(*c.spec, c.sampling_rate.value_or(Rational(1)));
}

/// A library mechanism with a certified (finite) PLD but no exact tables, Poisson-subsampled: the
/// discrete Laplace given by a or epsilon, rr/krr by epsilon, the truncated discrete Gaussian. One
/// use is answered exactly up to the working precision (SubsampledCertifiedLoss), several by the
/// fast convolution with the sampling rate.
bool sampled_certified(const CompositionComponent& c) {
  return c.spec && !c.pair && c.sampling_rate && *c.sampling_rate != 1 && c.spec->certified_loss(64).has_value();
}

/// Whether every component is an unsampled Gaussian mechanism: their composition is μ-GDP with
/// μ² = Σ times_i·(Δ_i/σ_i)² exactly (DRS22 Cor 3.3), a closed form for any mix of σ and Δ.
bool all_gaussian(const std::vector<CompositionComponent>& comps) {
  return std::all_of(comps.begin(), comps.end(), [](const CompositionComponent& c) {
    return c.spec && !c.pair && !c.sampling_rate && c.mixture.empty() && c.spec->family() == MechanismFamily::gaussian;
  });
}

/// μ of a composition of Gaussian mechanisms (all_gaussian), certified: √(Σ times_i·(Δ_i/σ_i)²).
Interval gaussian_composition_mu(const std::vector<CompositionComponent>& comps, Precision p) {
  Rational mu2 = 0;
  for (const auto& c : comps) {
    const Rational mu = gaussian_mechanism_mu(*c.spec->parameter("sensitivity"), *c.spec->parameter("sigma"));
    mu2 += mu * mu * Rational(static_cast<long>(c.times));
  }
  return sqrt(Interval(mu2, p));
}

}  // namespace

// ------------------------------------------------------------------ components

std::optional<PrivacyLoss> CompositionComponent::exact_loss() const {
  if (pair) return pair;
  if (sampling_rate) return std::nullopt;
  return spec ? spec->exact_loss() : std::nullopt;
}

std::optional<CertifiedLoss> CompositionComponent::certified_loss(Precision precision) const {
  if (pair) return CertifiedLoss::from_exact(*pair, precision);
  if (sampling_rate) return std::nullopt;
  return spec ? spec->certified_loss(precision) : std::nullopt;
}

std::optional<GaussianMixture> CompositionComponent::gaussian_mixture() const {
  if (!spec || pair || spec->family() != MechanismFamily::gaussian) return std::nullopt;
  const Rational sigma = *spec->parameter("sigma");  // parameter() returns a copy: keep it
  const Rational delta = *spec->parameter("sensitivity");
  if (!mixture.empty()) {
    std::vector<MixtureComponent> scaled;
    for (const auto& m : mixture) scaled.push_back({Rational(m.sensitivity * delta), m.weight});
    return GaussianMixture(sigma, std::move(scaled));
  }
  if (sampling_rate && *sampling_rate != 1)
    return GaussianMixture(sigma, {{Rational(0), Rational(1 - *sampling_rate)}, {delta, *sampling_rate}});
  return std::nullopt;
}

std::string CompositionComponent::describe() const {
  if (!mixture.empty()) return gaussian_mixture()->describe();
  if (spec) {
    std::string d = spec->describe();
    if (sampling_rate) d += ", Poisson-subsampled at q = " + to_string(*sampling_rate) + " (add/remove)";
    return d;
  }
  return "pair of distributions from " + source;
}

CompositionComponent poisson_subsampled(CompositionComponent c, const Rational& rate, bool keep_gaussian, const std::string& where) {
  if (sgn(rate) < 0 || rate > 1) throw Error(where, "q", to_string(rate), "the sampling rate must lie in [0, 1]");
  if (sgn(rate) == 0) {  // never sampled: both neighbours release the same law, whatever the mechanism
    c.source += " Poisson-subsampled at q = 0 (never sampled: identical laws)";
    c.pair = PrivacyLoss::identity();
    c.spec.reset();
    return c;
  }
  if (auto loss = c.exact_loss()) {
    if (!(loss->swapped() == *loss)) throw Error(where, "", c.source, "Poisson subsampling of an asymmetric pair is not supported");
    c.pair = poisson_subsample(*loss, rate);
    return c;
  }
  if (keep_gaussian && c.spec && (c.spec->family() == MechanismFamily::gaussian || c.spec->family() == MechanismFamily::laplace)) {
    c.sampling_rate = rate;
    return c;
  }
  if (c.spec && c.spec->certified_loss(64)) {  // certified masses: subsampled by SubsampledCertifiedLoss
    c.sampling_rate = rate;
    return c;
  }
  throw Error(where, "", c.source,
              "Poisson subsampling needs a finite mechanism here (a pair file; rr, krr, dlaplace or dgauss with truncation)" +
                  std::string(keep_gaussian ? ", gauss or laplace" : "; for gauss use exactdp audit with \"sampling\""));
}

std::vector<MixtureComponent> parse_sensitivity_mixture(std::string_view text) {
  constexpr std::string_view prefix = "mixture:";
  const std::string whole(text);
  if (text.substr(0, prefix.size()) != prefix)
    throw Error("", "", whole, "expected mixture:C=W,C=W,... (contribution C times the sensitivity with probability W)");
  std::vector<MixtureComponent> out;
  Rational total = 0;
  std::string_view rest = text.substr(prefix.size());
  for (;;) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) throw Error("", "", whole, "expected C=W in '" + std::string(item) + "'");
    Rational c, w;
    try {
      c = parse_rational(item.substr(0, eq), "C");
    } catch (const Error& e) {
      throw Error("", "C", whole, e.why());
    }
    try {
      w = parse_rational(item.substr(eq + 1), "W");
    } catch (const Error& e) {
      throw Error("", "W", whole, e.why());
    }
    if (sgn(c) < 0) throw Error("", "C", whole, "a contribution C must be non-negative");
    if (sgn(w) <= 0 || w > 1) throw Error("", "W", whole, "a probability W must lie in (0, 1]");
    total += w;
    out.push_back({c, w});
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (total > 1) throw Error("", "weights", whole, "the probabilities sum to " + to_string(total) + ", more than 1");
  if (total < 1) out.push_back({Rational(0), Rational(1 - total)});
  return out;
}

CompositionComponent sensitivity_mixture(CompositionComponent c, std::vector<MixtureComponent> m, const std::string& where) {
  if (!c.spec || c.pair || c.spec->family() != MechanismFamily::gaussian)
    throw Error(where, "", c.source, "a sensitivity mixture applies to a Gaussian mechanism (gauss:sigma=...) only");
  if (c.sampling_rate || !c.mixture.empty())
    throw Error(where, "", c.source, "a sensitivity mixture of a subsampled or mixed mechanism is not supported (write the mixture itself)");
  c.mixture = std::move(m);
  try {
    (void)c.gaussian_mixture();  // validates: some positive contribution, weights summing to 1
  } catch (const Error& e) {
    throw Error(where, e.field(), e.value(), e.why());
  }
  return c;
}

// ------------------------------------------------------------------ the plan

std::string to_string(CompositionRoute route) {
  switch (route) {
    case CompositionRoute::exact: return "exact";
    case CompositionRoute::binomial: return "binomial";
    case CompositionRoute::certified_loss: return "certified_loss";
    case CompositionRoute::fast_convolution: return "fast_convolution";
    case CompositionRoute::closed_form: return "closed_form";
    case CompositionRoute::grid_bracket: return "grid_bracket";
    case CompositionRoute::renyi: return "renyi";
  }
  return "renyi";
}

bool CompositionPlan::has_profile() const { return route != CompositionRoute::renyi; }

std::string human_bytes(const Integer& bytes) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int i = 0;
  Rational b(bytes);
  while (b >= 1024 && i < 6) b /= 1024, ++i;
  std::ostringstream os;
  const Integer tenths = Integer(b.get_num() * 10 / b.get_den());
  os << tenths / 10 << "." << tenths % 10 << " " << unit[i];
  if (b >= 1024) os << " or more";
  return os.str();
}

CompositionPlan plan_composition(const std::vector<CompositionComponent>& comps, const PlanOptions& options) {
  if (comps.empty()) throw Error("compose", "", "", "nothing to compose: give at least one mechanism or pair");
  CompositionPlan plan;
  plan.memory_budget = options.memory_budget;
  plan.grid_resolution = options.grid_resolution;
  plan.grid_max_points = options.grid_max_points;
  const Integer budget(static_cast<unsigned long>(options.memory_budget));
  const std::string budget_text = human_bytes(budget);
  std::string skipped;
  if (auto exact = exact_estimate(comps)) {
    plan.exact_atoms = exact->first;
    plan.exact_bytes = exact->second;
    if (options.force_exact) {
      plan.route = CompositionRoute::exact;
      plan.reason = "exact (forced)";
      return plan;
    }
    if (exact->second <= budget && exact->first <= integer(options.max_exact_atoms)) {
      plan.route = CompositionRoute::exact;
      plan.reason = "exact: estimated " + human_bytes(exact->second) + ", within the budget of " + budget_text;
      return plan;
    }
    skipped = "the exact composition was skipped (estimated " + human_bytes(exact->second) + " and " +
              exact->first.get_str() + " atoms; budget " + budget_text + ", " + std::to_string(options.max_exact_atoms) +
              " atoms)";
  }
  auto with = [&](const std::string& what) { return skipped.empty() ? what : what + "; " + skipped; };
  if (comps.size() == 1 && binomial_form(comps.front(), 64)) {
    plan.route = CompositionRoute::binomial;
    plan.reason = with("binomial closed form of randomized response");
    return plan;
  }
  if (auto bytes = certified_estimate(comps)) {
    const Integer atoms = *bytes / certified_atom_bytes;
    const bool fast_fits = comps.size() == 1 && atoms > integer(options.max_certified_atoms);
    if (*bytes <= budget && !fast_fits) {
      plan.route = CompositionRoute::certified_loss;
      plan.reason = with("certified privacy-loss distribution: estimated " + human_bytes(*bytes));
      return plan;
    }
    skipped += std::string(skipped.empty() ? "" : "; ") + "the certified composition was skipped (estimated " +
               human_bytes(*bytes) + " and " + atoms.get_str() + " atoms; budget " + budget_text + ", " +
               std::to_string(options.max_certified_atoms) + " atoms for one component)";
    // One finite component too long for the certified PLD: quasi-linear convolution on a grid
    // (exact for lattice losses), certified towards each side; memory about k times one use.
    if (comps.size() == 1) {
      plan.route = CompositionRoute::fast_convolution;
      plan.reason = with("fast certified convolution (compose/fast_convolution.hpp)");
      return plan;
    }
  }
  if (comps.size() == 1 && sampled_certified(comps.front())) {
    const bool one = comps.front().times == 1;
    plan.route = one ? CompositionRoute::certified_loss : CompositionRoute::fast_convolution;
    plan.reason = with(one ? "certified privacy-loss distribution of the Poisson-subsampled pair (one use)"
                           : "fast certified convolution of the Poisson-subsampled pair (compose/fast_convolution.hpp)");
    return plan;
  }
  if (comps.size() == 1 && closed_form(comps.front())) {
    plan.route = CompositionRoute::closed_form;
    plan.reason = with("closed form of " + to_string(comps.front().spec->family()));
    return plan;
  }
  if (comps.size() == 1 && subsampled_laplace_form(comps.front())) {
    plan.route = CompositionRoute::closed_form;
    plan.reason = with("closed form of one use of a Poisson-subsampled Laplace mechanism (bounds/subsampled_laplace.hpp)");
    return plan;
  }
  if (comps.size() == 1 && mixture_form(comps.front())) {
    plan.route = CompositionRoute::closed_form;
    plan.reason = with("closed form of one use of a Gaussian mixture (bounds/gaussian_mixture.hpp)");
    return plan;
  }
  if (comps.size() > 1 && all_gaussian(comps)) {
    plan.route = CompositionRoute::closed_form;
    plan.reason = with("closed form of a composition of Gaussian mechanisms (GDP: mu^2 = sum of times * (sensitivity/sigma)^2)");
    return plan;
  }
  if (options.grid_brackets && comps.size() == 1 && grid_form(comps.front())) {
    plan.route = CompositionRoute::grid_bracket;
    plan.reason = with("certified grid bracket");
    return plan;
  }
  if (options.grid_brackets && comps.size() > 1 &&
      std::all_of(comps.begin(), comps.end(), [](const CompositionComponent& c) { return grid_pair(c).has_value(); })) {
    plan.route = CompositionRoute::grid_bracket;
    plan.reason = with("certified grid bracket of a heterogeneous composition (Gaussian, Laplace and mixture mechanisms)");
    return plan;
  }
  plan.route = CompositionRoute::renyi;
  plan.reason = with("Renyi composition (no exact or certified profile for this composition)");
  return plan;
}

// ------------------------------------------------------------------ certified k-fold

CertifiedLoss self_compose_certified(const CertifiedLoss& one, unsigned long k, Precision p) {
  // Two atoms of finite positive ratios r₁ ≠ r₂: the outcomes with j uses on the first atom form one
  // atom of ratio r₁^j·r₂^{k−j} and masses C(k, j)·p₁^j·p₂^{k−j}, C(k, j)·q₁^j·q₂^{k−j} — the atoms
  // repeated squaring builds, distinct for distinct j because r₁ ≠ r₂ — in O(k) products.
  const auto& a = one.atoms();
  if (k < 2 || a.size() != 2 || !a[0].ratio.is_positive_finite() || !a[1].ratio.is_positive_finite() || k > 1000000)
    return one.self_compose(k);
  const SymbolicRatio& r1 = a[0].ratio;
  const SymbolicRatio& r2 = a[1].ratio;
  std::vector<CertifiedLossAtom> atoms;
  atoms.reserve(k + 1);
  mpz_class choose = 1;  // C(k, j), updated in place
  for (unsigned long j = 0; j <= k; ++j) {
    if (j > 0) {
      choose *= k - j + 1;
      mpz_divexact_ui(choose.get_mpz_t(), choose.get_mpz_t(), j);
    }
    const long i = static_cast<long>(j), rest = static_cast<long>(k - j);
    mpq_class c1, c2;
    mpz_pow_ui(c1.get_num_mpz_t(), r1.coefficient().get_num_mpz_t(), j);
    mpz_pow_ui(c1.get_den_mpz_t(), r1.coefficient().get_den_mpz_t(), j);
    mpz_pow_ui(c2.get_num_mpz_t(), r2.coefficient().get_num_mpz_t(), k - j);
    mpz_pow_ui(c2.get_den_mpz_t(), r2.coefficient().get_den_mpz_t(), k - j);
    const Rational coefficient = Rational(c1) * Rational(c2);  // canonicalised by the product
    const Rational exponent = r1.exponent() * i + r2.exponent() * rest;
    const Interval c(Rational(choose), p);
    atoms.push_back({SymbolicRatio::exponential(coefficient, exponent), c * pow(a[0].p, i) * pow(a[1].p, rest),
                     c * pow(a[0].q, i) * pow(a[1].q, rest)});
  }
  return CertifiedLoss::from_atoms(std::move(atoms), "binomial composition");
}

// ------------------------------------------------------------------ the composed law

ComposedPrivacy::ComposedPrivacy(const std::vector<CompositionComponent>& comps, const CompositionPlan& plan,
                                 Precision precision)
    : plan_(plan), precision_(precision), components_(comps) {
  switch (plan.route) {
    case CompositionRoute::exact: {
      PrivacyLoss loss = PrivacyLoss::identity();
      for (const auto& c : comps) loss = compose(loss, c.exact_loss()->self_compose(c.times));
      exact_ = std::move(loss);
      profile_.emplace(*exact_);
      return;
    }
    case CompositionRoute::binomial: {
      const auto form = binomial_form(comps.front(), precision);
      binomial_.emplace(form->lambda, form->delta, comps.front().times);
      return;
    }
    case CompositionRoute::certified_loss: {
      if (comps.size() == 1 && sampled_certified(comps.front())) {
        subsampled_.emplace(*comps.front().spec->certified_loss(precision), *comps.front().sampling_rate);
        return;
      }
      for (const auto& c : comps) {
        CertifiedLoss k = self_compose_certified(*c.certified_loss(precision), c.times, precision);
        certified_ = certified_ ? compose(*certified_, k) : std::move(k);
      }
      return;
    }
    case CompositionRoute::fast_convolution: {
      const CompositionComponent& c = comps.front();
      if (comps.size() != 1) throw Error("compose", "", to_string(plan.route), "takes exactly one component");
      fast_exact_ = c.exact_loss();
      if (!fast_exact_) fast_certified_ = sampled_certified(c) ? c.spec->certified_loss(precision) : c.certified_loss(precision);
      if (!fast_exact_ && !fast_certified_)
        throw Error("compose", c.source, to_string(plan.route), "the component has no finite privacy-loss distribution");
      return;
    }
    case CompositionRoute::closed_form:
      if (comps.size() == 1 && mixture_form(comps.front())) mixture_ = comps.front().gaussian_mixture();
      if (comps.size() == 1) subsampled_laplace_ = subsampled_laplace_form(comps.front());
      return;
    case CompositionRoute::grid_bracket: {
      for (const auto& c : comps) {
        auto pair = grid_pair(c);
        if (!pair) throw Error("compose", c.source, to_string(plan.route), "the component has no grid bracket");
        grid_.push_back({*pair, c.times});
      }
      return;
    }
    case CompositionRoute::renyi:
      throw Error("compose", "", to_string(plan.route), "this route has no privacy profile (internal: ask composed_renyi)");
  }
}

namespace {

/// The fast route's options: its own resolution schedule, or the one resolution the plan asks.
FastCompositionOptions fast_options(Precision precision, const CompositionPlan& plan) {
  FastCompositionOptions o;
  o.precision = precision;
  if (plan.fast_resolution != 0) o.resolution = o.max_resolution = plan.fast_resolution;
  return o;
}

}  // namespace

bool ComposedPrivacy::fast_on_grid() const {
  if (plan_.route != CompositionRoute::fast_convolution) return false;
  const unsigned long k = components_.front().times;
  const FastCompositionOptions o = fast_options(precision_, plan_);
  return fast_exact_ ? fast_composition_on_grid(*fast_exact_, k, std::nullopt, o)
                     : fast_composition_on_grid(*fast_certified_, k, components_.front().sampling_rate, o);
}

Interval ComposedPrivacy::delta_at_epsilon(const Interval& epsilon) const {
  return delta_at_epsilon(epsilon, NeighbourDirection::both);
}

Interval ComposedPrivacy::delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction) const {
  if (mixture_) return mixture_->delta_at_epsilon(epsilon, direction);  // every ε, either direction
  if (subsampled_laplace_) return subsampled_laplace_->delta_at_epsilon(epsilon, direction);
  switch (plan_.route) {
    // the PLDs cover every λ = e^ε > 0 directly
    case CompositionRoute::exact: return delta(*profile_, exp(epsilon), direction);
    case CompositionRoute::certified_loss: {
      if (subsampled_) return subsampled_->delta_at_epsilon(epsilon, direction);
      const Interval lambda = exp(epsilon);
      if (direction == NeighbourDirection::both) return certified_->delta(lambda);
      return direction == NeighbourDirection::remove ? certified_->hockey_stick(lambda) : certified_->swapped().hockey_stick(lambda);
    }
    default: break;
  }
  return delta_at_any_epsilon(epsilon, direction, [&](const Interval& e, NeighbourDirection d) {
    return nonnegative_delta(e, d);
  });
}

Interval ComposedPrivacy::nonnegative_delta(const Interval& epsilon, NeighbourDirection direction) const {
  if (plan_.route == CompositionRoute::fast_convolution) {
    // δ(ε) is non-increasing in ε: over the enclosure [ε₋, ε₊] it lies in [δ₋(ε₊), δ₊(ε₋)].
    if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite())
      throw Error("compose", "epsilon", epsilon.to_string(10), "must be a finite enclosure");
    const unsigned long k = components_.front().times;
    FastCompositionOptions o = fast_options(precision_, plan_);
    o.direction = direction;
    auto at = [&](const Rational& e) {
      return fast_exact_ ? fast_delta_at_epsilon(*fast_exact_, k, e, std::nullopt, o).value
                         : fast_delta_at_epsilon(*fast_certified_, k, e, components_.front().sampling_rate, o).value;
    };
    const Rational lo = epsilon.lower() < 0 ? Rational(0) : epsilon.lower();
    const Interval at_lo = at(lo);
    if (epsilon.lower() == epsilon.upper()) return at_lo;
    const Interval at_hi = at(std::max(lo, epsilon.upper()));
    return Interval::hull(at_hi.lower(), at_lo.upper(), precision_);
  }
  if (plan_.route == CompositionRoute::grid_bracket) {
    // as above: [δ₋(ε₊), δ₊(ε₋)] over the enclosure, each end from a bracket of the grid
    if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite())
      throw Error("compose", "epsilon", epsilon.to_string(10), "must be a finite enclosure");
    GridOptions o = grid_options();
    o.direction = direction;
    const Rational lo = epsilon.lower() < 0 ? Rational(0) : epsilon.lower();
    const Interval at_lo = grid_delta_at_epsilon(grid_, lo, o).value;
    if (epsilon.lower() == epsilon.upper()) return at_lo;
    const Interval at_hi = grid_delta_at_epsilon(grid_, std::max(lo, epsilon.upper()), o).value;
    return Interval::hull(at_hi.lower(), at_lo.upper(), precision_);
  }
  // the remaining routes have symmetric pairs (randomized response, the spec families, Gaussians
  // in closed form): every direction has the both value
  if (plan_.route == CompositionRoute::closed_form && components_.size() > 1)
    return gaussian_dp_delta(gaussian_composition_mu(components_, epsilon.precision()), epsilon);
  switch (plan_.route) {
    case CompositionRoute::binomial: return binomial_->delta_at_epsilon(epsilon);
    default: return components_.front().spec->delta_at_epsilon(epsilon, components_.front().times);
  }
}

Interval ComposedPrivacy::delta_at_lambda(const Rational& lambda) const {
  return delta_at_lambda(lambda, NeighbourDirection::both);
}

Interval ComposedPrivacy::delta_at_lambda(const Rational& lambda, NeighbourDirection direction) const {
  if (sgn(lambda) <= 0) throw Error("compose", "lambda", to_string(lambda), "lambda = e^epsilon must be positive");
  switch (plan_.route) {
    case CompositionRoute::exact: return Interval(delta(*profile_, lambda, direction), precision_);
    case CompositionRoute::binomial:
      if (lambda >= 1) return binomial_->delta_at_lambda(Interval(lambda, precision_));
      break;
    case CompositionRoute::certified_loss: {
      const Interval l(lambda, precision_);
      if (subsampled_) return subsampled_->delta(l, direction);
      if (direction == NeighbourDirection::both) return certified_->delta(l);
      return direction == NeighbourDirection::remove ? certified_->hockey_stick(l) : certified_->swapped().hockey_stick(l);
    }
    default: break;
  }
  return delta_at_epsilon(lambda == 1 ? Interval::zero(precision_) : log(Interval(lambda, precision_)), direction);
}

Interval ComposedPrivacy::least_epsilon(const Rational& delta) const {
  return least_epsilon(delta, NeighbourDirection::both);
}

Interval ComposedPrivacy::least_epsilon(const Rational& delta, NeighbourDirection direction) const {
  if (mixture_) return mixture_->least_epsilon(delta, direction, pow2(-static_cast<long>(precision_ / 2)), precision_);
  if (subsampled_laplace_)
    return subsampled_laplace_->least_epsilon(delta, direction, pow2(-static_cast<long>(precision_ / 2)), precision_);
  switch (plan_.route) {
    case CompositionRoute::exact: {
      const ExtendedRational l = least_lambda(*profile_, delta, direction);
      if (l.is_infinite()) return Interval::infinity(precision_);
      return l.value() == 1 ? Interval::zero(precision_) : log(Interval(l.value(), precision_));
    }
    case CompositionRoute::binomial: return binomial_->least_epsilon(delta);  // symmetric pair
    case CompositionRoute::certified_loss:
      return subsampled_ ? subsampled_->least_epsilon(delta, direction) : certified_->least_epsilon(delta, direction);
    case CompositionRoute::fast_convolution: {
      const unsigned long k = components_.front().times;
      FastCompositionOptions o = fast_options(precision_, plan_);
      o.direction = direction;
      return fast_exact_ ? fast_epsilon_at_delta(*fast_exact_, k, delta, std::nullopt, o).value
                         : fast_epsilon_at_delta(*fast_certified_, k, delta, components_.front().sampling_rate, o).value;
    }
    case CompositionRoute::grid_bracket: return grid_least_epsilon_bracket(delta, direction).value;
    // a closed form's pair is symmetric: every direction has the both value
    case CompositionRoute::closed_form:
      if (components_.size() > 1) {  // a composition of Gaussian mechanisms (GDP), as MechanismSpec does for one
        if (sgn(delta) == 0) return Interval::infinity(precision_);
        GaussianSearchOptions search;
        search.precision = precision_;
        search.max_precision = std::max<Precision>(search.max_precision, 2 * precision_);
        search.tolerance = pow2(-static_cast<long>(precision_ / 2));
        return gaussian_dp_least_epsilon(gaussian_composition_mu(components_, precision_), delta, search);
      }
      [[fallthrough]];
    default: return components_.front().spec->epsilon_at_delta(delta, components_.front().times, precision_);
  }
}

GridBracket ComposedPrivacy::grid_delta_at_epsilon_bracket(const Rational& epsilon, NeighbourDirection direction) const {
  if (plan_.route != CompositionRoute::grid_bracket)
    throw Error("compose", "", to_string(plan_.route), "not the grid-bracket route (internal: ask delta_at_epsilon)");
  GridOptions o = grid_options();
  o.direction = direction;
  return grid_delta_at_epsilon(grid_, epsilon, o);  // ε < 0 through the reversed direction there
}

GridBracket ComposedPrivacy::grid_least_epsilon_bracket(const Rational& delta, NeighbourDirection direction) const {
  if (plan_.route != CompositionRoute::grid_bracket)
    throw Error("compose", "", to_string(plan_.route), "not the grid-bracket route (internal: ask least_epsilon)");
  GridOptions o = grid_options();
  o.direction = direction;
  if (sgn(delta) == 0) {  // both grid laws have infinite-support losses
    GridBracket b;
    b.value = Interval::infinity(precision_);
    b.resolution = o.resolution;
    return b;
  }
  return grid_epsilon_at_delta(grid_, delta, o);
}

bool ComposedPrivacy::symmetric() const {
  for (const auto& c : components_) {
    if (c.sampling_rate || !c.mixture.empty()) return false;
    if (auto loss = c.exact_loss()) {
      if (!(loss->swapped() == *loss)) return false;
    }
  }
  return true;
}

std::string ComposedPrivacy::method() const {
  switch (plan_.route) {
    case CompositionRoute::exact: return "exact privacy-loss distribution of the composed pair (rational arithmetic)";
    case CompositionRoute::binomial:
      return "certified binomial closed form of " + std::to_string(components_.front().times) +
             "-fold randomized response (KOV15; terms that matter summed, certified tail bound)";
    case CompositionRoute::certified_loss:
      if (subsampled_)
        return "privacy-loss distribution of the Poisson-subsampled pair at q = " + to_string(subsampled_->rate()) +
               " with certified masses (atoms in the base pair's exact ratio order)";
      return "privacy-loss distribution with exact likelihood ratios and certified masses";
    case CompositionRoute::fast_convolution:
      return "fast certified convolution of " + std::to_string(components_.front().times) +
             " uses (grid laws bounding the privacy-loss distribution from both sides, quasi-linear products; "
             "exact grid for lattice losses; a small pair off any lattice composed atom by atom with exact losses)";
    case CompositionRoute::grid_bracket:
      if (grid_.size() > 1)
        return "certified grid bracket of a composition of " + std::to_string(grid_.size()) +
               " continuous mechanisms (docs/audit-subsampling.md, resolution " + std::to_string(grid_options().resolution) + ")";
      return "certified grid bracket of " + std::to_string(components_.front().times) + " uses of the " + grid_.front().pair.describe() +
             " (docs/audit-subsampling.md, resolution " + std::to_string(grid_options().resolution) + ")";
    default:
      if (subsampled_laplace_)
        return "certified closed form of one use of the " + subsampled_laplace_->describe() + " (bounds/subsampled_laplace.hpp)";
      if (mixture_)
        return "certified closed form of one use of a Gaussian mixture (monotone privacy loss, certified root; "
               "bounds/gaussian_mixture.hpp)";
      if (components_.size() > 1) return "certified closed form: Gaussian differential privacy of the composed Gaussian mechanisms (DRS22 Cor 3.3)";
      return "certified closed form (" + components_.front().spec->describe() + ")";
  }
}

namespace {

/// D_α of one use of @p c in the remove and add directions (either may be absent: not certified
/// here, with the reason), certified; +∞ as an interval with an infinite end.
struct DirectedRenyi {
  std::optional<Interval> remove, add;
  std::string why_not;
};

DirectedRenyi one_use_renyi(const CompositionComponent& c, const Rational& alpha, Precision p) {
  DirectedRenyi r;
  if (c.pair) {
    const CertifiedLoss loss = CertifiedLoss::from_exact(*c.pair, p);
    r.remove = loss.renyi_divergence(alpha);
    r.add = loss.swapped().renyi_divergence(alpha);
    return r;
  }
  const MechanismSpec& s = *c.spec;
  if (!c.mixture.empty()) {
    r.why_not = "the Renyi divergence of a Gaussian mixture with several sensitivities is not built (bounds/gaussian_mixture.hpp "
                "answers its profile for one use)";
    return r;
  }
  if (sampled_certified(c)) {  // a finite base pair: both directions, every order (amplification/subsampled_loss.hpp)
    const SubsampledCertifiedLoss sampled(*s.certified_loss(p), *c.sampling_rate);
    r.remove = sampled.renyi_divergence(alpha, NeighbourDirection::remove);
    r.add = sampled.renyi_divergence(alpha, NeighbourDirection::add);
    return r;
  }
  if (c.sampling_rate && *c.sampling_rate != 1) {
    const Rational& q = *c.sampling_rate;
    if (s.family() == MechanismFamily::gaussian) {
      // MTZ19: the remove direction is the larger; the add value itself has no finite sum
      r.remove = subsampled_gaussian_renyi(alpha, *s.parameter("sigma"), *s.parameter("sensitivity"), q,
                                           NeighbourDirection::remove, p);
      r.why_not = "the add direction of the Poisson-subsampled Gaussian has no certified value here (it is at most the "
                  "remove value, MTZ19)";
      return r;
    }
    r.remove = subsampled_laplace_renyi(alpha, *s.parameter("b"), *s.parameter("sensitivity"), q, NeighbourDirection::remove, p);
    r.why_not = "only the remove direction of the Poisson-subsampled Laplace mechanism is certified (ask --direction remove)";
    return r;
  }
  r.remove = r.add = s.renyi(alpha, p);  // every spec family's pair is symmetric
  return r;
}

bool infinite(const Interval& x) { return !x.lower_is_finite() || !x.upper_is_finite(); }

}  // namespace

std::optional<Interval> composed_renyi(const std::vector<CompositionComponent>& comps, const Rational& alpha, Precision precision,
                                       NeighbourDirection direction) {
  Interval remove = Interval::zero(precision), add = Interval::zero(precision);
  bool remove_inf = false, add_inf = false, add_known = true;
  bool dominated = true;  // every component's add divergence is at most its remove divergence
  std::string why_not;
  for (const auto& c : comps) {
    const DirectedRenyi one = one_use_renyi(c, alpha, precision);
    const Interval k(static_cast<long>(c.times), precision);
    if (!one.remove && direction != NeighbourDirection::add) throw Error("compose", "alpha", to_string(alpha), one.why_not);
    if (one.remove) {
      if (infinite(*one.remove)) remove_inf = true;
      else remove += *one.remove * k;
    }
    if (one.add) {
      if (infinite(*one.add)) add_inf = true;
      else add += *one.add * k;
      // a pair may be asymmetric either way; spec families are symmetric
      if (c.pair && !(c.pair->swapped() == *c.pair)) dominated = false;
    } else {
      add_known = false;
      // only the subsampled Gaussian is known to be dominated by its remove direction (MTZ19)
      if (!(c.spec && c.spec->family() == MechanismFamily::gaussian && c.sampling_rate)) dominated = false;
      why_not = one.why_not;
    }
  }
  switch (direction) {
    case NeighbourDirection::remove:
      if (remove_inf) return std::nullopt;
      return remove;
    case NeighbourDirection::add:
      if (!add_known) throw Error("compose", "direction", "add", why_not);
      if (add_inf) return std::nullopt;
      return add;
    default:
      if (remove_inf || (add_known && add_inf)) return std::nullopt;
      if (add_known) return max(remove, add);
      if (!dominated) throw Error("compose", "direction", "both", why_not);
      return remove;  // every unknown add term is at most its remove term and the rest are symmetric
  }
}

namespace {

/// D_∞(P‖Q) and D_∞(Q‖P) of one use of @p c (max ln ratio, max −ln ratio over the atoms),
/// certified; std::nullopt when one of them is infinite.
std::optional<std::pair<Interval, Interval>> one_use_max_divergences(const CompositionComponent& c, Precision p) {
  if (sampled_certified(c)) {
    // subsampled at q: ratios q·r + 1 − q over the base ratios r, so D_∞ of (A, B) is ln(q·r_max + 1 − q)
    // (+∞ with an outcome of P only) and of (B, A) −ln(q·r_min + 1 − q) (finite, as q < 1)
    const CertifiedLoss base = *c.spec->certified_loss(p);
    const Interval q(*c.sampling_rate, p), rest(Rational(1 - *c.sampling_rate), p);
    const auto& top = base.atoms().back().ratio;
    if (top.is_infinite()) return std::nullopt;
    return std::pair{log(q * top.enclosure(p) + rest), -log(q * base.atoms().front().ratio.enclosure(p) + rest)};
  }
  if (auto loss = c.certified_loss(p)) {
    std::optional<Interval> forward, backward;
    for (const auto& a : loss->atoms()) {
      if (!a.ratio.is_positive_finite()) return std::nullopt;  // ratio 0 or +∞: an event of one world only
      const Interval l = log(Interval(a.ratio.coefficient(), p)) + Interval(a.ratio.exponent(), p);
      forward = forward ? max(*forward, l) : l;
      backward = backward ? max(*backward, -l) : -l;
    }
    if (!forward) return std::pair{Interval::zero(p), Interval::zero(p)};
    return std::pair{*forward, *backward};
  }
  if (!c.spec || c.spec->family() != MechanismFamily::laplace) return std::nullopt;  // the Gaussians: unbounded loss
  // Laplace: loss in [−ε₀, ε₀]; Poisson-subsampled, g(L) = ln(q e^L + 1 − q) lies in [g(−ε₀), g(ε₀)]
  const Rational eps0 = laplace_mechanism_epsilon(*c.spec->parameter("b"), *c.spec->parameter("sensitivity"));
  const Rational q = c.sampling_rate.value_or(Rational(1));
  if (q == 1) return std::pair{Interval(eps0, p), Interval(eps0, p)};
  const Interval qi(q, p), rest(1 - q, p);
  return std::pair{log(qi * exp(Interval(eps0, p)) + rest), -log(qi * exp(Interval(Rational(-eps0), p)) + rest)};
}

}  // namespace

std::optional<Interval> composed_max_divergence(const std::vector<CompositionComponent>& comps, Precision precision) {
  Interval forward = Interval::zero(precision), backward = Interval::zero(precision);
  for (const auto& c : comps) {
    const auto one = one_use_max_divergences(c, precision);
    if (!one) return std::nullopt;
    const Interval k(static_cast<long>(c.times), precision);
    forward += one->first * k;  // the max ratio of a product pair is the product of the max ratios
    backward += one->second * k;
  }
  return max(forward, backward);
}

std::optional<ContinuousPair> continuous_pair(const MechanismSpec& s, const Rational& rate) {
  if (s.family() == MechanismFamily::gaussian) return ContinuousPair::gaussian(*s.parameter("sigma"), *s.parameter("sensitivity"), rate);
  if (s.family() == MechanismFamily::laplace) return ContinuousPair::laplace(*s.parameter("b"), *s.parameter("sensitivity"), rate);
  return std::nullopt;
}

// ------------------------------------------------------------------ bounds beside the answer

/// The most uses for which the optimal-composition bound is evaluated beside an answer.
constexpr std::size_t kMaxOptimalBoundUses = 2000;

std::vector<CompositionBound> closed_form_bounds(const std::vector<CompositionComponent>& comps, const std::vector<Rational>& deltas,
                                                 Precision precision) {
  std::vector<CompositionBound> out;
  std::vector<LambdaDelta> levels;
  unsigned long uses = 0;
  for (const auto& c : comps) {
    if (!c.spec || c.sampling_rate) return out;
    auto g = c.spec->dp_guarantee();
    if (!g || !g->epsilon.is_exact()) return out;
    uses += c.times;
    if (uses > 100000) return {};  // the closed forms below take a list of every use
    for (unsigned long i = 0; i < c.times; ++i) levels.push_back({g->epsilon.lambda(), g->delta});
  }
  if (levels.empty()) return out;
  auto log_of = [&](const Rational& lambda) { return log(Interval(lambda, precision)); };
  const LambdaDelta basic = basic_composition(levels);
  CompositionBound b{"basic composition (DKMMN06)", basic.delta, std::nullopt, false, false, ""};
  b.epsilon = basic.lambda == 1 ? Interval::zero(precision) : log_of(basic.lambda);
  if (basic.delta >= 1) {
    // the uses' δ add up to 1 or more (k uses of a disjoint pair: k): δ = 1 holds for every pair
    b.delta = Rational(1);
    b.note = "vacuous: the uses' delta add up to " + to_string(basic.delta) + ", and delta = 1 holds for every pair";
  }
  out.push_back(b);
  const bool homogeneous = std::all_of(levels.begin(), levels.end(), [&](const LambdaDelta& l) { return l == levels.front(); });
  Rational total_delta = 0;
  for (const auto& l : levels) total_delta += l.delta;
  for (const auto& d : deltas) {
    CompositionBound opt{"optimal composition (KOV15/MV16)", d, std::nullopt, false, false,
                         "the least ε over all compositions of mechanisms with these (ε, δ) guarantees"};
    if (levels.size() > kMaxOptimalBoundUses) {
      // its exact evaluation grows faster than linearly in the uses (5 000 uses: 6 s, 20 000: 43 s,
      // 100 000: over 200 s), far beyond the answer it is printed beside
      opt.delta.reset();
      opt.note = "not computed beyond " + std::to_string(kMaxOptimalBoundUses) + " uses (its exact evaluation grows faster than linearly)";
    } else {
      try {
        const auto least = optimal_composition_least_lambda(levels, d);
        if (!least) opt.epsilon_infinite = true;
        else if (*least == 1) opt.epsilon_zero = true;
        else opt.epsilon = log_of(*least);
      } catch (const Error& e) {
        opt.delta.reset();
        opt.note = "not computed: " + e.why();
      }
    }
    out.push_back(opt);
    if (homogeneous && d > total_delta && sgn(levels.front().lambda - 1) > 0) {
      const auto& l = levels.front();
      const auto adv = advanced_composition(log_of(l.lambda), l.delta, levels.size(), Rational(d - total_delta));
      out.push_back({"advanced composition (DRV10)", adv.delta, adv.epsilon, false, false, ""});
    }
  }
  return out;
}

std::vector<CompositionBound> renyi_conversion_bounds(const std::vector<CompositionComponent>& comps,
                                                      const std::vector<Rational>& alphas, const std::vector<Rational>& deltas,
                                                      Precision precision) {
  std::vector<Rational> grid = alphas;
  if (grid.empty())
    for (long a : {2L, 3L, 4L, 6L, 8L, 12L, 16L, 24L, 32L, 48L, 64L}) grid.push_back(Rational(a));
  std::vector<RdpGuarantee> curve;
  for (const auto& a : grid) {
    try {
      if (auto d = composed_renyi(comps, a, precision)) curve.push_back({a, *d});
    } catch (const Error&) {
      // an order or direction not certified for some component: no conversion from it
    }
  }
  std::vector<CompositionBound> out;
  for (const auto& d : deltas) {
    if (curve.empty() || sgn(d) == 0) continue;
    const auto best = best_rdp_to_dp_epsilon(curve, d);
    out.push_back({"RDP conversion (CKS20 Prop 12)", d, best.value, false, false,
                   "an upper bound on the least epsilon at alpha = " + to_string(best.alpha) + ", not the exact value"});
  }
  return out;
}

}  // namespace exactdp
