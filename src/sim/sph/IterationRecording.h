// How many iterations of an iterative pressure solve (IISPH, DFSPH's two solves, PCISPH, PBF) a
// step records as dispatches. Each recorded iteration costs its two or three dispatches even after
// the solve has stopped on the GPU (their group count is then zero): 17-28 us each on lavapipe,
// about 1 us on an H200. Recording the solver's cap (SPlisHSPlasH's scenes say 100) for a solve
// that needs 3 spent a quarter of DFSPH's wall time on empty dispatches (3D dam break, lavapipe).
// So a run that can replay a step records what the solve needed in recent steps, with a margin; a
// step whose solve ran out of recorded iterations before its tolerance is replayed from the
// snapshot before it with every iteration recorded (sim::Simulation::stoppedShort,
// app/RunCommand; a fluid with solids goes back with them, RunWorld::addSnapshot). The
// results are those of recording the cap, bit for bit.
//
// Tried first and not kept: one workgroup that carries an unfinished solve on after the recorded
// iterations, in one dispatch. llvmpipe ends every loop of an invocation after 65535 iterations
// in all (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS, shared by every loop of a shader): with the
// neighbour loops inside, such a dispatch stopped after 7 iterations of 25k particles.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "sim/sph/SphSettings.h"

namespace floe::sim {

// The most iterations a solve needed over the last kWindow steps whose metrics arrived.
class IterationHistory {
public:
    static constexpr uint32_t kWindow = 32;
    void add(uint32_t iterations);
    void clear() { count_ = 0; }
    std::optional<uint32_t> most() const; // none before the first step arrives
private:
    std::array<uint32_t, kWindow> ring_{};
    uint32_t count_ = 0; // steps added, all time
};

// The iterations a step records: twice the recent most plus 4 (8 + 4 before any history), at
// least the solve's minimum and 1, at most its maximum; the margin keeps replays rare. `forced`
// (tests, FLOE_RECORD_ITERATIONS) records exactly that many, within the same bounds.
int recordedIterations(const IterationLimits& limits, const IterationHistory& history, std::optional<int> forced = {});

// FLOE_RECORD_ITERATIONS: unset or "adaptive" (the rule above), "all" (the solver's cap), or a
// count; anything else throws floe::Error naming the variable.
std::optional<int> recordIterationsFromEnvironment();

} // namespace floe::sim
