#!/usr/bin/env bash
# The short fuzz run of the test suite (ctest `fuzz_smoke`, added by -DEXACTDP_BUILD_FUZZ=ON when
# clang++ is found): builds tests/fuzz with clang in BUILD/fuzz and runs each libFuzzer target for
# SECONDS seconds (default 15) on a scratch copy of its seed corpus (the repository's corpus is
# never modified). Any crash, sanitizer report, timeout (>10 s per input) or allocation above
# 2 GB fails the test; libFuzzer writes the reproducer (crash-*, timeout-*, oom-*) into BUILD/fuzz.
# Arguments: the build directory, the source directory, [seconds per target].
set -euo pipefail
build=$1 src=$2 seconds=${3:-15}
out="$build/fuzz"
cmake -S "$src/tests/fuzz" -B "$out" -G Ninja -DCMAKE_CXX_COMPILER="${CLANGXX:-clang++}" \
  -DCMAKE_BUILD_TYPE= >/dev/null
# the build's output is shown only when it fails (ctest --output-on-failure then shows the error)
if ! cmake --build "$out" -j 2 >"$out/build.log" 2>&1; then
  tail -n 60 "$out/build.log"
  exit 1
fi
for target in spec_file claims; do
  scratch=$(mktemp -d)
  cp "$src/tests/fuzz/corpus/$target/"* "$scratch/"
  (cd "$out" && "./fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -max_len=4096 -print_final_stats=1 "$scratch" 2>&1 | tail -n 12)
  rm -rf "$scratch"
done
