// floe bench's SPH suite: solver throughput per particle count and the EOS/IISPH cost ratios.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/GpuTimer.h"

namespace floe {
namespace gpu {
class Context;
class ShaderLibrary;
} // namespace gpu

struct SphBenchOptions {
    std::filesystem::path scene2D, scene3D;       // throughput scenes (empty: skipped)
    std::vector<uint64_t> counts2D, counts3D;     // particle counts the scenes are resampled to
    uint64_t warmupSteps = 10, steps = 40;        // per throughput case
    std::vector<std::filesystem::path> dtScenes;  // scenes of the largest-stable-dt search
    double dtSeconds = 1.0;                       // simulated seconds per dt trial
    double dtMax = 0.05;                          // s, upper end of the search
    int dtRefinements = 3;                        // bisection steps after bracketing (2^(1/8) = 9 %)
    gpu::TimerMode timers = gpu::TimerMode::Pass; // of the throughput cases (--timers)
};

// Three counts per dimension sized for the device: thousands on a CPU driver, up to 1M on a GPU.
std::vector<uint64_t> defaultSphCounts(const gpu::Context& context, bool sim2D);
nlohmann::ordered_json sphBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const SphBenchOptions& options);
void printSphBench(const nlohmann::ordered_json& results);

} // namespace floe
