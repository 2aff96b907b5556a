// floe bench's render suite: GPU ms per render pass at a given resolution (1280x720 by
// default), for particles and for the fluid surface, at three particle counts.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace floe {
namespace gpu {
class Context;
class ShaderLibrary;
} // namespace gpu

struct RenderBenchOptions {
    std::vector<uint64_t> counts; // particles (empty: three sized for the device)
    uint32_t width = 1280, height = 720;
    int repetitions = 5; // timed frames per case (median), after one warm-up frame
};

nlohmann::ordered_json renderBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const RenderBenchOptions& options);
void printRenderBench(const nlohmann::ordered_json& results);

} // namespace floe
