// floe run: load a scene, simulate its world headless in one loop for every kind (app/RunWorld:
// a fluid, deformable bodies, fracture bodies, coupled), write metrics.csv (one row per step,
// read back asynchronously up to two frames behind), bodies.csv, summary.json, frame_NNNN.png
// pictures, exports and saved states.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/Commands.h"
#include "app/Interrupt.h"
#include "app/Progress.h"
#include "app/RunOutput.h"
#include "app/RunWorld.h"
#include "app/Stat.h"
#include "base/Error.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/RenderDoc.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/ParticleExport.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "scene/SceneLoader.h"
#include "shared/fluid.h"
#include "shared/sph.h"
#include "sim/Simulation.h"

namespace floe {

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
            // sim::Simulation takes the viscosity in substeps where it can (not for an equation
            // of state, whose integration walk does it, nor beside solids).
            const bool solidsToo = !scene.deformableBodies.empty() || !scene.fractureBodies.empty();
            const uint32_t substeps = scene.sph.pressureSolver() == sim::PressureSolver::Eos || solidsToo
                                          ? 0u
                                          : scene.sph.viscousSubsteps(scene.config.timeStepSize, h);
            if (!scene.sph.cflMethod && nu > 0.0f && scene.config.timeStepSize > bound) {
                if (substeps > 1)
                    scene.warnings.push_back(
                        fmt::format("Configuration.timeStepSize {} s is above the explicit viscosity's stability bound "
                                    "{} h^2 / nu = {:.3g} s (nu {} m^2/s): the viscosity takes {} substeps per step",
                                    scene.config.timeStepSize, shared::SPH_VISCOUS_STEP, bound, nu, substeps));
                else
                    scene.warnings.push_back(fmt::format(
                        "Configuration.timeStepSize {} s is above the explicit viscosity's stability bound "
                        "{} h^2 / nu = {:.3g} s (nu {} m^2/s); the run may blow up (cflMethod 1 keeps "
                        "dt below it{})",
                        scene.config.timeStepSize, shared::SPH_VISCOUS_STEP, bound, nu,
                        scene.sph.pressureSolver() == sim::PressureSolver::Eos
                            ? "; an equation of state takes its viscosity in one step"
                        : solidsToo ? "; beside solids the viscosity takes no substeps"
                                    : fmt::format("; more than {} substeps are not taken", sim::SphSettings::kMaxViscousSubsteps)));
            }
        }
    }
    const bool solids = !scene.deformableBodies.empty() || !scene.fractureBodies.empty();
    if (!o.solver.empty() && !hasFluid)
        throw Error(fmt::format("--solver {}: the scene has {}, no fluid", o.solver,
                                scene.fractureBodies.empty() ? "deformable bodies" : "fracture bodies"));
    if (!o.render.empty() && o.render != "fluid" && !hasFluid && scene.deformableBodies.empty())
        throw Error(fmt::format("--render {}: fracture scenes draw their tetrahedra's faces only", o.render));
    for (const std::string& w : scene.warnings) std::fprintf(stderr, "floe: warning: %s\n", w.c_str());

    // Run length: a number of steps, or a simulated time. A fluid alone ends its last step exactly
    // there on the GPU (its CFL steps vary), a fluid with solids under cflMethod where the world
    // chooses its steps (RunWorld::choosesSteps); other worlds with solids take fixed steps.
    const bool fixed = solids && !(hasFluid && scene.sph.cflMethod);
    const double dt = scene.config.timeStepSize;
    uint64_t stepLimit = o.steps.value_or(0);
    double endTime = 0.0;
    if (!fixed && !o.steps) {
        if (o.seconds)
            endTime = *o.seconds;
        else if (scene.config.stopAt > 0)
            endTime = scene.config.stopAt;
        else
            throw Error(fmt::format("{}: no run length: Configuration.stopAt is {}; give --steps N or --seconds T",
                                    o.scene.string(), scene.config.stopAt));
    }
    if (fixed) (void)stepSpan(o, scene.config.stopAt, dt, 0); // a run with no step is refused before the device starts
    const int frameCount = o.frames.value_or(scene.floe.frames);
    // Exports: --export, else what the scene asks for (SPlisHSPlasH's enableVTKExport and
    // enablePartioExport, Partio's BGEO written as PLY) every 1/dataExportFPS simulated seconds.
    // --export writes the first state and the last, and between them every N steps
    // (--export-every), else with the pictures; the scene's rate writes the first state and then
    // one every interval.
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
    std::unique_ptr<gpu::RenderDoc>& renderDoc = output.renderDoc;

    setup.stage("starting the device");
    gpu::Context context(runContextOptions(o));
    if (hasFluid) {
        const uint64_t particleCount = countFluidParticles(scene);
        const uint32_t dims = scene.config.sim2D ? 2 : 3;
        const uint64_t maxParticles = sim::ParticleBuffers::maxFluidParticles(context, dims);
        if (particleCount > maxParticles)
            throw Error(
                fmt::format("{}: {} particles at particleRadius {} m do not fit on {} (at most {}: maxStorageBufferRange {} "
                            "bytes / 16 bytes per particle, maxTexelBufferElements {} / {} neighbour slots per particle)",
                            o.scene.string(), particleCount, scene.config.particleRadius, context.deviceName(), maxParticles,
                            context.limits().maxStorageBufferRange, context.limits().maxTexelBufferElements,
                            shared::sphNeighbourCapacity(dims)));
        setup.stage(fmt::format("sampling {} fluid particles and the boundaries", particleCount));
    }
    gpu::ShaderLibrary shaders;
    graph::RenderGraph graph(context);
    graph.setTimerMode(*gpu::parseTimerMode(o.timers));
    setup.stage("building the world's buffers and pipelines");
    RunWorld world(context, shaders, graph, scene, endTime);
    if (world.fixedStep() != fixed) throw std::logic_error("floe run: the world's steps and the loop's disagree");
    sim::Simulation* fluidAlone = world.fluidOnly() ? world.fluid() : nullptr; // keeps snapshots for the last good state
    // A fluid with solids: the world keeps the snapshots a replay needs (RunWorld::addSnapshot).
    const bool worldReplays = world.replays();

    // --load-state: the run goes on from the saved step, bit-identical to an uninterrupted run.
    uint64_t startStep = 0;
    double startTime = 0.0;
    if (!o.loadState.empty()) {
        const RunWorld::Loaded loaded = world.load(graph, o.loadState);
        startStep = loaded.step;
        startTime = loaded.time;
        if (!fixed && !stepLimit && startTime >= endTime - 1e-9)
            throw Error(fmt::format("--load-state {}: the saved state is at t = {} s, at or past the end of the run ({} s)",
                                    o.loadState.string(), startTime, endTime));
    }
    if (fixed) stepLimit = stepSpan(o, scene.config.stopAt, dt, startStep).steps;
    const double runLength = stepLimit ? 0.0 : endTime - startTime;

    const uint32_t inFlight = world.framesInFlight();
    gpu::FrameResources frames(context, inFlight);
    const bool rendering = frameCount > 0 || o.capture;
    RunPictures pictures = makeRunPictures(context, shaders, o, rendering, inFlight);
    render::OffscreenTarget* target = pictures.target.get();
    render::Renderer* renderer = pictures.renderer.get();
    WorldDrawing drawing;
    if (rendering) {
        world.prepareDrawing(drawing, context, graph, o);
        if (drawing.scene.outlineCount) renderer->setOutlines(&drawing.scene.outlines, drawing.scene.outlineCount);
    }
    const auto addRender = [&](uint32_t slot) {
        world.addDrawPasses(graph);
        renderer->addPasses(graph, target->color(), target->depth(), drawing.particles, drawing.view, slot, drawing.points,
                            drawing.pointCount, drawing.meshes);
        target->addReadback(graph);
    };

    // Columns: DESIGN §5's, each part's, then one per timed pass (those a step records, learnt
    // before the first where that changes nothing, and at the first).
    std::vector<std::string> passNames = world.stepPasses(graph);
    if (rendering && fluidAlone) {
        const size_t first = graph.pendingPasses();
        addRender(0);
        for (const std::string& n : graph.pendingTimerNames(first)) passNames.push_back(n);
        graph.discard(first);
    }
    // A fluid alone records as many solver iterations as recent steps needed and replays a step
    // whose solve needed more from the snapshot before it (sim/sph/IterationRecording.h).
    if (fluidAlone) fluidAlone->setAdaptiveRecording(true);
    if (worldReplays) world.fluid()->setAdaptiveRecording(true);
    std::vector<std::string> columns = world.columns(), gpuColumns;
    std::unique_ptr<io::CsvWriter> csv;
    std::unique_ptr<BodiesCsv> bodiesCsv; // bodies.csv: one row per solid per step
    if (solids) bodiesCsv = std::make_unique<BodiesCsv>(outDir);

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

    const std::string method = world.title();
    RunEnd end;
    std::map<std::string, RunningStat> passStats;
    RunningStat kinetic, escapedStat, gpuTotal;
    bool diverged = false, reachedEnd = false, timingWarned = false;
    uint64_t divergedAt = 0, lastStep = startStep, lastExported = UINT64_MAX;
    std::string lastGoodFile;
    double lastTime = startTime, lastDt = dt, runTime = startTime;
    int lastGoodSnapshot = 0;
    const auto savePicture = [&](double time) {
        render::OverlayContent content = overlayContent(scene.name, method, time);
        if (drawing.legend)
            content.legend = render::particleLegend(drawing.view.mode, drawing.view.colorAttribute, drawing.view.colorMin,
                                                    drawing.view.colorMax);
        pictures.save(outDir, content);
    };
    // Every part's export of the world as it is now (nothing in flight).
    const auto exportAll = [&](uint64_t step, double time) {
        for (const io::ExportFormat format : exportFormats)
            for (const auto& part : world.parts()) part->exportFrame(graph, outDir, step, time, format, end.exports);
        lastExported = step;
    };
    double nextExport = exportInterval;
    if (exporting) exportAll(startStep, startTime);

    struct Pending {
        uint64_t step = 0; // absolute step number
        uint32_t slot = 0; // frame slot
        uint32_t snapshot = 0;
        bool picture = false, exportHere = false, saveHere = false;
        size_t nextPicture = 0; // the picture and export schedule before the step (for a replay)
        double nextExport = 0.0;
    };
    std::deque<Pending> pending;
    std::optional<Pending> replayFrom; // the first step to take again (PartStep::replay)
    const auto collect = [&](const Pending& p) {
        frames.wait(p.slot);
        if (diverged) return;   // a step after the one that diverged: its results are dropped
        if (replayFrom) return; // a step after one to take again: taken again too
        const double fixedTime = double(p.step) * dt;
        const WorldStep w = world.collect(graph, p.slot, fixedTime);
        if (w.replay) {
            replayFrom = p;
            return;
        }
        if (w.afterStop) { // a step after the stop time: nothing happened
            reachedEnd = true;
            return;
        }
        double stepDt = dt;
        if (fixed) {
            runTime = fixedTime;
        } else {
            // Time summed in double on the CPU from the GPU's steps (the GPU keeps a float sum),
            // the step as the float prints (0.002, not 0.00200000009).
            runTime += std::stod(fmt::format("{}", *w.dt));
            stepDt = *w.dt;
            // The GPU decides when the stop time is reached (or the world that chose the step);
            // the two sums differ by float rounding.
            if (!stepLimit && (*w.time >= static_cast<float>(endTime) || world.plannedStep() == 0.0)) {
                runTime = endTime;
                reachedEnd = true;
            }
        }
        for (const PartStep& part : w.parts) {
            for (const auto& [name, value] : part.values) std::visit([&](auto v) { csv->set(name, v); }, value);
            for (const SolidRow& row : part.rows) bodiesCsv->add(p.step, runTime, row);
        }
        const std::string& blowUp = w.blowUp;
        csv->set("step", p.step);
        csv->set("time", runTime);
        if (fixed)
            csv->set("dt", dt);
        else
            csv->set("dt", *w.dt);
        csv->set("particles", w.particles);
        if (w.kineticIsFloat)
            csv->set("kinetic_energy", float(w.kinetic));
        else
            csv->set("kinetic_energy", w.kinetic);
        csv->set("escaped", w.escaped);
        const gpu::GpuTimer& timer = frames.timer(p.slot);
        if (timer.dropped() && !timingWarned) {
            std::fprintf(stderr, "floe run: warning: %u passes of step %llu were not timed (timer scopes used up)\n",
                         timer.dropped(), static_cast<unsigned long long>(p.step));
            timingWarned = true;
        }
        const double ms = recordPassTimes(*csv, timer.results(), gpuColumns);
        for (const gpu::PassTime& t : timer.results()) passStats[t.name].add(t.ms);
        if (!timer.results().empty()) gpuTotal.add(ms);
        csv->endRow();
        kinetic.add(w.kinetic);
        escapedStat.add(double(w.escaped));
        lastStep = p.step;
        lastTime = runTime;
        lastDt = stepDt;
        if (!blowUp.empty()) {
            diverged = true;
            divergedAt = p.step;
            end.diverged = blowUp;
            return;
        }
        lastGoodSnapshot = static_cast<int>(p.snapshot);
        if (p.picture) savePicture(runTime);
        if (p.exportHere) exportAll(p.step, runTime);
        if (p.saveHere) world.save(graph, o.saveState, p.step, runTime);
    };
    const auto drain = [&]() {
        while (!pending.empty()) {
            collect(pending.front());
            pending.pop_front();
        }
    };

    // The initial state: snapshot 0 (the last good state if the first step diverges), picture 0.
    size_t nextPicture = 0;
    {
        if (fluidAlone) fluidAlone->addSnapshot(graph, 0);
        const bool firstPicture = rendering && !pictureAt.empty() && pictureAt[0] <= 0.0;
        if (firstPicture) addRender(0);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        if (firstPicture) {
            savePicture(startTime);
            nextPicture = 1;
        }
    }

    setup.stop();
    Progress progress("floe run", stepLimit, !o.quiet);
    uint64_t submitted = 0;
    watchInterrupts();
    for (;;) {
        while (!diverged && !replayFrom) {
            if (interruptRequested()) {
                end.interrupted = true;
                break;
            }
            if (stepLimit && submitted >= stepLimit) break;
            // Time-limited runs stop once the collected time reached the end; steps after it that are
            // already in flight have dt = 0 on the GPU.
            if (!stepLimit && reachedEnd) break;
            if (!stepLimit && submitted > 100'000'000)
                throw Error("the run did not reach its end time within 1e8 steps", ExitCode::Failure);
            const uint32_t slot = static_cast<uint32_t>(submitted % inFlight);
            while (!pending.empty() && pending.front().slot == slot) {
                collect(pending.front());
                pending.pop_front();
            }
            if (diverged || replayFrom) break;
            // A world that chooses its steps records none past its end (a fluid alone's GPU makes such
            // steps empty).
            if (world.choosesSteps() && world.plannedStep() == 0.0) break;
            const uint64_t step = startStep + submitted + 1;
            Pending p{step, slot, static_cast<uint32_t>((submitted + 1) % sim::Simulation::kSnapshots)};
            p.nextPicture = nextPicture;
            p.nextExport = nextExport;
            // Simulated time after this step, estimated from the last collected step (exact with fixed
            // steps, and where the world chooses them: one step in flight).
            const double estimate = fixed                  ? double(step) * dt
                                    : world.choosesSteps() ? lastTime + world.plannedStep()
                                                           : lastTime + double(step - lastStep) * lastDt;
            // The state before the step, for a replay (after the last step's read-backs where the
            // world keeps one frame in flight: a fracture step's cuts are then rebuilt).
            if (worldReplays) world.addSnapshot(graph, static_cast<uint32_t>(submitted % sim::Simulation::kSnapshots));
            world.beginStep(slot, estimate);
            const bool capture = renderDoc && submitted == 0;
            if (capture) renderDoc->startFrameCapture(context.instance());
            VkCommandBuffer cmd = frames.begin(slot);
            world.addStep(graph);
            if (fluidAlone) fluidAlone->addSnapshot(graph, p.snapshot);
            world.addReadbacks(graph, slot);
            const double progressed = stepLimit ? double(submitted + 1) : estimate - startTime;
            p.picture = rendering && nextPicture < pictureAt.size() && progressed >= pictureAt[nextPicture] - 1e-9;
            if (p.picture) ++nextPicture;
            // A captured first frame shows the whole frame: simulation and drawing.
            if (p.picture || capture) addRender(slot);
            if (exportInterval > 0.0) {
                p.exportHere = estimate - startTime >= nextExport - 1e-9;
                if (p.exportHere) nextExport += exportInterval;
            } else {
                p.exportHere = exporting && (o.exportEvery ? step % o.exportEvery == 0 : p.picture);
            }
            p.saveHere = o.saveEvery && step % o.saveEvery == 0;
            if (!csv) {
                for (const std::string& n : graph.pendingTimerNames()) passNames.push_back(n);
                gpuColumns = passColumns(passNames);
                for (const std::string& n : gpuColumns) columns.push_back("gpu_ms:" + n);
                csv = std::make_unique<io::CsvWriter>(outDir / "metrics.csv", columns);
            }
            graph.execute(cmd, &frames.timer(slot));
            frames.submit(slot);
            pending.push_back(p);
            ++submitted;
            if (capture) {
                frames.wait(slot);
                end.capture = renderDoc->endFrameCapture(context.instance(), startStep + 1);
                renderDoc.reset();
            }
            // Pictures, exports and saved states read buffers of this step: finish it first.
            if (p.picture || p.exportHere || p.saveHere) drain();
            std::string detail;
            for (const auto& part : world.parts()) detail += part->progress();
            if (stepLimit)
                progress.update(submitted, fmt::format("t = {:.3f} s{}", lastTime, detail));
            else
                progress.updateFraction((lastTime - startTime) / runLength,
                                        fmt::format("t = {:.3f}/{} s, step {}{}", lastTime, endTime, lastStep, detail));
        }
        drain();
        if (!replayFrom || diverged) break;
        // A solve of step replayFrom ran out of its recorded iterations: every step from it on is
        // dropped, the fluid (with its solids) goes back to the snapshot of the step before, and the
        // loop goes on from there, that step recording every iteration (the results are the same as
        // if every step had; the snapshot ring holds the step before while the two after it are in
        // flight).
        const uint64_t redo = replayFrom->step;
        const uint32_t before = static_cast<uint32_t>((redo - 1 - startStep) % sim::Simulation::kSnapshots);
        if (worldReplays)
            world.restoreSnapshot(graph, before); // the fluid, the solids and the world's clock
        else
            fluidAlone->upload(graph, fluidAlone->readSnapshot(graph, before));
        submitted = redo - 1 - startStep;
        nextPicture = replayFrom->nextPicture;
        nextExport = replayFrom->nextExport;
        replayFrom.reset();
        if (end.interrupted) break; // the state saved and exported at the end is the last step's
    }
    progress.finish();
    if (!csv) csv = std::make_unique<io::CsvWriter>(outDir / "metrics.csv", columns); // interrupted before the first step
    if (renderDoc) end.capture = renderDoc->endFrameCapture(context.instance(), startStep + 1);
    // A time-limited run's last picture: the final state, if the estimate missed it.
    if (!diverged && rendering && nextPicture < pictureAt.size()) {
        addRender(0);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        savePicture(lastTime);
    }
    if (diverged && fluidAlone) {
        // A fluid's last good state, from its snapshot of the last step before the blow-up.
        const io::ExportFormat format = exporting ? exportFormats.front() : io::ExportFormat::Ply;
        lastGoodFile = std::string("last_good") + io::extensionOf(format);
        std::vector<float> densities;
        const sim::SimulationState s = fluidAlone->readSnapshot(graph, static_cast<uint32_t>(lastGoodSnapshot), &densities);
        io::writeParticles(outDir / lastGoodFile, particleFrame(s, densities), format);
    } else if (!diverged) {
        if (!o.saveState.empty()) world.save(graph, o.saveState, lastStep, lastTime);
        // The last state, unless the scene's own export rate decides (SPlisHSPlasH writes at k / fps only).
        if (exporting && exportInterval == 0.0 && lastExported != lastStep) exportAll(lastStep, lastTime);
    }
    csv->flush();
    if (bodiesCsv) bodiesCsv->flush();

    end.steps = lastStep - startStep;
    end.pictures = pictures.files;
    end.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    nlohmann::ordered_json summary;
    summary["scene"] = o.scene.string();
    summary["scene_name"] = scene.name;
    summary["kind"] = world.kind();
    summary["device"] = context.deviceName();
    summary["metrics"] = {{"kinetic_energy", kinetic.json()}, {"escaped", escapedStat.json()}, {"gpu_ms_total", gpuTotal.json()}};
    std::vector<std::string> warnings = scene.warnings;
    for (const auto& part : world.parts()) {
        const size_t before = warnings.size();
        part->summarize(graph, summary, warnings);
        for (size_t k = before; k < warnings.size(); ++k) fmt::print(stderr, "floe run: warning: {}\n", warnings[k]);
    }
    {
        const size_t before = warnings.size();
        world.summarize(graph, summary, warnings);
        for (size_t k = before; k < warnings.size(); ++k) fmt::print(stderr, "floe run: warning: {}\n", warnings[k]);
    }
    summary["steps"] = end.steps;
    summary["first_step"] = startStep + 1;
    summary["loaded_state"] = o.loadState.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(o.loadState.string());
    summary["saved_state"] =
        o.saveState.empty() || diverged ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(o.saveState.string());
    summary["simulated_seconds"] = lastTime - startTime;
    summary["end_time"] = lastTime;
    summary["wall_seconds"] = end.wallSeconds;
    summary["steps_per_second"] = end.wallSeconds > 0 ? double(end.steps) / end.wallSeconds : 0.0;
    summary["gpu_ms_per_step"] = gpuTotal.mean();
    nlohmann::ordered_json perPass = nlohmann::ordered_json::object();
    for (const std::string& n : gpuColumns)
        if (passStats.count(n)) perPass[n] = passStats[n].mean();
    summary["gpu_ms_mean"] = perPass;
    summary["render"] =
        rendering ? nlohmann::ordered_json(render::renderModeName(drawing.view.mode)) : nlohmann::ordered_json(nullptr);
    if (rendering && drawing.particles && drawing.view.mode != RENDER_MODE_PARTICLES)
        summary["smoothing_iterations"] = drawing.view.fluid.iterations;
    if (diverged) {
        summary["diverged_at_step"] = divergedAt;
        if (fluidAlone) summary["last_good_state"] = lastGoodFile;
    }
    summary["exports"] = end.exports;
    writeRunSummary(summary, end, context, warnings, outDir);

    fmt::print("floe run: {} ({}, {} steps, t = {:.4g} s) on {}\n", scene.name, world.describe(), end.steps, lastTime,
               context.deviceName());
    for (const auto& part : world.parts()) part->report();
    fmt::print("  status      {}\n",
               diverged ? fmt::format("DIVERGED at step {}: {}", divergedAt, end.diverged) : runStatusLine(end));
    if (diverged && fluidAlone) fmt::print("  last good   {}\n", (outDir / lastGoodFile).string());
    if (!o.saveState.empty() && !diverged) fmt::print("  state       {}\n", o.saveState.string());
    if (o.capture && end.capture.empty()) fmt::print("  capture     RenderDoc wrote no capture\n");
    std::fflush(stdout);
    printRunFiles(output, end, context, o.plots);
    return runExitCode(end);
}

} // namespace floe
