#!/usr/bin/env bash
# All tests: install what is missing, build, run every CPU and GPU test on lavapipe with the
# validation layer and synchronization validation on, then the CPU tests again in a separate
# AddressSanitizer/UndefinedBehaviorSanitizer build (build-asan/). Non-zero exit on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
tools/build.sh

# GPU tests on lavapipe; a missing device is a failure, not a skip. FLOE_POISON=1: every new
# buffer starts as 0xFFFFFFFF (NaN), so that reading memory nothing wrote fails a test.
export FLOE_REQUIRE_GPU=1 FLOE_EXPECT_LAVAPIPE=1 FLOE_VALIDATE=1 FLOE_POISON=1 FLOE_ROBUST=1
echo "test: full build (CPU and GPU tests, lavapipe, validation on)"
ctest --test-dir build --output-on-failure --parallel 2 --timeout 900 -L cpu
# Two GPU test processes at a time (the machine's two cores; lavapipe runs a small dispatch on
# one thread, so two processes halve the wall time: 411 s -> about 215 s for this pass). Early on,
# with two at once (lavapipe, its shader cache in ~/.cache and the validation layer), fresh-clone
# runs crashed twice (a SIGBUS 0.08 s into a process, before any test code ran; a heap corruption
# in another test), never when run alone; the re-run below covers such a crash, as it has for the
# subgroup-4 pass, which has run two at a time since stop 22.
#
# A failure whose output shows the process crashing inside the driver stack (a glibc heap-check
# abort, a segfault or bus error) is re-run once, loudly: the CI run of stop 10 lost a test to
# "malloc(): unaligned fastbin chunk detected" in a floe child process that 40 runs of the same
# command here (35 under validation, 27 of them with glibc's MALLOC_CHECK_=3) and 2 under
# valgrind memcheck never reproduced. A std::bad_alloc counts as such a crash: no test asks for
# more than a few hundred MB, so it is a corrupted heap handing a garbage size to an allocation
# (CouplingTest.FractureBlocksFloat... threw one in the set-up after its pool run, 40 s in, on
# 2026-11-28, and passed alone under CI's environment; the family is still unexplained). A test
# that fails by its own assertion is never re-run, and a crash that repeats fails the run.
gpuTests() { # LOG PARALLEL [ctest arguments...]
  local log=$1 parallel=$2
  shift 2
  if ! tools/with-lavapipe.sh ctest --test-dir build --output-on-failure --parallel "$parallel" --timeout 900 "$@" 2>&1 | tee "$log"; then
    crash='malloc\(\)|free\(\)|corrupted|double free|std::bad_alloc|Segmentation fault|SIGSEGV|Bus error|SIGBUS|Subprocess aborted|Exception: SegFault|Exception: Bus|Which is: (134|135|139)\b'
    if grep -qE "$crash" "$log"; then
      echo "test: WARNING: a GPU test crashed (output above); re-running the failed tests once" >&2
      # With the pass's own filters: ctest numbers the tests of a filtered run among themselves
      # and --rerun-failed picks by number, so without them the subgroup-4 pass re-ran another
      # test (a crash of FractureTest.BodiesRestOnStaticMeshes..., #165 there, re-ran
      # Cli.GpuAssistedValidation..., #165 of the whole list).
      tools/with-lavapipe.sh ctest --test-dir build --output-on-failure --parallel 1 --timeout 900 "$@" --rerun-failed
    else
      exit 1
    fi
  fi
}
FLOE_EXPECT_SUBGROUP=8 gpuTests build/gpu-tests.log 2 -L gpu

# The GPU kernels again with subgroups of 4 (lavapipe's default is 8; GPUs have 32 or 64): no
# algorithm may depend on the subgroup size. The same pass takes the paths a GPU's
# non-coherent host-visible memory needs (flushes and invalidations, FLOE_NONCOHERENT=1). The
# tests of the executable's inputs and outputs (Cli.*) and of the window (ViewTest.*) do not
# depend on either and are left out for time, and two test processes run at once (4.4 against
# about 2.5 minutes; a crash inside the driver stack is re-run once, alone, as above). So are
# the fracture drops that check a scene's physics over hundreds of steps (about 70 s of this
# pass): every fracture pass they run has a test of its own here (stress, tets, cuts, labels,
# contacts, restitution, energy, metrics), and the free flights run the whole step. The same for
# the buoyancy runs of the coupling (the balls, the blocks and the neutral bodies: about 450 s of
# this pass, which ran the blocks and the neutral bodies after a rename until 2026-11-29): the
# coupling's passes, for both kinds of solid, run in its momentum tests here.
sg4Skip='^(Cli|ViewTest)\.|^FractureTest\.(Drop|SeededDrops|ConstraintMethodIronCone|BodiesCollide|DuctileNodes)|^CouplingTest\.(Balls|Blocks|NeutrallyBuoyant)'
echo "test: GPU tests with subgroups of 4 (LP_NATIVE_VECTOR_WIDTH=128) and non-coherent mapped memory"
LP_NATIVE_VECTOR_WIDTH=128 FLOE_EXPECT_SUBGROUP=4 FLOE_NONCOHERENT=1 gpuTests build/gpu-tests-subgroup4.log 2 -L gpu -E "$sg4Skip"

echo "test: CPU tests under ASan/UBSan (build-asan/)"
if [[ ! -f build-asan/CMakeCache.txt ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOE_CPU_ONLY=ON -DFLOE_SANITIZE=ON >/dev/null
fi
cmake --build build-asan --parallel "$(nproc)"
ctest --test-dir build-asan --output-on-failure --parallel 2

echo "test: all passed in $(( $(date +%s) - start )) s"
