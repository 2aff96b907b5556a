// The simulation of one scene on the GPU: the SPH fluid (digest-001, digest-003) with its
// boundary particles and ray-cast container. Owns the particle arrays and adds each step's
// passes to the render graph; the step reads like digest-001's Alg. 9:
//   step_begin (dt) -> grid build (sort by cell) -> reorder -> density (+ EOS pressure) ->
//   non-pressure forces, v* -> pressure solve -> integrate (pressure force, walls) -> metrics.
// The pressure solvers differ only in their solve (addPressureSolve and the DFSPH and PBF
// variants of the order): IISPH (Ihmsen et al. 2014), DFSPH (Bender & Koschier 2017: a
// divergence-free solve after the density pass, a constant-density solve after v*), PCISPH
// (Solenthaler & Pajarola 2009) and PBF (Macklin & Müller 2013: positions predicted before the
// grid is built, corrected in the solve).
// The pressure solver, kernels and every parameter can change between steps (setSettings):
// the particle state is kept.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gpu/PipelineCache.h"
#include "shared/sph.h"
#include "sim/ParticleBuffers.h"
#include "sim/SpatialGrid.h"
#include "sim/World.h"
#include "sim/prim/Reduce.h"
#include "sim/sph/IterationRecording.h"
#include "sim/sph/SphSettings.h"

namespace floe::sim {

class Simulation {
public:
    Simulation(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const WorldSettings& world,
               const SphSettings& settings, std::span<const glm::vec4> positions, std::span<const glm::vec4> velocities);
    ~Simulation();

    // Applies new settings from the next step on, keeping the particle state (switching the
    // pressure solver, kernels, parameters live).
    void setSettings(const SphSettings& settings);
    const SphSettings& settings() const { return settings_; }

    void addStep(graph::RenderGraph& graph);
    // The steps a host chooses (a fluid coupled with solids takes the one step of the world,
    // app/RunWorld): from the next step on, each step is dt s, whatever Configuration.cflMethod
    // says; 0 gives the steps back to the settings (fixed, or the CFL rule on the GPU).
    void setHostTimeStep(float dt) { hostTimeStep_ = dt; }
    // Substeps of the explicit viscosity a step records (SphSettings::viscousSubsteps: a fixed step
    // above its stability bound; under CFL those of the largest step, up to kMaxViscousSubsteps;
    // 1 beside solids, whose viscous reaction is one term of the step, and for an equation of state).
    uint32_t viscousSubsteps() const;
    // Whether each step runs as many of those as its own step needs (CFL steps chosen on the GPU).
    bool gpuChoosesViscousSubsteps() const;
    // The step the settings' CFL rule gives after a step whose fastest point moved at maxSpeed
    // m/s (sphCflTimeStep, as sph/step_begin computes it on the GPU): the largest step a host
    // may choose for this fluid.
    float cflTimeStep(float maxSpeed) const;
    // Copies the step's reduced metrics and state (StepReadback, 112 bytes) to target+offset.
    void addReadback(graph::RenderGraph& graph, const gpu::Buffer& target, VkDeviceSize offset);
    StepMetrics decode(const StepReadback& readback) const;
    // How many iterations of its iterative solves (IISPH, DFSPH's two, PCISPH, PBF) a step records
    // (sim/sph/IterationRecording.h). By default every step records the solver's cap. A host that
    // can replay a step from its snapshot (app/RunCommand, a fluid alone) turns on adaptive
    // recording: steps record what recent steps needed, plus a margin; the host gives each step's
    // metrics to observe(), asks stoppedShort() whether a solve ran out of recorded iterations
    // before its tolerance, and if so restores the snapshot before that step, calls
    // recordEveryIterationNextStep() and steps again. The results are those of recording the cap.
    struct RecordedIterations {
        int pressure = 0, divergence = 0; // 0: the step had no such iterative solve
    };
    void setAdaptiveRecording(bool on) { adaptiveRecording_ = on; }
    bool adaptiveRecording() const { return adaptiveRecording_; }
    RecordedIterations recorded() const { return {recorded_[0], recorded_[1]}; } // of the last addStep
    void observe(const StepMetrics& metrics);
    bool stoppedShort(const StepMetrics& metrics, const RecordedIterations& recorded) const;
    void recordEveryIterationNextStep() { recordAllNext_ = true; }

    // A ring of copies of the state, one per recent step, so that the state of a step is still
    // available when its metrics arrive two steps later (exports, saved states, the last good
    // state of a diverged run).
    static constexpr uint32_t kSnapshots = 3;
    void addSnapshot(graph::RenderGraph& graph, uint32_t slot);
    // Reads a snapshot (submits and waits); `densities` receives the densities if given.
    SimulationState readSnapshot(graph::RenderGraph& graph, uint32_t slot, std::vector<float>* densities = nullptr);

    // The buffers a step leaves for the next (a coupled world's replay snapshots, app/RunWorld):
    // what download() reads, and the guard's impulses owed to the solids (as a saved state).
    std::vector<CarriedBuffer> stepState() const;
    // After the buffers of stepState() were copied back from a snapshot: the next step uploads its
    // time-step control again (the restored state holds the snapshot's).
    void forgetUploadedControl() { uploadedControl_ = glm::vec4(-1.0f); }

    SimulationState download(graph::RenderGraph& graph);
    void upload(graph::RenderGraph& graph, const SimulationState& state); // throws floe::Error on a count mismatch

    const ParticleBuffers& particles() const { return particles_; }
    const gpu::Buffer& boundaryParticles() const { return boundary_; }
    // Per sorted particle of the last step: G_b (xyz) and its boundary neighbours (w).
    const gpu::Buffer& boundaryTerms() const { return boundaryTerms_; }
    uint32_t boundaryCount() const { return boundaryCount_; }
    // Per sorted particle of the last step: its fluid neighbours as sph/density listed them (entry
    // k of particle s at k * count() + s: m_j grad W_ij, j) and their count (capacity + 1: the
    // list overflowed, the grid is walked instead).
    const gpu::Buffer& neighbourList() const { return neighbours_; }
    const gpu::Buffer& neighbourCounts() const { return neighbourCounts_; }
    float boundaryScale() const { return boundaryScale_; } // gamma of the boundary weights
    // Solids coupled to the fluid (Akinci et al. 2012, two-way): `count` moving boundary samples
    // that the coupling (coupling/FluidSolidCoupling) writes into solidSamples(),
    // solidVelocities() and solidNormals(), then sorts with addSolidTable(), before each step.
    // The step treats them as boundary samples (density, G_b, and their motion in the solvers'
    // source terms) and writes into solidImpulses() the impulse each sample took from the fluid's
    // pressure over the step (the reaction to the fluid's, so momentum is exchanged equally and
    // oppositely). Called once; throws floe::Error for the solvers that walk the boundary again
    // in their iterations (PCISPH, PBF).
    // `spacing` (m): the samples' spacing on the solids' surfaces, the guard's reach along them.
    void attachSolids(graph::RenderGraph& graph, uint32_t count, float spacing);
    // The solid samples sorted into the fluid grid's bins (for the next step and the guard).
    void addSolidTable(graph::RenderGraph& graph);
    // Fluid particles behind a solid's surface moved back onto it (sph/solid_guard), after the
    // solids' step; StepMetrics::solidCorrections counts them over the run.
    void addSolidGuard(graph::RenderGraph& graph);
    // The impulses the guard owes the solids (4 fixed-point ints per sample), for saved states;
    // submit and wait.
    std::vector<int32_t> downloadSolidGuard(graph::RenderGraph& graph);
    void uploadSolidGuard(graph::RenderGraph& graph, const std::vector<int32_t>& sums);
    uint32_t solidCount() const { return solidCount_; }
    const gpu::Buffer& solidSamples() const { return solids_; }             // vec4: xyz m, w Psi_b kg
    const gpu::Buffer& solidVelocities() const { return solidVelocities_; } // vec4: xyz m/s, w speed (0: not coupled)
    // vec4: xyz outward unit normal, w depth m (< 0: a deformable body's sample, sph/solid_guard)
    const gpu::Buffer& solidNormals() const { return solidNormals_; }
    const gpu::Buffer& solidImpulses() const { return solidImpulses_; } // vec4: xyz N s of the last step
    const WorldSettings& world() const { return world_; }
    uint32_t count() const { return particles_.count; }
    const GridSpec& grid() const { return grid_.spec(); }

private:
    void buildBoundary(graph::RenderGraph& graph);
    void checkSolidSolver(const SphSettings& settings) const;        // throws floe::Error
    void allocateSolidBuffers(uint64_t particles, uint64_t samples); // 0, 0: the placeholders
    shared::SphParams stepParams() const;                            // the grid, material and flags of a step's passes
    // The Jacobi iterations shared by IISPH and DFSPH's two solves (relaxed, or DFSPH's
    // increments), recorded up to the cap (or as adaptive recording says); the GPU zeroes the
    // indirect arguments of the rest once converged.
    void addJacobiIterations(graph::RenderGraph& graph, const shared::SphParams& params, const IterationLimits& limits,
                             uint32_t system, uint32_t errorMode, const gpu::Buffer& arguments, uint32_t counter);
    void addDfsphDivergenceSolve(graph::RenderGraph& graph, const shared::SphParams& params);
    // sph/nonpressure's v* into predicted_, in viscousSubsteps() passes (SimulationNonPressure.cpp).
    void addNonPressure(graph::RenderGraph& graph, const shared::SphParams& params, const gpu::Buffer& anchors,
                        const gpu::SpecConstant& wallTerms, const gpu::SpecConstant& xsph);
    // The iterations a solve (counter 0: the pressure solve, 1: DFSPH's divergence) records this step.
    int iterationsToRecord(const IterationLimits& limits, uint32_t counter);
    std::vector<gpu::SpecConstant> spec() const;
    SimulationState readState(graph::RenderGraph& graph, const gpu::Buffer& positions, const gpu::Buffer& velocities,
                              const gpu::Buffer& ids, const gpu::Buffer& solverState, const gpu::Buffer& state,
                              const gpu::Buffer& lastStep);

    gpu::Context& context_;
    WorldSettings world_;
    SphSettings settings_;
    gpu::PipelineCache pipelines_;
    ParticleBuffers particles_;
    SpatialGrid grid_;
    uint32_t boundaryCount_ = 0;
    float boundaryScale_ = 1.0f;
    gpu::Buffer boundary_, boundaryStart_;
    // Sorted per-step arrays.
    gpu::Buffer sortedPositions_, sortedVelocities_, sortedIds_, sortedSolverState_, fields_, predicted_, errorPartials_;
    // Per-particle vectors of the solves: IISPH/DFSPH pressure accelerations (m/s^2), PCISPH
    // predicted positions (m), PBF position corrections (m).
    gpu::Buffer solverVectors_;
    gpu::Buffer viscousScratch_;               // the viscosity's substeps' velocities (allocated when a step needs them)
    gpu::Buffer wallViscosity_;                // 3 vec4 per sorted particle: the walls' viscosity terms (SPH_BIND_WALL_VISCOSITY)
    bool wallTermsFit_ = true;                 // wallViscosity_ holds them (else 48 bytes, unused: the passes walk)
    gpu::Buffer pressureTerms_;                // IISPH/DFSPH: p / rho^2 per sorted particle (SPH_BIND_PRESSURE_TERMS)
    gpu::Buffer pairData_;                     // EOS: (x, rho), (v, p / rho^2) per sorted particle (SPH_BIND_PAIR_DATA)
    bool pairDataFit_ = false;                 // pairData_ fits one storage buffer binding
    gpu::Buffer anchors_;                      // PBF: the sorted positions the grid was built with
    gpu::Buffer boundaryTerms_;                // per particle and step: G_b = sum_b Psi_b grad W_ib, boundary neighbours
    gpu::Buffer neighbours_, neighbourCounts_; // the fluid neighbour lists sph/density builds each step
    // Bound to sph/density's unused one of its two list bindings (storage buffer or texel view).
    gpu::Buffer listPlaceholder_;
    bool listTexels_ = false; // the list exceeds maxStorageBufferRange: written through a texel view
    // The iterations each iterative solve (0: pressure, 1: DFSPH's divergence) needed in recent
    // steps, and recorded in the last step.
    std::array<IterationHistory, 2> iterationHistory_;
    std::array<int, 2> recorded_{};
    std::optional<int> forcedIterations_; // FLOE_RECORD_ITERATIONS
    bool adaptiveRecording_ = false, recordAllNext_ = false, recordingAll_ = true;
    // Coupled solids: their samples as written by the coupling, sorted by bin each step, and the
    // impulses back; per particle S_i and c_i (shared/sph.h). Placeholders without solids.
    uint32_t solidCount_ = 0;
    float solidSpacing_ = 0.0f; // m, as attachSolids was told: the samples' spacing on the surfaces
    gpu::Buffer solids_, solidVelocities_, solidNormals_, sortedSolids_, sortedSolidVelocities_, sortedSolidNormals_,
        solidImpulses_;
    gpu::Buffer boundaryRates_, wallCoefficients_, solidGuardImpulses_;
    std::unique_ptr<SpatialGrid> solidGrid_;
    gpu::Buffer state_, arguments_, divergenceArguments_, walls_, planes_;
    // Predicates of the solver iterations' conditional regions (SPH_ITERATION_FLAGS per solve).
    gpu::Buffer iterationFlags_;
    gpu::Buffer groupsDone_;    // workgroups of a Jacobi update that have stored their error sums
    float pcisphFactor_ = 0.0f; // m^2, PCISPH's delta without dt and rho0 (sim::pcisphFactor)
    gpu::Buffer reducedA_, reducedB_;
    gpu::Buffer controlUpload_;
    struct Snapshot {
        gpu::Buffer positions, velocities, ids, solverState, metricsB, state, lastStep;
    };
    std::vector<Snapshot> snapshots_;
    glm::vec4 uploadedControl_{-1.0f};
    float hostTimeStep_ = 0.0f; // s; 0: the settings decide
    Reduce reduce_;
};

} // namespace floe::sim
