#include "exactdp/accounting/audit.hpp"
#include "exactdp/accounting/composition_query.hpp"

#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/amplification/poisson.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/numeric/decide.hpp"

#include <algorithm>
#include <memory>

namespace exactdp {
namespace {

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
  ExtendedRational lambda = least_lambda(profile, r.claim.given, r.claim.direction);
  if (lambda.is_infinite()) {
    r.truth = {std::nullopt, true, Interval::infinity(options.start)};
    r.verdict = Verdict::refuted;
    return;
  }
  r.true_lambda = lambda.value();
  // unsound ⇔ claimed ε < ln λ
  Decision d = decide_log(lambda.value(), Relation::greater, r.claim.claimed, exact_decision);
  r.precision = d.precision;
  const Precision p = std::max(options.start, d.precision);
  if (lambda.value() == 1) r.truth = exact_value(Rational(0), p);
  else r.truth = certified_value(log(Interval(lambda.value(), p)));
  r.verdict = d.outcome == Tri::yes ? Verdict::refuted : d.outcome == Tri::no ? Verdict::holds : Verdict::undecided;
}

void audit_exact_delta(ClaimResult& r, const PrivacyProfile& profile, const AuditOptions& options) {
  const PiecewiseLinear f = directional_curve(profile, r.claim.direction);
  const Rational& eps = r.claim.given;
  const Rational& claimed = r.claim.claimed;
  if (sgn(eps) == 0) {
    r.truth = exact_value(f(Rational(1)), options.start);
    r.verdict = claimed < *r.truth.exact ? Verdict::refuted : Verdict::holds;
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
    r.verdict = claimed < a ? Verdict::refuted : Verdict::holds;
    return;
  }
  // unsound ⇔ claimed < a + s·e^ε ⇔ e^ε < (claimed − a)/s when s < 0 (> when s > 0)
  Decision d = decide_exp(eps, sgn(s) < 0 ? Relation::less : Relation::greater, (claimed - a) / s, exact_decision);
  r.precision = std::max(used, d.precision);
  const Precision p = std::max(options.start, r.precision);
  r.truth = certified_value(Interval(a, p) + Interval(s, p) * exp(Interval(eps, p)));
  r.verdict = d.outcome == Tri::yes ? Verdict::refuted : d.outcome == Tri::no ? Verdict::holds : Verdict::undecided;
}

/// The key of a claim's composition (its components, their uses and the sampling): claims that
/// share it — one accountant's answers at several δ or ε — share the composed law.
std::string composition_key(const Claim& c) {
  std::string key = c.sampling + "|";
  for (const auto& comp : c.components) key += comp.spec.to_string() + "*" + std::to_string(comp.times) + ";";
  return key;
}

/// What one audit_claims call shares between its claims: the query of the last composition audited.
/// Consecutive claims on one composition (one accountant's answers at several δ or ε) ask it, and so
/// share its laws (the first, and the last refined one). Only the last composition is kept — an
/// exact 10 000-fold composition can hold gigabytes of digits — and only for one audit_claims call.
class AuditCache {
 public:
  const CompositionQuery* find(const std::string& key) const { return query_ && key == key_ ? query_.get() : nullptr; }
  const CompositionQuery& put(const std::string& key, std::unique_ptr<CompositionQuery> query) {
    query_.reset();  // release the old laws before the new ones are built
    key_ = key;
    query_ = std::move(query);
    return *query_;
  }

 private:
  std::string key_;
  std::unique_ptr<CompositionQuery> query_;
};

/// The components of a claim's composition for the planner, assembled as every front end's are
/// (composition_components): a Poisson-subsampled mechanism with exact tables becomes its subsampled
/// pair (poisson.hpp), a subsampled Gaussian or Laplace mechanism keeps its rate (a grid bracket or
/// a closed form answers it). The claim is already on its analysed pairs (replace-one applied).
std::vector<CompositionComponent> components_of(const Claim& c) {
  CompositionRequest request;
  for (const auto& comp : c.components) {
    ComponentRequest r;
    r.source = comp.mechanism;
    r.spec = comp.spec;
    r.times = comp.times;
    r.sampling_rate = c.sampling_rate;
    request.components.push_back(std::move(r));
  }
  request.names.where = "audit";
  request.names.what = c.id + "/mechanism";
  request.names.times = c.id + "/times";
  request.names.sampling = c.id + "/sampling";
  return composition_components(request);
}

/// The refinement of a claim's truth under @p options, in the composition query's terms: the
/// planner may run grid brackets (from grid_resolution_start, doubling up to grid_resolution_max,
/// no doubling once a law held more than half of grid_point_budget points, each law capped at
/// the larger of grid_max_points and the budget); certified routes double the precision from start
/// up to cap.
CompositionQueryOptions query_options(const Claim& c, const AuditOptions& options) {
  if (options.grid_resolution_start < 1 || options.grid_resolution_max < options.grid_resolution_start)
    throw Error("audit", "grid_resolution", std::to_string(options.grid_resolution_max),
                "the resolutions tried must satisfy 1 <= start <= max");
  CompositionQueryOptions q;
  q.plan = options.plan;
  q.plan.grid_brackets = true;
  q.plan.grid_resolution = options.grid_resolution_start;
  // a budget above the per-law cap raises the cap: otherwise every law is re-gridded coarser at the
  // cap and a larger --grid-points would buy time without a finer law
  q.plan.grid_max_points = std::max(options.grid_max_points, options.grid_point_budget);
  q.precision = options.start;
  q.max_precision = options.cap;
  q.precision_factor = 2;
  q.max_grid_resolution = options.grid_resolution_max;
  q.grid_point_budget = options.grid_point_budget;
  q.names.where = "audit";
  q.names.what = c.id + "/mechanism";
  q.names.times = c.id + "/times";
  q.names.sampling = c.id + "/sampling";
  return q;
}

/// The query of @p c's composition, shared with the previous claim when it has the same one.
const CompositionQuery& query_of(const Claim& c, const AuditOptions& options, AuditCache& cache) {
  const std::string key = composition_key(c);
  if (const CompositionQuery* q = cache.find(key)) return *q;
  return cache.put(key, std::make_unique<CompositionQuery>(components_of(c), query_options(c, options)));
}

/// Pure mechanisms (δ = 0 guarantee with an exact ε₀): k uses are exactly (k·ε₀, 0)-DP with
/// k·ε₀ the largest privacy loss, attained with positive probability (basic composition, tight).
/// So δ(ε) = 0 for ε ≥ k·ε₀ and the least ε at δ = 0 is k·ε₀ — true equalities that an
/// enclosure could never separate from a claim of exactly that value (decide.hpp). True when it
/// answered the claim exactly.
bool audit_pure(ClaimResult& r) {
  const Claim& c = r.claim;
  if (c.sampling_rate) return false;  // subsampling lowers the largest loss
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
  r.verdict = c.claimed < *r.truth.exact ? Verdict::refuted : Verdict::holds;
  return true;
}

/// Records the certified enclosure @p t of the truth in @p r and judges the claim against it:
/// refuted when the claim lies below the enclosure (or no finite value exists: the point +∞),
/// holds when it lies at or above the enclosure's upper end, else undecided. Returns whether the
/// claim is decided.
bool judge_enclosure(ClaimResult& r, const Interval& t) {
  if (!t.lower_is_finite()) {  // the point +∞: no finite value exists
    r.truth = {std::nullopt, true, t};
    r.verdict = Verdict::refuted;
    return true;
  }
  r.truth = certified_value(t);
  if (r.claim.claimed < t.lower()) r.verdict = Verdict::refuted;
  else if (t.upper_is_finite() && r.claim.claimed >= t.upper()) r.verdict = Verdict::holds;
  else r.verdict = Verdict::undecided;
  return r.verdict != Verdict::undecided;
}

/// The method line of a grid bracket: its grids and what it bracketed.
std::string grid_method(const Claim& c, const CompositionAnswer& a) {
  const GridBracket& b = *a.grid;
  std::string what;
  if (c.components.size() == 1) {
    what = continuous_pair(c.components.front().spec, c.sampling_rate.value_or(Rational(1)))->describe() + ", " +
           std::to_string(c.components.front().times) + " uses";
  } else {
    what = "a composition of " + std::to_string(c.components.size()) + " continuous mechanisms";
  }
  return "certified bracket: privacy-loss law split (upper) and merged (lower) onto grids of step " + to_string(b.step) + " to " +
         to_string(b.final_step) + " (resolution " + std::to_string(a.resolution) + ", " + std::to_string(b.points) +
         " points) for " + what;
}

/// The planner's certified route (or grid brackets), refined by the composition query until the
/// claim is decided (RefinementGoal::separates) or its limits are reached.
void audit_certified(ClaimResult& r, const CompositionQuery& query) {
  if (audit_pure(r)) return;
  const CompositionPlan& plan = query.plan();
  if (!plan.has_profile())
    throw Error("audit", r.claim.id, to_string(plan.route), "no exact or certified truth for this composition: " + plan.reason);
  const Claim& c = r.claim;
  const RefinementGoal decided = RefinementGoal::separates(c.claimed);
  const CompositionAnswer a = c.kind == Claim::Kind::epsilon_at_delta ? query.least_epsilon(c.given, c.direction, decided)
                                                                      : query.delta_at_epsilon(c.given, c.direction, decided);
  r.precision = a.precision;
  r.method = a.method;
  if (a.grid) {
    r.grid_step = a.grid->step;
    r.grid_resolution = a.resolution;
    r.method = grid_method(c, a);
  }
  judge_enclosure(r, a.value);
}

/// Answers @p claim on its components' own pairs (audit_claim_with passes the analysed claim).
ClaimResult audit_analysed(const Claim& claim, const AuditOptions& options, AuditCache& cache) {
  ClaimResult r{claim, Verdict::undecided, {}, std::nullopt, false, 0, "", std::nullopt, std::nullopt, std::nullopt, 0, {}};
  const CompositionQuery& query = query_of(claim, options, cache);
  if (query.plan().route == CompositionRoute::exact) {
    const ComposedPrivacy& law = query.composed();
    r.exact = true;
    r.method = law.method();
    if (claim.kind == Claim::Kind::epsilon_at_delta) audit_exact_epsilon(r, *law.exact_profile(), options);
    else audit_exact_delta(r, *law.exact_profile(), options);
  } else {
    audit_certified(r, query);
  }
  if (r.verdict != Verdict::undecided && !r.truth.infinite) set_slack(r, std::max(options.start, r.precision));
  return r;
}

ClaimResult audit_claim_with(const Claim& claim, const AuditOptions& options, AuditCache& cache) {
  if (options.start < min_precision || options.cap < options.start)
    throw Error("audit", "precision", std::to_string(options.start), "need min_precision <= start <= cap");
  Claim analysed = claim;
  analysed.components = analysed_components(claim);
  ClaimResult r = audit_analysed(analysed, options, cache);
  r.claim = claim;  // reported as written; the pairs analysed are listed beside it
  for (const auto& c : analysed.components) r.analysed.push_back(c.spec.to_string());
  return r;
}

}  // namespace

std::string neighbouring_of(const Claim& claim) { return claim.neighbouring == "replace-one" ? "replace-one" : "add-remove"; }

std::vector<ClaimComponent> analysed_components(const Claim& claim) {
  if (neighbouring_of(claim) != "replace-one") return claim.components;
  const std::string where = "claim " + claim.id;
  std::vector<ClaimComponent> out;
  for (std::size_t i = 0; i < claim.components.size(); ++i) {
    const ClaimComponent& c = claim.components[i];
    const CompositionComponent written{c.mechanism, c.spec, std::nullopt, c.times, std::nullopt};
    CompositionComponent replaced;
    try {
      replaced = replace_one(written, claim.sampling_rate, where);
    } catch (const Error& e) {
      // the subsampling refusal concerns the claim's relation; any other, this component's spec
      const bool sampled = claim.sampling_rate && *claim.sampling_rate != 1;
      const std::string pointer = claim.heterogeneous ? "/mechanisms/" + std::to_string(i) + "/mechanism" : "/mechanism";
      const std::string detail = e.field() == "sensitivity" ? " (doubled sensitivity " + e.value() + ")" : "";
      throw Error(where, sampled ? "/neighbouring" : pointer, sampled ? "replace-one" : c.mechanism,
                  "replace-one neighbouring is not defined here: " + e.why() + detail);
    }
    if (!replaced.spec)  // a rate of 0, which claims refuse before (poisson:q needs 0 < q <= 1)
      throw Error(where, "/sampling", claim.sampling, "replace-one at sampling rate 0 has no mechanism spec to audit");
    out.push_back({replaced.spec->to_string(), *replaced.spec, c.times});
  }
  return out;
}

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

}  // namespace exactdp
