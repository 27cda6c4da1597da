/// @file
/// Calibration: the least noise that meets a privacy target, as a certified bracket.
///
/// The question an accountant's calibration API answers — "which σ (or b, r, λ) makes `times`
/// uses, each optionally Poisson-subsampled at rate q, (ε, δ)-DP?" — answered here with two
/// noise levels and their evidence:
///
///  - the noisier end **meets** the target: the certified upper end of ε(δ) at that level is at
///    most ε (or of δ(ε), at most δ) — a witness that needs no monotonicity;
///  - the less noisy end **fails** it: the certified lower end of ε(δ) exceeds ε (or δ(ε)
///    exceeds δ, or no finite ε exists) — again certified at that very level;
///  - and, because more noise is a post-processing of less noise in every family calibrated here
///    (calibration_family() states the argument for each), the privacy of the composition only
///    improves with noise, so the levels that meet form an up-set and the least of them lies
///    between the two ends.
///
/// Each level is judged by the audit of one claim (audit.hpp: the composition planner's exact or
/// certified route, its precision raised up to AuditOptions::cap, grid brackets refined up to the
/// audit's resolution budget) — so a level whose enclosure straddles the target is refined before
/// the search moves on, and a level the planner cannot separate is reported as **undecided**, not
/// guessed — after refinement: a level still undecided under the given audit options is judged
/// again with a larger grid budget, a finer highest resolution and a higher precision cap, rung
/// after rung (CalibrationOptions::refine_grid_point_limit), since the levels the bisection
/// reaches near the least noise are the ones whose truth lies closest to the target. Before a rung
/// runs, its memory is estimated (calibration_grid_memory()); a rung above the memory budget or the
/// refinement limit is not run, and the level says why and what the next rung would need
/// (CalibrationLevel::refinement_stop). The search: the caller's probes first
/// (CalibrationOptions::probes, e.g. another accountant's answer), then expand by doubling (halving)
/// until one level meets and one fails, then bisect — each candidate the simplest rational in the
/// middle half of the bracket, so endpoints stay short — until (hi − lo)/lo ≤ relative_width.
///
/// Families (noise parameter, which way is noisier):
///
/// | family | parameter | noisier | fixed keys allowed |
/// |---|---|---|---|
/// | `gauss` | σ | larger | sensitivity |
/// | `laplace` | b | larger | sensitivity |
/// | `dlaplace` | r | larger (towards 1) | sensitivity |
/// | `rr` | λ = e^ε (truth probability p = λ/(1+λ)) | smaller (towards 1) | delta |
/// | `krr` | λ (truth probability p = λ/(λ+k−1)) | smaller (towards 1) | k (required) |
///
/// `dgauss` is refused: whether N_ℤ(0, σ₂²) is a post-processing of N_ℤ(0, σ₁²) is not known
/// (a sum of discrete Gaussians is not a discrete Gaussian), so a bisection would rest on an
/// unproved premise. The truncated discrete Gaussian (`dgauss:truncation=T`) is refused because its
/// privacy is *not* monotone in σ²: more noise moves mass onto the outputs beyond the other
/// neighbour's support (docs/calibration.md gives the counterexample). What the planner refuses (e.g. Laplace under Poisson sampling, composition
/// routes without a certified profile) is refused here with the planner's reason.
#pragma once

#include "exactdp/accounting/audit.hpp"
#include "exactdp/accounting/verdict.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// A calibrated family: which spec key is the noise parameter and why more noise never hurts.
struct CalibrationFamily {
  std::string family;           ///< "gauss", "laplace", "dlaplace", "rr", "krr"
  std::string parameter;        ///< the spec key searched: "sigma", "b", "r", "lambda"
  bool noisier_is_larger = true;  ///< σ, b, r: larger is noisier; λ: smaller is noisier
  Rational lowest;              ///< the parameter's domain is (lowest, highest) (λ: [1, ∞), 1 = no information)
  std::optional<Rational> highest;  ///< r < 1; absent: unbounded
  std::string monotonicity;     ///< why more noise is a post-processing of less noise (one paragraph)
};

/// The family of a calibration template: the family name, optionally followed by its fixed keys
/// (`gauss:sensitivity=2`, `krr:k=4`, `rr:delta=1/100`). Throws exactdp::Error(where "calibrate",
/// field "family", the text) for an unknown or refused family (dgauss: monotonicity not known),
/// for a template that sets the noise parameter itself or its alternative (`sigma`, `b`, `r`,
/// `lambda`, `epsilon`), or for a fixed key the family does not take.
CalibrationFamily calibration_family(std::string_view family_template);

/// The target: `times` uses, each Poisson-subsampled at `sampling_rate` (absent: no sampling;
/// add/remove neighbouring as in amplification/poisson.hpp), must be (ε, δ)-DP.
struct CalibrationTarget {
  Rational epsilon;
  Rational delta;
  unsigned long times = 1;
  std::optional<Rational> sampling_rate;
  /// Replace-one neighbours instead of add/remove: each level is judged on its replace-one pair
  /// (accounting/replace_one.hpp: additive noise at twice the sensitivity, randomized response as
  /// it is), so the bracket is of the noise parameter that meets the target under replace-one.
  /// Refused with a sampling rate (no one pair is the subsampled mechanism's replace-one pair).
  bool replace_one = false;
};

/// Which certified quantity witnesses each level: ε(δ) compared with ε, or δ(ε) compared with δ.
/// Both decide the same question ((ε, δ)-DP ⇔ δ(ε) ≤ δ ⇔ least ε at δ ≤ ε).
enum class CalibrationWitness { epsilon, delta };

/// Bytes per grid point of a judgement by grid brackets: the four laws (two directions, upper and
/// lower) in binary64 and the convolutions' work space. Measured 350–480 bytes per point (peak
/// resident set of the subsampled Gaussian at 25 uses, 67 000 to 533 000 points); 512 errs high.
inline constexpr std::uint64_t calibration_grid_bytes_per_point = 512;
/// The memory a grid judgement whose laws hold up to @p points points may take, in bytes: points ×
/// calibration_grid_bytes_per_point (the refinement's up-front estimate, CalibrationOptions).
std::uint64_t calibration_grid_memory(std::size_t points);

struct CalibrationLevel;

/// One judgement of a level, reported while the search runs (CalibrationOptions::progress): the
/// first judgement and every refinement rung of every level, in order.
struct CalibrationProgress {
  const char* stage = "expand";            ///< "probe", "expand" or "bisect"
  const CalibrationLevel* level = nullptr;  ///< the level as judged by this rung (never null)
  bool last = false;                       ///< no further rung follows for this level
  double cpu_seconds = 0;                  ///< the process CPU time this rung took (display only)
};

/// Options of the search.
struct CalibrationOptions {
  /// Stop when (hi − lo)/lo ≤ relative_width (lo, hi the bracket in numeric order). Positive.
  Rational relative_width = Rational(1, 1000);
  /// The most levels judged (expansion and bisection together).
  unsigned max_levels = 200;
  CalibrationWitness witness = CalibrationWitness::epsilon;
  /// How each level is judged first (precision cap, grid resolutions, the planner's memory budget).
  AuditOptions audit;
  /// Refinement of an undecided level: it is judged again, rung after rung, each rung with 4 times
  /// the grid budget (AuditOptions::grid_point_budget, and the per-law cap grid_max_points raised
  /// to at least that), twice the highest grid resolution (at most limits::max_grid_resolution),
  /// twice the precision cap (at most limits::max_claim_precision), starting at the resolution and
  /// precision the previous rung reached — until the level is decided or the budget has reached
  /// this limit. Equal to audit.grid_point_budget (or below it): no refinement. Up to limits::max_grid_point_budget it is always accepted (a rung
  /// whose estimate calibration_grid_memory() exceeds audit.plan.memory_budget is still not run);
  /// above it only when the estimate at this limit fits audit.plan.memory_budget — the caller names
  /// the memory the refinement may take — else refused before any work, with the estimate.
  std::size_t refine_grid_point_limit = limits::max_grid_point_budget;
  /// Levels judged first, in order (each refined as any level), before the expansion: a value to
  /// check (is this noise enough?) or a guess that shortens the search. The bracket starts from the
  /// best ends they give (CalibrationResult::probes lists their judgements). Each must lie in the
  /// family's domain (exactdp::Error, field "probes").
  std::vector<Rational> probes;
  /// Called after every judgement of a level (CalibrationProgress); empty: silent.
  std::function<void(const CalibrationProgress&)> progress;
};

/// One noise level judged against the target.
struct CalibrationLevel {
  Rational value;          ///< the parameter's value
  std::string mechanism;   ///< the spec at this level, e.g. "gauss:sigma=3/2,sensitivity=1"
  Verdict verdict = Verdict::undecided;  ///< holds: meets the target; refuted: fails it
  ClaimResult evidence;    ///< the audit of the claim "ε(δ) ≤ ε" (or "δ(ε) ≤ δ") at this level
  /// How many refinement rungs the level needed beyond the first judgement (0: decided, or left
  /// undecided, under CalibrationOptions::audit), and the grid budget and precision cap of the
  /// judgement reported in `evidence`.
  unsigned refinements = 0;
  std::size_t grid_point_budget = 0;
  Precision precision_cap = 0;
  /// For a level left undecided: why its refinement stopped, with what the next rung would need
  /// (its grid budget and memory estimate) and the option that would allow it; empty otherwise.
  std::string refinement_stop;
};

/// How a calibration ended.
enum class CalibrationStatus {
  bracketed,       ///< both ends found and (hi − lo)/lo ≤ relative_width
  undecided,       ///< both ends found, but a level in between could not be decided (or max_levels ran out)
  no_level_meets,  ///< no level tried (up to the noisiest) meets the target
  no_level_fails   ///< every level tried (down to the least noisy) meets the target
};

/// "bracketed", "undecided", "no_level_meets", "no_level_fails".
std::string to_string(CalibrationStatus status);

/// The result of a calibration.
struct CalibrationResult {
  CalibrationFamily family;
  std::string family_template;  ///< as given
  CalibrationTarget target;
  CalibrationWitness witness = CalibrationWitness::epsilon;
  Rational relative_width;      ///< the stopping rule asked for
  CalibrationStatus status = CalibrationStatus::undecided;
  std::optional<CalibrationLevel> meets;  ///< the noisier end: meets the target (certified)
  std::optional<CalibrationLevel> fails;  ///< the less noisy end: fails the target (certified)
  std::vector<CalibrationLevel> probes;  ///< the judgements of CalibrationOptions::probes, in order
  std::vector<CalibrationLevel> undecided_levels;  ///< levels the planner could not separate
  unsigned levels_judged = 0;   ///< distinct levels judged (a level is judged once, then remembered)
  unsigned refinements = 0;     ///< refinement rungs run, over all levels
  /// Why the search stopped, one sentence: the width reached, the level that stayed undecided at
  /// the refinement limit (the limits reached, what the next rung would need and which option
  /// allows it, and about how many more levels the width asked would take), the level budget, or
  /// the expansion's end.
  std::string stop_reason;

  /// The bracket in numeric order, [lo, hi] (both ends present).
  Rational lo() const;
  Rational hi() const;
  /// (hi − lo)/lo, both ends present.
  Rational width() const;
};

/// The least noise of @p family_template (calibration_family()) that meets @p target: see the
/// file comment. Refuses before any work (exactdp::Error) a target with ε < 0, δ ∉ [0, 1), no
/// use, a sampling rate outside (0, 1], replace-one with a sampling rate (field "direction"), a
/// relative width ≤ 0, a Gaussian with δ = 0 (never
/// (ε, 0)-DP), a probe outside the family's domain, a refinement limit above
/// limits::max_grid_point_budget whose memory estimate exceeds the memory budget, and what the
/// planner refuses at the first level.
CalibrationResult calibrate(std::string_view family_template, const CalibrationTarget& target,
                            const CalibrationOptions& options = {});

/// The spec text of @p family at parameter value @p value, with the template's fixed keys.
std::string calibration_spec(std::string_view family_template, const Rational& value);

/// The simplest rational (least denominator, then least numerator) in [a, b], 0 ≤ a ≤ b: the
/// candidates of the bisection, so that the bracket's ends stay short to write.
Rational simplest_between(const Rational& a, const Rational& b);

}  // namespace exactdp
