#!/usr/bin/env bash
# Builds exactdp in Debug with AddressSanitizer and UndefinedBehaviorSanitizer and runs the
# whole test suite through CTest: unit and property tests (GoogleTest + RapidCheck), the
# command-line tests (pytest), the install + find_package consumer test and the documentation
# build (Doxygen, warnings are errors); then builds and tests the Python package (python/).
# The parsers' fuzz corpus and deterministic mutants of it run in every build (ctest
# fuzz_replay_*); EXACTDP_FUZZ=ON scripts/test.sh adds the coverage-guided libFuzzer run
# (fuzz_smoke), which compiles the library a second time with clang (about five more minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DEXACTDP_BUILD_TESTS=ON -DEXACTDP_BUILD_CLI=ON -DEXACTDP_BUILD_DOCS=ON -DEXACTDP_BUILD_BENCH=OFF -DEXACTDP_BUILD_FUZZ="${EXACTDP_FUZZ:-OFF}" \
  -DPython3_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build build/test -j "$jobs"
# The Python package (python/): pip builds it from ../src with scikit-build-core + nanobind and
# pytest runs python/tests against the CLI just built. It needs pip and the Python headers; a
# Python without them (a bare Debian python3) skips this step with a notice. The package is built
# while CTest runs (their outputs do not meet: no CTest test imports the package), so the compiler
# uses the cores the tests leave idle; its log is shown only if it fails.
python_ok=0
if python3 -m pip --version >/dev/null 2>&1 &&
   python3 -c 'import os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' 2>/dev/null; then
  python_ok=1
fi
install_python() {
  # Debian's Python refuses pip into its own site-packages (PEP 668) unless told; the [testing]
  # extra brings Hypothesis for exactdp.testing.strategies and python/tests/test_testing.py
  python3 -m pip install --quiet "./python[testing,distributed]" 2>/dev/null || python3 -m pip install --quiet --break-system-packages "./python[testing,distributed]" || return 1
  # the accountants audited by python/tests/test_peers_audit.py, at the pinned versions of
  # python/pyproject.toml [audit]; a peer that cannot be installed (no wheel, no network) is skipped
  # by that test with a message. Opacus goes in with --no-deps: it depends on torch (a
  # multi-gigabyte wheel), which its accountants do not use; exactdp.adapters.opacus_loader loads
  # them without torch (docs/audit.md)
  for peer in dp-accounting==0.6.0 opendp==0.16.0 prv-accountant==0.2.0 autodp==0.2.3.1 "--no-deps opacus==1.6.0"; do
    # shellcheck disable=SC2086 # $peer holds pip options and a requirement
    python3 -m pip install --quiet $peer 2>/dev/null || python3 -m pip install --quiet --break-system-packages $peer 2>/dev/null ||
      echo "exactdp: could not install $peer; its audit is skipped" >&2
  done
}
if [ "$python_ok" = 1 ]; then
  install_python >build/test/python-install.log 2>&1 &
  install_pid=$!
fi

ctest_status=0
(cd build/test && ctest --output-on-failure -j "$jobs" "$@") || ctest_status=$?

if [ "$python_ok" = 1 ]; then
  install_status=0
  wait "$install_pid" || install_status=$?
  if [ "$install_status" -ne 0 ]; then
    cat build/test/python-install.log >&2
    echo "exactdp: building the Python package failed (exit $install_status)" >&2
    exit 1
  fi
  grep "could not install" build/test/python-install.log >&2 || true
fi
[ "$ctest_status" -eq 0 ] || exit "$ctest_status"

if [ "$python_ok" = 1 ]; then
  # the sanitized CLI: fontconfig's process-lifetime caches (through cairo, --plot) are suppressed
  LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0" \
  EXACTDP_BIN="$PWD/build/test/exactdp" python3 -m pytest -q -p no:cacheprovider python/tests
else
  echo "exactdp: skipping the Python package tests: python3 lacks pip or its headers (Python.h)" >&2
fi
