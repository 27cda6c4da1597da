#!/usr/bin/env bash
# Builds exactdp (Release) and runs the main job on a bundled example: the exact privacy of
# 10-fold randomized response RR(ln 11/10) — THEOREMS.md E.3 lists its least λ for δ = 1/1000 as
# 81684104240933/40000000000000 — with the closed-form bounds beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_TESTS=OFF -DEXACTDP_BUILD_CLI=ON -DEXACTDP_BUILD_BENCH=OFF >/dev/null
cmake --build build/release --target exactdp_cli >/dev/null
exec build/release/exactdp compose --mechanism rr:lambda=11/10 --times 10 \
  --delta 1/1000 --epsilon 0.5 --lambda 2 --alpha 2 --tradeoff "$@"
