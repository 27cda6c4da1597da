#include "exactdp/amplification/poisson.hpp"

#include "exactdp/core/error.hpp"

#include <vector>

namespace exactdp {

ContinuousPair ContinuousPair::gaussian(const Rational& sigma, const Rational& sensitivity, const Rational& q) {
  if (sgn(sigma) <= 0) throw Error("gaussian", "sigma", to_string(sigma), "must be positive");
  if (sgn(sensitivity) <= 0) throw Error("gaussian", "sensitivity", to_string(sensitivity), "must be positive");
  if (sgn(q) <= 0 || q > 1) throw Error("gaussian", "q", to_string(q), "the sampling rate must lie in (0, 1]");
  return {Kind::gaussian, sigma, sensitivity, q, {}};
}

ContinuousPair ContinuousPair::laplace(const Rational& scale, const Rational& sensitivity, const Rational& q) {
  if (sgn(scale) <= 0) throw Error("laplace", "scale", to_string(scale), "must be positive");
  if (sgn(sensitivity) <= 0) throw Error("laplace", "sensitivity", to_string(sensitivity), "must be positive");
  if (sgn(q) <= 0 || q > 1) throw Error("laplace", "q", to_string(q), "the sampling rate must lie in (0, 1]");
  return {Kind::laplace, scale, sensitivity, q, {}};
}

ContinuousPair ContinuousPair::gaussian_mixture(const GaussianMixture& m) {
  ContinuousPair c{Kind::mixture, m.sigma(), m.components().back().sensitivity, Rational(1), m.components()};
  return c;
}

std::string ContinuousPair::describe() const {
  if (kind == Kind::mixture) {
    std::string s = "Gaussian mixture mechanism, sigma " + to_string(sigma_or_scale) + ":";
    for (const auto& c : mixture) s += " c = " + to_string(c.sensitivity) + " w.p. " + to_string(c.weight) + ";";
    s.pop_back();
    return s;
  }
  std::string s = kind == Kind::laplace
                      ? "Laplace mechanism, scale " + to_string(sigma_or_scale) + ", sensitivity " + to_string(sensitivity)
                      : "Gaussian mechanism, sigma " + to_string(sigma_or_scale) + ", sensitivity " + to_string(sensitivity);
  if (q != 1) s += ", Poisson-subsampled at rate " + to_string(q) + " (add/remove)";
  return s;
}

}  // namespace exactdp
