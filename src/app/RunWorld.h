// The world of a `floe run`: what a scene holds (a fluid, deformable bodies, fracture bodies; the
// dynamic RigidBodies are fracture bodies, the static ones walls and obstacles), one part per
// kind, and the coupling between the fluid and the solids. app/RunCommand's one loop steps the
// world and asks it for every output; each part owns its kind's step, its metrics.csv columns and
// bodies.csv rows (read back asynchronously, reduced on the GPU), its pictures' drawables, its
// exports, its share of saved states and of summary.json.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "app/Commands.h"
#include "app/RunOutput.h"
#include "app/SceneView.h"
#include "body/BodySettings.h"
#include "fracture/FractureSettings.h"
#include "io/ParticleExport.h"
#include "render/Overlay.h"
#include "render/Renderer.h"
#include "scene/Scene.h"
#include "sim/ParticleBuffers.h"
#include "sim/World.h"

namespace floe::io {
struct SolidState;
}
namespace floe::sim {
class Simulation;
}
namespace floe::coupling {
class FluidSolidCoupling;
class SolidContacts;
} // namespace floe::coupling
namespace floe::body {
class DeformableBodies;
}
namespace floe::fracture {
class FractureBodies;
}

namespace floe {

// A value of a metrics.csv column: a double, the GPU's float as it is (shortest round trip), a count.
using MetricValue = std::variant<double, float, uint64_t>;

// What one part recorded of a step.
struct PartStep {
    std::vector<std::pair<std::string, MetricValue>> values; // its metrics.csv columns
    std::vector<SolidRow> rows;                              // its bodies.csv rows
    double kinetic = 0.0;                                    // J
    bool kineticIsFloat = false; // the GPU's float sum (written as the float it is when the part is alone)
    uint64_t particles = 0;      // what it simulates: fluid particles, surface vertices, tet nodes
    uint64_t escaped = 0;        // left the domain, or not finite
    std::string blowUp;          // why the step diverged, or empty
    // The fluid's clock (its step and the GPU's simulated time); dt <= 0: a step after the stop.
    std::optional<float> dt, time;
    std::optional<sim::StepMetrics> fluid; // the fluid's metrics as decoded (the window's plots)
    // The fastest point the fluid's CFL rule must see after the step (m/s): its particles and the
    // solids' samples (the fluid's part of a coupled world).
    std::optional<float> cflSpeed;
    // The step must be taken again from the state before it: a solve ran out of the iterations
    // the step recorded (sim::Simulation::stoppedShort). Nothing else of it counts.
    bool replay = false;
    void add(std::string name, MetricValue value) { values.emplace_back(std::move(name), value); }
};

// What the world recorded of a step: its parts' records, and the world's sums and checks.
struct WorldStep {
    std::vector<PartStep> parts;
    bool afterStop = false; // a fluid alone's step after its stop time: nothing happened
    bool replay = false;    // a part asks for the step again (PartStep::replay): drop it
    double kinetic = 0.0;   // J, every part's (solids' summed before the fluid's)
    bool kineticIsFloat = false;
    uint64_t particles = 0, escaped = 0;
    std::string blowUp;            // the first part's, then the energy of them all together
    std::optional<float> dt, time; // the fluid's clock
};

// The most steps any part lets the host record ahead of the device (its read-backs per frame).
constexpr uint32_t kMaxFramesInFlight = 2;

class RunPart {
public:
    virtual ~RunPart() = default;
    // Its metrics.csv columns after the shared ones (step, time, dt, particles, density errors,
    // solver iterations, kinetic energy, escaped, gpu_ms_total).
    virtual std::vector<std::string> columns() const = 0;
    // Steps it lets the host record ahead of the device (fracture: 1, its host reads each step's
    // cuts before the next).
    virtual uint32_t framesInFlight() const { return 2; }
    // Host-written parameters of the step about to be recorded into frame `slot` (at `time`, s, after it).
    virtual void beginStep(uint32_t slot, double time) { (void)slot, (void)time; }
    // The step the world chose for the step about to be recorded (s; worlds that choose them).
    virtual void setTimeStep(double dt) { (void)dt; }
    virtual void addStep(graph::RenderGraph& graph) = 0; // its step alone (the coupling steps coupled parts)
    // The step's metrics (and bodies.csv rows) copied into frame `slot`'s read-back buffers.
    virtual void addReadbacks(graph::RenderGraph& graph, uint32_t slot) = 0;
    // After frame `slot`'s fence: its columns of the step's row, its bodies.csv rows and its checks.
    virtual PartStep collect(graph::RenderGraph& graph, uint32_t slot) = 0;
    // The progress line's detail after the time (", volume error 0.012 %"), or empty.
    virtual std::string progress() const { return {}; }
    // Timed passes its step may add later than its first (contacts once fragments exist).
    virtual std::vector<std::string> laterPasses(graph::RenderGraph&) { return {}; }
    // The overlay's method line, alone or beside others ("IISPH · 1250 particles").
    virtual std::string title(bool alone) const = 0;
    // Before its drawables are drawn (fracture: its fragments' surfaces).
    virtual void addDrawPasses(graph::RenderGraph&) {}
    virtual void exportFrame(graph::RenderGraph& graph, const std::filesystem::path& dir, uint64_t step, double time,
                             io::ExportFormat format, std::vector<std::string>& files) = 0;
    virtual uint64_t fingerprint() const = 0;
    virtual void saveState(graph::RenderGraph& graph, io::SolidState& state) = 0;
    // A coupled world's replay (RunWorld::addSnapshot): whether the part can be taken back to a
    // snapshot of the buffers its steps carry (stepState: all of its state that a step changes).
    // Its host's share (fracture: the node count, which sizes its buffers) is kept beside them and
    // given back to addRestored, which records what the part needs after the copies (before one
    // submission); afterRestore runs after that submission (fracture: reads its state back).
    virtual bool replayable() const { return false; }
    virtual std::vector<sim::CarriedBuffer> stepState() const { return {}; }
    virtual std::vector<uint64_t> hostState() const { return {}; }
    virtual void addRestored(graph::RenderGraph&, const std::vector<uint64_t>& host) { (void)host; }
    virtual void afterRestore(graph::RenderGraph&) {}
    virtual void loadState(graph::RenderGraph& graph, const io::SolidState& state, const std::filesystem::path& file) = 0;
    // Its entries of summary.json; warnings it adds go to `warnings`.
    virtual void summarize(graph::RenderGraph& graph, nlohmann::ordered_json& summary, std::vector<std::string>& warnings) = 0;
    // Its lines of the closing report ("  fracture    3 events, ...").
    virtual void report() const = 0;
    // The first line's part ("12 bodies, 4800 particles, omega 2, volume global").
    virtual std::string describe() const = 0;
};

// What a run's pictures draw of the world (its buffers point into it: not copied).
struct WorldDrawing {
    WorldDrawing() = default;
    WorldDrawing(const WorldDrawing&) = delete;
    WorldDrawing& operator=(const WorldDrawing&) = delete;
    render::ViewSettings view;
    SceneDrawing scene;                              // the fluid's drawn samples and wall outlines
    const sim::ParticleBuffers* particles = nullptr; // the fluid's
    const gpu::Buffer* points = nullptr;             // drawn as small grey spheres
    uint32_t pointCount = 0;
    std::vector<render::MeshDraw> meshes; // surfaces
    gpu::Buffer glass;                    // the bodies' glass as points
    bool legend = false;                  // the speed colour legend (a fluid's particles)
};

class RunWorld {
public:
    // Settings that replace the scene's (the window's panels).
    struct Settings {
        std::optional<body::BodySettings> bodies;
        std::optional<fracture::FractureSettings> fracture;
    };
    // The scene's parts on the device, coupled where it holds a fluid and solids. `endTime` is
    // where a fluid alone ends its steps on the GPU (0: none). The fluid takes scene.sph.
    RunWorld(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const Scene& scene,
             double endTime, const Settings& settings = {});
    ~RunWorld();

    // "fluid", "deformable bodies", "fluid and deformable bodies", "fracture" (bodies alone),
    // "fluid and fracture bodies": summary.json's kind and saved states' kind.
    std::string kind() const;
    // The world's own entries of summary.json, after its parts' (the contacts between deformable
    // and fracture bodies); warnings it adds go to `warnings`.
    void summarize(graph::RenderGraph& graph, nlohmann::ordered_json& summary, std::vector<std::string>& warnings);
    bool fluidOnly() const { return fluid_ && !bodies_ && !fracture_; }
    // Fixed steps of Configuration.timeStepSize (a world with solids under cflMethod 0); a fluid
    // alone takes the steps its CFL rule gives on the GPU and ends exactly at the stop time.
    bool fixedStep() const { return !fluidOnly() && !choosesSteps_; }
    double timeStep() const { return timeStep_; }
    // A fluid with solids under Configuration.cflMethod: the world chooses each step on the host,
    // one for the fluid and the solids, from the fluid's CFL rule (sphCflTimeStep) for the fastest
    // point of the last step, its particles' or a solid sample's the fluid sees (a sample faster
    // than the rule allows would run through the fluid's particles); the last one or two steps
    // share what is left of the end time, as a fluid alone's do. The next step depends on the
    // last: one step in flight.
    bool choosesSteps() const { return choosesSteps_; }
    // The step the next beginStep takes (s); 0 once the world reached its end time.
    double plannedStep() const;
    uint32_t framesInFlight() const;
    const std::vector<std::unique_ptr<RunPart>>& parts() const { return parts_; }
    std::vector<std::string> columns() const;
    // The kinetic energy fluid and solids together can reach (energyBound plus the solids'
    // initial strain), J; infinite where unbounded.
    double energyLimit() const { return energyLimit_; }

    void beginStep(uint32_t slot, double time);
    void addStep(graph::RenderGraph& graph); // every part's step and what couples them
    void addReadbacks(graph::RenderGraph& graph, uint32_t slot);
    // After frame `slot`'s fence: every part's record of its step, their sums and the checks of
    // them together (`time`: s, for the message of an energy check).
    WorldStep collect(graph::RenderGraph& graph, uint32_t slot, double time);
    // Timed passes of a step learnt before the first (a fluid alone records and discards one).
    std::vector<std::string> stepPasses(graph::RenderGraph& graph);

    std::string title() const;
    std::string describe() const;
    // What pictures draw (uploads the fluid's walls and a glass; throws floe::Error for a --render
    // the world cannot draw).
    void prepareDrawing(WorldDrawing& drawing, gpu::Context& context, graph::RenderGraph& graph, const RunOptions& options) const;
    void addDrawPasses(graph::RenderGraph& graph);

    // A fluid alone keeps its snapshots (sim::Simulation::addSnapshot): the state of a diverged
    // run's last good step.
    sim::Simulation* fluid() { return fluid_; }
    const sim::WorldSettings& fluidWorld() const { return world_; } // the fluid's domain, boundary and walls
    body::DeformableBodies* bodies() { return bodies_; }
    fracture::FractureBodies* fracture() { return fracture_; }

    uint64_t fingerprint() const;
    // Saved states: a fluid alone in its particle state file (io/StateFile), solids and coupled
    // fluids in a solid state file (io/SolidState).
    void save(graph::RenderGraph& graph, const std::filesystem::path& file, uint64_t step, double time);
    struct Loaded {
        uint64_t step = 0;
        double time = 0.0;
    };
    Loaded load(graph::RenderGraph& graph, const std::filesystem::path& file);

    // A fluid with solids records as many solver iterations as recent steps needed, as a fluid
    // alone does (sim/sph/IterationRecording.h), and a step whose solve needed more is taken again
    // from the state before it: before each step (its read-backs done where it keeps one frame in
    // flight: the fracture bodies' cuts), the world copies what its parts carry into snapshot
    // `slot` on the GPU (of sim::Simulation::kSnapshots), and restoreSnapshot copies it back (with
    // the parts' host state and the world's clock), submitting and waiting. The results are those
    // of recording every iteration. A world whose deformable and fracture bodies meet (their
    // contacts' state is not carried) records every iteration.
    bool replays() const;
    void addSnapshot(graph::RenderGraph& graph, uint32_t slot);
    void restoreSnapshot(graph::RenderGraph& graph, uint32_t slot);

private:
    const Scene& scene_;
    gpu::Context* context_;
    std::vector<std::unique_ptr<RunPart>> parts_; // the fluid's first, then the solids' (owning them)
    std::unique_ptr<sim::Simulation> fluidOwned_;
    sim::Simulation* fluid_ = nullptr;
    body::DeformableBodies* bodies_ = nullptr;
    fracture::FractureBodies* fracture_ = nullptr;
    std::unique_ptr<coupling::FluidSolidCoupling> coupling_;
    // Contacts between deformable and fracture bodies (after parts_: released before the bodies).
    std::unique_ptr<coupling::SolidContacts> solidContacts_;
    sim::WorldSettings world_;
    double timeStep_ = 0.0, energyLimit_ = HUGE_VAL;
    // Steps the world chooses: the end time (0: none), the time of the steps recorded (the sum of
    // the float steps the GPU took), the last collected step's fastest point, and whether the
    // last step recorded reached the end.
    bool choosesSteps_ = false;
    double endTime_ = 0.0, clock_ = 0.0, cflSpeed_ = 0.0;
    bool ended_ = false;
    struct Snapshot {
        std::vector<gpu::Buffer> buffers;        // the parts' stepState(), in order (each as large as its live buffer)
        std::vector<VkDeviceSize> bytes;         // what each held when taken
        std::vector<std::vector<uint64_t>> host; // the parts' hostState()
        double clock = 0.0;
        bool ended = false, placed = true; // placed: the coupling's samples (FluidSolidCoupling::placed)
    };
    std::vector<Snapshot> snapshots_;
};

} // namespace floe
