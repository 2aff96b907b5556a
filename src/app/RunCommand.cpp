// floe run: load a scene, simulate it headless, write metrics.csv (one row per step, read back
// asynchronously two frames behind), summary.json and frame_NNNN.png pictures.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/Commands.h"
#include "app/Progress.h"
#include "app/SceneLoader.h"
#include "base/Error.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/RenderDoc.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/Png.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "shared/render.h"
#include "sim/Simulation.h"

namespace floe {
namespace {

constexpr uint32_t kFramesInFlight = 2;

// Steps after which a picture is taken: K pictures spread evenly over [0, total], the first
// showing the initial state and the last the final one.
std::vector<uint64_t> pictureSteps(uint64_t total, int frames)
{
    std::vector<uint64_t> steps;
    if (frames <= 0) return steps;
    if (frames == 1) return {total};
    for (int i = 0; i < frames; ++i) steps.push_back(static_cast<uint64_t>(std::llround(double(i) * double(total) / (frames - 1))));
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    return steps;
}

struct Stat {
    double sum = 0, max = -1e300, last = 0;
    uint64_t n = 0;
    void add(double v)
    {
        sum += v;
        max = std::max(max, v);
        last = v;
        ++n;
    }
    nlohmann::ordered_json json() const
    {
        if (!n) return nullptr;
        return {{"mean", sum / double(n)}, {"max", max}, {"last", last}};
    }
};

struct Pending {
    uint64_t step = 0;
    uint32_t slot = 0;
    int picture = -1; // index into the picture list, or -1
};

} // namespace

int runCommand(const RunOptions& o)
{
    const auto wallStart = std::chrono::steady_clock::now();
    Scene scene = loadScene(o.scene);
    for (const std::string& s : o.sets) applyOverride(scene, s);
    for (const std::string& w : scene.warnings) std::fprintf(stderr, "floe: warning: %s\n", w.c_str());
    const std::string solver = o.solver.empty() ? "integrator" : o.solver;
    if (solver != "integrator") throw Error(fmt::format("--solver {}: unknown solver; available: integrator", o.solver));

    const float dt = scene.config.timeStepSize;
    // The step as the user wrote it (0.002, not the float's 0.0020000000949949026), for times.
    const double dtSeconds = std::stod(fmt::format("{}", dt));
    uint64_t steps = 0;
    if (o.steps)
        steps = *o.steps;
    else if (o.seconds)
        steps = static_cast<uint64_t>(std::ceil(*o.seconds / dt - 1e-6));
    else if (scene.config.stopAt > 0)
        steps = static_cast<uint64_t>(std::ceil(scene.config.stopAt / dt - 1e-6));
    else
        throw Error(fmt::format("{}: no run length: Configuration.stopAt is {}; give --steps N or --seconds T", o.scene.string(),
                                scene.config.stopAt));
    steps = std::max<uint64_t>(steps, 1);
    const int frameCount = o.frames.value_or(scene.floe.frames);
    const std::filesystem::path outDir = o.out.empty() ? std::filesystem::path("out") / scene.name : o.out;
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    if (ec) throw Error(fmt::format("--out {}: cannot create the directory: {}", outDir.string(), ec.message()));

    std::unique_ptr<gpu::RenderDoc> renderDoc;
    if (o.capture) {
        std::string why;
        renderDoc = gpu::RenderDoc::load(why);
        if (!renderDoc) throw Error("--capture: " + why);
        renderDoc->setCaptureTemplate((outDir / "capture").string());
    }

    gpu::ContextOptions contextOptions;
    contextOptions.validation = o.device.validate;
    contextOptions.deviceName = o.device.device;
    gpu::Context context(contextOptions);
    const uint64_t particleCount = countFluidParticles(scene);
    const uint64_t maxParticles = sim::ParticleBuffers::maxParticles(context);
    if (particleCount > maxParticles)
        throw Error(
            fmt::format("{}: {} particles at particleRadius {} m do not fit on {} (at most {}: maxStorageBufferRange {} bytes / 16 "
                        "bytes per particle, maxTexelBufferElements {})",
                        o.scene.string(), particleCount, scene.config.particleRadius, context.deviceName(), maxParticles,
                        context.limits().maxStorageBufferRange, context.limits().maxTexelBufferElements));

    gpu::ShaderLibrary shaders;
    graph::RenderGraph graph(context);
    sim::WorldSettings world;
    world.gravity = scene.config.gravitation;
    scene.domain(world.domainMin, world.domainMax);
    world.particleRadius = scene.config.particleRadius;
    world.restitution = scene.floe.restitution;
    world.friction = scene.floe.friction;
    world.sim2D = scene.config.sim2D;
    if (world.sim2D) world.gravity.z = 0.0f;
    const std::vector<glm::vec4> positions = sampleFluidParticles(scene);
    const std::vector<glm::vec4> velocities = initialVelocities(scene);
    sim::Simulation simulation(context, shaders, graph, world, positions, velocities);

    gpu::FrameResources frames(context, kFramesInFlight);
    std::vector<gpu::Buffer> metricReadback;
    for (uint32_t i = 0; i < kFramesInFlight; ++i)
        metricReadback.emplace_back(context,
                                    gpu::BufferDesc{fmt::format("metrics read-back {}", i), 16, gpu::MemoryKind::Readback});

    const bool rendering = frameCount > 0 || o.capture;
    std::unique_ptr<render::OffscreenTarget> target;
    std::unique_ptr<render::Renderer> renderer;
    render::ViewSettings view;
    if (rendering) {
        target = std::make_unique<render::OffscreenTarget>(context, o.width, o.height);
        renderer = std::make_unique<render::Renderer>(context, shaders, render::OffscreenTarget::kColorFormat,
                                                      render::OffscreenTarget::kDepthFormat, kFramesInFlight);
        const bool autoCamera = scene.config.cameraPosition == glm::vec3(0) && scene.config.cameraLookat == glm::vec3(0);
        view.camera = render::Camera::fit(world.domainMin, world.domainMax, scene.floe.fovY, world.sim2D);
        if (!autoCamera) {
            view.camera.position = scene.config.cameraPosition;
            view.camera.target = scene.config.cameraLookat;
            const float distance = glm::length(view.camera.target - view.camera.position);
            view.camera.nearPlane = std::max(1e-3f, distance * 1e-3f);
            view.camera.farPlane = distance * 10.0f + glm::length(world.domainMax - world.domainMin) * 2.0f;
        }
        view.particleRadius = world.particleRadius;
        view.colorAttribute = RENDER_COLOR_SPEED;
        // Colour range up to the speed of a free fall through the domain's height.
        const float height = world.domainMax.y - world.domainMin.y;
        view.colorMax = std::max(0.5f, std::sqrt(2.0f * glm::length(world.gravity) * height));
        view.drawFloor = !world.sim2D;
        view.floorHeight = world.domainMin.y;
        view.floorHalfExtent =
            0.75f * std::max(world.domainMax.x - world.domainMin.x, world.domainMax.z - world.domainMin.z) + 0.5f;
        view.floorCenter = {0.5f * (world.domainMin.x + world.domainMax.x), 0.5f * (world.domainMin.z + world.domainMax.z)};
    }

    // Columns: the fixed ones of DESIGN §5, then one per timed pass (learnt from a dry run).
    std::vector<std::string> passNames;
    simulation.addStep(graph, dt);
    simulation.addMetrics(graph, metricReadback[0], 0);
    passNames = graph.pendingTimerNames();
    graph.discard();
    if (rendering) {
        renderer->addPasses(graph, target->color(), target->depth(), simulation.particles(), view, 0);
        target->addReadback(graph);
        for (const std::string& n : graph.pendingTimerNames())
            if (std::find(passNames.begin(), passNames.end(), n) == passNames.end()) passNames.push_back(n);
        graph.discard();
    }
    std::vector<std::string> columns = {
        "step",           "time",    "dt",          "particles", "density_error_avg", "density_error_max", "solver_iterations",
        "kinetic_energy", "escaped", "gpu_ms_total"};
    for (const std::string& n : passNames) columns.push_back("gpu_ms:" + n);
    io::CsvWriter csv(outDir / "metrics.csv", columns);

    const std::vector<uint64_t> pictures = pictureSteps(steps, frameCount);
    std::vector<std::string> pictureFiles;
    std::map<std::string, Stat> passStats;
    Stat kinetic, escapedStat, gpuTotal, maxSpeed;
    bool diverged = false;
    uint64_t divergedAt = 0;
    std::string divergeReason;
    uint64_t stepsDone = 0;
    std::string capturePath;

    const auto savePicture = [&](int index) {
        const std::string name = fmt::format("frame_{:04d}.png", index);
        io::writePng(outDir / name, target->width(), target->height(), target->pixels());
        pictureFiles.push_back(name);
    };

    std::deque<Pending> pending;
    const auto collect = [&](const Pending& p) {
        frames.wait(p.slot);
        glm::vec4 reduced;
        metricReadback[p.slot].read(&reduced, 16);
        const sim::StepMetrics m = sim::Simulation::decodeMetrics(reduced);
        csv.set("step", p.step);
        csv.set("time", double(p.step) * dtSeconds);
        csv.set("dt", dt);
        csv.set("particles", uint64_t(simulation.count()));
        csv.set("kinetic_energy", m.kineticEnergy);
        csv.set("escaped", uint64_t(m.escaped));
        double total = 0;
        for (const gpu::PassTime& t : frames.timer(p.slot).results()) {
            csv.set("gpu_ms:" + t.name, float(t.ms));
            passStats[t.name].add(t.ms);
            total += t.ms;
        }
        if (context.caps().timestamps) {
            csv.set("gpu_ms_total", float(total));
            gpuTotal.add(total);
        }
        csv.endRow();
        kinetic.add(m.kineticEnergy);
        escapedStat.add(m.escaped);
        maxSpeed.add(m.maxSpeed);
        stepsDone = p.step;
        if (p.picture >= 0) savePicture(p.picture);
        if (!diverged && (m.nonFinite > 0 || m.escaped > 0)) {
            diverged = true;
            divergedAt = p.step;
            divergeReason = m.nonFinite > 0 ? fmt::format("{} particles have non-finite positions or velocities", m.nonFinite)
                                            : fmt::format("{} particles escaped the closed domain", m.escaped);
        }
    };
    const auto drain = [&]() {
        while (!pending.empty()) {
            collect(pending.front());
            pending.pop_front();
        }
    };

    if (renderDoc) renderDoc->startFrameCapture(context.instance());
    size_t nextPicture = 0;
    if (!pictures.empty() && pictures[0] == 0) {
        VkCommandBuffer cmd = frames.begin(0);
        renderer->addPasses(graph, target->color(), target->depth(), simulation.particles(), view, 0);
        target->addReadback(graph);
        graph.execute(cmd, &frames.timer(0));
        frames.submit(0);
        frames.wait(0);
        savePicture(0);
        nextPicture = 1;
    }

    Progress progress("floe run", steps, !o.quiet);
    for (uint64_t step = 1; step <= steps && !diverged; ++step) {
        const uint32_t slot = static_cast<uint32_t>(step % kFramesInFlight);
        // Results of the step that used this slot before are complete once its fence signals.
        while (!pending.empty() && pending.front().slot == slot) {
            collect(pending.front());
            pending.pop_front();
        }
        if (diverged) break;
        VkCommandBuffer cmd = frames.begin(slot);
        simulation.addStep(graph, dt);
        simulation.addMetrics(graph, metricReadback[slot], 0);
        graph.addHostRead(metricReadback[slot]);
        Pending p{step, slot, -1};
        const bool picture = nextPicture < pictures.size() && pictures[nextPicture] == step;
        // A captured first frame shows the whole frame: simulation and drawing.
        if (picture || (renderDoc && step == 1)) {
            renderer->addPasses(graph, target->color(), target->depth(), simulation.particles(), view, slot);
            target->addReadback(graph);
            if (picture) p.picture = static_cast<int>(nextPicture++);
        }
        graph.execute(cmd, &frames.timer(slot));
        frames.submit(slot);
        pending.push_back(p);
        if (renderDoc && step == 1) {
            frames.wait(slot);
            capturePath = renderDoc->endFrameCapture(context.instance());
            renderDoc.reset();
        }
        // A picture's pixels live in one read-back buffer: write it before the next render.
        if (picture) drain();
        progress.update(step, fmt::format("t = {:.3f} s", double(step) * dtSeconds));
    }
    drain();
    progress.finish();
    if (renderDoc) capturePath = renderDoc->endFrameCapture(context.instance());
    csv.flush();

    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    nlohmann::ordered_json summary;
    summary["scene"] = o.scene.string();
    summary["scene_name"] = scene.name;
    summary["solver"] = solver;
    summary["device"] = context.deviceName();
    summary["particles"] = simulation.count();
    summary["dimensions"] = world.sim2D ? 2 : 3;
    summary["steps"] = stepsDone;
    summary["dt"] = dtSeconds;
    summary["simulated_seconds"] = double(stepsDone) * dtSeconds;
    summary["wall_seconds"] = wall;
    summary["metrics"] = {{"kinetic_energy", kinetic.json()}, {"escaped", escapedStat.json()}, {"max_speed", maxSpeed.json()},
                          {"density_error_avg", nullptr},     {"density_error_max", nullptr},  {"solver_iterations", nullptr},
                          {"gpu_ms_total", gpuTotal.json()}};
    nlohmann::ordered_json perPass = nlohmann::ordered_json::object();
    for (const std::string& n : passNames)
        if (passStats.count(n)) perPass[n] = passStats[n].sum / double(passStats[n].n);
    summary["gpu_ms_mean"] = perPass;
    summary["frames"] = pictureFiles;
    summary["capture"] = capturePath.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(capturePath);
    summary["validation"] = context.validationEnabled();
    summary["validation_messages"] = context.validationMessageCount();
    summary["warnings"] = scene.warnings;
    summary["status"] = diverged ? "diverged" : "ok";
    if (diverged) {
        summary["diverged_at_step"] = divergedAt;
        summary["diverged_reason"] = divergeReason;
    }
    {
        std::FILE* f = std::fopen((outDir / "summary.json").c_str(), "w");
        if (!f) throw Error(fmt::format("cannot write {}", (outDir / "summary.json").string()), ExitCode::Failure);
        const std::string text = summary.dump(2) + "\n";
        std::fputs(text.c_str(), f);
        std::fclose(f);
    }

    fmt::print("floe run: {} ({} particles, {} steps of {} s) on {}\n", scene.name, simulation.count(), stepsDone, dt,
               context.deviceName());
    fmt::print("  status      {}\n", diverged ? fmt::format("DIVERGED at step {}: {}", divergedAt, divergeReason) : "ok");
    fmt::print("  metrics     {}\n", (outDir / "metrics.csv").string());
    fmt::print("  summary     {}\n", (outDir / "summary.json").string());
    if (!pictureFiles.empty())
        fmt::print("  pictures    {}/{}\n", outDir.string(),
                   pictureFiles.size() == 1 ? pictureFiles.front()
                                            : fmt::format("frame_NNNN.png ({} .. {})", pictureFiles.front(), pictureFiles.back()));
    if (!capturePath.empty())
        fmt::print("  capture     {}\n", capturePath);
    else if (o.capture)
        fmt::print("  capture     RenderDoc wrote no capture\n");
    if (context.validationEnabled()) fmt::print("  validation  {} messages\n", context.validationMessageCount());
    fmt::print("  wall time   {:.2f} s\n", wall);
    return diverged ? static_cast<int>(ExitCode::Diverged) : 0;
}

} // namespace floe
