// The library's certified composition routes timed directly (issue 17), for what the Python module
// cannot reach yet (compose/fast_convolution.hpp has no binding until the composition planner of
// accounting/ calls it). A plain program: prints wall and CPU time per route; asserts nothing.
//
//   exactdp_fast_composition dlap [K]                    discrete Laplace ε = 1, k = K (10 000), ε(10^-5)
//   exactdp_fast_composition dpsgd [RES] [K] [FACTOR] [T] [B]  subsampled Gaussian σ = 1, q = 1/100,
//       ε(10^-5), tail mass 2^-T per truncation (default 10^-33), GridOptions::fine_bin_bits B (20)
//   exactdp_fast_composition subsampled SPEC [K]        a certified pair (dlaplace:epsilon=1, krr, …)
//       Poisson-subsampled at q = 1/10, K uses (10): δ(1) and ε(10^-5) on the grid at resolutions
//       64 … 4096 (the atom-by-atom route turned off), then atom by atom (docs/composition.md)
//   exactdp_fast_composition resolutions SPEC K [Q] [MAXRES] [MINRES]  a certified pair Poisson-subsampled
//       at Q (1/10), K uses: δ(1) and ε(10^-5) on the grid at each resolution MINRES (64), 2·MINRES, … MAXRES (8192)
//       alone (no intersection), with the width's ratio to the previous resolution's (about 4 when
//       the discretisation is second order, 2 when first) and the CPU time of each
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/amplification/poisson.hpp"
#include "exactdp/compose/fast_convolution.hpp"
#include "exactdp/divergence/privacy_loss.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

using namespace exactdp;

namespace {

void timed(const std::string& what, const std::function<std::string()>& run) {
  const auto w0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const std::string result = run();
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  std::cout << what << ": " << result << "  wall " << wall * 1e3 << " ms, cpu " << cpu * 1e3 << " ms\n";
}

std::string relative(const Interval& v) {
  if (!v.lower_is_finite() || !v.upper_is_finite()) return "unbounded";
  std::ostringstream out;
  out << std::setprecision(3) << mpq_get_d(Rational(v.width_upper() / v.upper()).get_mpq_t());
  return out.str();
}

/// The discrete Laplace pair by ε: ratio e^{ε} with P-mass 1/(1 + e^{−ε}), ratio e^{−ε} with the rest.
CertifiedLoss dlaplace(const Rational& eps) {
  const Interval r = exp(Interval(Rational(-eps)));
  const Interval one(1L, default_precision);
  const Interval a = one / (one + r), b = r / (one + r);
  return CertifiedLoss::from_atoms({{SymbolicRatio::exponential(1, eps), a, b}, {SymbolicRatio::exponential(1, -eps), b, a}});
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "dlap";
  const Rational delta(1, 100000);
  if (what == "subsampled") {
    const std::string spec = argc > 2 ? argv[2] : "dlaplace:epsilon=1";
    const unsigned long k = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 10;
    const CertifiedLoss loss = *parse_mechanism_spec(spec).certified_loss();
    const Rational rate(1, 10);
    for (unsigned res : {64u, 256u, 1024u, 4096u, 0u}) {
      FastCompositionOptions o;
      if (res != 0) o.resolution = o.max_resolution = res, o.max_enumerated_atoms = 0;
      const std::string route = res != 0 ? "grid at resolution " + std::to_string(res) : "atom by atom";
      timed(spec + ", " + std::to_string(k) + " uses, " + route + ": delta(1)", [&] {
        const FastBracket b = fast_delta_at_epsilon(loss, k, Rational(1), rate, o);
        return "relative width " + relative(b.value) + ", " + std::to_string(b.points) + " points";
      });
      timed(spec + ", " + std::to_string(k) + " uses, " + route + ": eps(1e-5)", [&] {
        const FastBracket b = fast_epsilon_at_delta(loss, k, delta, rate, o);
        return "relative width " + relative(b.value) + ", " + std::to_string(b.points) + " points";
      });
    }
    return 0;
  }
  if (what == "resolutions") {
    const std::string spec = argc > 2 ? argv[2] : "dgauss:sigma2=4,truncation=60";
    const unsigned long k = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 10;
    const Rational rate = argc > 4 ? parse_rational(argv[4]) : Rational(1, 10);
    const unsigned max_res = argc > 5 ? static_cast<unsigned>(std::atoi(argv[5])) : 8192;
    const unsigned min_res = argc > 6 ? static_cast<unsigned>(std::atoi(argv[6])) : 64;
    const CertifiedLoss loss = *parse_mechanism_spec(spec).certified_loss();
    std::cout << spec << ", q = " << to_string(rate) << ", " << k << " uses (grid only, one resolution per row)\n";
    std::cout << "resolution | delta(1) width | ratio | cpu ms | eps(1e-5) width | ratio | cpu ms | points | delta(1)\n";
    double previous_delta = 0, previous_eps = 0;
    for (unsigned res = min_res; res <= max_res; res *= 2) {
      FastCompositionOptions o;
      o.resolution = o.max_resolution = res;
      o.max_enumerated_atoms = 0;
      auto width = [](const Interval& v) {
        return v.lower_is_finite() && v.upper_is_finite() ? mpq_get_d(Rational(v.upper() - v.lower()).get_mpq_t()) : INFINITY;
      };
      std::clock_t c0 = std::clock();
      const FastBracket d = fast_delta_at_epsilon(loss, k, Rational(1), rate, o);
      const double cpu_d = double(std::clock() - c0) / CLOCKS_PER_SEC * 1e3;
      c0 = std::clock();
      const FastBracket e = fast_epsilon_at_delta(loss, k, delta, rate, o);
      const double cpu_e = double(std::clock() - c0) / CLOCKS_PER_SEC * 1e3;
      const double wd = width(d.value), we = width(e.value);
      std::cout << std::setprecision(3) << res << " | " << wd << " | " << (previous_delta > 0 ? previous_delta / wd : 0.0)
                << " | " << cpu_d << " | " << we << " | " << (previous_eps > 0 ? previous_eps / we : 0.0) << " | " << cpu_e
                << " | " << std::max(d.points, e.points) << " | " << d.value.to_string(12) << "\n";
      previous_delta = wd;
      previous_eps = we;
    }
    return 0;
  }
  if (what == "dlap") {
    const unsigned long k = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 10000;
    const CertifiedLoss loss = dlaplace(1);
    timed("fast_epsilon_at_delta (compose/fast_convolution.hpp)", [&] {
      const FastBracket b = fast_epsilon_at_delta(loss, k, delta);
      return b.value.to_string(15) + " relative width " + relative(b.value) + ", " + std::to_string(b.points) + " points";
    });
    timed("CertifiedLoss::self_compose + least_epsilon (certified_power)", [&] {
      const Interval e = loss.self_compose(k).least_epsilon(delta);
      return e.to_string(15) + " relative width " + relative(e);
    });
    return 0;
  }
  const unsigned res = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 32;
  const unsigned long k = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 10000;
  GridOptions o;
  o.resolution = res;
  o.composition_factor = argc > 4 ? static_cast<unsigned>(std::atoi(argv[4])) : 1;
  if (argc > 5) o.tail = pow2(-std::atoi(argv[5]));  // tail mass 2^-T per truncation
  if (argc > 6) o.fine_bin_bits = static_cast<unsigned>(std::atoi(argv[6]));
  timed("grid_epsilon_at_delta (resolution " + std::to_string(res) + ", composition factor " +
            std::to_string(o.composition_factor) + ")",
        [&] {
          const GridBracket b = grid_epsilon_at_delta(ContinuousPair::gaussian(1, 1, Rational(1, 100)), k, delta, o);
          return b.value.to_string(12) + " relative width " + relative(b.value) + ", " + std::to_string(b.points) + " points";
        });
  return 0;
}
