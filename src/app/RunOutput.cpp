#include "app/RunOutput.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/Plots.h"
#include "base/Error.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/Png.h"
#include "io/SolidState.h"
#include "io/TextFile.h"
#include "sim/Simulation.h"

namespace floe {

namespace {

// Removes what an earlier run wrote into dir, by Floe's own file names only (anything else
// stays): a shorter run into the same folder used to leave the earlier run's later frames,
// exports, last good state and plots beside its own. Returns the number of files removed.
size_t clearEarlierRun(const std::filesystem::path& dir)
{
    static const std::regex own(
        R"((metrics\.csv|summary\.json|frame_[0-9]{4,}\.png|particles_[0-9]{6,}\.(ply|vtk)|last_good\.(ply|vtk)|capture.*\.rdc))");
    size_t removed = 0;
    std::error_code ec;
    const auto clear = [&](const std::filesystem::path& folder, bool plots) {
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
            if (!entry.is_regular_file(ec)) continue;
            const std::string name = entry.path().filename().string();
            const bool ours = plots ? entry.path().extension() == ".png" : std::regex_match(name, own);
            if (ours && std::filesystem::remove(entry.path(), ec)) ++removed;
        }
    };
    clear(dir, false);
    if (std::filesystem::is_directory(dir / "plots", ec)) clear(dir / "plots", true);
    return removed;
}

} // namespace

RunOutput prepareRunOutput(const RunOptions& o, const std::string& sceneName)
{
    RunOutput out;
    // --plots: the plotting script and its interpreter are checked before the run, not after it.
    if (o.plots) out.plotScript = requirePlotScript();
    out.dir = o.out.empty() ? std::filesystem::path("out") / sceneName : o.out;
    std::error_code ec;
    std::filesystem::create_directories(out.dir, ec);
    if (ec) throw Error(fmt::format("--out {}: cannot create the directory: {}", out.dir.string(), ec.message()));
    if (const size_t removed = clearEarlierRun(out.dir))
        std::fprintf(stderr, "floe run: removed %zu files of an earlier run from %s\n", removed, out.dir.string().c_str());
    if (o.capture) {
        std::string why;
        out.renderDoc = gpu::RenderDoc::load(why);
        if (!out.renderDoc) throw Error("--capture: " + why);
        out.renderDoc->setCaptureTemplate((out.dir / "capture").string());
    }
    return out;
}

gpu::ContextOptions runContextOptions(const RunOptions& o)
{
    gpu::ContextOptions options;
    options.validation = o.device.validate;
    options.deviceName = o.device.device;
    return options;
}

namespace {

// --steps, else --seconds or the scene's stopAt over the step; throws floe::Error naming the
// scene when that leaves no step.
uint64_t fixedStepCount(const RunOptions& o, double stopAt, double dt)
{
    const uint64_t steps = o.steps ? *o.steps : uint64_t(std::llround(std::max(o.seconds.value_or(stopAt), 0.0) / dt));
    if (steps == 0)
        throw Error(
            fmt::format("{}: no run length: Configuration.stopAt is {}; give --steps N or --seconds T", o.scene.string(), stopAt));
    return steps;
}

} // namespace

StepSpan stepSpan(const RunOptions& o, double stopAt, double dt, uint64_t first)
{
    StepSpan span{first, fixedStepCount(o, stopAt, dt)};
    if (first > 0 && !o.steps) {
        if (span.steps <= first)
            throw Error(
                fmt::format("--load-state {}: the saved state is at step {} (t = {} s), at or past the end of the run ({} s)",
                            o.loadState.string(), first, double(first) * dt, double(span.steps) * dt));
        span.steps -= first;
    }
    return span;
}

RunPictures makeRunPictures(gpu::Context& context, const gpu::ShaderLibrary& shaders, const RunOptions& o, bool rendering,
                            uint32_t framesInFlight)
{
    RunPictures p;
    if (!rendering) return p;
    p.target = std::make_unique<render::OffscreenTarget>(context, o.width, o.height);
    p.renderer = std::make_unique<render::Renderer>(context, shaders, render::OffscreenTarget::kColorFormat,
                                                    render::OffscreenTarget::kDepthFormat, framesInFlight);
    if (o.overlay) p.overlay = std::make_unique<render::Overlay>();
    return p;
}

void RunPictures::write(const std::filesystem::path& file, const render::OverlayContent& content) const
{
    if (overlay) {
        std::vector<uint8_t> pixels = target->pixels();
        overlay->draw(pixels, target->width(), target->height(), content);
        io::writePng(file, target->width(), target->height(), pixels);
    } else {
        io::writePng(file, target->width(), target->height(), target->pixels());
    }
}

void RunPictures::save(const std::filesystem::path& dir, const render::OverlayContent& content)
{
    const std::string name = fmt::format("frame_{:04d}.png", files.size());
    write(dir / name, content);
    files.push_back(name);
}

render::OverlayContent overlayContent(const std::string& sceneName, const std::string& method, double time)
{
    return render::OverlayContent{{sceneName, method, fmt::format("t = {:.3f} s", time)}, std::nullopt};
}

std::vector<std::string> passColumns(const std::vector<std::string>& timerNames)
{
    std::vector<std::string> columns;
    for (const std::string& n : timerNames)
        if (std::find(columns.begin(), columns.end(), n) == columns.end()) columns.push_back(n);
    return columns;
}

double recordPassTimes(io::CsvWriter& csv, const std::vector<gpu::PassTime>& times, const std::vector<std::string>& columns)
{
    // GpuTimer::results() sums the runs of a pass that runs several times per step.
    double total = 0;
    for (const gpu::PassTime& t : times) {
        total += t.ms;
        if (std::find(columns.begin(), columns.end(), t.name) != columns.end()) csv.set("gpu_ms:" + t.name, t.ms);
    }
    if (!times.empty()) csv.set("gpu_ms_total", total); // empty with --timers off
    return total;
}

BodiesCsv::BodiesCsv(const std::filesystem::path& dir)
    : csv_(std::make_unique<io::CsvWriter>(dir / "bodies.csv",
                                           std::vector<std::string>{"step", "time", "body", "kind", "fragment", "x", "y", "z", "vx",
                                                                    "vy", "vz", "mass", "volume_error"}))
{
}

BodiesCsv::~BodiesCsv() = default;

void BodiesCsv::add(uint64_t step, double time, const SolidRow& r)
{
    csv_->set(0, step);
    csv_->set(1, time);
    csv_->set(2, uint64_t(r.body));
    csv_->set(3, std::string(r.fragment ? "fracture" : "deformable"));
    if (r.fragment) csv_->set(4, uint64_t(r.label));
    for (int k = 0; k < 3; ++k) {
        csv_->set(5 + k, r.centre[k]);
        csv_->set(8 + k, r.velocity[k]);
    }
    csv_->set(11, r.mass);
    if (!r.fragment) csv_->set(12, r.volumeError);
    csv_->endRow();
}

void BodiesCsv::flush()
{
    csv_->flush();
}

void writeRunSummary(nlohmann::ordered_json& summary, const RunEnd& end, const gpu::Context& context,
                     const std::vector<std::string>& warnings, const std::filesystem::path& dir)
{
    summary["frames"] = end.pictures;
    if (!end.exports.empty()) summary["exports"] = end.exports;
    summary["capture"] = end.capture.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(end.capture);
    summary["validation"] = context.validationEnabled();
    summary["gpu_assisted_validation"] = context.gpuAssistedValidation();
    summary["validation_messages"] = context.validationMessageCount();
    summary["warnings"] = warnings;
    summary["status"] = !end.diverged.empty() ? "diverged" : end.interrupted ? "interrupted" : "ok";
    if (!end.diverged.empty()) summary["diverged_reason"] = end.diverged;
    if (!io::writeTextFile(dir / "summary.json", summary.dump(2) + "\n"))
        throw Error(fmt::format("{}: cannot write", (dir / "summary.json").string()), ExitCode::Failure);
}

std::string runStatusLine(const RunEnd& end)
{
    if (!end.diverged.empty()) return "DIVERGED: " + end.diverged;
    return end.interrupted ? fmt::format("interrupted after step {}", end.steps) : std::string("ok");
}

int runExitCode(const RunEnd& end)
{
    if (!end.diverged.empty()) return static_cast<int>(ExitCode::Diverged);
    return end.interrupted ? static_cast<int>(ExitCode::Interrupted) : 0;
}

void printRunFiles(const RunOutput& output, const RunEnd& end, const gpu::Context& context, bool plots)
{
    fmt::print("  metrics     {}\n", (output.dir / "metrics.csv").string());
    fmt::print("  summary     {}\n", (output.dir / "summary.json").string());
    if (!end.pictures.empty()) fmt::print("  pictures    {}/frame_NNNN.png ({} files)\n", output.dir.string(), end.pictures.size());
    if (!end.exports.empty()) fmt::print("  exports     {} files in {}\n", end.exports.size(), output.dir.string());
    if (!end.capture.empty()) fmt::print("  capture     {}\n", end.capture);
    if (context.validationEnabled()) fmt::print("  validation  {} messages\n", context.validationMessageCount());
    fmt::print("  wall time   {:.2f} s ({:.1f} steps/s)\n", end.wallSeconds,
               end.wallSeconds > 0 ? double(end.steps) / end.wallSeconds : 0.0);
    if (plots) {
        writePlots(output.plotScript, output.dir);
        fmt::print("  plots       {}/plots/*.png\n", output.dir.string());
    }
}

io::ParticleFrame particleFrame(const sim::SimulationState& s, const std::vector<float>& densities)
{
    // Back to the scene's sampling order.
    io::ParticleFrame f;
    const size_t n = s.positions.size();
    f.positions.resize(n);
    f.velocities.resize(n);
    f.densities.resize(n);
    f.pressures.resize(n);
    for (size_t k = 0; k < n; ++k) {
        const uint32_t i = s.ids[k] < n ? s.ids[k] : uint32_t(k);
        f.positions[i] = glm::vec3(s.positions[k]);
        f.velocities[i] = glm::vec3(s.velocities[k]);
        f.pressures[i] = s.velocities[k].w;
        f.densities[i] = densities[k];
    }
    f.time = s.state[0].y;
    f.step = static_cast<uint64_t>(s.state[0].w);
    return f;
}

uint64_t coupledFingerprint(uint64_t solids, const sim::Simulation& fluid)
{
    io::Fingerprint f;
    f.add(solids).add(uint64_t(fluid.count())).add(uint64_t(fluid.boundaryCount())).add(uint64_t(fluid.solidCount()));
    f.add(uint64_t(fluid.grid().dims.x)).add(uint64_t(fluid.grid().dims.y)).add(uint64_t(fluid.grid().dims.z));
    f.add(fluid.world().particleRadius);
    return f.value();
}

void saveFluidState(graph::RenderGraph& graph, sim::Simulation& fluid, io::SolidState& state)
{
    const sim::SimulationState s = fluid.download(graph);
    state.add("fluid positions", s.positions);
    state.add("fluid velocities", s.velocities);
    state.add("fluid ids", s.ids);
    state.add("fluid solver state", s.solverState);
    state.add("fluid step state", std::vector<glm::vec4>(s.state.begin(), s.state.end()));
    state.add("fluid last step", std::vector<glm::vec4>{s.lastStep});
    state.add("fluid guard impulses", fluid.downloadSolidGuard(graph));
}

void loadFluidState(graph::RenderGraph& graph, sim::Simulation& fluid, const io::SolidState& state,
                    const std::filesystem::path& file)
{
    sim::SimulationState s;
    const size_t n = fluid.count();
    s.positions = state.get<glm::vec4>("fluid positions", n, file);
    s.velocities = state.get<glm::vec4>("fluid velocities", n, file);
    s.ids = state.get<uint32_t>("fluid ids", n, file);
    s.solverState = state.get<glm::vec4>("fluid solver state", n, file);
    const std::vector<glm::vec4> step = state.get<glm::vec4>("fluid step state", s.state.size(), file);
    std::copy(step.begin(), step.end(), s.state.begin());
    s.lastStep = state.get<glm::vec4>("fluid last step", 1, file)[0];
    fluid.upload(graph, s);
    fluid.uploadSolidGuard(graph, state.get<int32_t>("fluid guard impulses", 4 * size_t(fluid.solidCount()), file));
}

void writeFluidParticles(graph::RenderGraph& graph, sim::Simulation& fluid, const std::filesystem::path& path,
                         io::ExportFormat format)
{
    std::vector<float> densities;
    fluid.addSnapshot(graph, 0);
    const sim::SimulationState s = fluid.readSnapshot(graph, 0, &densities);
    io::writeParticles(path, particleFrame(s, densities), format);
}

} // namespace floe
