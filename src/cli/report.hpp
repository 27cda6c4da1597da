// The analysis that `exactdp compose` and `exactdp profile` print for a pair, as JSON (the
// machine-readable contract) and as human-readable text rendered from that JSON.
#pragma once

#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/interval.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace exactdp::cli {

/// What the user asked to be evaluated.
struct Requests {
  std::vector<Rational> lambdas;   ///< δ at these exact λ = e^ε
  std::vector<Rational> epsilons;  ///< δ at these real ε (λ = e^ε certified)
  std::vector<Rational> deltas;    ///< least λ and ε for these δ
  std::vector<Rational> alphas;    ///< Rényi orders
  bool tradeoff = false;           ///< print the trade-off vertices
  int digits = 10;                 ///< significant digits of certified output
  NeighbourDirection direction = NeighbourDirection::both;  ///< which divergence "delta" reports
  Precision precision() const { return static_cast<Precision>(digits) * 4 + 32; }
};

/// A certified value as the JSON object {"lo": "...", "hi": "..."} of outward-rounded decimals.
nlohmann::json certified(const Interval& x, int digits);

/// The exact analysis of the pair behind @p loss (δ in the asked direction, by default the max of
/// the two, and each direction under "remove" and "add"), as JSON: accounting/profile_report.hpp
/// computes it, this only writes it.
nlohmann::json exact_analysis(const PrivacyLoss& loss, const Requests& req);

/// Renders a report (as built by the commands) as aligned, readable text.
std::string render_text(const nlohmann::json& report);

}  // namespace exactdp::cli
