// floe bench's bodies suite (digest-002 Tables 7.2 and 7.3): GPU ms per step of deformable-body
// scenes sized like the thesis' three (about 7.6k, 21k and 32k particles), and the cost against
// the region size omega = 1..5 for a 30k-particle cube, path scans (fast) against summing each
// region's members (naive), in the same run.
#pragma once

#include <nlohmann/json.hpp>

namespace floe {
namespace gpu {
class Context;
class ShaderLibrary;
} // namespace gpu

struct BodyBenchOptions {
    int steps = 20, warmup = 5;
    int cubeSegments = 71; // 6 * 71^2 + 2 = 30248 vertices
};

nlohmann::ordered_json bodyBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const BodyBenchOptions& options);
void printBodyBench(const nlohmann::ordered_json& results);

} // namespace floe
