/// @file
/// The exact noise closed forms over rational functions of one noise parameter r (issue 19 item 1;
/// docs/parametric.md, "Library mechanisms with a parameter").
///
/// ParametricField is the field policy of noise/number_field.hpp whose values are
/// RationalFunction: with it, noise/'s own templates — BasicPiecewiseExp (the geometric sums of
/// THEOREMS.md B.13), dlap_mass_function (D.3) and BasicLatentThreshold (the posterior of an
/// unclamped latent threshold) — compute every probability of a DLap-noised mechanism as an exact
/// rational function of r. No closed form is written twice: the numeric instance and this one are
/// the same code, so at every rational r the value of a parametric probability is the numeric
/// probability built with r (the property test ParametricSvt.AgreesWithNumericEngine checks it).
///
/// **The domain.** Decisions the closed forms take (a geometric base below 1, a noise parameter
/// strictly inside (0, 1)) are made *for every r in the open interval (0, 1)*, exactly (certified
/// sign of a rational function, parametric/real_roots.hpp); a quantity whose sign changes inside
/// (0, 1) is an exactdp::Error, never a guess. Callers keep the parameter's range inside (0, 1)
/// (DLap(r) needs 0 < r < 1), so every decision taken on (0, 1) holds on the range.
#pragma once

#include "exactdp/noise/latent.hpp"
#include "exactdp/noise/number_field.hpp"
#include "exactdp/noise/piecewise_exp.hpp"
#include "exactdp/parametric/rational_function.hpp"
#include "exactdp/parametric/real_roots.hpp"

#include <cstddef>
#include <string>

namespace exactdp::parametric {

/// The field policy over rational functions of the parameter (see the file comment).
struct ParametricField {
  using Value = RationalFunction;
  /// The sign of @p x for every r in (0, 1); throws exactdp::Error when it is not one sign there.
  static int sign(const Value& x);
  /// A fixed total order (by canonical key; not the order of values).
  static bool before(const Value& a, const Value& b) { return canonical_less(a, b); }
  static Value power(const Value& x, long k) { return x.pow(k); }
  static std::size_t hash(const Value& x) { return x.hash(); }
  static std::string show(const Value& x) { return x.to_string("r"); }
  static bool prints_negative(const Value&) { return false; }
};

/// The open interval (0, 1): the domain of ParametricField's decisions.
ParameterRange open_unit_interval();

/// Whether @p range lies inside (0, 1) (ends at 0 or 1 open), so that ParametricField's decisions
/// hold on it.
bool inside_open_unit_interval(const ParameterRange& range);

/// Functions ℤ → ℚ(r): the parametric instance of noise::BasicPiecewiseExp.
using ParametricPiecewiseExp = noise::BasicPiecewiseExp<ParametricField>;
/// The posterior of a latent DLap threshold with parametric noise parameters.
using ParametricLatentThreshold = noise::BasicLatentThreshold<ParametricField>;

}  // namespace exactdp::parametric

namespace exactdp::noise {
extern template class BasicPiecewiseExp<parametric::ParametricField>;
extern template class BasicLatentThreshold<parametric::ParametricField>;
}  // namespace exactdp::noise
