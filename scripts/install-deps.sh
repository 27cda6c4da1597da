#!/usr/bin/env bash
# Installs what exactdp needs to build, test and document itself, from Debian's packages (and
# pytest from PyPI if the Python in PATH lacks it). Installs only what is missing, so a second
# run is quick. Used by both README commands.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  libgmp-dev libmpfr-dev libmpfi-dev
  libcdd-dev
  libflint-dev libflint-arb-dev
  libgtest-dev librapidcheck-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev
  libsodium-dev libtbb-dev
  libcairo2-dev
  doxygen graphviz
  python3
  python3-dev python3-pip python3-venv
  python3-mpmath
)
# clang and its libFuzzer runtime only for the coverage-guided fuzz run (EXACTDP_FUZZ=ON scripts/test.sh)
if [ "${EXACTDP_FUZZ:-OFF}" = "ON" ]; then packages+=(clang libclang-rt-14-dev); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "exactdp: installing Debian packages: ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# pytest drives the command-line tests (tests/cli).
if ! python3 -c 'import pytest' 2>/dev/null; then
  echo "exactdp: installing pytest" >&2
  # from PyPI into the python3 in PATH; Debian's own Python refuses pip (PEP 668), so fall back
  # to its package
  python3 -m pip install --quiet pytest 2>/dev/null || {
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-pytest >/dev/null
  }
fi
