/// @file
/// Pair files (`"format": "exactdp-pair/1"`, spec/mechanisms/examples/rr-pair.json): a
/// noninteractive neighbouring pair (P, Q) of finite distributions for `exactdp profile --pair`.
///
/// ```json
/// {"format": "exactdp-pair/1",
///  "P": {"yes": "3/4", "no": "1/4"},
///  "Q": {"yes": "1/4", "no": "3/4"}}
/// ```
///
/// Masses are exact numbers (io/json_reader.hpp): strings such as "1/3", "0.1", "1e-5", or JSON
/// integers; JSON numbers with a fraction are refused because they are binary floating point. An
/// outcome missing from one side has mass 0 there. A repeated key is an error. Every error is an
/// exactdp::Error naming the file, the JSON Pointer (e.g. `/P/yes`) and the value.
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace exactdp {

/// Parses pair text; @p source names it in errors.
PrivacyLoss parse_pair(std::string_view text, const std::string& source);

/// Reads and parses a pair file; errors name the file as given.
PrivacyLoss load_pair_file(const std::filesystem::path& file);

}  // namespace exactdp
