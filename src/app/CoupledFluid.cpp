#include "app/CoupledFluid.h"

#include <nlohmann/json.hpp>

#include "app/SceneSetup.h"
#include "io/Csv.h"

namespace floe {

CoupledFluid coupleFluid(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const Scene& scene,
                         body::DeformableBodies* bodies, fracture::FractureBodies* fracture)
{
    CoupledFluid c;
    if (scene.fluidBlocks.empty() && scene.fluidModels.empty()) return c;
    c.world = makeWorld(scene, scene.config.stopAt);
    const FluidSampling sampled = sampleFluid(scene);
    c.fluid = std::make_unique<sim::Simulation>(context, shaders, graph, c.world, scene.sph, sampled.positions, sampled.velocities);
    c.coupling = std::make_unique<coupling::FluidSolidCoupling>(context, shaders, graph, *c.fluid, bodies, fracture);
    c.energyLimit = energyBound(scene, c.world, sampled);
    return c;
}

sim::StepMetrics CoupledFluid::record(io::CsvWriter& csv, const sim::StepReadback& readback, const Scene& scene,
                                      std::string& blowUp)
{
    const sim::StepMetrics f = fluid->decode(readback);
    csv.set("density_error_avg", f.densityErrorAvg);
    csv.set("density_error_max", f.densityErrorMax);
    csv.set("solver_iterations", uint64_t(f.iterations));
    densityError.add(f.densityErrorAvg);
    solidCorrections = f.solidCorrections;
    blowUp = fluidDivergence(f, HUGE_VAL, scene.sph.pressureSolver() == sim::PressureSolver::Eos);
    return f;
}

void CoupledFluid::summarize(nlohmann::ordered_json& summary, const Scene& scene) const
{
    summary["solver"] = sim::pressureSolverName(scene.sph.pressureSolver());
    summary["fluid_particles"] = fluid->count();
    summary["boundary_particles"] = fluid->boundaryCount();
    summary["solid_samples"] = coupling->sampleCount();
    summary["density_error_avg"] = densityError.json();
    summary["solid_corrections"] = solidCorrections;
}

} // namespace floe
