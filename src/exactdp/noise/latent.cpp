// The numeric instance of BasicLatentThreshold (exact rationals); the definitions are written once,
// for every field policy, in latent_impl.hpp.
#include "exactdp/noise/latent.hpp"

#include "exactdp/noise/latent_impl.hpp"

namespace exactdp::noise {

std::string side_name(Side o) { return o == Side::below ? "below" : "above"; }

template class BasicLatentThreshold<RationalField>;

}  // namespace exactdp::noise
