#include "app/WorldBench.h"
#include "app/Stat.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include "app/ProjectFiles.h"
#include "app/RunWorld.h"
#include "base/Error.h"
#include "fracture/FractureBodies.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "scene/SceneLoader.h"
#include "sim/Simulation.h"

namespace floe {
namespace {

struct WorldTiming {
    double median = 0, mean = 0, coupling = 0; // GPU ms per timed step; the coupling passes' median
    uint32_t fragments = 0;                    // fracture bodies' fragments after the last step
    uint32_t fluidParticles = 0;
};

// The world's steps one at a time, each read back and collected as floe run collects it (a
// fracture body's cuts included), timed by its passes.
WorldTiming timeWorld(gpu::Context& context, const gpu::ShaderLibrary& shaders, const Scene& scene, int warmup, int steps)
{
    graph::RenderGraph graph(context);
    RunWorld world(context, shaders, graph, scene, 0.0);
    gpu::FrameResources frames(context, 1);
    std::vector<double> total, coupling;
    double sum = 0.0;
    for (int k = 0; k < warmup + steps; ++k) {
        world.beginStep(0, double(k + 1) * world.timeStep());
        VkCommandBuffer cmd = frames.begin(0);
        world.addStep(graph);
        world.addReadbacks(graph, 0);
        graph.execute(cmd, &frames.timer(0));
        frames.submit(0);
        frames.wait(0);
        (void)world.collect(graph, 0, double(k + 1) * world.timeStep());
        if (k < warmup) continue;
        double ms = 0, couplingMs = 0;
        for (const gpu::PassTime& p : frames.timer(0).results()) {
            ms += p.ms;
            if (p.name.rfind("coupling/", 0) == 0 || p.name.rfind("sph/solid_", 0) == 0) couplingMs += p.ms;
        }
        total.push_back(ms);
        coupling.push_back(couplingMs);
        sum += ms;
    }
    WorldTiming t;
    t.median = median(total);
    t.mean = steps ? sum / steps : 0.0;
    t.coupling = median(coupling);
    if (world.fracture()) t.fragments = world.fracture()->report().fragments;
    if (world.fluid()) t.fluidParticles = world.fluid()->count();
    return t;
}

} // namespace

nlohmann::ordered_json couplingCost(gpu::Context& context, const gpu::ShaderLibrary& shaders, const std::string& name, int warmup,
                                    int steps)
{
    const std::filesystem::path file = findProjectFile("assets/scenes/" + name + ".json");
    if (file.empty()) throw Error(fmt::format("floe bench: assets/scenes/{}.json not found (run from the repository)", name));
    const Scene scene = loadScene(file);
    if (scene.fluidBlocks.empty() && scene.fluidModels.empty()) {
        // Deformable and fracture bodies in contact (coupling/SolidContacts): each kind alone.
        Scene deformableAlone = scene, fractureAlone = scene;
        deformableAlone.fractureBodies.clear();
        fractureAlone.deformableBodies.clear();
        std::fprintf(stderr, "floe bench: %s together, deformable bodies alone, fracture bodies alone ...\n", name.c_str());
        const WorldTiming together = timeWorld(context, shaders, scene, warmup, steps);
        const WorldTiming deformable = timeWorld(context, shaders, deformableAlone, warmup, steps);
        const WorldTiming fracture = timeWorld(context, shaders, fractureAlone, warmup, steps);
        return {{"scene", name},
                {"warmup", warmup},
                {"steps", steps},
                {"fragments_after", together.fragments},
                {"together_gpu_ms_per_step", together.median},
                {"together_gpu_ms_per_step_mean", together.mean},
                {"contact_passes_gpu_ms_per_step", together.coupling},
                {"deformable_alone_gpu_ms_per_step", deformable.median},
                {"fracture_alone_gpu_ms_per_step", fracture.median},
                {"contact_overhead_gpu_ms_per_step", together.median - deformable.median - fracture.median}};
    }
    Scene fluidAlone = scene, solidsAlone = scene;
    fluidAlone.deformableBodies.clear();
    fluidAlone.fractureBodies.clear();
    solidsAlone.fluidBlocks.clear();
    solidsAlone.fluidModels.clear();
    std::fprintf(stderr, "floe bench: %s coupled, fluid alone, solids alone ...\n", name.c_str());
    const WorldTiming coupled = timeWorld(context, shaders, scene, warmup, steps);
    const WorldTiming fluid = timeWorld(context, shaders, fluidAlone, warmup, steps);
    const WorldTiming solids = timeWorld(context, shaders, solidsAlone, warmup, steps);
    return {{"scene", name},
            {"warmup", warmup},
            {"steps", steps},
            {"fluid_particles", coupled.fluidParticles},
            {"fluid_alone_particles", fluid.fluidParticles}, // sampled without the solids in it
            {"fragments_after", coupled.fragments},
            {"coupled_gpu_ms_per_step", coupled.median},
            {"coupled_gpu_ms_per_step_mean", coupled.mean},
            {"coupling_passes_gpu_ms_per_step", coupled.coupling},
            {"fluid_alone_gpu_ms_per_step", fluid.median},
            {"bodies_alone_gpu_ms_per_step", solids.median},
            {"coupling_overhead_gpu_ms_per_step", coupled.median - fluid.median - solids.median}};
}

} // namespace floe
