#include "app/RenderBench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <fmt/format.h>

#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/GpuTimer.h"
#include "graph/RenderGraph.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "shared/fluid.h"
#include "shared/render.h"
#include "sim/ParticleBuffers.h"

namespace floe {
namespace {

using Json = nlohmann::ordered_json;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// A dam-break-like block: n particles on a cubic lattice filling a box 1 m wide, 0.6 m high
// and 0.5 m deep, in a 2 m wide domain seen from the front and above.
struct Block {
    std::vector<glm::vec4> positions;
    float radius = 0;
};

Block makeBlock(uint64_t n)
{
    const glm::vec3 size(1.0f, 0.6f, 0.5f);
    const float spacing = std::cbrt(size.x * size.y * size.z / float(n));
    const glm::ivec3 cells = glm::max(glm::ivec3(glm::ceil(size / spacing)), glm::ivec3(1));
    Block b;
    b.radius = 0.5f * spacing;
    for (int z = 0; z < cells.z && b.positions.size() < n; ++z)
        for (int y = 0; y < cells.y && b.positions.size() < n; ++y)
            for (int x = 0; x < cells.x && b.positions.size() < n; ++x)
                b.positions.emplace_back(glm::vec3(-1.0f, 0.0f, -0.25f) + spacing * (glm::vec3(x, y, z) + 0.5f), 1.0f);
    return b;
}

} // namespace

Json renderBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const RenderBenchOptions& o)
{
    std::vector<uint64_t> counts = o.counts;
    if (counts.empty())
        counts = context.caps().properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
                     ? std::vector<uint64_t>{8000, 32000, 128000}
                     : std::vector<uint64_t>{100000, 1000000, 4000000};
    graph::RenderGraph graph(context);
    gpu::FrameResources frames(context, 1);
    render::OffscreenTarget target(context, o.width, o.height);
    render::Renderer renderer(context, shaders, render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat, 1);
    Json out = Json::array();
    for (const uint64_t n : counts) {
        if (n > sim::ParticleBuffers::maxParticles(context)) {
            fmt::print(stderr, "floe bench: render: {} particles exceed this device's buffers; skipped\n", n);
            continue;
        }
        const Block block = makeBlock(n);
        const std::vector<glm::vec4> velocities(block.positions.size(), glm::vec4(0));
        const sim::ParticleBuffers particles = sim::ParticleBuffers::create(context, graph, block.positions, velocities);
        render::ViewSettings view;
        const float aspect = float(o.width) / float(o.height);
        view.camera = render::Camera::fit({-1.0f, 0.0f, -0.5f}, {1.0f, 1.0f, 0.5f}, 40.0f, false, aspect);
        view.particleRadius = block.radius;
        view.colorMax = 1.0f;
        view.floorHalfExtent = 1.5f;
        view.fluid = render::fluidSettingsFor(block.radius, {2.0f, 1.0f, 1.0f}, false);
        for (const int mode : {RENDER_MODE_PARTICLES, RENDER_MODE_FLUID}) {
            view.mode = mode;
            fmt::print(stderr, "floe bench: render {} particles as {} at {}x{} ...\n", n, render::renderModeName(mode), o.width,
                       o.height);
            std::map<std::string, std::vector<double>> passMs;
            std::vector<std::string> order;
            std::vector<double> totals;
            for (int r = 0; r <= o.repetitions; ++r) {
                VkCommandBuffer cmd = frames.begin(0);
                renderer.addPasses(graph, target.color(), target.depth(), particles, view, 0);
                graph.execute(cmd, &frames.timer(0));
                frames.submit(0);
                frames.wait(0);
                if (r == 0) continue; // warm-up: pipelines and intermediates are created
                double total = 0;
                for (const gpu::PassTime& t : frames.timer(0).results()) {
                    if (!passMs.count(t.name)) order.push_back(t.name);
                    passMs[t.name].push_back(t.ms);
                    total += t.ms;
                }
                totals.push_back(total);
            }
            Json passes = Json::object();
            for (const std::string& name : order) passes[name] = median(passMs[name]);
            out.push_back({{"mode", render::renderModeName(mode)},
                           {"particles", block.positions.size()},
                           {"width", o.width},
                           {"height", o.height},
                           {"smoothing_iterations", mode == RENDER_MODE_PARTICLES ? 0 : view.fluid.iterations},
                           {"total_ms", median(totals)},
                           {"passes_ms", passes}});
        }
    }
    return out;
}

void printRenderBench(const Json& results)
{
    if (results.empty()) return;
    fmt::print("\nRender passes (GPU ms, median; {}x{})\n\n", results[0]["width"].get<uint32_t>(),
               results[0]["height"].get<uint32_t>());
    for (const Json& r : results) {
        fmt::print("{} particles, {}: total {:.3f} ms\n", r["particles"].get<uint64_t>(), r["mode"].get<std::string>(),
                   r["total_ms"].get<double>());
        for (const auto& [name, ms] : r["passes_ms"].items()) fmt::print("    {:<32} {:>9.3f}\n", name, ms.get<double>());
    }
}

} // namespace floe
