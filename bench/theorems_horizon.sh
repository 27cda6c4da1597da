#!/usr/bin/env bash
# For each theorem check: its time at the default budget, and the largest horizon it reaches within
# 60 s. The second figure raises `--max-horizon T` (T = 1, 2, …, 16) with N random instances until a
# run exceeds 60 s or fails, or until the check no longer uses the cap (its largest horizon stays
# below T three times in a row: its instances have a fixed size); the figure is the largest
# "horizon" column of the runs that finished in time.
# Usage: bench/theorems_horizon.sh EXACTDP_BIN [N random, default 5] [ID ...]  (default: every
# registered check). Prints one Markdown table row per check.
set -uo pipefail
exe=${1:?usage: bench/theorems_horizon.sh EXACTDP_BIN [N] [ID ...]}
n=${2:-5}
shift 2 2>/dev/null || shift $#
ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
  mapfile -t ids < <("$exe" theorems | awk '$3 == "checkable" {print $1}')
fi
field() { python3 -c 'import json,sys; t=json.load(sys.stdin)["theorems"][0]; print(t[sys.argv[1]])' "$1"; }
echo "| check | default budget: time | horizon | largest horizon within 60 s ($n random) | that run's time |"
echo "|---|---|---|---|---|"
for id in "${ids[@]}"; do
  out=$("$exe" theorems check "$id" --json 2>/dev/null)
  dsec=$(printf '%s' "$out" | field seconds)
  dhor=$(printf '%s' "$out" | field largest_horizon)
  best=0 secs=0 short=0
  for t in $(seq 1 16); do
    start=$(date +%s.%N)
    out=$(timeout 60 "$exe" theorems check "$id" --max-horizon "$t" --random "$n" --json 2>/dev/null) || break
    end=$(date +%s.%N)
    reached=$(printf '%s' "$out" | field largest_horizon)
    if [ "$reached" -gt "$best" ]; then best=$reached; secs=$(echo "$end - $start" | bc); fi
    # random instances draw their horizons up to the cap, so one run may stay below it; a check whose
    # largest horizon stays below the cap three times in a row has fixed-size instances
    if [ "$reached" -ge "$t" ]; then short=0; else short=$((short + 1)); fi
    [ "$short" -lt 3 ] || break
  done
  printf '| %s | %.2f s | %s | %s | %.1f s |\n' "$id" "$dsec" "$dhor" "$best" "$secs"
done
