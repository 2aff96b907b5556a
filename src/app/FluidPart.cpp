// The fluid's part of a run's world: its metrics.csv columns (the step's GPU-reduced metrics,
// read back two frames behind), its checks, its exports (particles in the scene's sampling
// order), its share of a coupled saved state and of summary.json.
#include <array>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/RunOutput.h"
#include "app/RunParts.h"
#include "app/Stat.h"
#include "coupling/FluidSolidCoupling.h"
#include "gpu/Buffer.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/SolidState.h"
#include "scene/SceneSetup.h"
#include "sim/Simulation.h"

namespace floe {
namespace {

class FluidPart final : public RunPart {
public:
    FluidPart(gpu::Context& context, sim::Simulation& fluid, const coupling::FluidSolidCoupling* coupling, double energyLimit,
              bool alone, uint64_t leftOut)
        : fluid_(fluid), coupling_(coupling), energyLimit_(energyLimit), alone_(alone), leftOut_(leftOut)
    {
        for (uint32_t f = 0; f < kMaxFramesInFlight; ++f) {
            readbacks_.emplace_back(context, gpu::BufferDesc{fmt::format("fluid metrics read-back {}", f),
                                                             sizeof(sim::StepReadback), gpu::MemoryKind::Readback});
            if (coupling_)
                solidSpeeds_.emplace_back(
                    context, gpu::BufferDesc{fmt::format("solid speed read-back {}", f), 16, gpu::MemoryKind::Readback});
        }
    }

    std::vector<std::string> columns() const override
    {
        std::vector<std::string> c = {"max_speed",        "wall_contacts",      "solver_error", "divergence_iterations",
                                      "divergence_error", "neighbour_overflows"};
        if (coupling_) c.push_back("solid_max_speed"); // of the solids' samples the fluid sees
        return c;
    }
    void setTimeStep(double dt) override { fluid_.setHostTimeStep(float(dt)); }
    void addStep(graph::RenderGraph& graph) override { fluid_.addStep(graph); }
    void addReadbacks(graph::RenderGraph& graph, uint32_t slot) override
    {
        recorded_[slot] = fluid_.recorded();
        fluid_.addReadback(graph, readbacks_[slot], 0);
        graph.addHostRead(readbacks_[slot]);
        if (coupling_) {
            graph.addCopy("coupling/readback_solid_speed", coupling_->solidSpeed(), solidSpeeds_[slot], 16, 0, 0);
            graph.addHostRead(solidSpeeds_[slot]);
        }
    }
    PartStep collect(graph::RenderGraph&, uint32_t slot) override
    {
        sim::StepReadback r;
        readbacks_[slot].read(&r, sizeof(r));
        const sim::StepMetrics m = fluid_.decode(r);
        PartStep out;
        if (fluid_.stoppedShort(m, recorded_[slot])) {
            out.replay = true;
            fluid_.recordEveryIterationNextStep();
            ++replays_;
            return out;
        }
        fluid_.observe(m);
        const sim::PressureSolver solver = fluid_.settings().pressureSolver();
        out.dt = m.dt;
        out.time = m.time;
        out.fluid = m;
        if (m.dt <= 0.0f) return out; // a step after the stop time: nothing happened
        out.kinetic = m.kineticEnergy;
        out.kineticIsFloat = true;
        out.particles = fluid_.count();
        out.escaped = m.escaped;
        out.add("density_error_avg", m.densityErrorAvg);
        out.add("density_error_max", m.densityErrorMax);
        if (sim::isIterative(solver)) {
            out.add("solver_iterations", uint64_t(m.iterations));
            out.add("solver_error", m.solverError);
            iterations_.add(m.iterations);
        }
        if (solver == sim::PressureSolver::Dfsph && fluid_.settings().divergenceSolver) {
            out.add("divergence_iterations", uint64_t(m.divergenceIterations));
            out.add("divergence_error", m.divergenceError);
            divergenceIterations_.add(m.divergenceIterations);
        }
        out.add("max_speed", m.maxSpeed);
        out.cflSpeed = m.maxSpeed;
        if (coupling_) {
            glm::vec4 solid;
            solidSpeeds_[slot].read(&solid, 16);
            out.add("solid_max_speed", solid.w);
            out.cflSpeed = std::max(m.maxSpeed, solid.w);
        }
        out.add("wall_contacts", uint64_t(m.wallContacts));
        out.add("neighbour_overflows", uint64_t(m.neighbourOverflows));
        overflows_.add(m.neighbourOverflows);
        maxSpeed_.add(m.maxSpeed);
        densityAvg_.add(m.densityErrorAvg);
        densityMax_.add(m.densityErrorMax);
        dt_.add(m.dt);
        wallContacts_ += m.wallContacts;
        solidCorrections_ = m.solidCorrections;
        // Alone, the fluid's energy bound is its own; with solids the world bounds their sum.
        out.blowUp = fluidDivergence(m, alone_ ? energyLimit_ : HUGE_VAL, solver == sim::PressureSolver::Eos);
        return out;
    }
    std::string title(bool alone) const override
    {
        std::string name = alone ? sim::pressureSolverName(solver()) : sim::pressureSolverTitle(solver());
        if (alone) {
            for (char& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
            if (solver() == sim::PressureSolver::Eos) name += fmt::format(" ({})", fluid_.settings().eos);
            if (solver() == sim::PressureSolver::None) name = "no pressure solver";
        }
        return fmt::format("{} \u00b7 {} particles", name, fluid_.count());
    }
    void exportFrame(graph::RenderGraph& graph, const std::filesystem::path& dir, uint64_t step, double, io::ExportFormat format,
                     std::vector<std::string>& files) override
    {
        const std::string name = fmt::format("particles_{:06d}{}", step, io::extensionOf(format));
        writeFluidParticles(graph, fluid_, dir / name, format);
        files.push_back(name);
    }
    uint64_t fingerprint() const override { return 0; } // the world combines the fluid's set-up with the solids'
    void saveState(graph::RenderGraph& graph, io::SolidState& state) override { saveFluidState(graph, fluid_, state); }
    bool replayable() const override { return true; }
    // With solids also their samples as the last step placed them (after the solids' step, before
    // the host rebuilt a fracture body's cuts: placing them anew from the restored bodies would
    // see the rebuilt fragments), sorted again into the fluid's grid after the restore.
    std::vector<sim::CarriedBuffer> stepState() const override
    {
        std::vector<sim::CarriedBuffer> b = fluid_.stepState();
        const size_t n = fluid_.solidCount();
        if (n > 0) {
            b.push_back({"solid samples", &fluid_.solidSamples(), 16 * n});
            b.push_back({"solid sample velocities", &fluid_.solidVelocities(), 16 * n});
            b.push_back({"solid sample normals", &fluid_.solidNormals(), 16 * n});
        }
        return b;
    }
    void addRestored(graph::RenderGraph& graph, const std::vector<uint64_t>&) override
    {
        fluid_.forgetUploadedControl();
        if (fluid_.solidCount() > 0) fluid_.addSolidTable(graph);
    }
    void loadState(graph::RenderGraph& graph, const io::SolidState& state, const std::filesystem::path& file) override
    {
        loadFluidState(graph, fluid_, state, file);
    }
    void summarize(graph::RenderGraph&, nlohmann::ordered_json& s, std::vector<std::string>&) override
    {
        s["solver"] = sim::pressureSolverName(solver());
        s["kernel"] = fluid_.settings().muellerKernels() ? "mueller2003" : "cubic";
        if (solver() == sim::PressureSolver::Eos) s["eos"] = fluid_.settings().eos;
        s[alone_ ? "particles" : "fluid_particles"] = fluid_.count();
        if (leftOut_ > 0) s["fluid_left_out"] = leftOut_; // sampled where a solid stands (scene/Scene.h, sampleFluid)
        s["boundary_particles"] = fluid_.boundaryCount();
        s["dimensions"] = fluid_.world().sim2D ? 2 : 3;
        if (coupling_) {
            s["solid_samples"] = coupling_->sampleCount();
            s["solid_corrections"] = solidCorrections_; // fluid particles put back out of the solids (sph/solid_guard)
        }
        s["wall_contacts"] = wallContacts_;
        if (fluid_.adaptiveRecording()) s["replayed_steps"] = replays_; // sim/sph/IterationRecording.h
        // The viscosity's passes per step above its stability bound (sph/nonpressure): the host's
        // count at a fixed step, the most a CFL step runs (each runs what its own step needs).
        if (fluid_.viscousSubsteps() > 1)
            s["viscous_substeps"] = {{"recorded", fluid_.viscousSubsteps()},
                                     {"per_step", fluid_.gpuChoosesViscousSubsteps() ? "ceil(dt / bound)" : "all"}};
        nlohmann::ordered_json& m = s["metrics"];
        m["dt"] = dt_.json();
        m["density_error_avg"] = densityAvg_.json();
        m["density_error_max"] = densityMax_.json();
        m["solver_iterations"] = iterations_.json();
        m["divergence_iterations"] = divergenceIterations_.json();
        m["neighbour_overflows"] = overflows_.json();
        m["max_speed"] = maxSpeed_.json();
    }
    void report() const override
    {
        if (coupling_)
            fmt::print("  fluid       {} particles, {}, coupled through {} solid samples\n", fluid_.count(),
                       sim::pressureSolverTitle(solver()), coupling_->sampleCount());
    }
    std::string describe() const override
    {
        return fmt::format("{} particles{}, {} boundary particles, {}", fluid_.count(),
                           leftOut_ > 0 ? fmt::format(", {} left out where solids stand", leftOut_) : std::string(),
                           fluid_.boundaryCount(), sim::pressureSolverName(solver()));
    }

private:
    sim::PressureSolver solver() const { return fluid_.settings().pressureSolver(); }
    sim::Simulation& fluid_;
    const coupling::FluidSolidCoupling* coupling_;
    double energyLimit_;
    bool alone_;
    uint64_t leftOut_;
    std::vector<gpu::Buffer> readbacks_, solidSpeeds_;
    std::array<sim::Simulation::RecordedIterations, kMaxFramesInFlight> recorded_{}; // per frame slot
    uint64_t replays_ = 0; // steps taken again with every iteration recorded
    RunningStat maxSpeed_, densityAvg_, densityMax_, iterations_, divergenceIterations_, dt_, overflows_;
    uint64_t wallContacts_ = 0;
    uint32_t solidCorrections_ = 0;
};

} // namespace

std::unique_ptr<RunPart> makeFluidPart(gpu::Context& context, sim::Simulation& fluid, const coupling::FluidSolidCoupling* coupling,
                                       double energyLimit, bool alone, uint64_t leftOut)
{
    return std::make_unique<FluidPart>(context, fluid, coupling, energyLimit, alone, leftOut);
}

} // namespace floe
