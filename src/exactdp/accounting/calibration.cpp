#include "exactdp/accounting/calibration.hpp"

#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

namespace exactdp {
namespace {

const char* const where = "calibrate";

// Why more noise is a post-processing of less noise, family by family. Each argument gives a
// channel K with (P₂, Q₂) = (K∘P₁, K∘Q₁) for the one-use pairs at the noisier level 2 and the
// less noisy level 1; the data-processing inequality then gives δ₂(ε) ≤ δ₁(ε) for every ε, and
// the channel commutes with Poisson subsampling (a mixture with the same K applied) and acts on
// each use of a composition separately, so the order carries to the target's composition.
const char* const gauss_why =
    "N(0, s2^2) = N(0, s1^2) + N(0, s2^2 - s1^2) for s1 <= s2: the output at s2 is the output at s1 plus independent "
    "noise, a post-processing; it commutes with Poisson subsampling and acts on each use separately, so by the "
    "data-processing inequality delta(eps) of the composition does not increase with sigma.";
const char* const laplace_why =
    "Lap(b2) = Lap(b1) + Z for b1 <= b2, Z = 0 with probability (b1/b2)^2 and Z ~ Lap(b2) otherwise (characteristic "
    "functions: 1/(1+b2^2 t^2) = (1/(1+b1^2 t^2))((b1/b2)^2 + (1-(b1/b2)^2)/(1+b2^2 t^2))): adding Z is a post-processing, "
    "so delta(eps) does not increase with b (data-processing inequality), for every number of uses.";
const char* const dlaplace_why =
    "DLap(r2) = DLap(r1) + Z for r1 <= r2, Z = 0 with probability a = r1(1-r2)^2/(r2(1-r1)^2) and Z ~ DLap(r2) otherwise "
    "(characteristic functions (1-r)^2/(1-2r cos t+r^2); a <= 1 because r/(1-r)^2 increases): a post-processing of the "
    "unclamped mechanism, whose privacy-loss distribution the clamped spec shares (values beyond the clamp have the "
    "boundary's likelihood ratio), so delta(eps) does not increase with r.";
const char* const rr_why =
    "For 1 <= l2 <= l1, RR with lambda l2 is RR with l1 followed by flipping the answer with probability "
    "(p1 - p2)/(2 p1 - 1), p = lambda/(1+lambda); with delta > 0 fixed, the trade-off curve f_{eps,delta} rises as eps "
    "falls, and a pair whose trade-off curve lies above another's is a post-processing of it (Blackwell), so "
    "delta(eps) does not increase as lambda falls.";
const char* const krr_why =
    "For 1 <= l2 <= l1, k-ary RR with l2 is k-ary RR with l1 whose answer is replaced, with probability "
    "1 - t, t = (l1 + k - 1)(l2 - 1)/((l2 + k - 1)(l1 - 1)), by a uniform draw from the k values: a post-processing, "
    "so delta(eps) does not increase as lambda falls.";

struct Template {
  std::string family;
  std::vector<std::pair<std::string, std::string>> fixed;  ///< key, value text
};

Template parse_template(std::string_view text) {
  Template t;
  const std::size_t colon = text.find(':');
  t.family = std::string(text.substr(0, colon));
  if (colon == std::string_view::npos) return t;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw Error(where, "family", std::string(text), "expected FAMILY or FAMILY:key=value,... (e.g. gauss:sensitivity=2)");
    t.fixed.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return t;
}

CalibrationFamily family_of(const std::string& name, const std::string& text) {
  if (name == "gauss") return {name, "sigma", true, Rational(0), std::nullopt, gauss_why};
  if (name == "laplace") return {name, "b", true, Rational(0), std::nullopt, laplace_why};
  if (name == "dlaplace") return {name, "r", true, Rational(0), Rational(1), dlaplace_why};
  if (name == "rr") return {name, "lambda", false, Rational(1), std::nullopt, rr_why};
  if (name == "krr") return {name, "lambda", false, Rational(1), std::nullopt, krr_why};
  if (name == "dgauss" && text.find("truncation") != std::string::npos)
    throw Error(where, "family", text,
                "calibration of the truncated discrete Gaussian is refused: its privacy is not monotone in sigma2, so no "
                "bisection finds the least sigma2 (with truncation T = 1 and sensitivity 1, delta(1) = "
                "(t + (1 - e*t)^+)/(1 + 2t), t = e^(-1/(2 sigma2)): 1/(e + 2) = 0.212 at sigma2 = 1/2 but 0.304 at "
                "sigma2 = 2, because more noise moves more mass onto the outputs only one neighbour can give; "
                "docs/calibration.md)");
  if (name == "dgauss")
    throw Error(where, "family", text,
                "calibration of the discrete Gaussian is refused: no argument that more noise (a larger sigma2) is a "
                "post-processing of less is known to exactdp (a sum of discrete Gaussians is not a discrete Gaussian), "
                "and the bisection relies on it");
  throw Error(where, "family", text, "unknown family (expected gauss, laplace, dlaplace, rr or krr)");
}

/// The keys a template may fix, per family (the others are the noise parameter or its alternative).
const std::set<std::string>& fixable(const std::string& family) {
  static const std::set<std::string> sensitivity{"sensitivity"}, rr{"delta"}, krr{"k"};
  if (family == "rr") return rr;
  if (family == "krr") return krr;
  return sensitivity;
}

/// Doubles the distance to the domain's noiseless end (less noise) or halves it (more noise),
/// staying inside the domain.
Rational step_noisier(const CalibrationFamily& f, const Rational& x) {
  if (!f.noisier_is_larger) return (x + f.lowest) / 2;  // λ towards 1
  if (f.highest) return (x + *f.highest) / 2;            // r towards 1
  return x * 2;
}
Rational step_less_noisy(const CalibrationFamily& f, const Rational& x) {
  if (!f.noisier_is_larger) return x * 2;
  return (x + f.lowest) / 2;  // σ, b, r towards 0
}

Rational starting_level(const CalibrationFamily& f) {
  if (!f.noisier_is_larger) return Rational(2);
  if (f.highest) return Rational(1, 2);
  return Rational(1);
}

}  // namespace

std::string to_string(CalibrationStatus s) {
  switch (s) {
    case CalibrationStatus::bracketed: return "bracketed";
    case CalibrationStatus::undecided: return "undecided";
    case CalibrationStatus::no_level_meets: return "no_level_meets";
    case CalibrationStatus::no_level_fails: return "no_level_fails";
  }
  return "undecided";
}

CalibrationFamily calibration_family(std::string_view text) {
  const Template t = parse_template(text);
  CalibrationFamily f = family_of(t.family, std::string(text));
  std::set<std::string> seen;
  for (const auto& [key, value] : t.fixed) {
    if (key == f.parameter || key == "epsilon" || key == "lambda" || key == "sigma" || key == "b" || key == "r" || key == "sigma2")
      throw Error(where, "family", std::string(text),
                  "the template must not set the noise parameter (" + key + "): calibration searches " + f.parameter);
    if (!fixable(t.family).count(key))
      throw Error(where, "family", std::string(text), "the key " + key + " cannot be fixed for " + t.family);
    if (!seen.insert(key).second) throw Error(where, "family", std::string(text), "the key " + key + " is given twice");
  }
  if (t.family == "krr" && !seen.count("k")) throw Error(where, "family", std::string(text), "krr needs k, e.g. krr:k=4");
  return f;
}

std::string calibration_spec(std::string_view text, const Rational& value) {
  const Template t = parse_template(text);
  const CalibrationFamily f = calibration_family(text);
  std::string spec = t.family + ":";
  for (const auto& [key, v] : t.fixed)
    if (key == "k") spec += key + "=" + v + ",";  // krr wants k before lambda only for readability
  spec += f.parameter + "=" + to_string(value);
  for (const auto& [key, v] : t.fixed)
    if (key != "k") spec += "," + key + "=" + v;
  return spec;
}

Rational simplest_between(const Rational& a, const Rational& b) {
  if (sgn(a) < 0 || b < a) throw Error(where, "interval", to_string(a) + ", " + to_string(b), "need 0 <= a <= b");
  Integer fa = a.get_num() / a.get_den();  // floor for a ≥ 0
  if (Rational(fa) == a) return a;
  if (Rational(fa + 1) <= b) return Rational(fa + 1);
  // a and b share the integer part fa: x = fa + 1/y with y the simplest in [1/(b − fa), 1/(a − fa)]
  return Rational(fa) + 1 / simplest_between(1 / (b - fa), 1 / (a - fa));
}

std::uint64_t calibration_grid_memory(std::size_t points) {
  return static_cast<std::uint64_t>(points) * calibration_grid_bytes_per_point;
}

Rational CalibrationResult::lo() const { return std::min(meets->value, fails->value); }
Rational CalibrationResult::hi() const { return std::max(meets->value, fails->value); }
Rational CalibrationResult::width() const { return (hi() - lo()) / lo(); }

namespace {

/// The claim "the target holds" at one level.
Claim level_claim(const CalibrationLevel& level, const CalibrationTarget& target, const CalibrationOptions& options) {
  Claim claim;
  claim.id = level.mechanism;
  claim.components.push_back({level.mechanism, parse_mechanism_spec(level.mechanism, options.audit.plan.memory_budget), target.times});
  // the audit judges a replace-one claim on the replace-one pair (analysed_components): the level
  // keeps the calibrated parameter's spec as written
  claim.neighbouring = target.replace_one ? "replace-one" : "add-remove";
  if (target.sampling_rate) {
    claim.sampling = "poisson:q=" + to_string(*target.sampling_rate);
    claim.sampling_rate = target.sampling_rate;
  }
  if (options.witness == CalibrationWitness::epsilon) {
    claim.kind = Claim::Kind::epsilon_at_delta;
    claim.given = target.delta;
    claim.claimed = target.epsilon;
  } else {
    claim.kind = Claim::Kind::delta_at_epsilon;
    claim.given = target.epsilon;
    claim.claimed = target.delta;
  }
  return claim;
}

/// The memory, in MiB rounded up, of a judgement at @p points points per law.
std::string mib(std::size_t points) {
  return std::to_string((calibration_grid_memory(points) + (std::uint64_t(1) << 20) - 1) >> 20) + " MiB";
}

/// The audit options of the refinement rung after @p previous, whose judgement was @p evidence;
/// nullopt when @p previous already reached the limit (see CalibrationOptions::refine_grid_point_limit)
/// or the next rung's memory estimate exceeds the budget — then @p why says which, what the next
/// rung would need and which option allows it.
std::optional<AuditOptions> next_rung(const AuditOptions& previous, const ClaimResult& evidence, std::size_t limit,
                                      std::string& why) {
  const std::size_t wanted = 4 * previous.grid_point_budget;  // the next rung without the limit
  const std::uint64_t budget = previous.plan.memory_budget;
  const std::string needs = "the next rung would hold up to " + std::to_string(wanted) + " grid points per law, about " +
                            mib(wanted) + " (" + std::to_string(calibration_grid_bytes_per_point) + " bytes per point)";
  const std::string memory_text = "the memory budget " + std::to_string(budget >> 20) + " MiB (--max-memory, max_memory)";
  if (previous.grid_point_budget >= limit) {
    why = "the grid budget reached the refinement limit " + std::to_string(limit) + " points (--refine-grid-points, refine_grid_points); " +
          needs + "; ";
    if (wanted <= limits::max_grid_point_budget) why += "raise --refine-grid-points to at least " + std::to_string(wanted);
    else if (calibration_grid_memory(wanted) <= budget)
      why += "--refine-grid-points " + std::to_string(wanted) + " is above " + std::to_string(limits::max_grid_point_budget) +
             " (limits::max_grid_point_budget) and allowed because it fits " + memory_text;
    else
      why += "--refine-grid-points " + std::to_string(wanted) + " needs --max-memory of at least " + mib(wanted) + " (above " +
             std::to_string(limits::max_grid_point_budget) + " points the refinement limit must fit the memory budget)";
    return std::nullopt;
  }
  AuditOptions next = previous;
  next.grid_point_budget = std::min(wanted, limit);
  if (calibration_grid_memory(next.grid_point_budget) > budget) {
    why = "the next rung (" + std::to_string(next.grid_point_budget) + " grid points per law) would need about " +
          mib(next.grid_point_budget) + ", above " + memory_text + "; raise --max-memory to at least " +
          mib(next.grid_point_budget);
    return std::nullopt;
  }
  next.grid_max_points = std::max(previous.grid_max_points, next.grid_point_budget);
  next.grid_resolution_max = std::min(2 * previous.grid_resolution_max, std::max(previous.grid_resolution_max, limits::max_grid_resolution));
  next.cap = std::min<Precision>(2 * previous.cap, std::max<Precision>(previous.cap, limits::max_claim_precision));
  if (evidence.grid_step) {
    // start where the previous rung stopped: the resolutions below it were tried (at a smaller
    // per-law cap, which the resolution reached also gets)
    next.grid_resolution_start = std::max(previous.grid_resolution_start, std::min(evidence.grid_resolution, next.grid_resolution_max));
  } else if (evidence.precision > 0) {
    // certified routes: the precisions up to the one reached were tried
    next.start = std::min(std::max(previous.start, 2 * evidence.precision), next.cap);
  }
  return next;
}

/// The process CPU time in seconds (progress reports only).
double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

/// Judges one level: the audit of the claim "the target holds" at that level, refined rung after
/// rung while undecided (CalibrationOptions::refine_grid_point_limit), each judgement reported to
/// CalibrationOptions::progress under @p stage. @p rungs counts the rungs run.
CalibrationLevel judge(std::string_view text, const Rational& value, const CalibrationTarget& target,
                       const CalibrationOptions& options, const char* stage, unsigned& rungs) {
  CalibrationLevel level;
  level.value = value;
  level.mechanism = calibration_spec(text, value);
  const Claim claim = level_claim(level, target, options);
  AuditOptions audit = options.audit;
  std::optional<AuditOptions> next;
  for (;;) {
    const double start = cpu_now();
    level.evidence = audit_claim(claim, audit);
    level.verdict = level.evidence.verdict;
    level.grid_point_budget = audit.grid_point_budget;
    level.precision_cap = audit.cap;
    next.reset();
    level.refinement_stop.clear();
    if (level.verdict == Verdict::undecided) next = next_rung(audit, level.evidence, options.refine_grid_point_limit, level.refinement_stop);
    if (options.progress) options.progress(CalibrationProgress{stage, &level, !next, cpu_now() - start});
    if (!next) break;
    audit = *next;
    ++level.refinements;
    ++rungs;
  }
  return level;
}

void validate(const CalibrationFamily& f, const CalibrationTarget& t, const CalibrationOptions& o) {
  if (sgn(t.epsilon) < 0) throw Error(where, "epsilon", to_string(t.epsilon), "must be at least 0");
  if (sgn(t.delta) < 0 || t.delta >= 1)
    throw Error(where, "delta", to_string(t.delta), "must lie in [0, 1) (every mechanism meets delta = 1)");
  if (t.times < 1) throw Error(where, "times", "0", "at least one use");
  if (t.sampling_rate && (sgn(*t.sampling_rate) <= 0 || *t.sampling_rate > 1))
    throw Error(where, "sampling_rate", to_string(*t.sampling_rate), "must lie in (0, 1]");
  if (t.replace_one && t.sampling_rate && *t.sampling_rate != 1)
    throw Error(where, "direction", "replace", "with sampling_rate " + to_string(*t.sampling_rate) + ": " + replace_one_subsampling_reason());
  if (sgn(o.relative_width) <= 0) throw Error(where, "relative_width", to_string(o.relative_width), "must be positive");
  if (o.max_levels < 2) throw Error(where, "max_levels", std::to_string(o.max_levels), "at least 2");
  if (o.refine_grid_point_limit > limits::max_grid_point_budget &&
      calibration_grid_memory(o.refine_grid_point_limit) > o.audit.plan.memory_budget)
    throw Error(where, "refine_grid_point_limit", std::to_string(o.refine_grid_point_limit),
                "above " + std::to_string(limits::max_grid_point_budget) +
                    " points (limits::max_grid_point_budget) a refinement limit must fit the memory budget: its last rung "
                    "may take about " + mib(o.refine_grid_point_limit) + " (" + std::to_string(calibration_grid_bytes_per_point) +
                    " bytes per point), the budget is " + std::to_string(o.audit.plan.memory_budget >> 20) +
                    " MiB (raise --max-memory / max_memory to at least " + mib(o.refine_grid_point_limit) + ")");
  for (const Rational& p : o.probes) {
    const bool inside = p > f.lowest && (!f.highest || p < *f.highest);
    if (!inside)
      throw Error(where, "probes", to_string(p),
                  "a probe must lie in the domain of " + f.parameter + ": above " + to_string(f.lowest) +
                      (f.highest ? " and below " + to_string(*f.highest) : std::string()));
  }
  if (f.family == "gauss" && sgn(t.delta) == 0)
    throw Error(where, "delta", "0", "the Gaussian mechanism is (epsilon, 0)-DP for no finite epsilon and no sigma");
}

/// How many halvings take @p width to at most @p target (the bisection's levels still to judge,
/// about: each candidate lies in the middle half of the bracket).
unsigned halvings(Rational width, const Rational& target) {
  unsigned n = 0;
  for (; width > target && n < 100000; ++n) width /= 2;
  return n;
}

/// The bracket is narrow enough.
bool narrow(const CalibrationLevel& a, const CalibrationLevel& b, const Rational& width) {
  const Rational lo = std::min(a.value, b.value), hi = std::max(a.value, b.value);
  return hi - lo <= width * lo;
}

/// A candidate strictly inside the bracket: the simplest rational in its middle half.
Rational candidate(const Rational& x, const Rational& y) {
  const Rational lo = std::min(x, y), hi = std::max(x, y), quarter = (hi - lo) / 4;
  return simplest_between(lo + quarter, hi - quarter);
}

}  // namespace

CalibrationResult calibrate(std::string_view text, const CalibrationTarget& target, const CalibrationOptions& options) {
  CalibrationResult r;
  r.family = calibration_family(text);
  r.family_template = std::string(text);
  r.target = target;
  r.witness = options.witness;
  r.relative_width = options.relative_width;
  validate(r.family, target, options);
  const CalibrationFamily& f = r.family;

  // Every level is judged once (with its refinement) and remembered: the bisection's fallback
  // around an undecided candidate proposes the same simple fractions again.
  std::map<Rational, CalibrationLevel> judged;
  auto judge_at = [&](const Rational& x, const char* stage) -> const CalibrationLevel& {
    if (auto it = judged.find(x); it != judged.end()) return it->second;
    ++r.levels_judged;
    CalibrationLevel l = judge(text, x, target, options, stage, r.refinements);
    if (l.verdict == Verdict::undecided) r.undecided_levels.push_back(l);
    return judged.emplace(x, std::move(l)).first->second;
  };
  auto out_of_levels = [&] { return r.levels_judged >= options.max_levels; };
  const std::string levels_text = "the level budget (max_levels = " + std::to_string(options.max_levels) + ") ran out";
  // A judged level becomes an end when it is better than the current one: the least noisy level
  // known to meet, the noisiest known to fail.
  auto less_noisy = [&](const Rational& a, const Rational& b) { return f.noisier_is_larger ? a < b : a > b; };
  auto closer = [&](const CalibrationLevel& m) {
    if (m.verdict == Verdict::holds) return !r.meets || less_noisy(m.value, r.meets->value);
    if (m.verdict == Verdict::refuted) return !r.fails || less_noisy(r.fails->value, m.value);
    return false;
  };
  auto take = [&](const CalibrationLevel& m) {
    if (closer(m)) (m.verdict == Verdict::holds ? r.meets : r.fails) = m;
    // both ends are certified and more noise never hurts, so a meeting level is never less noisy
    // than a failing one; if it were, a premise or a route is wrong: say so, never bracket
    if (r.meets && r.fails && !less_noisy(r.fails->value, r.meets->value))
      throw Error(where, "monotonicity", to_string(r.meets->value) + ", " + to_string(r.fails->value),
                  "internal error: the level " + to_string(r.meets->value) + " meets the target but the noisier (or equal) level " +
                      to_string(r.fails->value) + " fails it, which the family's monotonicity excludes");
  };

  // The caller's probes first, each an end when it is the best so far.
  for (const Rational& p : options.probes) {
    if (out_of_levels()) break;
    const CalibrationLevel& l = judge_at(p, "probe");
    r.probes.push_back(l);
    take(l);
  }

  // Expansion: from the failing end (or the starting level), towards more noise until a level
  // meets; from the meeting end towards less noise until one fails. Every level is judged on its
  // own (certified), so an undecided level stops the expansion in that direction only by taking
  // one step further.
  constexpr unsigned max_expansion = 64;  // 2^64 in σ or b; r, λ within 2^-64 of 1
  if (!r.meets && !r.fails && !out_of_levels()) take(judge_at(starting_level(f), "expand"));
  Rational x = r.fails ? r.fails->value : starting_level(f);
  for (unsigned i = 0; !r.meets && i < max_expansion && !out_of_levels(); ++i) {
    x = step_noisier(f, x);
    take(judge_at(x, "expand"));
  }
  if (!r.meets) {
    r.status = CalibrationStatus::no_level_meets;
    r.stop_reason = "no level meets the target up to " + f.parameter + " = " + to_string(x) + " (" +
                    (out_of_levels() ? levels_text : std::to_string(max_expansion) + " steps towards more noise") + ")";
    return r;
  }
  x = r.meets->value;
  for (unsigned i = 0; !r.fails && i < max_expansion && !out_of_levels(); ++i) {
    x = step_less_noisy(f, x);
    take(judge_at(x, "expand"));
  }
  if (!r.fails) {
    r.status = CalibrationStatus::no_level_fails;
    r.stop_reason = "every level judged meets the target, down to " + f.parameter + " = " + to_string(x) + " (" +
                    (out_of_levels() ? levels_text : std::to_string(max_expansion) + " steps towards less noise") + ")";
    return r;
  }

  // Bisection between a failing and a meeting level. A candidate still undecided after its
  // refinement has its truth at (or within the finest enclosure of) the target: the levels halfway
  // to each end are tried; if neither moves the bracket, the search stops, undecided.
  while (!narrow(*r.meets, *r.fails, options.relative_width)) {
    if (out_of_levels()) {
      r.status = CalibrationStatus::undecided;
      r.stop_reason = levels_text + " before the relative width was reached";
      return r;
    }
    const Rational c = candidate(r.meets->value, r.fails->value);
    const CalibrationLevel& l = judge_at(c, "bisect");
    if (l.verdict != Verdict::undecided) {
      take(l);
      continue;
    }
    bool moved = false;
    for (const Rational& end : {r.meets->value, r.fails->value}) {
      if (out_of_levels()) break;
      const CalibrationLevel& m = judge_at(candidate(c, end), "bisect");
      if (closer(m)) {
        take(m);
        moved = true;
      }
    }
    if (!moved) {
      const CalibrationLevel& u = judged.at(c);
      r.status = CalibrationStatus::undecided;
      r.stop_reason = "the level " + to_string(c) + " stays undecided after " + std::to_string(u.refinements) +
                      " refinement(s) (grid budget " + std::to_string(u.grid_point_budget) + " points, highest resolution " +
                      std::to_string(u.evidence.grid_resolution) + ", precision cap " + std::to_string(u.precision_cap) +
                      " bits; refinement limit " + std::to_string(options.refine_grid_point_limit) + " points; " +
                      u.refinement_stop + "), and the levels halfway to each end moved neither end; the relative width " +
                      to_string(options.relative_width) + " would take about " + std::to_string(halvings(r.width(), options.relative_width)) +
                      " more levels from the bracket's " + to_string(r.width());
      return r;
    }
  }
  r.status = CalibrationStatus::bracketed;
  r.stop_reason = "the relative width " + to_string(r.width()) + " is at most " + to_string(options.relative_width);
  return r;
}

}  // namespace exactdp
