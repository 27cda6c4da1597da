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
/// * `direction` (optional: "both", the default, "remove" or "add") audits one divergence instead
///   of their max: remove H(P‖Q), add H(Q‖P), P the law with the record (divergence/direction.hpp;
///   dp-accounting's `pmf_remove` and `pmf_add`). It is written into the result when not "both".
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
/// The audit itself — the verdicts sound (holds), unsound (refuted), undecided and how the truth is
/// computed — is in exactdp/accounting/audit.hpp; this file only reads claims and writes reports.
///
/// Every error is an exactdp::Error whose `where` is the source (file name), whose `field` is a
/// JSON Pointer (e.g. `/claims/0/claimed_epsilon`) and whose `value` is the offending text.
#pragma once

#include "exactdp/accounting/audit.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// Parses claims text. @p source names the text in errors (usually the file name).
/// Throws exactdp::Error (source, JSON Pointer, value, why) before any work starts.
std::vector<Claim> parse_claims(std::string_view text, const std::string& source);

/// Reads and parses a claims file; errors name the file as given.
std::vector<Claim> load_claims_file(const std::filesystem::path& file);

/// The results as the JSON text printed by `exactdp audit --json`:
/// `{"format": "exactdp-audit/1", "results": [{"id", "verdict" ("sound", "unsound", "undecided": docs/verdicts.md), "true_epsilon" | "true_delta",
/// "claimed_epsilon" | "claimed_delta", "slack", …}], "summary": {…}}`; exact values as "p/q",
/// certified ones as {"lo","hi"} decimals with @p digits significant digits rounded outward,
/// "inf" for +∞.
std::string audit_report_json(const std::vector<ClaimResult>& results, int digits = 10);

}  // namespace exactdp
