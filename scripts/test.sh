#!/usr/bin/env bash
# Builds exactdp in Debug with AddressSanitizer and UndefinedBehaviorSanitizer and runs the
# whole test suite through CTest: unit and property tests (GoogleTest + RapidCheck), the
# command-line tests (pytest), the install + find_package consumer test and the documentation
# build (Doxygen, warnings are errors).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DEXACTDP_BUILD_TESTS=ON -DEXACTDP_BUILD_CLI=ON -DEXACTDP_BUILD_DOCS=ON -DEXACTDP_BUILD_BENCH=OFF \
  -DPython3_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build build/test -j "$jobs"
cd build/test
ctest --output-on-failure -j "$jobs" "$@"
