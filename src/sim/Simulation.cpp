#include "sim/Simulation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "base/Error.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/sph.h"
#include "sim/sph/BoundarySampler.h"

namespace floe::sim {
namespace {

constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;

// The fluid grid: cells of the kernel support, with x resolved into bins of a quarter cell, or
// a half, or whole cells where the finer table would not fit one texel buffer. The fluid's keys
// and the boundary's table share the bins, and a walk reads only the bins within the support's
// chord at each of its nine rows (NEAR_BINS_BEGIN): in 3D at rest spacing about 116 candidates
// per particle with quarters, 132 with halves, 216 in 27 whole cells, for about 33 neighbours.
GridSpec fluidGrid(const gpu::Context& context, const WorldSettings& world)
{
    GridSpec g = GridSpec::cover(world.domainMin, world.domainMax, 4.0f * world.particleRadius, world.sim2D);
    const uint64_t maxEntries =
        std::min<uint64_t>(context.limits().maxTexelBufferElements, context.limits().maxStorageBufferRange / 4);
    uint32_t most = 4;
    // FLOE_GRID_X_BINS=1, 2 or 4 (docs/testing.md): at most that many, to compare them.
    if (const char* e = std::getenv("FLOE_GRID_X_BINS"); e && *e) {
        const std::string v = e;
        if (v != "1" && v != "2" && v != "4")
            throw Error(fmt::format("FLOE_GRID_X_BINS is '{}': expected 1, 2 or 4 (x bins per grid cell)", v));
        most = uint32_t(std::stoul(v));
    }
    for (g.xBins = most; g.xBins > 1 && g.bins() + 1 > maxEntries;) g.xBins /= 2;
    return g;
}

} // namespace

Simulation::Simulation(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                       const WorldSettings& world, const SphSettings& settings, std::span<const glm::vec4> positions,
                       std::span<const glm::vec4> velocities)
    : context_(context), world_(world), settings_(settings), pipelines_(context, shaders),
      particles_(ParticleBuffers::create(context, graph, positions, velocities)),
      grid_(context, shaders, fluidGrid(context, world), static_cast<uint32_t>(positions.size()), "particle"),
      reduce_(context, shaders, static_cast<uint32_t>(positions.size()))
{
    const uint64_t n = particles_.count;
    if (world.boundary.size() > ParticleBuffers::maxParticles(context))
        throw Error(fmt::format("{} boundary particles do not fit on {} (at most {})", world.boundary.size(), context.deviceName(),
                                ParticleBuffers::maxParticles(context)));
    sortedPositions_ = deviceBuffer(context, "sorted positions", n * 16, kVec4);
    sortedVelocities_ = deviceBuffer(context, "sorted velocities", n * 16, kVec4);
    sortedIds_ = deviceBuffer(context, "sorted ids", n * 4, VK_FORMAT_R32_UINT);
    sortedSolverState_ = deviceBuffer(context, "sorted solver state", n * 16, kVec4);
    anchors_ = deviceBuffer(context, "PBF grid-build positions", n * 16, kVec4);
    boundaryTerms_ = deviceBuffer(context, "boundary terms (G_b, boundary neighbours)", n * 16, kVec4);
    const uint64_t capacity = shared::sphNeighbourCapacity(world.sim2D ? 2 : 3);
    neighbours_ = deviceBuffer(context, "fluid neighbour lists (m_j grad W_ij, j)", n * capacity * 16, VK_FORMAT_R32G32B32A32_UINT);
    neighbourCounts_ = deviceBuffer(context, "fluid neighbour counts", n * 4, VK_FORMAT_R32_UINT);
    listTexels_ = neighbours_.size() > context.limits().maxStorageBufferRange;
    // FLOE_NEIGHBOUR_TEXELS=1 (docs/testing.md): the texel path for any size, to test it.
    if (const char* e = std::getenv("FLOE_NEIGHBOUR_TEXELS"); e && *e) {
        const std::string v = e;
        if (v != "0" && v != "1")
            throw Error(
                fmt::format("FLOE_NEIGHBOUR_TEXELS is '{}': expected 0 or 1 (write the neighbour list through a texel view)", v));
        listTexels_ = listTexels_ || v == "1";
    }
    listPlaceholder_ = deviceBuffer(context, "unused neighbour list binding", 16, VK_FORMAT_R32G32B32A32_UINT);
    fields_ = deviceBuffer(context, "fields (density, pressure, a_ii, s_i)", n * 16, kVec4);
    pressureTerms_ = deviceBuffer(context, "pressure terms (p / rho^2)", n * 4, VK_FORMAT_R32_SFLOAT);
    // sph/density stores them through a storage buffer's binding: a 2D scene of more than
    // maxStorageBufferRange / 48 particles (2.8M on lavapipe) walks the samples instead.
    wallTermsFit_ = n * 48 <= context.limits().maxStorageBufferRange;
    wallViscosity_ = deviceBuffer(context, "walls' viscosity terms", wallTermsFit_ ? std::max<uint64_t>(n, 1) * 48 : 48, kVec4);
    // Through a storage buffer's binding too: beyond maxStorageBufferRange / 32 particles the
    // equation of state reads its pairs' neighbours from the three arrays instead.
    pairDataFit_ = n * 32 <= context.limits().maxStorageBufferRange;
    pairData_ =
        deviceBuffer(context, "pair data ((x, rho), (v, p / rho^2))", pairDataFit_ ? std::max<uint64_t>(n, 1) * 32 : 32, kVec4);
    predicted_ = deviceBuffer(context, "predicted velocities", n * 16, kVec4);
    solverVectors_ =
        deviceBuffer(context, "solver vectors (pressure accelerations, predicted positions, corrections)", n * 16, kVec4);
    const uint64_t groups = (n + SPH_GROUP_SIZE - 1) / SPH_GROUP_SIZE;
    const uint64_t foldedGroups = groups <= 65535 ? groups : ((groups + 65534) / 65535) * 65535;
    errorPartials_ = deviceBuffer(context, "solver error partials", foldedGroups * 16, kVec4);
    state_ = deviceBuffer(context, "SPH state", sizeof(shared::SphState), VK_FORMAT_R32_UINT);
    arguments_ = deviceBuffer(context, "pressure solve dispatch arguments", 32, VK_FORMAT_R32_UINT);
    divergenceArguments_ = deviceBuffer(context, "divergence solve dispatch arguments", 32, VK_FORMAT_R32_UINT);
    groupsDone_ = deviceBuffer(context, "solver workgroups done", 16, VK_FORMAT_R32_UINT);
    iterationFlags_ = gpu::Buffer(
        context, {"solver iteration predicates", 2 * SPH_ITERATION_FLAGS * 4, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT,
                  context.caps().conditionalRendering ? VkBufferUsageFlags(VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT) : 0u});
    reducedA_ = deviceBuffer(context, "step metrics A", 16, kVec4);
    reducedB_ = deviceBuffer(context, "step metrics B", 16, kVec4);
    // The solid passes' bindings: placeholders (SOLIDS 0) until attachSolids.
    allocateSolidBuffers(0, 0);

    // Walls: the container's planes and motion, the domain box.
    shared::WallParams walls{};
    std::vector<glm::vec4> planes{glm::vec4(0)};
    if (world.container) {
        planes = world.container->planes;
        walls.shake = glm::vec4(world.container->shakeAxis, world.container->shakeAmplitude);
        walls.motion = glm::vec4(world.container->shakeFrequency, world.container->restitution, float(planes.size()), 0.0f);
    }
    walls.domain = glm::vec4(world.restitution, world.friction, world.domainWalls ? 1.0f : 0.0f, world.particleRadius);
    walls_ = gpu::Buffer(context, {"walls", sizeof(walls), gpu::MemoryKind::Upload});
    walls_.write(&walls, sizeof(walls));
    planes_ = deviceBuffer(context, "container planes", planes.size() * 16, kVec4);
    uploadNow(context, graph, planes_, planes.data(), planes.size() * 16);

    // Initial state: time 0; the CFL condition starts from the initial maximum speed.
    float maxSpeed = 0.0f;
    for (const glm::vec4& v : velocities) maxSpeed = std::max(maxSpeed, glm::length(glm::vec3(v)));
    const glm::vec4 lastStep(maxSpeed, 0, 0, 0);
    uploadNow(context, graph, reducedB_, &lastStep, 16);
    shared::SphState state{};
    state.control = glm::vec4(settings.cflMethod ? settings.cflMaxTimeStepSize : world.timeStep,
                              settings.cflMethod ? settings.cflFactor : 0.0f, settings.cflMinTimeStepSize, world.stopTime);
    uploadNow(context, graph, state_, &state, sizeof(state));
    uploadedControl_ = state.control;
    // Written by every step_begin before any indirect dispatch reads them; cleared so that no
    // dispatch can ever read garbage.
    graph.addFill("sph/arguments_clear", arguments_, 0);
    graph.addFill("sph/arguments_clear", divergenceArguments_, 0);
    graph.addFill("sph/arguments_clear", groupsDone_, 0); // then reset by the last workgroup of each update
    graph.addFill("sph/arguments_clear", iterationFlags_, 0);
    setSettings(settings); // and what the settings derive (PCISPH's scaling)
    forcedIterations_ = recordIterationsFromEnvironment();
    buildBoundary(graph);
}

Simulation::~Simulation() = default;

void Simulation::buildBoundary(graph::RenderGraph& graph)
{
    boundaryCount_ = static_cast<uint32_t>(world_.boundary.size());
    // The boundary's table, laid out as the fluid grid's (the same bins): its samples sorted by
    // grid row (y, z) and, within a row, by x in bins of 1/xBins of a cell; the table holds each
    // bin's first sample (one more entry closes the last bin). The walks (NEAR_BINS_BEGIN) read
    // only the bins within the support's chord at each row, about half the samples of the 27
    // cells around a particle. Built once, on the CPU: the samples never move.
    const GridSpec& g = grid_.spec();
    const uint64_t rowBins = uint64_t(g.dims.x) * g.xBins;
    const uint64_t bins = rowBins * g.dims.y * g.dims.z;
    std::vector<uint32_t> keys(boundaryCount_);
    const auto cell = [&](float x, int axis) {
        // As gridCell in shaders/grid/grid_common.glsl: in float, clamped into the grid.
        const float c = std::floor((x - g.origin[axis]) / g.cellSize);
        return uint32_t(std::clamp(std::isnan(c) ? 0.0f : c, 0.0f, float(g.dims[axis] - 1)));
    };
    const float fine = g.cellSize / float(g.xBins);
    for (uint32_t b = 0; b < boundaryCount_; ++b) {
        const glm::vec3& x = world_.boundary[b];
        const float bin = std::floor((x.x - g.origin.x) / fine);
        const uint32_t column = uint32_t(std::clamp(std::isnan(bin) ? 0.0f : bin, 0.0f, float(rowBins - 1)));
        keys[b] = uint32_t((uint64_t(cell(x.y, 1)) + uint64_t(g.dims.y) * cell(x.z, 2)) * rowBins + column);
    }
    // A counting sort by bin (stable: a bin's samples keep the sampler's order), which also
    // gives the table; std::stable_sort took 17 ms for SPlisHSPlasH's 3D tank (192k samples).
    std::vector<uint32_t> start(bins + 1, 0);
    for (uint32_t b = 0; b < boundaryCount_; ++b) ++start[keys[b] + 1];
    for (uint64_t bin = 0; bin < bins; ++bin) start[bin + 1] += start[bin];
    std::vector<glm::vec4> samples(boundaryCount_);
    {
        std::vector<uint32_t> next(start.begin(), start.end() - 1);
        for (uint32_t b = 0; b < boundaryCount_; ++b) samples[next[keys[b]]++] = glm::vec4(world_.boundary[b], 0.0f);
    }
    boundary_ = deviceBuffer(context_, "boundary particles (position, Psi)", uint64_t(std::max(boundaryCount_, 1u)) * 16, kVec4);
    boundaryStart_ = deviceBuffer(context_, "boundary bin start", (bins + 1) * 4, VK_FORMAT_R32_UINT);
    uploadNow(context_, graph, boundaryStart_, start.data(), start.size() * 4);
    if (boundaryCount_ == 0) return;
    gpu::Buffer sorted = deviceBuffer(context_, "boundary samples (sorted)", uint64_t(boundaryCount_) * 16, kVec4);
    uploadNow(context_, graph, sorted, samples.data(), samples.size() * 16);

    // Akinci's volumes.
    graph.beginGroup("sph/boundary_build");
    shared::SphParams p{};
    p.gravity = glm::vec4(world_.gravity, world_.restDensity);
    p.gridOrigin = glm::vec4(g.origin, g.cellSize);
    p.gridDims = glm::uvec4(g.binDims(), particles_.count);
    const uint32_t kernelSet = settings_.muellerKernels() ? SPH_KERNEL_MUELLER : SPH_KERNEL_CUBIC;
    boundaryScale_ = boundaryVolumeScale(kernelSet, world_.sim2D ? 2 : 3, settings_.boundarySpacing, settings_.boundaryLayers);
    p.material = glm::vec4(2.0f * world_.particleRadius, 0, 0, boundaryScale_);
    p.flags = glm::uvec4(world_.sim2D ? 2 : 3, boundaryCount_, 0, 0);
    graph.addCompute(pipelines_.compute("sph/boundary_volume", spec()))
        .read(SPH_BIND_BOUNDARY, sorted)
        .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
        .write(SPH_BIND_OUT0, boundary_)
        .push(p)
        .dispatchThreads(boundaryCount_);
    graph.endGroup();
    context_.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
}

std::vector<gpu::SpecConstant> Simulation::spec() const
{
    return {{0, settings_.muellerKernels() ? uint32_t(SPH_KERNEL_MUELLER) : uint32_t(SPH_KERNEL_CUBIC)},
            {1, world_.sim2D ? 2u : 3u},
            {11, grid_.spec().xBins},
            {12, solidCount_ > 0 ? 1u : 0u}};
}

void Simulation::setSettings(const SphSettings& settings)
{
    if (solidCount_ > 0) checkSolidSolver(settings);
    if (settings.pressureSolver() != settings_.pressureSolver())
        for (IterationHistory& h : iterationHistory_) h.clear(); // another solver's counts say nothing
    settings_ = settings;
    const uint32_t kernelSet = settings_.muellerKernels() ? SPH_KERNEL_MUELLER : SPH_KERNEL_CUBIC;
    pcisphFactor_ = pcisphFactor(kernelSet, world_.sim2D ? 2 : 3, 2.0f * world_.particleRadius);
}

namespace {

// The error measure of a solver's iterations (SPH_ERROR_*), from the convergence setting.
uint32_t errorMode(PressureSolver solver, const SphSettings& s)
{
    const bool reference = s.convergenceTest() == Convergence::Reference;
    switch (solver) {
    case PressureSolver::Iisph:
        if (s.iisphMode == "thesis") return SPH_ERROR_SIGNED;
        return reference ? SPH_ERROR_SIGNED_PRESSURED : SPH_ERROR_PRESSURED;
    case PressureSolver::Pcisph: return reference ? SPH_ERROR_SIGNED : SPH_ERROR_PRESSURED;
    default: return reference ? SPH_ERROR_ALL : SPH_ERROR_PRESSURED;
    }
}

} // namespace

void Simulation::addJacobiIterations(graph::RenderGraph& graph, const shared::SphParams& params, const IterationLimits& limits,
                                     uint32_t system, uint32_t errorMode, const gpu::Buffer& arguments, uint32_t counter)
{
    const std::vector<gpu::SpecConstant> kernel = spec();
    std::vector<gpu::SpecConstant> updateSpec = kernel;
    updateSpec.push_back({2, errorMode});
    updateSpec.push_back({3, system});
    const bool increments = system != SPH_SYSTEM_IISPH && settings_.dfsphIteration == "increments";
    updateSpec.push_back({4, increments ? uint32_t(SPH_UPDATE_INCREMENTS) : uint32_t(SPH_UPDATE_RELAXED)});
    updateSpec.push_back({5, counter});
    const gpu::Pipeline& accel = pipelines_.compute("sph/jacobi_accel", kernel);
    const gpu::Pipeline& update = pipelines_.compute("sph/jacobi_update", updateSpec);
    const int recorded = iterationsToRecord(limits, counter);
    for (int iteration = 0; iteration < recorded; ++iteration) {
        // After the stop, the later iterations' dispatches have zero groups. With
        // FLOE_CONDITIONAL_RENDERING=1 each iteration after the first also sits in a conditional
        // region the previous one enables (off by default: slower on an H200, whose barriers in
        // skipped regions still run; gpu/Context.h).
        if (iteration > 0) graph.beginConditional(iterationFlags_, 4 * (counter * SPH_ITERATION_FLAGS + uint32_t(iteration)));
        graph.addCompute(accel)
            .read(SPH_BIND_POSITIONS, sortedPositions_)
            .read(SPH_BIND_NEIGHBOURS, neighbours_)
            .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
            .read(SPH_BIND_CELL_START, grid_.cellStart())
            .read(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
            .read(SPH_BIND_FIELDS, fields_)
            .read(SPH_BIND_PRESSURE_TERMS, pressureTerms_)
            .write(SPH_BIND_ACCEL, solverVectors_)
            .push(params)
            .dispatchIndirect(arguments, 0);
        // The update's last workgroup ends the iteration (the error, the stopping rule).
        graph.addCompute(update)
            .readWrite(SPH_BIND_STATE, state_)
            .read(SPH_BIND_POSITIONS, sortedPositions_)
            .read(SPH_BIND_NEIGHBOURS, neighbours_)
            .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
            .read(SPH_BIND_CELL_START, grid_.cellStart())
            .read(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
            .read(SPH_BIND_ACCEL, solverVectors_)
            .readWrite(SPH_BIND_FIELDS, fields_)
            .write(SPH_BIND_PRESSURE_TERMS, pressureTerms_)
            .readWrite(SPH_BIND_OUT0, errorPartials_)
            .write(SPH_BIND_OUT1, iterationFlags_)
            .readWrite(SPH_BIND_OUT2, arguments)
            .readWrite(SPH_BIND_OUT3, groupsDone_)
            .push(params)
            .dispatchIndirect(arguments, 0);
        if (iteration > 0) graph.endConditional();
    }
}

void Simulation::addDfsphDivergenceSolve(graph::RenderGraph& graph, const shared::SphParams& base)
{
    // Bender & Koschier 2017 Alg. 2, on the velocities at the start of the step (before the
    // non-pressure forces), as SPlisHSPlasH's DFSPH: the divergence of the last step's end is
    // removed so that the constant-density solve starts from a divergence-free field. Its set-up
    // (the density change rate, the warm start) is part of sph/density's neighbour loop.
    const IterationLimits limits = settings_.divergenceLimits();
    shared::SphParams p = base;
    p.iisph = glm::vec4(settings_.omega, limits.tolerance, float(limits.minIterations), float(limits.maxIterations));
    const std::vector<gpu::SpecConstant> kernel = spec();
    graph.beginGroup("sph/dfsph_divergence_solve");
    addJacobiIterations(graph, p, limits, SPH_SYSTEM_DIVERGENCE, errorMode(PressureSolver::Dfsph, settings_), divergenceArguments_,
                        1);
    graph.addCompute(pipelines_.compute("sph/dfsph_divergence_apply", kernel))
        .read(SPH_BIND_STATE, state_)
        .read(SPH_BIND_POSITIONS, sortedPositions_)
        .read(SPH_BIND_NEIGHBOURS, neighbours_)
        .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
        .read(SPH_BIND_CELL_START, grid_.cellStart())
        .read(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
        .read(SPH_BIND_FIELDS, fields_)
        .read(SPH_BIND_PRESSURE_TERMS, pressureTerms_)
        .readWrite(SPH_BIND_VELOCITIES, sortedVelocities_)
        .readWrite(SPH_BIND_SOLVER_STATE, sortedSolverState_)
        .write(SPH_BIND_WALL_COEFFICIENTS, wallCoefficients_)
        .push(p)
        .dispatchThreads(particles_.count);
    graph.endGroup();
}

float Simulation::cflTimeStep(float maxSpeed) const
{
    if (!settings_.cflMethod) return world_.timeStep;
    const shared::SphParams p = stepParams();
    const bool acoustic = settings_.pressureSolver() == PressureSolver::Eos;
    const float sound = acoustic ? shared::eosSoundSpeed(p.flags.z, p.gravity.w, p.material.z, settings_.exponent) : 0.0f;
    return shared::sphCflTimeStep(maxSpeed, sound, settings_.cflFactor, p.material.x, settings_.cflMinTimeStepSize,
                                  settings_.cflMaxTimeStepSize, std::max(p.material.y, settings_.wallViscosity()));
}

shared::SphParams Simulation::stepParams() const
{
    shared::SphParams p{};
    p.gravity = glm::vec4(world_.gravity, world_.restDensity);
    p.gridOrigin = glm::vec4(grid_.spec().origin, grid_.spec().cellSize);
    p.gridDims = glm::uvec4(grid_.spec().binDims(), particles_.count);
    p.material = glm::vec4(2.0f * world_.particleRadius, settings_.viscosity, settings_.stiffness, settings_.xsph);
    // flags.y gates every boundary term: the static samples and the solids' together.
    p.flags = glm::uvec4(world_.sim2D ? 2 : 3, boundaryCount_ + solidCount_, settings_.eosKind(), settings_.clampPressure ? 1 : 0);
    return p;
}

void Simulation::addStep(graph::RenderGraph& graph)
{
    const uint32_t n = particles_.count;
    const PressureSolver solver = settings_.pressureSolver();
    const bool thesis = settings_.iisphMode == "thesis";
    const IterationLimits limits = settings_.limits(solver);
    // Solids step with the fluid at one step: the world chooses it (setHostTimeStep), or it is fixed.
    if (solidCount_ > 0 && settings_.cflMethod && !(hostTimeStep_ > 0.0f))
        throw std::logic_error("Simulation::addStep: a fluid coupled with solids under cflMethod takes the host's time step");
    recorded_ = {0, 0}; // the iterative solves this step records set theirs
    recordingAll_ = !adaptiveRecording_ || std::exchange(recordAllNext_, false);
    shared::SphParams p = stepParams();
    // The thesis's IISPH (digest-001 §2.7): no warm start, at least one iteration, signed error.
    p.iisph =
        glm::vec4(settings_.omega, limits.tolerance, solver == PressureSolver::Iisph && thesis ? 1.0f : float(limits.minIterations),
                  float(limits.maxIterations));
    p.domainMin = glm::vec4(world_.domainMin, settings_.wallViscosity());
    p.domainMax = glm::vec4(world_.domainMax, settings_.exponent);
    const std::vector<gpu::SpecConstant> kernel = spec();
    const auto with = [&](std::initializer_list<gpu::SpecConstant> extra) {
        std::vector<gpu::SpecConstant> s = kernel;
        s.insert(s.end(), extra);
        return s;
    };

    // The time-step control may have changed (CFL on or off, its factor and bounds).
    shared::SphState control{};
    control.control = glm::vec4(settings_.cflMethod ? settings_.cflMaxTimeStepSize : world_.timeStep,
                                settings_.cflMethod ? settings_.cflFactor : 0.0f, settings_.cflMinTimeStepSize, world_.stopTime);
    if (hostTimeStep_ > 0.0f) control.control = glm::vec4(hostTimeStep_, 0.0f, hostTimeStep_, 0.0f);
    if (std::memcmp(&control.control, &uploadedControl_, sizeof(glm::vec4)) != 0) {
        controlUpload_ = gpu::Buffer(context_, {"SPH control", 16, gpu::MemoryKind::Upload});
        controlUpload_.write(&control.control, 16);
        uploadedControl_ = control.control;
        graph.addCopy("sph/control", controlUpload_, state_, 16, 0, offsetof(shared::SphState, control));
    }

    // The iteration predicates start at 0 each step: only a check that ran sets one.
    if (solver != PressureSolver::Eos && solver != PressureSolver::None && context_.caps().conditionalRendering)
        graph.addFill("sph/iteration_flags_clear", iterationFlags_, 0);
    // Under CFL with viscosity substeps the step may reach K viscous bounds: step_begin's bound
    // is that of nu / K (sphCflTimeStep).
    shared::SphParams begin = p;
    if (gpuChoosesViscousSubsteps()) {
        const float substeps = float(viscousSubsteps());
        begin.material.y /= substeps;
        begin.domainMin.w /= substeps;
    }
    graph.addCompute(pipelines_.compute("sph/step_begin", with({{2, solver == PressureSolver::Eos ? 1u : 0u}})))
        .readWrite(SPH_BIND_STATE, state_)
        .readWrite(SPH_BIND_OUT0, arguments_)
        .readWrite(SPH_BIND_OUT1, divergenceArguments_)
        .read(SPH_BIND_IN0, reducedB_)
        .push(begin)
        .dispatch(1);
    if (solver == PressureSolver::Pbf) {
        // PBF finds neighbours at the positions predicted with gravity (Macklin & Müller Alg. 1).
        graph.addCompute(pipelines_.compute("sph/pbf_predict", kernel))
            .read(SPH_BIND_STATE, state_)
            .readWrite(SPH_BIND_POSITIONS, particles_.positions)
            .readWrite(SPH_BIND_VELOCITIES, particles_.velocities)
            .push(p)
            .dispatchThreads(n);
    }
    grid_.addBuild(graph, particles_.positions, n);
    graph.addCompute(pipelines_.compute("sph/reorder", kernel))
        .read(SPH_BIND_POSITIONS, particles_.positions)
        .read(SPH_BIND_VELOCITIES, particles_.velocities)
        .read(SPH_BIND_IN0, particles_.ids)
        .read(SPH_BIND_IN1, grid_.sortedIndex())
        .read(SPH_BIND_SOLVER_STATE, particles_.solverState)
        .write(SPH_BIND_OUT0, sortedPositions_)
        .write(SPH_BIND_OUT1, sortedVelocities_)
        .write(SPH_BIND_OUT2, sortedIds_)
        .write(SPH_BIND_OUT3, sortedSolverState_)
        .push(p)
        .dispatchThreads(n);

    // The positions the neighbour lists are built at; PBF moves the particles after that, so its
    // passes keep a copy of them (the overflow fallback searches from there).
    const gpu::Buffer& anchors = solver == PressureSolver::Pbf ? anchors_ : sortedPositions_;
    if (solver == PressureSolver::Pbf) graph.addCopy("sph/pbf_anchors", sortedPositions_, anchors_, uint64_t(n) * 16);
    // The step's one walk over the grid: densities, the fluid neighbour lists every later pass
    // walks, the boundary's terms (for PBF at its predicted positions, before its corrections).
    // DFSPH's divergence-free solve sets up in the same walk (its source and warm start), and the
    // viscous walls' term (static samples and moving solids) is summed there, linear in v_i (but
    // for PBF, whose particles move before their viscosity).
    const bool divergenceSetup = solver == PressureSolver::Dfsph && settings_.divergenceSolver;
    const bool storeWallTerms =
        solver != PressureSolver::Pbf && settings_.wallViscosity() > 0.0f && boundaryCount_ + solidCount_ > 0 && wallTermsFit_;
    const gpu::SpecConstant wallTerms{14, storeWallTerms ? 1u : 0u};
    // The equation of state's pairs read their neighbour in two fetches (SPH_BIND_PAIR_DATA): where
    // it is viscous and neither Mueller's set nor XSPH needs the neighbour's mass.
    const bool pairData = solver == PressureSolver::Eos && settings_.viscosity > 0.0f && settings_.xsph <= 0.0f &&
                          !settings_.muellerKernels() && pairDataFit_;
    const gpu::SpecConstant pairDataSpec{16, pairData ? 1u : 0u};
    graph
        .addCompute(pipelines_.compute("sph/density", with({{2, solver == PressureSolver::Dfsph ? 1u : 0u},
                                                            {3, listTexels_ ? 1u : 0u},
                                                            {4, divergenceSetup ? 1u : 0u},
                                                            wallTerms,
                                                            pairDataSpec})))
        .read(SPH_BIND_POSITIONS, sortedPositions_)
        .read(SPH_BIND_CELL_START, grid_.cellStart())
        .read(SPH_BIND_BOUNDARY, boundary_)
        .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
        .write(SPH_BIND_FIELDS, fields_)
        .write(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
        .write(SPH_BIND_NEIGHBOURS, listTexels_ ? listPlaceholder_ : neighbours_)
        .write(SPH_BIND_NEIGHBOUR_TEXELS, listTexels_ ? neighbours_ : listPlaceholder_)
        .write(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
        .read(SPH_BIND_SOLIDS, sortedSolids_)
        .read(SPH_BIND_SOLID_START, solidCount_ > 0 ? solidGrid_->cellStart() : boundaryStart_)
        .read(SPH_BIND_SOLID_VELOCITIES, sortedSolidVelocities_)
        .write(SPH_BIND_BOUNDARY_RATES, boundaryRates_)
        .read(SPH_BIND_VELOCITIES, sortedVelocities_)
        .read(SPH_BIND_SOLVER_STATE, sortedSolverState_)
        .write(SPH_BIND_PRESSURE_TERMS, pressureTerms_)
        .write(SPH_BIND_WALL_VISCOSITY, wallViscosity_)
        .write(SPH_BIND_PAIR_DATA, pairData_)
        .readWrite(SPH_BIND_STATE, state_)
        .push(p)
        .dispatchThreads(n);
    if (solver == PressureSolver::Pbf) {
        // Position corrections until the density constraint holds (Macklin & Müller Alg. 1
        // lines 8-19); the check after each lambda pass skips the rest once it does.
        graph.beginGroup("sph/pbf_solve");
        const gpu::Pipeline& lambda = pipelines_.compute("sph/pbf_lambda", with({{2, errorMode(solver, settings_)}}));
        const gpu::Pipeline& correct = pipelines_.compute("sph/pbf_correct", kernel);
        const gpu::Pipeline& apply = pipelines_.compute("sph/pbf_apply", kernel);
        const int recorded = iterationsToRecord(limits, 0);
        for (int iteration = 0; iteration < recorded; ++iteration) {
            if (iteration > 0) graph.beginConditional(iterationFlags_, 4 * uint32_t(iteration));
            // The lambda pass's last workgroup ends the iteration (the error, the stopping rule);
            // once the constraint holds, this iteration's correction is skipped too.
            graph.addCompute(lambda)
                .readWrite(SPH_BIND_STATE, state_)
                .read(SPH_BIND_POSITIONS, sortedPositions_)
                .read(SPH_BIND_ANCHORS, anchors)
                .read(SPH_BIND_NEIGHBOURS, neighbours_)
                .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
                .read(SPH_BIND_CELL_START, grid_.cellStart())
                .read(SPH_BIND_BOUNDARY, boundary_)
                .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
                .write(SPH_BIND_FIELDS, fields_)
                .readWrite(SPH_BIND_OUT0, errorPartials_)
                .write(SPH_BIND_OUT1, iterationFlags_)
                .readWrite(SPH_BIND_OUT2, arguments_)
                .readWrite(SPH_BIND_OUT3, groupsDone_)
                .push(p)
                .dispatchIndirect(arguments_, 0);
            graph.addCompute(correct)
                .read(SPH_BIND_POSITIONS, sortedPositions_)
                .read(SPH_BIND_ANCHORS, anchors)
                .read(SPH_BIND_NEIGHBOURS, neighbours_)
                .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
                .read(SPH_BIND_CELL_START, grid_.cellStart())
                .read(SPH_BIND_BOUNDARY, boundary_)
                .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
                .read(SPH_BIND_FIELDS, fields_)
                .write(SPH_BIND_ACCEL, solverVectors_)
                .push(p)
                .dispatchIndirect(arguments_, 0);
            graph.addCompute(apply)
                .read(SPH_BIND_STATE, state_)
                .read(SPH_BIND_ACCEL, solverVectors_)
                .readWrite(SPH_BIND_POSITIONS, sortedPositions_)
                .readWrite(SPH_BIND_VELOCITIES, sortedVelocities_)
                .push(p)
                .dispatchIndirect(arguments_, 0);
            if (iteration > 0) graph.endConditional();
        }
        graph.endGroup();
    }

    if (solver == PressureSolver::Dfsph && settings_.divergenceSolver) addDfsphDivergenceSolve(graph, p);
    // XSPH's sum only when its factor is on. EOS needs no v* before its pressure: sph/integrate
    // does this pass's work in the same walk as the pressure's (SPH_INTEGRATE_EOS).
    const gpu::SpecConstant xsph{9, settings_.xsph > 0.0f ? 1u : 0u};
    if (solver != PressureSolver::Eos) addNonPressure(graph, p, anchors, wallTerms, xsph);

    if (solver == PressureSolver::Iisph) {
        graph
            .addCompute(
                pipelines_.compute("sph/iisph_setup", with({{2, settings_.diagonal == "thesis" ? 1u : 0u}, {3, thesis ? 0u : 1u}})))
            .read(SPH_BIND_STATE, state_)
            .read(SPH_BIND_POSITIONS, sortedPositions_)
            .read(SPH_BIND_VELOCITIES, sortedVelocities_)
            .read(SPH_BIND_NEIGHBOURS, neighbours_)
            .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
            .read(SPH_BIND_CELL_START, grid_.cellStart())
            .read(SPH_BIND_BOUNDARY, boundary_)
            .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
            .read(SPH_BIND_PREDICTED, predicted_)
            .read(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
            .read(SPH_BIND_BOUNDARY_RATES, boundaryRates_)
            .readWrite(SPH_BIND_FIELDS, fields_)
            .write(SPH_BIND_PRESSURE_TERMS, pressureTerms_)
            .push(p)
            .dispatchThreads(n);
        // The iterations are recorded (up to the cap, or as adaptive recording says); the GPU
        // stops them once the solver has converged: zeroed indirect group counts make the later
        // ones empty dispatches.
        graph.beginGroup("sph/iisph_solve");
        addJacobiIterations(graph, p, limits, SPH_SYSTEM_IISPH, errorMode(solver, settings_), arguments_, 0);
        graph.endGroup();
    } else if (solver == PressureSolver::Dfsph) {
        // Bender & Koschier 2017 Alg. 3: the constant-density solve on v*.
        graph.beginGroup("sph/dfsph_density_solve");
        graph.addCompute(pipelines_.compute("sph/dfsph_pressure_setup", kernel))
            .read(SPH_BIND_STATE, state_)
            .read(SPH_BIND_POSITIONS, sortedPositions_)
            .read(SPH_BIND_NEIGHBOURS, neighbours_)
            .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
            .read(SPH_BIND_CELL_START, grid_.cellStart())
            .read(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
            .read(SPH_BIND_BOUNDARY_RATES, boundaryRates_)
            .read(SPH_BIND_PREDICTED, predicted_)
            .read(SPH_BIND_SOLVER_STATE, sortedSolverState_)
            .readWrite(SPH_BIND_FIELDS, fields_)
            .write(SPH_BIND_PRESSURE_TERMS, pressureTerms_)
            .push(p)
            .dispatchThreads(n);
        addJacobiIterations(graph, p, limits, SPH_SYSTEM_DENSITY, errorMode(solver, settings_), arguments_, 0);
        graph.endGroup();
    } else if (solver == PressureSolver::Pcisph) {
        // Solenthaler & Pajarola 2009 Alg. 2: predict, correct, until the predicted density holds.
        graph.beginGroup("sph/pcisph_solve");
        const auto predict = [&](uint32_t first, bool indirect) {
            auto pass = graph.addCompute(pipelines_.compute("sph/pcisph_predict", with({{2, first}, {8, 0u}})));
            pass.read(SPH_BIND_STATE, state_)
                .read(SPH_BIND_POSITIONS, sortedPositions_)
                .read(SPH_BIND_NEIGHBOURS, neighbours_)
                .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
                .read(SPH_BIND_CELL_START, grid_.cellStart())
                .read(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
                .read(SPH_BIND_PREDICTED, predicted_)
                .readWrite(SPH_BIND_FIELDS, fields_)
                .write(SPH_BIND_ACCEL, solverVectors_)
                .push(p);
            if (indirect)
                pass.dispatchIndirect(arguments_, 0);
            else
                pass.dispatchThreads(n);
        };
        predict(1u, false);
        const gpu::Pipeline& density = pipelines_.compute(
            "sph/pcisph_density", with({{2, errorMode(solver, settings_)}, {3, std::bit_cast<uint32_t>(pcisphFactor_)}}));
        const int recorded = iterationsToRecord(limits, 0);
        for (int iteration = 0; iteration < recorded; ++iteration) {
            if (iteration > 0) graph.beginConditional(iterationFlags_, 4 * uint32_t(iteration));
            // The density pass's last workgroup ends the iteration (the error, the stopping rule
            // with PCISPH's stall test).
            graph.addCompute(density)
                .readWrite(SPH_BIND_STATE, state_)
                .read(SPH_BIND_ACCEL, solverVectors_)
                .read(SPH_BIND_POSITIONS, sortedPositions_)
                .read(SPH_BIND_NEIGHBOURS, neighbours_)
                .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
                .read(SPH_BIND_CELL_START, grid_.cellStart())
                .read(SPH_BIND_BOUNDARY, boundary_)
                .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
                .readWrite(SPH_BIND_FIELDS, fields_)
                .readWrite(SPH_BIND_OUT0, errorPartials_)
                .write(SPH_BIND_OUT1, iterationFlags_)
                .readWrite(SPH_BIND_OUT2, arguments_)
                .readWrite(SPH_BIND_OUT3, groupsDone_)
                .push(p)
                .dispatchIndirect(arguments_, 0);
            // After the last recorded iteration a prediction is needed only if the solve goes on,
            // and then the step is replayed with every iteration recorded.
            if (iteration + 1 < recorded) predict(0u, true);
            if (iteration > 0) graph.endConditional();
        }
        graph.endGroup();
    }

    const uint32_t mode = solver == PressureSolver::None  ? SPH_INTEGRATE_NONE
                          : solver == PressureSolver::Pbf ? SPH_INTEGRATE_PBF
                          : solver == PressureSolver::Eos ? SPH_INTEGRATE_EOS
                                                          : SPH_INTEGRATE_PRESSURE;
    const bool divergenceCoefficients = solver == PressureSolver::Dfsph && settings_.divergenceSolver;
    graph
        .addCompute(pipelines_.compute("sph/integrate",
                                       with({{2, mode},
                                             {8, solver == PressureSolver::Pcisph ? 0u : 1u},
                                             xsph,
                                             {13, divergenceCoefficients ? 1u : 0u},
                                             wallTerms,
                                             {15, solver == PressureSolver::Iisph || solver == PressureSolver::Dfsph ? 1u : 0u},
                                             pairDataSpec})))
        .read(SPH_BIND_STATE, state_)
        .read(SPH_BIND_WALLS, walls_)
        .read(SPH_BIND_POSITIONS, sortedPositions_)
        .read(SPH_BIND_VELOCITIES, sortedVelocities_)
        .read(SPH_BIND_SOLVER_STATE, sortedSolverState_)
        .read(SPH_BIND_NEIGHBOURS, neighbours_)
        .read(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts_)
        .read(SPH_BIND_CELL_START, grid_.cellStart())
        .read(SPH_BIND_BOUNDARY_TERMS, boundaryTerms_)
        .read(SPH_BIND_FIELDS, fields_)
        .read(SPH_BIND_PRESSURE_TERMS, pressureTerms_)
        .read(SPH_BIND_PREDICTED, predicted_)
        .read(SPH_BIND_IN0, sortedIds_)
        .read(SPH_BIND_PLANES, planes_)
        .read(SPH_BIND_BOUNDARY, boundary_)
        .read(SPH_BIND_BOUNDARY_START, boundaryStart_)
        .write(SPH_BIND_OUT0, particles_.positions)
        .write(SPH_BIND_OUT1, particles_.velocities)
        .write(SPH_BIND_OUT2, particles_.ids)
        .write(SPH_BIND_OUT3, particles_.metricsA)
        .write(SPH_BIND_OUT4, particles_.metricsB)
        .write(SPH_BIND_OUT5, particles_.solverState)
        .readWrite(SPH_BIND_WALL_COEFFICIENTS, wallCoefficients_)
        .read(SPH_BIND_SOLIDS, sortedSolids_)
        .read(SPH_BIND_SOLID_START, solidCount_ > 0 ? solidGrid_->cellStart() : boundaryStart_)
        .read(SPH_BIND_SOLID_VELOCITIES, sortedSolidVelocities_)
        .read(SPH_BIND_WALL_VISCOSITY, wallViscosity_)
        .read(SPH_BIND_PAIR_DATA, pairData_)
        .push(p)
        .dispatchThreads(n);
    if (solidCount_ > 0) {
        // The fluid's pressure impulse on each solid sample (Akinci et al. 2012 eq. (10)-(11)):
        // the reaction to what each fluid particle took from it, pair by pair.
        shared::SphParams sp = p;
        sp.flags.y = solidCount_; // the solid passes' sample count
        graph.addCompute(pipelines_.compute("sph/solid_impulses", kernel))
            .read(SPH_BIND_STATE, state_)
            .read(SPH_BIND_IN0, solids_)
            .read(SPH_BIND_IN1, solidVelocities_)
            .read(SPH_BIND_VELOCITIES, sortedVelocities_)
            .read(SPH_BIND_FIELDS, fields_)
            .read(SPH_BIND_POSITIONS, sortedPositions_)
            .read(SPH_BIND_CELL_START, grid_.cellStart())
            .read(SPH_BIND_WALL_COEFFICIENTS, wallCoefficients_)
            .readWrite(SPH_BIND_SOLID_GUARD_IMPULSES, solidGuardImpulses_)
            .write(SPH_BIND_OUT0, solidImpulses_)
            .push(sp)
            .dispatchThreads(solidCount_);
    }
    if (n > SPH_ONE_GROUP_REDUCE) {
        reduce_.vec4(graph, particles_.metricsA, reducedA_, n, {ReduceOp::Sum, ReduceOp::Sum, ReduceOp::Max, ReduceOp::Sum});
        reduce_.vec4(graph, particles_.metricsB, reducedB_, n, {ReduceOp::Max, ReduceOp::Sum, ReduceOp::Sum, ReduceOp::Sum});
        return;
    }
    graph.beginGroup("prim/reduce");
    graph.addCompute(pipelines_.compute("sph/metrics_reduce", kernel))
        .read(SPH_BIND_IN0, particles_.metricsA)
        .read(SPH_BIND_IN1, particles_.metricsB)
        .write(SPH_BIND_OUT0, reducedA_)
        .write(SPH_BIND_OUT1, reducedB_)
        .push(p)
        .dispatch(1);
    graph.endGroup();
}

} // namespace floe::sim
