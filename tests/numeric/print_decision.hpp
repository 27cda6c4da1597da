/// @file
/// GoogleTest printers for the decision types, so that failed EXPECT_EQs show "yes (precision 64)"
/// rather than raw bytes. Found by argument-dependent lookup, hence in namespace exactdp.
#pragma once

#include "exactdp/numeric/decide.hpp"

#include <ostream>

namespace exactdp {
inline void PrintTo(const Decision& d, std::ostream* os) { *os << to_string(d); }
inline void PrintTo(Tri t, std::ostream* os) { *os << to_string(t); }
}  // namespace exactdp
