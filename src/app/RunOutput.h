// What every `floe run` prepares before the device starts, for fluid and body scenes alike, and
// what the run loop shares with its outputs while and after it runs.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include <nlohmann/json_fwd.hpp>

#include "app/Commands.h"
#include "gpu/Context.h"
#include "gpu/GpuTimer.h"
#include "gpu/RenderDoc.h"
#include "io/ParticleExport.h"
#include "render/OffscreenTarget.h"
#include "render/Overlay.h"
#include "render/Renderer.h"
#include "sim/World.h"

namespace floe::io {
class CsvWriter;
struct SolidState;
} // namespace floe::io
namespace floe::graph {
class RenderGraph;
}
namespace floe::sim {
class Simulation;
}

namespace floe {

struct RunOutput {
    std::filesystem::path dir;                 // --out, else out/<scene name>; created
    std::filesystem::path plotScript;          // tools/plot.py with --plots, else empty
    std::unique_ptr<gpu::RenderDoc> renderDoc; // with --capture: loaded, captures go to dir/capture*
};

// Checks --plots (script and interpreter), creates the output folder and loads RenderDoc for
// --capture (before any Vulkan instance exists). Throws floe::Error naming what is missing.
RunOutput prepareRunOutput(const RunOptions& options, const std::string& sceneName);

// Validation and device choice from the command line.
gpu::ContextOptions runContextOptions(const RunOptions& options);

// The steps of a fixed-step run: after `first` (the step a loaded state was saved at, else 0),
// --steps N more, else up to --seconds or stopAt. Throws floe::Error when a loaded state is at
// or past that end.
struct StepSpan {
    uint64_t first = 0, steps = 0;
    uint64_t last() const { return first + steps; }
};
StepSpan stepSpan(const RunOptions& options, double stopAt, double dt, uint64_t first);

// The offscreen target and renderer of a run's pictures (both null when nothing is drawn), and
// the pictures written so far.
struct RunPictures {
    std::unique_ptr<render::OffscreenTarget> target;
    std::unique_ptr<render::Renderer> renderer;
    std::unique_ptr<render::Overlay> overlay; // with --overlay
    std::vector<std::string> files;           // frame_NNNN.png in the output folder, in order
    explicit operator bool() const { return target != nullptr; }
    // Writes the target's read-back pixels as the next frame_NNNN.png in `dir`, with `content`
    // drawn over them when the run has an overlay.
    void save(const std::filesystem::path& dir, const render::OverlayContent& content = {});
    // Writes the target's read-back pixels to `file`, with the overlay as save() does.
    void write(const std::filesystem::path& file, const render::OverlayContent& content) const;
};
// The overlay's top-left lines: the scene's name, what simulates it and the simulated time.
render::OverlayContent overlayContent(const std::string& sceneName, const std::string& method, double time);
RunPictures makeRunPictures(gpu::Context& context, const gpu::ShaderLibrary& shaders, const RunOptions& options, bool rendering,
                            uint32_t framesInFlight);

// The timed passes of a step's graph (pendingTimerNames), each once in first-use order: the
// names of metrics.csv's gpu_ms:<pass> columns.
std::vector<std::string> passColumns(const std::vector<std::string>& timerNames);
// A step's GPU ms per pass into its gpu_ms:<pass> columns (passes without a column only count
// towards the total); returns the total.
double recordPassTimes(io::CsvWriter& csv, const std::vector<gpu::PassTime>& times, const std::vector<std::string>& columns);

// How a run ended.
struct RunEnd {
    uint64_t steps = 0; // steps done
    double wallSeconds = 0;
    std::vector<std::string> pictures; // file names in the output folder
    std::string capture;               // RenderDoc file, or empty
    std::string diverged;              // why the run stopped early, or empty
    bool interrupted = false;          // stopped by Ctrl-C or SIGTERM (app/Interrupt.h)
    std::vector<std::string> exports;  // --export files in the output folder, in order
};

// A fluid state (a step's sorted order) as an export frame in the scene's sampling order, with
// the densities of the same step.
io::ParticleFrame particleFrame(const sim::SimulationState& state, const std::vector<float>& densities);
// A coupled run's fluid as it is, written to `path` as a fluid run writes its particles.
void writeFluidParticles(graph::RenderGraph& graph, sim::Simulation& fluid, const std::filesystem::path& path,
                         io::ExportFormat format);

// A coupled run's set-up for its saved states: the solids' fingerprint with the fluid's particles
// and grid.
uint64_t coupledFingerprint(uint64_t solids, const sim::Simulation& fluid);
// The fluid's part of a coupled run's saved state: its particle buffers, its step state and the
// impulses its guard owes the solids (both submit and wait; loading throws floe::Error naming
// `file` when the state does not fit).
void saveFluidState(graph::RenderGraph& graph, sim::Simulation& fluid, io::SolidState& state);
void loadFluidState(graph::RenderGraph& graph, sim::Simulation& fluid, const io::SolidState& state,
                    const std::filesystem::path& file);

// bodies.csv (issue 16 item 3): one row per solid per step, a deformable body or a fracture
// fragment: step, time, body, kind (deformable, fracture), fragment (its label; empty for a
// deformable body), the centre of mass x y z (m, world), its velocity vx vy vz (m/s), mass (kg)
// and volume_error ((V - V0) / V0; empty for fragments).
struct SolidRow {
    uint32_t body = 0;
    bool fragment = false;
    uint32_t label = 0;
    glm::vec3 centre{0.0f}, velocity{0.0f};
    float mass = 0, volumeError = 0;
};
class BodiesCsv {
public:
    explicit BodiesCsv(const std::filesystem::path& dir); // writes the header; throws floe::Error
    ~BodiesCsv();
    void add(uint64_t step, double time, const SolidRow& row);
    void flush();

private:
    std::unique_ptr<io::CsvWriter> csv_;
};
// "ok", "interrupted after step N" or "DIVERGED: why"; and the exit code (0, 130 or 1).
std::string runStatusLine(const RunEnd& end);
int runExitCode(const RunEnd& end);
// summary.json's common tail (frames, capture, validation, warnings, status), then the file.
void writeRunSummary(nlohmann::ordered_json& summary, const RunEnd& end, const gpu::Context& context,
                     const std::vector<std::string>& warnings, const std::filesystem::path& dir);
// The closing lines after a run's own: metrics, summary, pictures, capture, validation, wall
// time, and the plots (drawn here with --plots).
void printRunFiles(const RunOutput& output, const RunEnd& end, const gpu::Context& context, bool plots);

} // namespace floe
