// floe run: load a scene, simulate it headless, write metrics.csv (one row per step, read back
// asynchronously two frames behind), summary.json, frame_NNNN.png pictures, particle exports
// and saved states.
#include <algorithm>
#include <bit>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/BodyRun.h"
#include "app/Commands.h"
#include "app/FractureRun.h"
#include "app/Interrupt.h"
#include "app/Plots.h"
#include "app/Progress.h"
#include "app/RunOutput.h"
#include "app/SceneLoader.h"
#include "app/SceneSetup.h"
#include "app/SceneView.h"
#include "app/Stat.h"
#include "base/Error.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/RenderDoc.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/ParticleExport.h"
#include "io/StateFile.h"
#include "io/TextFile.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "shared/fluid.h"
#include "shared/render.h"
#include "shared/sph.h"
#include "sim/Simulation.h"

namespace floe {
namespace {

constexpr uint32_t kFramesInFlight = 2;

struct Pending {
    uint64_t step = 0; // absolute step number
    uint32_t slot = 0; // frame slot
    uint32_t snapshot = 0;
    int picture = -1; // index of the picture taken after this step, or -1
    bool exportHere = false;
    bool saveHere = false;
};

// The order-independent fingerprint of what a saved state must match.
uint64_t fingerprintOf(const sim::Simulation& s)
{
    uint64_t h = 1469598103934665603ull;
    const auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    mix(s.count());
    mix(s.boundaryCount());
    mix(s.grid().dims.x);
    mix(s.grid().dims.y);
    mix(s.grid().dims.z);
    mix(std::bit_cast<uint32_t>(s.world().particleRadius));
    mix(s.world().sim2D ? 2 : 3);
    return h;
}

} // namespace

int runCommand(const RunOptions& o)
{
    const auto wallStart = std::chrono::steady_clock::now();
    SetupProgress setup("floe run", !o.quiet);
    setup.stage("loading the scene");
    Scene scene = loadScene(o.scene);
    applyOverrides(scene, o.sets);
    // The fluid's solver and its step's stability, also where bodies share the scene with it.
    const bool hasFluid = !scene.fluidBlocks.empty() || !scene.fluidModels.empty();
    if (hasFluid) {
        if (!o.solver.empty()) {
            try {
                (void)sim::parsePressureSolver(o.solver);
            } catch (const Error& e) {
                throw Error(fmt::format("--solver {}: {}", o.solver, e.what()));
            }
            scene.sph.solver = o.solver;
        }
        if (scene.sph.pressureSolver() == sim::PressureSolver::Eos && !scene.sph.cflMethod) {
            const float bound = scene.sph.acousticTimeStep(2.0f * scene.config.particleRadius, scene.config.density0);
            if (scene.config.timeStepSize > bound)
                scene.warnings.push_back(fmt::format(
                    "Configuration.timeStepSize {} s is above the equation of state's acoustic bound 0.4 h / c = {:.3g} s "
                    "(stiffness {}); the run may blow up (cflMethod 1 keeps dt below it)",
                    scene.config.timeStepSize, bound, scene.sph.stiffness));
        }
        {
            const float h = 2.0f * scene.config.particleRadius;
            const float nu = std::max(scene.sph.viscosity, scene.sph.wallViscosity());
            const float bound = shared::SPH_VISCOUS_STEP * h * h / nu;
            if (!scene.sph.cflMethod && nu > 0.0f && scene.config.timeStepSize > bound)
                scene.warnings.push_back(
                    fmt::format("Configuration.timeStepSize {} s is above the explicit viscosity's stability bound "
                                "{} h^2 / nu = {:.3g} s (nu {} m^2/s); the run may blow up (cflMethod 1 keeps "
                                "dt below it)",
                                scene.config.timeStepSize, shared::SPH_VISCOUS_STEP, bound, nu));
        }
    }
    if (!scene.deformableBodies.empty() || !scene.fractureBodies.empty()) {
        for (const std::string& w : scene.warnings) std::fprintf(stderr, "floe: warning: %s\n", w.c_str());
        return scene.fractureBodies.empty() ? runBodies(o, scene, wallStart, setup) : runFracture(o, scene, wallStart, setup);
    }
    for (const std::string& w : scene.warnings) std::fprintf(stderr, "floe: warning: %s\n", w.c_str());

    // Run length: a number of steps, or a simulated time (the GPU ends the last step exactly there).
    const uint64_t stepLimit = o.steps.value_or(0);
    double endTime = 0.0;
    if (!o.steps) {
        if (o.seconds)
            endTime = *o.seconds;
        else if (scene.config.stopAt > 0)
            endTime = scene.config.stopAt;
        else
            throw Error(fmt::format("{}: no run length: Configuration.stopAt is {}; give --steps N or --seconds T",
                                    o.scene.string(), scene.config.stopAt));
    }
    const int frameCount = o.frames.value_or(scene.floe.frames);
    // Exports: --export, else what the scene asks for (SPlisHSPlasH's enableVTKExport and
    // enablePartioExport, Partio's BGEO written as PLY) every 1/dataExportFPS simulated seconds.
    std::vector<io::ExportFormat> exportFormats;
    double exportInterval = 0.0; // s of simulated time between scene-driven exports (0: with the pictures)
    if (!o.exportFormat.empty()) {
        exportFormats.push_back(io::parseExportFormat(o.exportFormat));
    } else {
        if (scene.config.enableVTKExport) exportFormats.push_back(io::ExportFormat::Vtk);
        if (scene.config.enablePartioExport) exportFormats.push_back(io::ExportFormat::Ply);
        if (!exportFormats.empty() && !o.exportEvery) exportInterval = 1.0 / scene.config.dataExportFPS;
    }
    const bool exporting = !exportFormats.empty();
    if (o.exportEvery && !exporting) throw Error("--export-every needs --export ply|vtk");
    if (o.saveEvery && o.saveState.empty()) throw Error("--save-every needs --save-state FILE");
    RunOutput output = prepareRunOutput(o, scene.name);
    const std::filesystem::path& outDir = output.dir;
    const std::filesystem::path& plotScript = output.plotScript;
    std::unique_ptr<gpu::RenderDoc>& renderDoc = output.renderDoc;

    setup.stage("starting the device");
    gpu::Context context(runContextOptions(o));
    const uint64_t particleCount = countFluidParticles(scene);
    const uint32_t dims = scene.config.sim2D ? 2 : 3;
    const uint64_t maxParticles = sim::ParticleBuffers::maxFluidParticles(context, dims);
    if (particleCount > maxParticles)
        throw Error(fmt::format("{}: {} particles at particleRadius {} m do not fit on {} (at most {}: maxStorageBufferRange {} "
                                "bytes / 16 bytes per particle, maxTexelBufferElements {} / {} neighbour slots per particle)",
                                o.scene.string(), particleCount, scene.config.particleRadius, context.deviceName(), maxParticles,
                                context.limits().maxStorageBufferRange, context.limits().maxTexelBufferElements,
                                shared::sphNeighbourCapacity(dims)));

    setup.stage("sampling the boundaries");
    const sim::WorldSettings world = makeWorld(scene, static_cast<float>(endTime));
    const double energyLimit = energyBound(scene, world);
    gpu::ShaderLibrary shaders;
    graph::RenderGraph graph(context);
    graph.setTimerMode(*gpu::parseTimerMode(o.timers));
    setup.stage(fmt::format("sampling {} fluid particles", particleCount));
    const std::vector<glm::vec4> positions = sampleFluidParticles(scene);
    const std::vector<glm::vec4> velocities = initialVelocities(scene);
    setup.stage("building the simulation's buffers and pipelines");
    sim::Simulation simulation(context, shaders, graph, world, scene.sph, positions, velocities);
    const uint64_t fingerprint = fingerprintOf(simulation);

    uint64_t startStep = 0;
    double startTime = 0.0;
    if (!o.loadState.empty()) {
        const sim::SimulationState state = io::loadState(o.loadState, fingerprint);
        simulation.upload(graph, state);
        startStep = static_cast<uint64_t>(state.state[0].w);
        // The time column sums the steps as they print (0.002, not 0.00200000009) from 0: a resumed
        // run continues the saved run's sum, not the GPU's float time, so that its column matches
        // the uninterrupted run's digit for digit.
        startTime = state.reportedTime;
        if (!stepLimit && startTime >= endTime - 1e-9)
            throw Error(fmt::format("--load-state {}: the saved state is at t = {} s, at or past the end of the run ({} s)",
                                    o.loadState.string(), startTime, endTime));
    }
    const double runLength = stepLimit ? 0.0 : endTime - startTime;

    gpu::FrameResources frames(context, kFramesInFlight);
    std::vector<gpu::Buffer> readbacks;
    for (uint32_t i = 0; i < kFramesInFlight; ++i)
        readbacks.emplace_back(
            context, gpu::BufferDesc{fmt::format("step read-back {}", i), sizeof(sim::StepReadback), gpu::MemoryKind::Readback});

    const bool rendering = frameCount > 0 || o.capture;
    const RunPictures pictures = makeRunPictures(context, shaders, o, rendering, kFramesInFlight);
    render::OffscreenTarget* target = pictures.target.get();
    render::Renderer* renderer = pictures.renderer.get();
    render::ViewSettings view;
    if (rendering) {
        view = sceneView(scene, world, float(o.width) / float(o.height));
        view.mode = render::parseRenderMode(o.render.empty() ? "particles" : o.render);
        if (view.mode < 0) throw Error(fmt::format("--render: '{}' is not particles, fluid or both", o.render));
        if (o.smoothing) view.fluid.iterations = *o.smoothing;
    }
    SceneDrawing drawing;
    if (rendering) {
        drawing = uploadSceneDrawing(context, graph, scene, world);
        if (drawing.outlineCount) renderer->setOutlines(&drawing.outlines, drawing.outlineCount);
    }
    const auto addRender = [&](uint32_t slot) {
        renderer->addPasses(graph, target->color(), target->depth(), simulation.particles(), view, slot, &drawing.boundary,
                            drawing.boundaryCount);
        target->addReadback(graph);
    };

    // Columns: DESIGN §5's, Floe's extra ones, then one per timed pass (learnt from a dry run).
    simulation.addStep(graph);
    simulation.addSnapshot(graph, 0);
    simulation.addReadback(graph, readbacks[0], 0);
    std::vector<std::string> passNames = graph.pendingTimerNames();
    graph.discard();
    if (rendering) {
        addRender(0);
        for (const std::string& n : graph.pendingTimerNames())
            if (std::find(passNames.begin(), passNames.end(), n) == passNames.end()) passNames.push_back(n);
        graph.discard();
    }
    std::vector<std::string> columns = {"step",
                                        "time",
                                        "dt",
                                        "particles",
                                        "density_error_avg",
                                        "density_error_max",
                                        "solver_iterations",
                                        "kinetic_energy",
                                        "escaped",
                                        "gpu_ms_total",
                                        "max_speed",
                                        "wall_contacts",
                                        "solver_error",
                                        "divergence_iterations",
                                        "divergence_error",
                                        "neighbour_overflows"};
    for (const std::string& n : passNames) columns.push_back("gpu_ms:" + n);
    io::CsvWriter csv(outDir / "metrics.csv", columns);

    // Pictures spread over the run: by step for a step count, by simulated time otherwise.
    std::vector<double> pictureAt; // steps after startStep, or seconds after startTime
    if (frameCount == 1)
        pictureAt.push_back(stepLimit ? double(stepLimit) : runLength);
    else
        for (int i = 0; i < frameCount; ++i)
            pictureAt.push_back((stepLimit ? double(stepLimit) : runLength) * i / (frameCount - 1));
    if (stepLimit)
        for (double& s : pictureAt) s = std::round(s);
    pictureAt.erase(std::unique(pictureAt.begin(), pictureAt.end()), pictureAt.end());

    const sim::PressureSolver solverKind = scene.sph.pressureSolver();
    std::vector<std::string> pictureFiles, exportFiles;
    std::map<std::string, RunningStat> passStats;
    RunningStat kinetic, escapedStat, gpuTotal, maxSpeed, densityAvg, densityMax, iterations, divergenceIterations, dtStat,
        overflows;
    uint64_t wallContacts = 0;
    bool diverged = false, reachedEnd = false;
    uint64_t divergedAt = 0;
    std::string divergeReason, lastGoodFile, capturePath;
    uint64_t lastStep = startStep;
    double lastTime = startTime, lastDt = world.timeStep, runTime = startTime;
    int lastGoodSnapshot = 0;

    // The overlay's method line: the solver (and the equation of state) and the particle count.
    std::string solverTitle = sim::pressureSolverName(solverKind);
    std::transform(solverTitle.begin(), solverTitle.end(), solverTitle.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    if (solverKind == sim::PressureSolver::Eos) solverTitle += fmt::format(" ({})", scene.sph.eos);
    if (solverKind == sim::PressureSolver::None) solverTitle = "no pressure solver";
    const std::string method = fmt::format("{} \u00b7 {} particles", solverTitle, simulation.count());
    const auto savePicture = [&](int index, double time) {
        const std::string name = fmt::format("frame_{:04d}.png", index);
        render::OverlayContent content = overlayContent(scene.name, method, time);
        content.legend = render::particleLegend(view.mode, view.colorAttribute, view.colorMin, view.colorMax);
        pictures.write(outDir / name, content);
        pictureFiles.push_back(name);
    };
    const auto exportSnapshot = [&](uint32_t snapshot, const std::filesystem::path& path, io::ExportFormat format) {
        std::vector<float> densities;
        const sim::SimulationState s = simulation.readSnapshot(graph, snapshot, &densities);
        io::writeParticles(path, particleFrame(s, densities), format);
    };

    const auto exportAll = [&](uint32_t snapshot, uint64_t step) {
        for (const io::ExportFormat format : exportFormats) {
            const std::string name = fmt::format("particles_{:06d}{}", step, io::extensionOf(format));
            exportSnapshot(snapshot, outDir / name, format);
            exportFiles.push_back(name);
        }
    };
    // Scene-driven exports: the first with the initial state, then every exportInterval.
    double nextExport = exportInterval > 0.0 ? exportInterval : 0.0;
    if (exportInterval > 0.0) {
        simulation.addSnapshot(graph, 0);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        exportAll(0, startStep);
    }

    std::deque<Pending> pending;
    const auto collect = [&](const Pending& p) {
        frames.wait(p.slot);
        sim::StepReadback r;
        readbacks[p.slot].read(&r, sizeof(r));
        const sim::StepMetrics m = simulation.decode(r);
        if (m.dt <= 0.0f) { // a step after the stop time: nothing happened
            reachedEnd = true;
            return;
        }
        // Time summed in double on the CPU from the GPU's steps (the GPU keeps a float sum).
        runTime += std::stod(fmt::format("{}", m.dt)); // the step as the float prints (0.002, not 0.00200000009)
        // The GPU decides when the stop time is reached; the two sums differ by float rounding.
        if (!stepLimit && m.time >= world.stopTime) {
            runTime = endTime;
            reachedEnd = true;
        }
        csv.set("step", p.step);
        csv.set("time", runTime);
        csv.set("dt", m.dt);
        csv.set("particles", uint64_t(simulation.count()));
        csv.set("density_error_avg", m.densityErrorAvg);
        csv.set("density_error_max", m.densityErrorMax);
        if (sim::isIterative(solverKind)) {
            csv.set("solver_iterations", uint64_t(m.iterations));
            csv.set("solver_error", m.solverError);
            iterations.add(m.iterations);
        }
        if (solverKind == sim::PressureSolver::Dfsph && scene.sph.divergenceSolver) {
            csv.set("divergence_iterations", uint64_t(m.divergenceIterations));
            csv.set("divergence_error", m.divergenceError);
            divergenceIterations.add(m.divergenceIterations);
        }
        csv.set("kinetic_energy", m.kineticEnergy);
        csv.set("escaped", uint64_t(m.escaped));
        csv.set("max_speed", m.maxSpeed);
        csv.set("wall_contacts", uint64_t(m.wallContacts));
        csv.set("neighbour_overflows", uint64_t(m.neighbourOverflows));
        overflows.add(m.neighbourOverflows);
        double total = 0;
        for (const gpu::PassTime& t : frames.timer(p.slot).results()) {
            if (std::find(passNames.begin(), passNames.end(), t.name) == passNames.end()) continue; // a one-off pass
            csv.set("gpu_ms:" + t.name, float(t.ms));
            passStats[t.name].add(t.ms);
            total += t.ms;
        }
        if (context.caps().timestamps && graph.timerMode() != gpu::TimerMode::Off) {
            csv.set("gpu_ms_total", float(total));
            gpuTotal.add(total);
        }
        csv.endRow();
        kinetic.add(m.kineticEnergy);
        escapedStat.add(m.escaped);
        maxSpeed.add(m.maxSpeed);
        densityAvg.add(m.densityErrorAvg);
        densityMax.add(m.densityErrorMax);
        dtStat.add(m.dt);
        wallContacts += m.wallContacts;
        lastStep = p.step;
        lastTime = runTime;
        lastDt = m.dt;
        if (!diverged) {
            divergeReason = fluidDivergence(m, energyLimit, solverKind == sim::PressureSolver::Eos);
            if (!divergeReason.empty()) {
                diverged = true;
                divergedAt = p.step;
                return;
            }
        }
        if (diverged) return;
        lastGoodSnapshot = static_cast<int>(p.snapshot);
        if (p.picture >= 0) savePicture(p.picture, runTime);
        if (p.exportHere) exportAll(p.snapshot, p.step);
        if (p.saveHere) {
            sim::SimulationState state = simulation.readSnapshot(graph, p.snapshot);
            state.reportedTime = runTime;
            io::saveState(o.saveState, state, fingerprint);
        }
    };
    const auto drain = [&]() {
        while (!pending.empty()) {
            collect(pending.front());
            pending.pop_front();
        }
    };

    if (renderDoc) renderDoc->startFrameCapture(context.instance());
    // The initial state: snapshot 0 (the last good state if the first step diverges), picture 0.
    size_t nextPicture = 0;
    {
        simulation.addSnapshot(graph, 0);
        const bool firstPicture = !pictureAt.empty() && pictureAt[0] <= 0.0;
        if (firstPicture) addRender(0);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        if (firstPicture) {
            savePicture(0, startTime);
            nextPicture = 1;
            if (exporting && !o.exportEvery && exportInterval == 0.0) exportAll(0, startStep);
        }
    }

    setup.stop();
    Progress progress("floe run", stepLimit, !o.quiet);
    uint64_t submitted = 0;
    watchInterrupts();
    bool interrupted = false;
    while (!diverged) {
        if (interruptRequested()) {
            interrupted = true;
            break;
        }
        if (stepLimit && submitted >= stepLimit) break;
        // Time-limited runs stop once the collected time reached the end; steps after it that are
        // already in flight have dt = 0 on the GPU.
        if (!stepLimit && reachedEnd) break;
        if (!stepLimit && submitted > 100'000'000)
            throw Error("the run did not reach its end time within 1e8 steps", ExitCode::Failure);
        const uint32_t slot = static_cast<uint32_t>(submitted % kFramesInFlight);
        while (!pending.empty() && pending.front().slot == slot) {
            collect(pending.front());
            pending.pop_front();
        }
        if (diverged) break;
        VkCommandBuffer cmd = frames.begin(slot);
        const uint64_t step = startStep + submitted + 1;
        Pending p{step, slot, static_cast<uint32_t>((submitted + 1) % sim::Simulation::kSnapshots), -1, false, false};
        simulation.addStep(graph);
        simulation.addSnapshot(graph, p.snapshot);
        simulation.addReadback(graph, readbacks[slot], 0);
        graph.addHostRead(readbacks[slot]);
        // Simulated time after this step, estimated from the last collected step.
        const double estimate = stepLimit ? double(submitted + 1) : lastTime - startTime + double(step - lastStep) * lastDt;
        const bool picture = nextPicture < pictureAt.size() && estimate >= pictureAt[nextPicture] - 1e-9;
        // A captured first frame shows the whole frame: simulation and drawing.
        if (picture || (renderDoc && submitted == 0)) {
            addRender(slot);
            if (picture) p.picture = static_cast<int>(nextPicture++);
        }
        if (exportInterval > 0.0) {
            const double simulated = lastTime - startTime + double(step - lastStep) * lastDt; // s after the start
            p.exportHere = simulated >= nextExport - 1e-9;
            if (p.exportHere) nextExport += exportInterval;
        } else {
            p.exportHere = exporting && (o.exportEvery ? step % o.exportEvery == 0 : picture);
        }
        p.saveHere = o.saveEvery && step % o.saveEvery == 0;
        graph.execute(cmd, &frames.timer(slot));
        frames.submit(slot);
        pending.push_back(p);
        ++submitted;
        if (renderDoc && submitted == 1) {
            frames.wait(slot);
            capturePath = renderDoc->endFrameCapture(context.instance(), startStep + 1);
            renderDoc.reset();
        }
        // Pictures, exports and saved states read buffers of this step: finish it first.
        if (p.picture >= 0 || p.exportHere || p.saveHere) drain();
        if (stepLimit)
            progress.update(submitted, fmt::format("t = {:.3f} s", lastTime));
        else
            progress.updateFraction((lastTime - startTime) / runLength,
                                    fmt::format("t = {:.3f}/{} s, step {}", lastTime, endTime, lastStep));
    }
    drain();
    progress.finish();
    if (renderDoc) capturePath = renderDoc->endFrameCapture(context.instance(), startStep + 1);
    // A time-limited run's last picture: the final state, if the estimate missed it.
    if (!diverged && rendering && nextPicture < pictureAt.size()) {
        addRender(0);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        savePicture(static_cast<int>(nextPicture), lastTime);
    }
    if (diverged) {
        const io::ExportFormat format = exporting ? exportFormats.front() : io::ExportFormat::Ply;
        lastGoodFile = std::string("last_good") + io::extensionOf(format);
        exportSnapshot(static_cast<uint32_t>(lastGoodSnapshot), outDir / lastGoodFile, format);
    } else if (!o.saveState.empty()) {
        sim::SimulationState state = simulation.download(graph);
        state.reportedTime = lastTime;
        io::saveState(o.saveState, state, fingerprint);
    }
    if (!diverged && exporting && o.exportEvery && lastStep % o.exportEvery != 0) {
        simulation.addSnapshot(graph, 0);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        exportAll(0, lastStep);
    }
    csv.flush();

    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    nlohmann::ordered_json summary;
    summary["scene"] = o.scene.string();
    summary["scene_name"] = scene.name;
    summary["solver"] = sim::pressureSolverName(solverKind);
    summary["kernel"] = scene.sph.muellerKernels() ? "mueller2003" : "cubic";
    if (solverKind == sim::PressureSolver::Eos) summary["eos"] = scene.sph.eos;
    summary["device"] = context.deviceName();
    summary["particles"] = simulation.count();
    summary["boundary_particles"] = simulation.boundaryCount();
    summary["dimensions"] = world.sim2D ? 2 : 3;
    summary["steps"] = lastStep - startStep;
    summary["first_step"] = startStep + 1;
    summary["loaded_state"] = o.loadState.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(o.loadState.string());
    summary["simulated_seconds"] = lastTime - startTime;
    summary["end_time"] = lastTime;
    summary["wall_seconds"] = wall;
    summary["steps_per_second"] = wall > 0 ? double(lastStep - startStep) / wall : 0.0;
    summary["metrics"] = {{"dt", dtStat.json()},
                          {"density_error_avg", densityAvg.json()},
                          {"density_error_max", densityMax.json()},
                          {"solver_iterations", iterations.json()},
                          {"divergence_iterations", divergenceIterations.json()},
                          {"neighbour_overflows", overflows.json()},
                          {"kinetic_energy", kinetic.json()},
                          {"escaped", escapedStat.json()},
                          {"max_speed", maxSpeed.json()},
                          {"gpu_ms_total", gpuTotal.json()}};
    summary["wall_contacts"] = wallContacts;
    nlohmann::ordered_json perPass = nlohmann::ordered_json::object();
    for (const std::string& n : passNames)
        if (passStats.count(n)) perPass[n] = passStats[n].mean();
    summary["gpu_ms_mean"] = perPass;
    summary["frames"] = pictureFiles;
    summary["render"] = rendering ? nlohmann::ordered_json(render::renderModeName(view.mode)) : nlohmann::ordered_json(nullptr);
    if (rendering && view.mode != RENDER_MODE_PARTICLES) summary["smoothing_iterations"] = view.fluid.iterations;
    summary["exports"] = exportFiles;
    summary["saved_state"] =
        o.saveState.empty() || diverged ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(o.saveState.string());
    summary["capture"] = capturePath.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(capturePath);
    summary["validation"] = context.validationEnabled();
    summary["gpu_assisted_validation"] = context.gpuAssistedValidation();
    summary["validation_messages"] = context.validationMessageCount();
    summary["warnings"] = scene.warnings;
    summary["status"] = diverged ? "diverged" : interrupted ? "interrupted" : "ok";
    if (diverged) {
        summary["diverged_at_step"] = divergedAt;
        summary["diverged_reason"] = divergeReason;
        summary["last_good_state"] = lastGoodFile;
    }
    if (!io::writeTextFile(outDir / "summary.json", summary.dump(2) + "\n"))
        throw Error(fmt::format("cannot write {}", (outDir / "summary.json").string()), ExitCode::Failure);

    fmt::print("floe run: {} ({} particles, {} boundary particles, {}, {} steps, t = {:.4g} s) on {}\n", scene.name,
               simulation.count(), simulation.boundaryCount(), sim::pressureSolverName(solverKind), lastStep - startStep, lastTime,
               context.deviceName());
    fmt::print("  status      {}\n", diverged      ? fmt::format("DIVERGED at step {}: {}", divergedAt, divergeReason)
                                     : interrupted ? fmt::format("interrupted after step {}", lastStep)
                                                   : std::string("ok"));
    if (diverged) fmt::print("  last good   {}\n", (outDir / lastGoodFile).string());
    fmt::print("  metrics     {}\n", (outDir / "metrics.csv").string());
    fmt::print("  summary     {}\n", (outDir / "summary.json").string());
    if (!pictureFiles.empty())
        fmt::print("  pictures    {}/{}\n", outDir.string(),
                   pictureFiles.size() == 1 ? pictureFiles.front()
                                            : fmt::format("frame_NNNN.png ({} .. {})", pictureFiles.front(), pictureFiles.back()));
    if (!exportFiles.empty()) fmt::print("  exports     {} files in {}\n", exportFiles.size(), outDir.string());
    if (!o.saveState.empty() && !diverged) fmt::print("  state       {}\n", o.saveState.string());
    if (!capturePath.empty())
        fmt::print("  capture     {}\n", capturePath);
    else if (o.capture)
        fmt::print("  capture     RenderDoc wrote no capture\n");
    if (context.validationEnabled()) fmt::print("  validation  {} messages\n", context.validationMessageCount());
    fmt::print("  wall time   {:.2f} s ({:.1f} steps/s)\n", wall, wall > 0 ? double(lastStep - startStep) / wall : 0.0);
    if (o.plots) {
        csv.flush();
        std::fflush(stdout);
        writePlots(plotScript, outDir);
        fmt::print("  plots       {}/plots/{{density_error,solver_iterations,{}energy_dt}}.png\n", outDir.string(),
                   graph.timerMode() == gpu::TimerMode::Off ? "" : "gpu_ms,");
    }
    return diverged ? static_cast<int>(ExitCode::Diverged) : interrupted ? static_cast<int>(ExitCode::Interrupted) : 0;
}

} // namespace floe
