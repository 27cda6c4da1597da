/// @file
/// Composite files (`"format": "exactdp-composite/1"`, docs/simulate.md, spec/composites/): a
/// composite mechanism P∘*ExtConComp with a deterministic post-processor P, for the checker of
/// HSV §6 (reduce/complex_mechanism.hpp; THEOREMS.md A.10, B.17). The file gives P as a table
/// (`processor`, `input_relation` f, `output_relation` f′, the sub-mechanisms' `answers`,
/// `horizon`), or names a composite of the library (`library`, `params`, optional `horizon`).
///
/// Read with the one JSON reader (io/json_reader.hpp): a repeated key is an error, relations are
/// read by io::read_neighbour_relation (pairs or automaton), and every error is an exactdp::Error
/// naming the file, the JSON Pointer and the value.
#pragma once

#include "exactdp/reduce/complex_mechanism.hpp"

#include <filesystem>
#include <string>

namespace exactdp {

/// A composite file as read: the instance for check_composite_conditions and its name.
struct CompositeFile {
  CompositeInstance instance;
  std::string name;
};

/// Reads and checks a composite file.
CompositeFile load_composite_file(const std::filesystem::path& file);

}  // namespace exactdp
