// The grid bracket of dp-accounting's composed Gaussian mixtures (test_mixture_of_gaussians_basic:
// σ = 1, sensitivities 0, 1, 2 with weights 0.2, 0.6, 0.2, three uses; σ = 2, sensitivities 0, 2, 3
// with weights 0.33, 0.34, 0.33, two uses), called directly (amplification/poisson.hpp) so that a
// law may hit the per-law point cap: δ(17.193115) and ε(10⁻⁶) at the resolutions given, with their
// relative widths, the points held and the CPU time of each call. A plain program; asserts nothing.
//
//   exactdp_grid_mixture [MAX_POINTS] [RES …]    (200000; 2048 4096 8192)
#include "exactdp/amplification/poisson.hpp"
#include "exactdp/bounds/gaussian_mixture.hpp"

#include <cstdlib>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace exactdp;

namespace {

Rational q(long a, long b) { return Rational(a) / Rational(b); }

std::string relative(const Interval& v) {
  if (!v.lower_is_finite() || !v.upper_is_finite()) return "unbounded";
  std::ostringstream out;
  out << std::setprecision(3) << mpq_get_d(Rational((v.upper() - v.lower()) / v.upper()).get_mpq_t());
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t max_points = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  std::vector<unsigned> resolutions;
  for (int i = 2; i < argc; ++i) resolutions.push_back(static_cast<unsigned>(std::atoi(argv[i])));
  if (resolutions.empty()) resolutions = {2048, 4096, 8192};
  const GaussianMixture first(Rational(1), {{Rational(0), q(1, 5)}, {Rational(1), q(3, 5)}, {Rational(2), q(1, 5)}});
  const GaussianMixture second(Rational(2), {{Rational(0), q(33, 100)}, {Rational(2), q(34, 100)}, {Rational(3), q(33, 100)}});
  const std::vector<GridComponent> comps{{ContinuousPair::gaussian_mixture(first), 3}, {ContinuousPair::gaussian_mixture(second), 2}};
  const Rational epsilon = q(17193115, 1000000), delta = q(1, 1000000);
  for (const unsigned res : resolutions) {
    GridOptions o;
    o.resolution = res;
    o.max_points = max_points;
    std::clock_t c0 = std::clock();
    const GridBracket d = grid_delta_at_epsilon(comps, epsilon, o);
    const double cpu_d = double(std::clock() - c0) / CLOCKS_PER_SEC;
    c0 = std::clock();
    const GridBracket e = grid_epsilon_at_delta(comps, delta, o);
    const double cpu_e = double(std::clock() - c0) / CLOCKS_PER_SEC;
    std::cout << "resolution " << res << " max_points " << max_points << ": delta " << d.value.to_string(12) << " rel "
              << relative(d.value) << " (" << d.points << " points, cpu " << cpu_d << " s); epsilon " << e.value.to_string(12)
              << " rel " << relative(e.value) << " (" << e.points << " points, cpu " << cpu_e << " s)\n";
  }
}
