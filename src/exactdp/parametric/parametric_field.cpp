// The parametric instances of noise/'s closed forms (the definitions are noise/'s own, written once).
#include "exactdp/parametric/parametric_field.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/noise/latent_impl.hpp"
#include "exactdp/noise/piecewise_exp_impl.hpp"

#include <unordered_map>

namespace exactdp::parametric {

ParameterRange open_unit_interval() { return ParameterRange{Rational(0), Rational(1), true, true}; }

bool inside_open_unit_interval(const ParameterRange& range) {
  const bool low = range.lower > 0 || (range.lower == 0 && range.lower_open);
  const bool high = range.upper < 1 || (range.upper == 1 && range.upper_open);
  return low && high;
}

int ParametricField::sign(const Value& x) {
  if (x.is_zero()) return 0;
  if (x.is_constant()) return sgn(x.evaluate(Rational(0)));
  // the closed forms ask for the signs of few distinct functions (the noise parameters, the bases)
  struct Hash {
    std::size_t operator()(const Value& f) const { return f.hash(); }
  };
  thread_local std::unordered_map<Value, int, Hash> known;
  if (auto it = known.find(x); it != known.end()) return it->second;
  const SignPartition p = sign_partition({x}, open_unit_interval());
  const int s = p.signs[0].front();
  for (int t : p.signs[0])
    if (t != s)
      throw Error("parametric::ParametricField", "", x.to_string("r"),
                  "the sign of this quantity is not the same for every r in (0, 1): the closed form would need a case split on r");
  if (known.size() > 4096) known.clear();
  known.emplace(x, s);
  return s;
}

}  // namespace exactdp::parametric

namespace exactdp::noise {
template class BasicPiecewiseExp<parametric::ParametricField>;
template class BasicLatentThreshold<parametric::ParametricField>;
}  // namespace exactdp::noise
