// libFuzzer target: the claims parser (io/claims.hpp), including the mechanism SPEC strings it
// reads (accounting/mechanism_spec.hpp). Inputs must parse or be refused with exactdp::Error; the audit itself
// is not run (its cost is legitimately large for large claims).
#include "exactdp/core/error.hpp"
#include "exactdp/io/claims.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto claims = exactdp::parse_claims(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    (void)claims;
  } catch (const exactdp::Error&) {
  }
  return 0;
}
