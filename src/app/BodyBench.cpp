#include "app/BodyBench.h"
#include "app/LaunchBudget.h"
#include "app/Stat.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "app/DeformablePart.h"
#include "app/ProjectFiles.h"
#include "app/WorldBench.h"
#include "base/Error.h"
#include "body/DeformableBodies.h"
#include "body/SurfaceMesh.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "scene/Scene.h"
#include "scene/SceneLoader.h"
#include "scene/SceneSetup.h"
#include "shared/body.h"
#include "sim/Simulation.h"

namespace floe {
namespace {

using Json = nlohmann::ordered_json;

body::BodyInstance at(geometry::TriangleMesh mesh, const glm::vec3& offset)
{
    for (glm::vec3& p : mesh.vertices) p += offset;
    return {mesh, 1000.0f, glm::vec3(0.0f), glm::vec3(0.0f)};
}

// `count` copies of `shapes` (cycled) on a grid, 1.2 m apart, stacked in layers above the floor.
std::vector<body::BodyInstance> grid(const std::vector<geometry::TriangleMesh>& shapes, int count)
{
    std::vector<body::BodyInstance> out;
    for (int i = 0; i < count; ++i) {
        const int x = i % 4, z = (i / 4) % 4, layer = i / 16;
        out.push_back(
            at(shapes[size_t(i) % shapes.size()], {1.2f * float(x - 1.5f), 0.8f + 1.2f * float(layer), 1.2f * float(z - 1.5f)}));
    }
    return out;
}

struct Timing {
    double gpuMs = 0, wallMs = 0, volumeError = 0;
    nlohmann::ordered_json launchBudget; // per step
};

// Median GPU ms per step (all of the step's passes) after `warmup` steps.
Timing timeSteps(gpu::Context& context, const gpu::ShaderLibrary& shaders, const std::vector<body::BodyInstance>& bodies,
                 const body::BodySettings& settings, const BodyBenchOptions& o, uint32_t& particles)
{
    graph::RenderGraph graph(context);
    body::DeformableBodies sim(context, shaders, graph, bodies, settings);
    particles = sim.particleCount();
    gpu::FrameResources frames(context, 1);
    gpu::Buffer metrics(context, {"bench body metrics", uint64_t(sim.bodyCount()) * 16, gpu::MemoryKind::Readback});
    std::vector<double> gpu, wall;
    Timing t;
    for (int k = 0; k < o.warmup + o.steps; ++k) {
        const auto start = std::chrono::steady_clock::now();
        VkCommandBuffer cmd = frames.begin(0);
        sim.addStep(graph);
        sim.addMetricsReadback(graph, metrics);
        graph.addHostRead(metrics);
        graph.execute(cmd, &frames.timer(0));
        frames.submit(0);
        frames.wait(0);
        if (k < o.warmup) {
            graph.resetStats();
            continue;
        }
        double ms = 0;
        for (const gpu::PassTime& p : frames.timer(0).results()) ms += p.ms;
        gpu.push_back(ms);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        for (const glm::vec4& m : metrics.readVector<glm::vec4>(sim.bodyCount()))
            t.volumeError = std::max(t.volumeError, double(std::fabs(m.x)));
    }
    t.gpuMs = median(gpu);
    t.wallMs = median(wall);
    t.launchBudget = launchBudgetJson(graph.stats(), double(o.steps));
    return t;
}

} // namespace

Json bodyBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const BodyBenchOptions& o)
{
    Json out = Json::object();
    body::BodySettings base;
    base.timeStep = 0.005f;
    base.domainMin = glm::vec3(-4.0f, 0.0f, -4.0f);
    base.domainMax = glm::vec3(4.0f, 20.0f, 4.0f);
    base.bodyContacts = false; // as Table 7.2: shape matching and volume, collision detection excluded

    // 1. Scenes sized like digest-002 Table 7.2 (omega, alpha/s as there; global/local volume).
    struct SceneCase {
        const char* name;
        std::vector<geometry::TriangleMesh> shapes;
        int count, omega;
        float alpha, stiffness;
    };
    const std::vector<SceneCase> scenes = {
        {"balls (Table 7.2: 7640)", {body::makeSphere(0.3f, 3)}, 12, 2, 0.5f, 1.0f},
        {"tori and capsules (Table 7.2: 21280)",
         {body::makeTorus(0.35f, 0.12f, 36, 18), body::makeCapsule(0.18f, 0.4f, 36, 9)},
         32,
         2,
         0.2f,
         1.0f},
        {"large spheres (Table 7.2: 32442)", {body::makeSphere(0.45f, 4)}, 13, 3, 0.1f, 0.9f},
    };
    Json sceneRows = Json::array();
    for (const SceneCase& c : scenes) {
        body::BodySettings s = base;
        s.omega = c.omega;
        s.alpha = c.alpha;
        s.stiffness = c.stiffness;
        s.volumeMode = BODY_VOLUME_GLOBAL;
        fmt::print(stderr, "floe bench: bodies: {} ...\n", c.name);
        uint32_t particles = 0;
        const Timing t = timeSteps(context, shaders, grid(c.shapes, c.count), s, o, particles);
        sceneRows.push_back({{"scene", c.name},
                             {"bodies", c.count},
                             {"particles", particles},
                             {"omega", c.omega},
                             {"gpu_ms_per_step", t.gpuMs},
                             {"wall_ms_per_step", t.wallMs},
                             {"volume_error_abs_max", t.volumeError},
                             {"launch_budget_per_step", t.launchBudget}});
    }
    out["scenes"] = sceneRows;

    // 2. Cost against omega for one ~30k-particle cube, fast against naive summation.
    Json omegaRows = Json::array();
    const geometry::TriangleMesh cube = body::makeBox({1.0f, 1.0f, 1.0f}, o.cubeSegments);
    for (int omega = 1; omega <= 5; ++omega) {
        Json row = {{"omega", omega}};
        for (const bool naive : {false, true}) {
            body::BodySettings s = base;
            s.omega = omega;
            s.volumeMode = BODY_VOLUME_GLOBAL;
            s.naiveSummation = naive;
            fmt::print(stderr, "floe bench: bodies: cube, omega {}, {} summation ...\n", omega, naive ? "naive" : "fast");
            uint32_t particles = 0;
            const Timing t = timeSteps(context, shaders, {at(cube, {0, 2, 0})}, s, o, particles);
            row["particles"] = particles;
            row[naive ? "naive_gpu_ms_per_step" : "fast_gpu_ms_per_step"] = t.gpuMs;
        }
        const body::BodyLayout layout = body::layoutBody(cube, omega);
        size_t members = 0;
        for (uint32_t c : layout.regionCount) members += c;
        row["intervals_per_region"] = double(layout.intervals.size()) / double(layout.rest.size());
        row["members_per_region"] = double(members) / double(layout.rest.size());
        omegaRows.push_back(row);
    }
    out["omega"] = omegaRows;
    const auto growth = [&](const char* key) {
        return omegaRows.back()[key].get<double>() / std::max(omegaRows.front()[key].get<double>(), 1e-9);
    };
    out["growth_omega_1_to_5"] = {{"fast", growth("fast_gpu_ms_per_step")}, {"naive", growth("naive_gpu_ms_per_step")}};
    out["coupling"] = couplingCost(context, shaders, "coupled_ball_pool", o.warmup, o.steps);
    return out;
}

void printBodyBench(const Json& r)
{
    fmt::print("\nDeformable bodies (GPU ms per step, median of the timed steps; shape matching and global volume correction, "
               "without contacts between bodies, as digest-002 Table 7.2)\n\n");
    fmt::print("{:<40} {:>7} {:>10} {:>6} {:>12} {:>13}\n", "scene", "bodies", "particles", "omega", "GPU ms/step", "max |dV|/V0");
    for (const Json& s : r["scenes"])
        fmt::print("{:<40} {:>7} {:>10} {:>6} {:>12.3f} {:>12.4f}%  ({} per step)\n", s["scene"].get<std::string>(),
                   s["bodies"].get<int>(), s["particles"].get<uint32_t>(), s["omega"].get<int>(),
                   s["gpu_ms_per_step"].get<double>(), 100.0 * s["volume_error_abs_max"].get<double>(),
                   launchBudgetText(s["launch_budget_per_step"]));
    fmt::print("\nCube of {} particles against omega (digest-002 Table 7.3)\n\n", r["omega"][0]["particles"].get<uint32_t>());
    fmt::print("{:>6} {:>12} {:>12} {:>10} {:>10}\n", "omega", "fast ms", "naive ms", "intervals", "members");
    for (const Json& o : r["omega"])
        fmt::print("{:>6} {:>12.3f} {:>12.3f} {:>10.1f} {:>10.1f}\n", o["omega"].get<int>(),
                   o["fast_gpu_ms_per_step"].get<double>(), o["naive_gpu_ms_per_step"].get<double>(),
                   o["intervals_per_region"].get<double>(), o["members_per_region"].get<double>());
    fmt::print("growth from omega 1 to 5: fast {:.2f}x, naive {:.2f}x (Diziol, GTX 470: 1.3x and 4.6x)\n",
               r["growth_omega_1_to_5"]["fast"].get<double>(), r["growth_omega_1_to_5"]["naive"].get<double>());
    const Json& c = r["coupling"];
    fmt::print("\nCoupling ({}, {} fluid particles; GPU ms per step): coupled {:.3f}, of which the coupling's passes {:.3f}; fluid "
               "alone {:.3f}, bodies alone {:.3f}; the coupled step costs {:+.3f} over the two\n",
               c["scene"].get<std::string>(), c["fluid_particles"].get<size_t>(), c["coupled_gpu_ms_per_step"].get<double>(),
               c["coupling_passes_gpu_ms_per_step"].get<double>(), c["fluid_alone_gpu_ms_per_step"].get<double>(),
               c["bodies_alone_gpu_ms_per_step"].get<double>(), c["coupling_overhead_gpu_ms_per_step"].get<double>());
}

} // namespace floe
