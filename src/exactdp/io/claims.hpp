/// @file
/// Privacy claims (`"format": "exactdp-claims/1"`) and their audit: each claim — a mechanism
/// SPEC composed `times` times with a claimed ε at a δ, or a claimed δ at an ε — is answered with
/// the exact or certified truth and a verdict (issue 6).
///
/// ```json
/// {"format": "exactdp-claims/1",
///  "claims": [{"id": "c1", "mechanism": "rr:lambda=3/2", "times": 10,
///              "neighbouring": "replace-one", "delta": "1e-5", "claimed_epsilon": "2.1"},
///             {"id": "c2", "mechanism": "gauss:sigma=2", "times": 100,
///              "epsilon": "1", "claimed_delta": "1e-3"}]}
/// ```
///
/// * `mechanism` is a SPEC as in `exactdp compose` (exactdp/accounting/mechanism_spec.hpp), used `times`
///   times (default 1); a heterogeneous composition is written `"mechanisms": [{"mechanism": SPEC,
///   "times": k}, …]` instead (finite mechanisms only: dgauss, laplace and gauss compose with
///   nothing else here, as in `exactdp compose`). A mechanism's worst-case
///   neighbouring pair — with the sensitivity written in the spec — is the pair audited.
///   `neighbouring` ("add-remove" or "replace-one", optional) is recorded in the result; the spec's
///   sensitivity must be the one of that relation (the profile is the max of both directions, so
///   the asymmetry of add/remove is covered).
/// * Numbers are exact: strings read by exactdp::parse_rational ("0.1" is 1/10) or JSON integers;
///   JSON numbers with a fraction are refused (they are binary floating point).
/// * `sampling` (optional) is `"poisson:q=R"`: Poisson subsampling at rate 0 < R <= 1 before each
///   use, with add/remove neighbouring (the pair analysed is stated in
///   exactdp/amplification/poisson.hpp). Allowed with one mechanism (not with "mechanisms"): exact
///   for the mechanisms with exact tables (rr:lambda, krr:lambda, dlaplace:r), a certified grid
///   bracket for `gauss` (the DP-SGD step); `"neighbouring": "replace-one"` with sampling is
///   refused (not modelled). `laplace` used more than once is answered by the same grid bracket.
/// * Optional documentation keys: `description`, `source`, `comment`, `accountant` (top level and
///   per claim).
///
/// Verdicts: a claim is **unsound** when it promises less privacy loss than the truth (claimed
/// ε < true ε, or claimed δ < true δ; its shortfall is reported as a negative slack), **sound**
/// otherwise, with its slack (claimed − true, absolute and relative), and **undecided** only when a certified enclosure of the truth still
/// straddles the claim at the highest precision tried. When the one-use privacy-loss distribution
/// is exact (rational tables), the comparison is decided exactly — by Lindemann–Weierstrass,
/// e^ε for rational ε ≠ 0 never equals a rational (THEOREMS.md B.15) — so it is never undecided.
///
/// Every error is an exactdp::Error whose `where` is the source (file name), whose `field` is a
/// JSON Pointer (e.g. `/claims/0/claimed_epsilon`) and whose `value` is the offending text.
#pragma once

#include "exactdp/amplification/poisson.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// One mechanism of a claim, used `times` times (an aggregate: MechanismSpec has no default value).
struct ClaimComponent {
  std::string mechanism;  ///< the SPEC text as written
  MechanismSpec spec;
  unsigned long times = 1;
};

/// One claim of a claims file: the composition of its components (one for "mechanism"/"times",
/// several for "mechanisms": [{"mechanism", "times"}, …]).
struct Claim {
  /// What the claim states: the least ε at a given δ, or δ at a given ε.
  enum class Kind { epsilon_at_delta, delta_at_epsilon };

  std::string id;
  std::vector<ClaimComponent> components;  ///< never empty
  bool heterogeneous = false;              ///< given as "mechanisms" (a list)
  std::string neighbouring;  ///< "add-remove", "replace-one" or "" (not given)
  Kind kind = Kind::epsilon_at_delta;
  Rational given;    ///< δ (epsilon_at_delta) or ε (delta_at_epsilon)
  Rational claimed;  ///< the claimed ε or δ
  std::string sampling;                 ///< the "sampling" text as written, "" when absent
  std::optional<Rational> sampling_rate;  ///< q of "poisson:q=…" (absent: no subsampling)
};

/// The verdict on a claim.
enum class Verdict { sound, unsound, undecided };

/// "sound", "unsound" or "undecided".
std::string to_string(Verdict v);

/// A true value: an exact rational, the point +∞, or a certified enclosure.
struct TrueValue {
  std::optional<Rational> exact;  ///< set when the value is an exact rational
  bool infinite = false;          ///< no finite value (e.g. δ below the catastrophic mass)
  Interval enclosure;             ///< always contains the value (the point for an exact one)
};

/// The answer to one claim.
struct ClaimResult {
  Claim claim;
  Verdict verdict = Verdict::undecided;
  TrueValue truth;                    ///< the true ε (epsilon_at_delta) or δ (delta_at_epsilon)
  std::optional<Rational> true_lambda;  ///< exact least λ = e^ε when known (epsilon_at_delta)
  bool exact = false;  ///< whether the truth came from the exact privacy-loss distribution
  /// The precision (bits) of the enclosure that decided (0 when decided exactly), or the highest
  /// precision tried when undecided.
  Precision precision = 0;
  std::string method;  ///< how the truth was computed, one line
  /// For decided claims with a finite truth: claimed − true (absolute) and (claimed − true)/true
  /// (relative; absent when the truth is 0), exact when both are exact, certified otherwise;
  /// negative for an unsound claim (its shortfall).
  std::optional<TrueValue> slack_absolute, slack_relative;
  /// The one-use grid step h of the privacy-loss discretisation that produced a grid bracket
  /// (absent for exact and closed-form truths), and the resolution (grid points per standard
  /// deviation, GridOptions::resolution) it used.
  std::optional<Rational> grid_step;
  unsigned grid_resolution = 0;
};

/// Parses claims text. @p source names the text in errors (usually the file name).
/// Throws exactdp::Error (source, JSON Pointer, value, why) before any work starts.
std::vector<Claim> parse_claims(std::string_view text, const std::string& source);

/// Reads and parses a claims file; errors name the file as given.
std::vector<Claim> load_claims_file(const std::filesystem::path& file);

/// Options of the audit.
struct AuditOptions {
  /// Precisions (bits) tried for certified truths: start, 2·start, … up to cap.
  Precision start = 128;
  Precision cap = 1024;
  /// Above this many atoms (self_compose_size_bound) the exact composition is not attempted and
  /// the certified path is used instead.
  std::size_t max_exact_atoms = 200000;
  /// Above this many bytes of rational masses (estimated before composing: the k-fold masses have up
  /// to k times the bits of one use's, so RR with a λ read from a binary64 costs gigabytes at
  /// k = 10 000) the exact composition is not attempted either, and the certified path is used.
  std::size_t max_exact_bytes = std::size_t{1} << 30;
  /// Grid brackets (subsampled Gaussian, k-fold Laplace): resolutions tried (GridOptions::resolution,
  /// grid points per standard deviation of the loss), from grid_resolution_start doubling up to
  /// grid_resolution_max, until the claim is decided — but no doubling once the largest law held
  /// exceeds grid_point_budget / 2 points (the next one would exceed the budget: its time grows
  /// with the square of the size). The bracket's width falls about 4-fold per doubling.
  /// grid_max_points bounds each law's size (a larger law is re-gridded coarser).
  unsigned grid_resolution_start = 4;
  unsigned grid_resolution_max = 1024;
  std::size_t grid_point_budget = 40000;
  std::size_t grid_max_points = 200000;
};

/// Evaluates one claim (see the file comment for the verdict rules).
ClaimResult audit_claim(const Claim& claim, const AuditOptions& options = {});

/// Evaluates every claim, in order.
std::vector<ClaimResult> audit_claims(const std::vector<Claim>& claims, const AuditOptions& options = {});

/// The results as the JSON text printed by `exactdp audit --json`:
/// `{"format": "exactdp-audit/1", "results": [{"id", "verdict", "true_epsilon" | "true_delta",
/// "claimed_epsilon" | "claimed_delta", "slack", …}], "summary": {…}}`; exact values as "p/q",
/// certified ones as {"lo","hi"} decimals with @p digits significant digits rounded outward,
/// "inf" for +∞.
std::string audit_report_json(const std::vector<ClaimResult>& results, int digits = 10);

}  // namespace exactdp
