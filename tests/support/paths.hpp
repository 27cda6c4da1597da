// Where the tests find the repository's bundled files (spec/mechanisms/, tests/fuzz/corpus/, …).
// The path comes from CMake (EXACTDP_SOURCE_DIR, an absolute path set in tests/CMakeLists.txt),
// not from __FILE__, which is relative whenever the compiler is handed relative source paths
// (e.g. under ccache with base_dir set), so that the tests work from any working directory.
#pragma once

#include <filesystem>

namespace exactdp::testing {

/// The repository's top-level directory.
inline std::filesystem::path source_dir() { return std::filesystem::path(EXACTDP_SOURCE_DIR); }

/// The bundled mechanism spec files.
inline std::filesystem::path spec_dir() { return source_dir() / "spec" / "mechanisms"; }

}  // namespace exactdp::testing
