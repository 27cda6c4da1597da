// Reading a pair of distributions (P, Q) from a JSON file.
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"

#include <string>

namespace exactdp::cli {

/// Reads a pair file:
///
///     {"format": "exactdp-pair/1",
///      "P": {"yes": "3/4", "no": "1/4"},
///      "Q": {"yes": "1/4", "no": "3/4"}}
///
/// Masses are exact numbers written as strings ("1/3", "0.1", "1e-5") or JSON integers; JSON
/// non-integers are refused because they are binary floating point. An outcome missing from one
/// side has mass 0 there. Throws exactdp::Error naming the file, the field and the value.
PrivacyLoss read_pair_file(const std::string& path);

}  // namespace exactdp::cli
