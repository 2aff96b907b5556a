#!/usr/bin/env bash
# All tests: install what is missing, build, run every CPU and GPU test on lavapipe with the
# validation layer and synchronization validation on, then the CPU tests again in a separate
# AddressSanitizer/UndefinedBehaviorSanitizer build (build-asan/). Non-zero exit on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
tools/build.sh

# GPU tests on lavapipe; a missing device is a failure, not a skip.
export FLOE_REQUIRE_GPU=1 FLOE_EXPECT_LAVAPIPE=1 FLOE_VALIDATE=1
echo "test: full build (CPU and GPU tests, lavapipe, validation on)"
ctest --test-dir build --output-on-failure --parallel 2 --timeout 900 -L cpu
# One GPU test process at a time: with two at once (lavapipe, its shader cache in ~/.cache and
# the validation layer), fresh-clone runs crashed twice (a SIGBUS 0.08 s into a process, before
# any test code ran; a heap corruption in another test), never when run alone.
tools/with-lavapipe.sh ctest --test-dir build --output-on-failure --parallel 1 --timeout 900 -L gpu

echo "test: CPU tests under ASan/UBSan (build-asan/)"
if [[ ! -f build-asan/CMakeCache.txt ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOE_CPU_ONLY=ON -DFLOE_SANITIZE=ON >/dev/null
fi
cmake --build build-asan --parallel "$(nproc)"
ctest --test-dir build-asan --output-on-failure --parallel 2

echo "test: all passed in $(( $(date +%s) - start )) s"
