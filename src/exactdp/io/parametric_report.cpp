#include "exactdp/io/parametric_report.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/io/check_report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

namespace exactdp {

namespace {

/// The first line of a `profile --parametric` text report and the blank line after it.
std::string profile_heading(const parametric::ParametricGame& g, unsigned horizon) {
  return "exactdp profile --parametric: " + g.name + " — every adaptive adversary up to horizon " + std::to_string(horizon) +
         ", for every " + g.parameter + " in " + g.range.to_string() + "\n\n";
}

/// "1 piece", "3 pieces", "1 pass", "2 passes": a count with its noun.
std::string counted(std::size_t n, const std::string& noun) {
  const bool plural = n != 1;
  const bool sibilant = noun.ends_with("s");
  return std::to_string(n) + " " + noun + (plural ? (sibilant ? "es" : "s") : "");
}

using json = nlohmann::ordered_json;

json algebraic(const parametric::RealAlgebraic& a) { return json::parse(a.to_json()); }

/// "δ = 0", "δ = r^3/10".
std::string delta_text(const ParametricSpec& spec, const ParametricClaimVerdict& v) {
  return "δ = " + v.delta_claim.to_string(spec.game.parameter);
}

/// The keys every parametric report starts with: the spec, its parameter and the parameter's range.
json header(const ParametricSpec& spec) {
  const auto& g = spec.game;
  json r;
  r["spec"] = spec.source;
  r["parameter"] = g.parameter;
  r["range"] = {{"lower", to_string(g.range.lower)}, {"upper", to_string(g.range.upper)},
                {"lower_open", g.range.lower_open}, {"upper_open", g.range.upper_open}};
  return r;
}

std::string proved_text(const ParametricSpec& spec, const ParametricClaimVerdict& v, const parametric::RationalFunction& lambda) {
  const auto& g = spec.game;
  std::ostringstream os;
  os << "for every " << g.parameter << " in " << g.range.to_string() << ", every adaptive adversary up to horizon " << v.decision.horizon
     << ": the claim λ = " << lambda.to_string(g.parameter) << " (" << delta_text(spec, v) << ", both directions) "
     << (v.verdict == Verdict::holds ? "holds" : "fails exactly on the failing intervals and holds elsewhere");
  return os.str();
}


/// Maximal runs of pieces of a piecewise δ with the same functions (δ⁰, δ¹, δ); a point piece joins
/// the run on its left (continuity), a leading point the run on its right. Each run: first and last
/// piece and the representative piece whose functions it reports.
struct DeltaRun {
  std::size_t first, last, rep;
};
std::vector<DeltaRun> delta_runs(const parametric::PiecewiseDelta& w) {
  std::vector<DeltaRun> out;
  const auto& p = w.partition.pieces;
  auto same = [&](std::size_t a, std::size_t b) {
    return w.delta[a] == w.delta[b] && w.directional[a][0] == w.directional[b][0] && w.directional[a][1] == w.directional[b][1];
  };
  for (std::size_t k = 0; k < p.size(); ++k) {
    if (out.empty()) {
      out.push_back({k, k, k});
      continue;
    }
    DeltaRun& run = out.back();
    if (p[k].is_point()) {
      run.last = k;
      continue;
    }
    if (p[run.rep].is_point()) {  // a run holding only a leading point takes this piece's functions
      run.last = k;
      run.rep = k;
      continue;
    }
    if (same(run.rep, k)) run.last = k;
    else out.push_back({k, k, k});
  }
  return out;
}

json delta_pieces_json(const ParametricSpec& spec, const parametric::PiecewiseDelta& w, const std::vector<ParametricDeltaSample>&) {
  const std::string& x = spec.game.parameter;
  json pieces = json::array();
  for (const auto& run : delta_runs(w)) {
    const auto& a = w.partition.pieces[run.first];
    const auto& b = w.partition.pieces[run.last];
    const auto& sample = w.partition.pieces[run.rep].sample;
    pieces.push_back({{"lower", algebraic(a.lower)}, {"upper", algebraic(b.upper)}, {"lower_closed", a.lower_closed},
                      {"upper_closed", b.upper_closed}, {"delta", w.delta[run.rep].to_string(x)},
                      {"delta_forward", w.directional[run.rep][0].to_string(x)}, {"delta_backward", w.directional[run.rep][1].to_string(x)},
                      {"sample", sample ? json(to_string(*sample)) : json(nullptr)},
                      {"delta_at_sample", sample ? json(to_string(w.delta[run.rep].evaluate(*sample))) : json(nullptr)}});
  }
  return pieces;
}

json delta_checks_json(const std::vector<ParametricDeltaSample>& checks) {
  json out = json::array();
  for (const auto& c : checks)
    out.push_back({{"value", to_string(c.value)}, {"lambda", to_string(c.lambda)}, {"delta_forward", to_string(c.forward)},
                   {"delta_backward", to_string(c.backward)}});
  return out;
}

std::string delta_pieces_text(const ParametricSpec& spec, const parametric::PiecewiseDelta& w) {
  const std::string& x = spec.game.parameter;
  std::ostringstream os;
  for (const auto& run : delta_runs(w)) {
    const auto& a = w.partition.pieces[run.first];
    const auto& b = w.partition.pieces[run.last];
    parametric::Piece merged{a.lower, b.upper, a.lower_closed, b.upper_closed, std::nullopt};
    os << "  " << x << " in " << merged.to_string(x) << ":  " << w.delta[run.rep].to_string(x);
    if (!(w.directional[run.rep][0] == w.directional[run.rep][1]))
      os << "   (world 0 vs 1: " << w.directional[run.rep][0].to_string(x) << "; world 1 vs 0: " << w.directional[run.rep][1].to_string(x)
         << ")";
    os << "\n";
  }
  return os.str();
}
}  // namespace

std::string parametric_check_json(const ParametricSpec& spec, const parametric::RationalFunction& lambda,
                                  const ParametricCheckOptions& options, const ParametricClaimVerdict& v) {
  const auto& g = spec.game;
  json r = header(spec);
  r["claim"] = {{"lambda", lambda.to_string(g.parameter)}, {"delta", v.delta_claim.to_string(g.parameter)}};
  r["horizon"] = v.decision.horizon;
  r["adversary"] = "adaptive";
  r["verdict"] = to_string(v.verdict);
  r["proved"] = proved_text(spec, v, lambda);
  json pieces = json::array();
  const auto& p = v.decision.partition.pieces;
  for (std::size_t k = 0; k < p.size(); ++k)
    pieces.push_back({{"lower", algebraic(p[k].lower)}, {"upper", algebraic(p[k].upper)}, {"lower_closed", p[k].lower_closed},
                      {"upper_closed", p[k].upper_closed}, {"sample", p[k].sample ? json(to_string(*p[k].sample)) : json(nullptr)},
                      {"holds", static_cast<bool>(v.decision.holds[k])}});
  r["pieces"] = pieces;
  json failing = json::array();
  for (std::size_t i = 0; i < v.decision.failing.size(); ++i) {
    const auto& f = v.decision.failing[i];
    json samples = json::array();
    for (const auto& s : f.samples) samples.push_back(to_string(s));
    json e = {{"lower", algebraic(f.lower)}, {"upper", algebraic(f.upper)}, {"lower_closed", f.lower_closed},
              {"upper_closed", f.upper_closed}, {"samples", samples}};
    if (i < v.witnesses.size()) {
      const auto& w = v.witnesses[i];
      GameClaim claim;
      claim.lambda = w.lambda;
      claim.delta = v.delta_claim.evaluate(w.value);
      e["witness"] = json::parse(check_report_json(w.game, spec.source + " at " + g.parameter + " = " + to_string(w.value),
                                                   claim, options.numeric, w.numeric, false));
      e["witness"]["parameter_value"] = to_string(w.value);
    }
    failing.push_back(e);
  }
  r["failing"] = failing;
  json cross = json::array();
  for (const auto& c : v.cross_checks)
    cross.push_back({{"value", to_string(c.value)}, {"lambda", to_string(c.lambda)}, {"verdict", to_string(c.numeric.verdict)}});
  r["cross_checks"] = cross;
  if (v.worst_delta) {
    r["worst_delta"] = delta_pieces_json(spec, *v.worst_delta, v.delta_checks);
    r["delta_checks"] = delta_checks_json(v.delta_checks);
  }
  r["stats"] = {{"nodes", v.decision.nodes}, {"view_pairs", v.decision.view_pairs}, {"functions", v.decision.functions},
                {"irreducible_factors", v.decision.partition.distinct_factors}};
  if (v.worst_delta) r["stats"]["passes"] = v.worst_delta->passes;
  return r.dump();
}

std::string parametric_check_text(const ParametricSpec& spec, const parametric::RationalFunction& lambda,
                                  const ParametricCheckOptions& options, const ParametricClaimVerdict& v) {
  const auto& g = spec.game;
  const std::string x = g.parameter;
  std::ostringstream os;
  if (v.verdict == Verdict::holds) {
    os << "HOLDS for every " << x << " in " << g.range.to_string() << ": the mechanism is λ(" << x << ")-DP with λ = "
       << lambda.to_string(x) << " (" << delta_text(spec, v) << ", both directions) against every adaptive adversary up to horizon " << v.decision.horizon << ".\n";
  } else {
    os << "REFUTED for some " << x << " in " << g.range.to_string() << ": the claim λ = " << lambda.to_string(x)
       << " (" << delta_text(spec, v) << ") fails exactly for " << x << " in\n";
    for (const auto& f : v.decision.failing) os << "  " << f.to_string(x) << "\n";
    const bool some_hold = std::find(v.decision.holds.begin(), v.decision.holds.end(), true) != v.decision.holds.end();
    os << (some_hold ? "and holds for every other " + x + " of the range" : std::string("(the whole range)")) << " (adaptive adversaries, horizon "
       << v.decision.horizon << ").\n";
  }
  if (v.worst_delta) {
    os << "\nWorst δ(λ(" << x << ")) over adaptive adversaries (max of both directions), exact on each piece:\n"
       << delta_pieces_text(spec, *v.worst_delta);
    os << "\nProof: parametric backward induction (BI-δ) over " << v.decision.nodes << " inner game nodes (" << v.decision.view_pairs
       << " transcript pairs up to a positive factor and order); " << v.decision.functions << " distinct functions compared (leaf terms, actions' values, δ⁰ − δ¹, δ − δ^b), signs decided on "
       << counted(v.decision.partition.pieces.size(), "piece") << " after " << counted(v.worst_delta->passes, "pass")
       << " of refinement (certified real-root isolation of " << counted(v.decision.partition.distinct_factors, "irreducible factor")
       << "; docs/parametric.md).\n";
  } else {
    os << "\nProof: " << v.decision.view_pairs << " distinct transcript probability pairs (P₀, P₁) (up to a positive factor and order), " << v.decision.functions
       << " distinct functions λ·P₁ − P₀ and λ·P₀ − P₁, signs decided on " << counted(v.decision.partition.pieces.size(), "piece")
       << " of the range (certified real-root isolation of " << counted(v.decision.partition.distinct_factors, "irreducible factor")
       << "; docs/parametric.md).\n";
  }
  const auto& p = v.decision.partition.pieces;
  if (p.size() > 25) os << "Pieces: " << p.size() << " (listed by --json); the failing intervals above are their union where the claim fails.\n";
  else os << "Pieces:\n";
  for (std::size_t k = 0; k < p.size() && p.size() <= 25; ++k)
    os << "  " << p[k].to_string(x) << (p[k].sample && !p[k].is_point() ? "  (sample " + to_string(*p[k].sample) + ")" : "")
       << ": " << (v.decision.holds[k] ? "holds" : "FAILS") << "\n";
  for (std::size_t i = 0; i < v.witnesses.size(); ++i) {
    const auto& w = v.witnesses[i];
    os << "\nWitness at " << x << " = " << to_string(w.value) << " (λ = " << to_string(w.lambda) << "): the worst adversary reaches δ = "
       << to_string(w.numeric.delta()) << " > " << to_string(v.delta_claim.evaluate(w.value)) << "\n";
    if (w.numeric.witness) os << witness_heading(w.numeric, v.delta_claim.evaluate(w.value)) << "\n" << w.numeric.witness->describe(w.game) << "\n";
  }
  if (!v.delta_checks.empty()) {
    os << "\nCross-check: the numeric engine's δ⁰, δ¹ equal the pieces' functions exactly at " << x << " =";
    for (const auto& c : v.delta_checks) os << " " << to_string(c.value);
    os << ".\n";
  }
  if (!v.cross_checks.empty()) {
    os << "\nCross-check: the numeric engine confirms the claim at " << x << " =";
    for (const auto& c : v.cross_checks) os << " " << to_string(c.value);
    os << ".\n";
  }
  (void)options;
  return os.str();
}

namespace {

/// Maximal runs of pieces with the same largest candidate: (first piece, last piece).
std::vector<std::pair<std::size_t, std::size_t>> runs(const parametric::PiecewiseRatio& ratio) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t k = 0; k < ratio.best.size(); ++k) {
    if (!out.empty() && ratio.best[out.back().second] == ratio.best[k]) out.back().second = k;
    else out.push_back({k, k});
  }
  return out;
}

/// A rational sample of a run: the first open piece's sample, or the point's value.
std::optional<Rational> run_sample(const parametric::PiecewiseRatio& ratio, std::pair<std::size_t, std::size_t> run) {
  for (std::size_t k = run.first; k <= run.second; ++k)
    if (!ratio.partition.pieces[k].is_point() && ratio.partition.pieces[k].sample) return ratio.partition.pieces[k].sample;
  return ratio.partition.pieces[run.first].sample;
}

}  // namespace

std::string parametric_ratio_json(const ParametricSpec& spec, const parametric::PiecewiseRatio& ratio) {
  const auto& g = spec.game;
  json r = header(spec);
  r["horizon"] = ratio.horizon;
  r["adversary"] = "adaptive";
  r["infinite"] = ratio.infinite;
  json pieces = json::array();
  for (const auto& run : runs(ratio)) {
    const auto& a = ratio.partition.pieces[run.first];
    const auto& b = ratio.partition.pieces[run.second];
    const auto& f = ratio.candidates[ratio.best[run.first]];
    const auto sample = run_sample(ratio, run);
    pieces.push_back({{"lower", algebraic(a.lower)}, {"upper", algebraic(b.upper)}, {"lower_closed", a.lower_closed},
                      {"upper_closed", b.upper_closed}, {"ratio", f.to_string(g.parameter)},
                      {"sample", sample ? json(to_string(*sample)) : json(nullptr)},
                      {"ratio_at_sample", sample ? json(to_string(f.evaluate(*sample))) : json(nullptr)}});
  }
  r["pieces"] = pieces;
  r["stats"] = {{"nodes", ratio.nodes}, {"view_pairs", ratio.view_pairs}, {"candidates", ratio.candidates.size()},
                {"comparisons", ratio.comparisons}, {"intervals", ratio.intervals},
                {"irreducible_factors", ratio.partition.distinct_factors}};
  return r.dump();
}

std::string parametric_ratio_text(const ParametricSpec& spec, const parametric::PiecewiseRatio& ratio) {
  const auto& g = spec.game;
  const std::string x = g.parameter;
  std::ostringstream os;
  os << "exactdp profile --parametric: " << g.name << " — every adaptive adversary up to horizon " << ratio.horizon << ", for every "
     << x << " in " << g.range.to_string() << "\n\n";
  if (ratio.infinite) {
    os << "Pure DP: worst likelihood ratio +inf (a view is possible in one world and impossible in the other, for every " << x
       << " of the range but finitely many)\n";
    return os.str();
  }
  os << "Pure DP: worst likelihood ratio (max over adversaries, views and both directions), exact on each piece:\n";
  for (const auto& run : runs(ratio)) {
    const auto& a = ratio.partition.pieces[run.first];
    const auto& b = ratio.partition.pieces[run.second];
    parametric::Piece merged{a.lower, b.upper, a.lower_closed, b.upper_closed, std::nullopt};
    os << "  " << x << " in " << merged.to_string(x) << ":  " << ratio.candidates[ratio.best[run.first]].to_string(x) << "\n";
  }
  os << "\nProof: " << ratio.view_pairs << " distinct transcript probability pairs (up to a positive factor and order), "
     << ratio.candidates.size() << " distinct candidate ratios; their upper envelope (docs/parametric.md): comparisons "
     << ratio.comparisons << ", rational sub-intervals " << ratio.intervals << ", irreducible factors isolated "
     << ratio.partition.distinct_factors << ", pieces " << ratio.partition.pieces.size()
     << " (exact values, Descartes' rule of signs, certified real-root isolation).\n";
  return os.str();
}

}  // namespace exactdp

namespace exactdp {

std::string parametric_delta_json(const ParametricSpec& spec, const ParametricDeltaProfile& profile) {
  const auto& g = spec.game;
  const auto& w = profile.worst;
  json r = header(spec);
  r["lambda"] = w.lambda.to_string(g.parameter);
  r["horizon"] = w.horizon;
  r["adversary"] = "adaptive";
  r["pieces"] = delta_pieces_json(spec, w, profile.checks);
  r["cross_checks"] = delta_checks_json(profile.checks);
  r["stats"] = {{"nodes", w.nodes}, {"view_pairs", w.view_pairs}, {"leaves", w.leaves}, {"functions", w.functions}, {"pieces", w.partition.pieces.size()},
                {"passes", w.passes}, {"irreducible_factors", w.partition.distinct_factors}};
  return r.dump();
}

std::string parametric_delta_text(const ParametricSpec& spec, const ParametricDeltaProfile& profile) {
  const auto& g = spec.game;
  const auto& w = profile.worst;
  const std::string x = g.parameter;
  std::ostringstream os;
  os << profile_heading(g, w.horizon);
  os << "Approximate DP at λ = " << w.lambda.to_string(x) << ": worst δ(λ(" << x
     << ")) (max over adversaries and both directions), exact on each piece:\n"
     << delta_pieces_text(spec, w);
  os << "\nProof: parametric backward induction (BI-δ) over " << w.nodes << " inner game nodes (" << w.view_pairs
     << " transcript pairs up to a positive factor and order); " << w.functions
     << " distinct functions compared, signs decided on " << counted(w.partition.pieces.size(), "piece") << " after "
     << counted(w.passes, "pass") << " of refinement (certified real-root isolation of "
     << counted(w.partition.distinct_factors, "irreducible factor") << "; docs/parametric.md).\n";
  if (!profile.checks.empty()) {
    os << "Cross-check: the numeric engine's δ⁰, δ¹ equal the pieces' functions exactly at " << x << " =";
    for (const auto& c : profile.checks) os << " " << to_string(c.value);
    os << ".\n";
  }
  return os.str();
}

}  // namespace exactdp

namespace exactdp {

parametric::RationalFunction read_parametric_expression(const ParametricSpec& spec, const std::string& text, const std::string& field) {
  try {
    return parametric::parse_rational_function(text, spec.game.parameter, field);
  } catch (const Error& e) {
    throw Error(field, "", text, e.why());
  }
}

std::pair<ParametricClaimVerdict, parametric::RationalFunction> check_parametric_claim(
    const ParametricSpec& spec, const std::string& parameter, const std::string& lambda, const std::string& epsilon, const std::string& delta,
    const ParametricCheckOptions& options, const ParametricClaimFields& fields) {
  if (!epsilon.empty())
    throw Error(fields.epsilon, "", epsilon,
                "for every value of a parameter, write the claim as " + fields.lambda + " (λ = e^ε as a function of the parameter)");
  if (lambda.empty()) throw Error(fields.lambda, "", "", "a claim for every value needs " + fields.lambda + ", an expression in the parameter");
  if (parameter != spec.game.parameter) throw Error(fields.for_all, "", parameter, "the spec's parameter is `" + spec.game.parameter + "`");
  const parametric::RationalFunction l = read_parametric_expression(spec, lambda, fields.lambda);
  const parametric::RationalFunction d = delta.empty() ? parametric::RationalFunction() : read_parametric_expression(spec, delta, fields.delta);
  ParametricClaimVerdict v = check_approximate_dp_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, l, d, options);
  return {std::move(v), l};
}

std::string parametric_profile_report(const ParametricSpec& spec, const std::string& lambda, unsigned horizon, bool cross_check, bool json,
                                      const std::string& lambda_field) {
  if (!lambda.empty()) {
    const parametric::RationalFunction l = read_parametric_expression(spec, lambda, lambda_field);
    const auto profile = worst_case_delta_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, l, horizon, cross_check);
    return json ? parametric_delta_json(spec, profile) : parametric_delta_text(spec, profile);
  }
  const auto ratio = parametric::worst_case_ratio_for_all(spec.game, horizon ? horizon : spec.game.horizon);
  return json ? parametric_ratio_json(spec, ratio) : parametric_ratio_text(spec, ratio);
}

}  // namespace exactdp

namespace exactdp {

namespace {

/// Maximal runs of pieces of a piecewise Rényi moment with the same functions (W⁰, W¹, max). Unlike
/// δ, the moment need not be continuous where a view's mass vanishes (+∞ at that point only), so a
/// point piece joins a neighbour only when its functions are the same.
std::vector<std::pair<std::size_t, std::size_t>> renyi_runs(const parametric::PiecewiseRenyiMoment& w) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  auto same = [&](std::size_t a, std::size_t b) {
    return w.moment[a] == w.moment[b] && w.directional[a][0] == w.directional[b][0] && w.directional[a][1] == w.directional[b][1];
  };
  for (std::size_t k = 0; k < w.partition.pieces.size(); ++k) {
    if (!out.empty() && same(out.back().second, k)) out.back().second = k;
    else out.push_back({k, k});
  }
  return out;
}

/// The sample of a run: the first of its pieces' samples in @p samples (std::nullptr when none).
const ParametricRenyiSample* renyi_run_sample(const ParametricRenyiProfile& profile, std::pair<std::size_t, std::size_t> run) {
  for (const auto& s : profile.samples)
    if (s.piece >= run.first && s.piece <= run.second && !profile.worst.partition.pieces[s.piece].is_point()) return &s;
  for (const auto& s : profile.samples)
    if (s.piece >= run.first && s.piece <= run.second) return &s;
  return nullptr;
}

std::string extended_text(const ExtendedRational& v) { return v.is_infinite() ? "inf" : to_string(v.value()); }

}  // namespace

std::string parametric_renyi_json(const ParametricSpec& spec, const ParametricRenyiProfile& profile) {
  const auto& g = spec.game;
  const auto& w = profile.worst;
  json r = header(spec);
  r["alpha"] = w.alpha;
  r["horizon"] = w.horizon;
  r["adversary"] = "adaptive";
  json pieces = json::array();
  for (const auto& run : renyi_runs(w)) {
    const auto& a = w.partition.pieces[run.first];
    const auto& b = w.partition.pieces[run.second];
    const ParametricRenyiSample* s = renyi_run_sample(profile, run);
    json piece = {{"lower", algebraic(a.lower)},
                  {"upper", algebraic(b.upper)},
                  {"lower_closed", a.lower_closed},
                  {"upper_closed", b.upper_closed},
                  {"moment", w.moment[run.first].to_string(g.parameter)},
                  {"moment_forward", w.directional[run.first][0].to_string(g.parameter)},
                  {"moment_backward", w.directional[run.first][1].to_string(g.parameter)},
                  {"sample", s ? json(to_string(s->value)) : json(nullptr)},
                  {"moment_at_sample", s ? json(extended_text(std::max(s->forward, s->backward))) : json(nullptr)},
                  {"divergence_at_sample", s ? json::array({s->divergence.lower_string(), s->divergence.upper_string()}) : json(nullptr)}};
    pieces.push_back(std::move(piece));
  }
  r["pieces"] = pieces;
  json checks = json::array();
  for (const auto& s : profile.samples)
    if (s.numeric_checked)
      checks.push_back({{"value", to_string(s.value)}, {"moment_forward", extended_text(s.forward)}, {"moment_backward", extended_text(s.backward)}});
  r["cross_checks"] = checks;
  r["stats"] = {{"nodes", w.nodes}, {"leaves", w.leaves}, {"functions", w.functions}, {"pieces", w.partition.pieces.size()},
                {"passes", w.passes}, {"irreducible_factors", w.partition.distinct_factors}};
  return r.dump();
}

std::string parametric_renyi_text(const ParametricSpec& spec, const ParametricRenyiProfile& profile) {
  const auto& g = spec.game;
  const auto& w = profile.worst;
  const std::string x = g.parameter;
  std::ostringstream os;
  os << profile_heading(g, w.horizon);
  os << "Rényi moment at α = " << w.alpha << ": sup Φ_" << w.alpha << " = Σ P⁰^α·P¹^(1−α) (max over adversaries and both directions), exact on each piece;\n"
     << "D_" << w.alpha << " = ln Φ/(α−1) at the piece's sample, certified:\n";
  for (const auto& run : renyi_runs(w)) {
    const auto& a = w.partition.pieces[run.first];
    const auto& b = w.partition.pieces[run.second];
    parametric::Piece merged{a.lower, b.upper, a.lower_closed, b.upper_closed, std::nullopt};
    os << "  " << x << " in " << merged.to_string(x) << ":  " << w.moment[run.first].to_string(x);
    if (const ParametricRenyiSample* s = renyi_run_sample(profile, run))
      os << "    (at " << x << " = " << to_string(s->value) << ": Φ = " << extended_text(std::max(s->forward, s->backward)) << ", D_" << w.alpha
         << " in " << s->divergence.to_string(6) << ")";
    os << "\n";
  }
  os << "\nProof: parametric backward induction (BI-Rényi, THEOREMS.md B.4) over " << w.nodes << " inner game nodes; " << w.functions
     << " distinct functions compared, signs decided on " << counted(w.partition.pieces.size(), "piece") << " after "
     << counted(w.passes, "pass") << " of refinement (certified real-root isolation of "
     << counted(w.partition.distinct_factors, "irreducible factor") << "; docs/parametric.md).\n";
  bool any = false;
  for (const auto& s : profile.samples)
    if (s.numeric_checked) {
      if (!any) os << "Cross-check: the numeric engine's moments (both directions) equal the pieces' functions exactly at " << x << " =";
      any = true;
      os << " " << to_string(s.value);
    }
  if (any) os << ".\n";
  return os.str();
}

std::string parametric_renyi_report(const ParametricSpec& spec, const std::string& alpha, unsigned horizon, bool cross_check, bool json,
                                    const std::string& alpha_field) {
  Rational a;
  try {
    a = parse_rational(alpha);
  } catch (const Error& e) {
    throw Error(alpha_field, "", alpha, e.why());
  }
  if (a.get_den() != 1)
    throw Error(alpha_field, "", alpha,
                "a Rényi order for every value of a parameter must be an integer ≥ 2: for a non-integer α the moment Φ_α is not a "
                "rational function of " + spec.game.parameter + " (compute it at a rational value with the numeric profile)");
  if (a < 2 || a > 1000) throw Error(alpha_field, "", alpha, "the Rényi order must be an integer between 2 and 1000");
  const auto profile = worst_case_renyi_moment_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); },
                                                       a.get_num().get_ui(), horizon, cross_check);
  return json ? parametric_renyi_json(spec, profile) : parametric_renyi_text(spec, profile);
}

namespace {

/// The pieces of a Rényi claim's decision (as the δ claim's: every piece, whether it holds).
json decision_pieces_json(const parametric::PureForAllResult& d) {
  json pieces = json::array();
  const auto& p = d.partition.pieces;
  for (std::size_t k = 0; k < p.size(); ++k)
    pieces.push_back({{"lower", algebraic(p[k].lower)}, {"upper", algebraic(p[k].upper)}, {"lower_closed", p[k].lower_closed},
                      {"upper_closed", p[k].upper_closed}, {"sample", p[k].sample ? json(to_string(*p[k].sample)) : json(nullptr)},
                      {"holds", static_cast<bool>(d.holds[k])}});
  return pieces;
}

std::string renyi_claim_text(const ParametricSpec& spec, const ParametricRenyiClaimVerdict& v) {
  return "sup Φ_" + std::to_string(v.alpha) + " ≤ M = " + v.bound.to_string(spec.game.parameter) + ", i.e. D_" + std::to_string(v.alpha) +
         " ≤ ln M" + (v.alpha == 2 ? std::string() : "/" + std::to_string(v.alpha - 1));
}

}  // namespace

std::string parametric_renyi_check_json(const ParametricSpec& spec, const ParametricRenyiClaimVerdict& v) {
  const auto& g = spec.game;
  json r = header(spec);
  r["claim"] = {{"renyi_alpha", v.alpha}, {"renyi_moment", v.bound.to_string(g.parameter)}};
  r["horizon"] = v.decision.horizon;
  r["adversary"] = "adaptive";
  r["verdict"] = to_string(v.verdict);
  r["proved"] = "for every " + g.parameter + " in " + g.range.to_string() + ", every adaptive adversary up to horizon " +
                std::to_string(v.decision.horizon) + ": the claim " + renyi_claim_text(spec, v) + " (both directions) " +
                (v.verdict == Verdict::holds ? "holds" : "fails exactly on the failing intervals and holds elsewhere");
  r["pieces"] = decision_pieces_json(v.decision);
  json failing = json::array();
  for (const auto& f : v.decision.failing) {
    json samples = json::array();
    for (const auto& s : f.samples) samples.push_back(to_string(s));
    json e = {{"lower", algebraic(f.lower)}, {"upper", algebraic(f.upper)}, {"lower_closed", f.lower_closed},
              {"upper_closed", f.upper_closed}, {"samples", samples}};
    for (const auto& w : v.witnesses)
      if (!f.samples.empty() && w.value == f.samples.front())
        e["witness"] = {{"parameter_value", to_string(w.value)},
                        {"bound", to_string(w.bound)},
                        {"moment_forward", extended_text(w.forward)},
                        {"moment_backward", extended_text(w.backward)},
                        {"divergence", json::array({w.divergence.lower_string(), w.divergence.upper_string()})},
                        {"claimed_divergence", json::array({w.claimed.lower_string(), w.claimed.upper_string()})}};
    failing.push_back(std::move(e));
  }
  r["failing"] = failing;
  json worst = json::parse(parametric_renyi_json(spec, v.worst));
  r["worst_moment"] = worst["pieces"];
  r["cross_checks"] = worst["cross_checks"];
  r["stats"] = {{"nodes", v.worst.worst.nodes}, {"leaves", v.worst.worst.leaves}, {"functions", v.decision.functions},
                {"pieces", v.decision.partition.pieces.size()}, {"passes", v.worst.worst.passes},
                {"irreducible_factors", v.decision.partition.distinct_factors}};
  return r.dump();
}

std::string parametric_renyi_check_text(const ParametricSpec& spec, const ParametricRenyiClaimVerdict& v) {
  const auto& g = spec.game;
  const std::string x = g.parameter;
  const auto& w = v.worst.worst;
  std::ostringstream os;
  if (v.verdict == Verdict::holds) {
    os << "HOLDS for every " << x << " in " << g.range.to_string() << ": " << renyi_claim_text(spec, v)
       << " (both directions) against every adaptive adversary up to horizon " << v.decision.horizon << ".\n";
  } else {
    os << "REFUTED for some " << x << " in " << g.range.to_string() << ": the claim " << renyi_claim_text(spec, v) << " fails exactly for "
       << x << " in\n";
    for (const auto& f : v.decision.failing) os << "  " << f.to_string(x) << "\n";
    const bool some_hold = std::find(v.decision.holds.begin(), v.decision.holds.end(), true) != v.decision.holds.end();
    os << (some_hold ? "and holds for every other " + x + " of the range" : std::string("(the whole range)"))
       << " (adaptive adversaries, horizon " << v.decision.horizon << ").\n";
  }
  os << "\nWorst Rényi moment sup Φ_" << v.alpha << " over adaptive adversaries (max of both directions), exact on each piece:\n";
  for (const auto& run : renyi_runs(w)) {
    const auto& a = w.partition.pieces[run.first];
    const auto& b = w.partition.pieces[run.second];
    parametric::Piece merged{a.lower, b.upper, a.lower_closed, b.upper_closed, std::nullopt};
    os << "  " << x << " in " << merged.to_string(x) << ":  " << w.moment[run.first].to_string(x) << "\n";
  }
  os << "\nProof: parametric backward induction (BI-Rényi, THEOREMS.md B.4) over " << w.nodes << " inner game nodes; " << v.decision.functions
     << " distinct functions compared (leaf masses, actions' values, W⁰ − W¹, M − W^b), signs decided on "
     << counted(v.decision.partition.pieces.size(), "piece") << " after " << counted(w.passes, "pass")
     << " of refinement (certified real-root isolation of " << counted(v.decision.partition.distinct_factors, "irreducible factor")
     << "; docs/parametric.md).\n";
  for (const auto& wit : v.witnesses)
    os << "\nWitness at " << x << " = " << to_string(wit.value) << ": the numeric engine's worst moments are Φ = "
       << extended_text(wit.forward) << " (world 0 vs 1) and " << extended_text(wit.backward) << " (world 1 vs 0); max > M = "
       << to_string(wit.bound) << " (D_" << v.alpha << " in " << wit.divergence.to_string(6) << " > " << wit.claimed.to_string(6) << ").\n";
  bool any = false;
  for (const auto& s : v.worst.samples)
    if (s.numeric_checked) {
      if (!any) os << "\nCross-check: the numeric engine's moments (both directions) equal the pieces' functions exactly at " << x << " =";
      any = true;
      os << " " << to_string(s.value);
    }
  if (any) os << ".\n";
  return os.str();
}

ParametricRenyiClaimVerdict check_parametric_renyi_claim(const ParametricSpec& spec, const std::string& parameter,
                                                                                  const std::string& alpha, const std::string& moment,
                                                                                  const std::string& epsilon, const ParametricCheckOptions& options,
                                                                                  const ParametricRenyiFields& fields) {
  if (!epsilon.empty())
    throw Error(fields.epsilon, "", epsilon,
                "for every value of a parameter, write the Rényi claim as " + fields.moment +
                    " EXPR, the bound M on the moment Φ_α = e^((α−1)·D_α) as a function of the parameter (then D_α ≤ ln M/(α − 1)); "
                    "a bound on D_α itself is not a rational function of the parameter");
  if (moment.empty()) throw Error(fields.moment, "", "", "a Rényi claim for every value needs " + fields.moment + ", an expression in the parameter");
  if (parameter != spec.game.parameter) throw Error(fields.for_all, "", parameter, "the spec's parameter is `" + spec.game.parameter + "`");
  Rational a;
  try {
    a = parse_rational(alpha);
  } catch (const Error& e) {
    throw Error(fields.alpha, "", alpha, e.why());
  }
  if (a.get_den() != 1)
    throw Error(fields.alpha, "", alpha,
                "a Rényi claim for every value of a parameter needs an integer order ≥ 2: for a non-integer α the moment Φ_α is not a "
                "rational function of " + spec.game.parameter + " (check it at a rational value with the numeric engine)");
  if (a < 2 || a > 1000) throw Error(fields.alpha, "", alpha, "the Rényi order must be an integer between 2 and 1000");
  const parametric::RationalFunction m = read_parametric_expression(spec, moment, fields.moment);
  try {
    return check_renyi_moment_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, a.get_num().get_ui(), m, options);
  } catch (const Error& e) {
    if (e.where() != "--renyi-moment" || fields.moment == "--renyi-moment") throw;
    throw Error(fields.moment, e.field(), e.value(), e.why());  // the library names the command line's flag
  }
}

}  // namespace exactdp
