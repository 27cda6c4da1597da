// The numeric instance of BasicPiecewiseExp (exact rationals); the definitions are written once,
// for every field policy, in piecewise_exp_impl.hpp.
#include "exactdp/noise/piecewise_exp.hpp"

#include "exactdp/noise/piecewise_exp_impl.hpp"

namespace exactdp::noise {

template class BasicPiecewiseExp<RationalField>;

Rational power(const Rational& theta, long k) { return RationalField::power(theta, k); }

Rational geometric_sum(const Rational& theta, long a, long b) { return geometric_sum_of<RationalField>(theta, a, b); }

}  // namespace exactdp::noise
