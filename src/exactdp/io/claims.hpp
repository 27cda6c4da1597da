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
///   nothing else here, as in `exactdp compose`). The sensitivity written in the spec is the one of
///   add/remove neighbours (one record present or absent).
/// * `neighbouring` ("add-remove", the default, or "replace-one", optional) is the relation the
///   claim is about, and the verdict is for it: under add/remove the spec's own pair is audited;
///   under replace-one each component's replace-one pair (exactdp::analysed_components,
///   accounting/replace_one.hpp: additive noise at twice the written sensitivity, randomized
///   response as it is). Where replace-one is not defined (Poisson subsampling at a rate below 1, a
///   doubled sensitivity above the table limit) the file is refused, naming the claim's pointer.
///   The result always says which relation its verdict is for (`"neighbouring"`), and under
///   replace-one lists the specs analysed (`"analysed"`).
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
///   refused (replace_one_subsampling_reason()). `laplace` used more than once is answered by the
///   same grid bracket.
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

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// Parses claims text. @p source names the text in errors (usually the file name).
/// Throws exactdp::Error (source, JSON Pointer, value, why) before any work starts; a mechanism
/// whose one-use tables are estimated above @p table_budget bytes is refused there too, naming
/// its pointer, the estimate and the option that raises the budget (parse_mechanism_spec(); the
/// audit passes its --max-memory).
std::vector<Claim> parse_claims(std::string_view text, const std::string& source,
                                std::uint64_t table_budget = limits::default_spec_table_budget);

/// Reads and parses a claims file; errors name the file as given.
std::vector<Claim> load_claims_file(const std::filesystem::path& file,
                                    std::uint64_t table_budget = limits::default_spec_table_budget);

/// The results as the JSON text printed by `exactdp audit --json`:
/// `{"format": "exactdp-audit/1", "results": [{"id", "verdict" ("sound", "unsound", "undecided": docs/verdicts.md), "true_epsilon" | "true_delta",
/// "claimed_epsilon" | "claimed_delta", "slack", "neighbouring" (the relation the verdict is for),
/// "analysed" (replace-one: the specs whose pairs were audited), …}], "summary": {…}}`; exact values as "p/q",
/// certified ones as {"lo","hi"} decimals with @p digits significant digits rounded outward,
/// "inf" for +∞.
std::string audit_report_json(const std::vector<ClaimResult>& results, int digits = 10);

}  // namespace exactdp
