// sim::Simulation's non-pressure pass (sph/nonpressure): v* = v + dt (g + viscosity) (+ XSPH),
// in substeps where a fixed step is above the explicit viscosity's stability bound.
#include <algorithm>

#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/sph.h"
#include "sim/Simulation.h"

namespace floe::sim {

uint32_t Simulation::viscousSubsteps() const
{
    // Not beside solids (their viscous reaction, sph/solid_impulses, is one term of the step's
    // velocities), nor for an equation of state (sph/integrate takes its viscosity in its walk).
    if (solidCount_ > 0 || settings_.pressureSolver() == PressureSolver::Eos) return 1;
    const float spacing = 2.0f * world_.particleRadius;
    if (hostTimeStep_ > 0.0f) return std::max(settings_.viscousSubsteps(hostTimeStep_, spacing), 1u);
    if (!settings_.cflMethod) return std::max(settings_.viscousSubsteps(world_.timeStep, spacing), 1u);
    // CFL: as many as the largest step needs, up to the most worth recording; the step is then
    // kept within that many bounds (sph/step_begin) and each step runs the substeps it needs.
    const uint32_t k = settings_.viscousSubsteps(settings_.cflMaxTimeStepSize, spacing);
    return k == 0 ? SphSettings::kMaxViscousSubsteps : k;
}

bool Simulation::gpuChoosesViscousSubsteps() const
{
    return settings_.cflMethod && !(hostTimeStep_ > 0.0f) && viscousSubsteps() > 1;
}

void Simulation::addNonPressure(graph::RenderGraph& graph, const shared::SphParams& params, const gpu::Buffer& anchors,
                                const gpu::SpecConstant& wallTerms, const gpu::SpecConstant& xsph)
{
    const PressureSolver solver = settings_.pressureSolver();
    shared::SphParams nonPressure = params;
    if (solver == PressureSolver::Pbf) nonPressure.gravity = glm::vec4(0.0f, 0.0f, 0.0f, world_.restDensity); // in pbf_predict
    // The list's gradients wherever PBF has not moved the particles since they were listed.
    std::vector<gpu::SpecConstant> constants = spec();
    constants.insert(constants.end(), {xsph, {10, solver == PressureSolver::Pbf ? 0u : 1u}, wallTerms});
    const gpu::Pipeline& pipeline = pipelines_.compute("sph/nonpressure", constants);
    // A step above the explicit viscosity's stability bound takes the viscosity in substeps
    // (sph/nonpressure has the scheme), so that a viscous fluid at a fixed step (SPlisHSPlasH's
    // implicit-viscosity scenes at 1 ms) does not blow up, and one under CFL is not held at the
    // bound (the pressure solve's cost, a tenth or less of it per step, at up to K bounds).
    const uint32_t substeps = viscousSubsteps();
    if (substeps > 1 && viscousScratch_.size() == 0)
        viscousScratch_ =
            deviceBuffer(context_, "viscosity substep velocities", uint64_t(particles_.count) * 16, VK_FORMAT_R32G32B32A32_SFLOAT);
    const float gpuChooses = gpuChoosesViscousSubsteps() ? 1.0f : 0.0f;
    const gpu::Buffer* in = &sortedVelocities_;
    for (uint32_t s = 0; s < substeps; ++s) {
        const gpu::Buffer& out = (substeps - 1 - s) % 2 == 0 ? predicted_ : viscousScratch_; // the last: predicted_
        shared::SphParams sub = nonPressure;
        sub.iisph = glm::vec4(float(s), float(substeps), gpuChooses, 0.0f);
        graph.addCompute(pipeline)
            .read(SPH_BIND_STATE, state_)
            .read(SPH_BIND_POSITIONS, sortedPositions_)
            .read(SPH_BIND_ANCHORS, anchors)
            .read(SPH_BIND_VELOCITIES, *in)
            .read(SPH_BIND_NEIGHBOURS, neighbours_)
            .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
            .read(SPH_BIND_CELL_START, grid_.cellStart())
            .read(SPH_BIND_BOUNDARY, boundary_)
            .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
            .read(SPH_BIND_FIELDS, fields_)
            .read(SPH_BIND_SOLIDS, sortedSolids_)
            .read(SPH_BIND_SOLID_START, solidCount_ > 0 ? solidGrid_->cellStart() : boundaryStart_)
            .read(SPH_BIND_SOLID_VELOCITIES, sortedSolidVelocities_)
            .read(SPH_BIND_WALL_VISCOSITY, wallViscosity_)
            .write(SPH_BIND_PREDICTED, out)
            .push(sub)
            .dispatchThreads(particles_.count);
        in = &out;
    }
}

} // namespace floe::sim
