#!/usr/bin/env bash
# Installs missing packages, configures and builds Floe (Release) into build/. Shared by
# tools/demo.sh and tools/test.sh; safe to run again (incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build --parallel "$(nproc)"
