// floe run for scenes of deformable bodies (digest-002): fixed steps of Configuration.
// timeStepSize, the plate moving down if the scene has one, metrics.csv with the volume and
// rigid-consistency errors of the worst body and GPU ms per pass, summary.json, pictures of
// the surfaces, plots. The same outputs and flags as a fluid run where they apply.
#include "app/BodyRun.h"
#include "app/CoupledFluid.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "app/Interrupt.h"
#include "app/Plots.h"
#include "app/Progress.h"
#include "app/RunOutput.h"
#include "app/SceneSetup.h"
#include "app/SceneView.h"
#include "app/Stat.h"
#include "base/Error.h"
#include "body/DeformableBodies.h"
#include "coupling/FluidSolidCoupling.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/RenderDoc.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/MeshExport.h"
#include "io/Png.h"
#include "io/SolidState.h"
#include "io/TextFile.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "shared/body.h"
#include "shared/fluid.h"
#include "sim/ParticleBuffers.h"
#include "sim/Simulation.h"

namespace floe {

body::BodySettings bodySettings(const Scene& scene)
{
    const DeformableSettings& d = scene.deformable;
    body::BodySettings s = d.body;
    s.volumeMode = d.volume == "none" ? BODY_VOLUME_NONE : d.volume == "local" ? BODY_VOLUME_LOCAL : BODY_VOLUME_GLOBAL;
    s.timeStep = scene.config.timeStepSize;
    s.gravity = scene.config.gravitation;
    scene.domain(s.domainMin, s.domainMax);
    return s;
}

std::vector<body::BodyInstance> bodyInstances(const Scene& scene)
{
    std::vector<body::BodyInstance> out;
    for (const DeformableBody& b : scene.deformableBodies) {
        body::BodyInstance instance;
        instance.mesh = b.mesh;
        instance.density = b.density;
        instance.velocity = b.velocity;
        instance.angularVelocity = b.angularVelocity;
        instance.volumeMode = b.volume.empty()      ? -1
                              : b.volume == "none"  ? BODY_VOLUME_NONE
                              : b.volume == "local" ? BODY_VOLUME_LOCAL
                                                    : BODY_VOLUME_GLOBAL;
        instance.alpha = b.alpha;
        instance.beta = b.beta;
        instance.initial = b.initial;
        out.push_back(std::move(instance));
    }
    return out;
}

std::vector<geometry::TriangleMesh> bodyObstacles(const Scene& scene)
{
    std::vector<geometry::TriangleMesh> out;
    for (const RigidBody& r : scene.rigidBodies) {
        geometry::TriangleMesh mesh = r.mesh;
        if (r.inverted)
            for (glm::uvec3& t : mesh.triangles) std::swap(t.y, t.z);
        out.push_back(std::move(mesh));
    }
    return out;
}

render::ViewSettings bodySceneView(const Scene& scene, const body::BodySettings& settings, float aspect)
{
    render::ViewSettings view;
    geometry::Bounds b;
    for (const DeformableBody& body : scene.deformableBodies)
        for (const glm::vec3& v : body.mesh.vertices) b.add(v);
    b.add({b.lo.x, settings.domainMin.y, b.lo.z});
    // Tall stacks of falling bodies: frame the lower part, where they end up.
    const float wide = std::max(settings.domainMax.x - settings.domainMin.x, settings.domainMax.z - settings.domainMin.z);
    b.hi.y = std::min(b.hi.y, settings.domainMin.y + 1.5f * wide);
    view.camera = render::Camera::fit(b.lo, b.hi, scene.floe.fovY, false, aspect);
    // From higher up than for fluids (45 degrees): bodies end up on the floor, in glasses and piles.
    const float distance = glm::length(view.camera.position - view.camera.target);
    view.camera.position = view.camera.target + distance * glm::normalize(glm::vec3(0.3f, 1.0f, 1.0f));
    view.floorHeight = settings.domainMin.y;
    view.floorHalfExtent = 0.5f * wide;
    view.floorCenter = {0.5f * (settings.domainMin.x + settings.domainMax.x), 0.5f * (settings.domainMin.z + settings.domainMax.z)};
    view.boundaryRadius = 0.15f * std::max(0.02f, settings.glassRadius / 12.0f);
    return view;
}

std::vector<glm::vec4> glassSamples(const body::BodySettings& settings)
{
    std::vector<glm::vec4> points;
    if (settings.glassRadius <= 0.0f) return points;
    const float spacing = std::max(0.02f, settings.glassRadius / 12.0f);
    const int around = std::max(12, int(6.2832f * settings.glassRadius / spacing));
    for (float y = settings.domainMin.y; y <= settings.domainMin.y + settings.glassHeight; y += spacing)
        for (int k = 0; k < around; ++k) {
            const float a = 6.2832f * float(k) / float(around);
            points.emplace_back(settings.glassCentre.x + settings.glassRadius * std::cos(a), y,
                                settings.glassCentre.z + settings.glassRadius * std::sin(a), 0.0f);
        }
    return points;
}

// The bodies as they are, for --export: the surface particles' positions and velocities, the
// triangles, and the body of each.
io::MeshFrame bodyFrame(const body::DeformableBodies& bodies, graph::RenderGraph& graph, gpu::Context& context, uint64_t step,
                        double time)
{
    io::MeshFrame f;
    f.what = "deformable bodies";
    f.step = step;
    f.time = time;
    const std::vector<glm::vec4> x = bodies.download(graph, bodies.positions());
    const std::vector<glm::vec4> v = bodies.download(graph, bodies.velocities());
    std::vector<glm::uvec4> triangles(bodies.triangleCount());
    sim::downloadNow(context, graph, bodies.triangles(), triangles.data(), triangles.size() * 16);
    for (size_t k = 0; k < x.size(); ++k) {
        f.positions.emplace_back(x[k]);
        f.velocities.emplace_back(v[k]);
    }
    f.pointGroup.assign(x.size(), 0u);
    for (uint32_t b = 0; b < bodies.bodyCount(); ++b) {
        const uint32_t end = b + 1 < bodies.bodyCount() ? bodies.firstParticle()[b + 1] : uint32_t(x.size());
        for (uint32_t k = bodies.firstParticle()[b]; k < end; ++k) f.pointGroup[k] = b;
    }
    for (const glm::uvec4& t : triangles) {
        f.triangles.emplace_back(t);
        f.triangleGroup.push_back(t.w);
    }
    return f;
}

int runBodies(const RunOptions& o, const Scene& scene, std::chrono::steady_clock::time_point wallStart, SetupProgress& setup)
{
    const bool withFluid = !scene.fluidBlocks.empty() || !scene.fluidModels.empty();
    if (!o.solver.empty() && !withFluid)
        throw Error(fmt::format("--solver {}: the scene has deformable bodies, no fluid", o.solver));
    if (o.saveEvery && o.saveState.empty()) throw Error("--save-every needs --save-state FILE");
    const ExportPlan exports = exportPlan(o);
    const double dt = scene.config.timeStepSize;
    const int frameCount = o.frames.value_or(scene.floe.frames);
    RunOutput output = prepareRunOutput(o, scene.name);
    const std::filesystem::path& outDir = output.dir;
    std::unique_ptr<gpu::RenderDoc>& renderDoc = output.renderDoc;
    setup.stage("starting the device");
    gpu::Context context(runContextOptions(o));
    gpu::ShaderLibrary shaders;
    graph::RenderGraph graph(context);
    graph.setTimerMode(*gpu::parseTimerMode(o.timers));
    setup.stage("building the bodies' buffers and pipelines");
    body::BodySettings settings = bodySettings(scene);
    body::DeformableBodies bodies(context, shaders, graph, bodyInstances(scene), settings, bodyObstacles(scene));
    const glm::vec3 domainMax = settings.domainMax;
    // With FluidBlocks: the fluid, two-way coupled, stepped with the bodies in one command buffer
    // (coupling::FluidSolidCoupling::addStep).
    if (withFluid) setup.stage("sampling the fluid and the bodies' surfaces");
    CoupledFluid coupled = coupleFluid(context, shaders, graph, scene, &bodies, nullptr);
    sim::Simulation* fluid = coupled.fluid.get();
    coupling::FluidSolidCoupling* coupling = coupled.coupling.get();
    const sim::WorldSettings& world = coupled.world;
    // --load-state: the run goes on from the saved step (bit-identical to an uninterrupted run).
    // A coupled run's state holds the bodies' buffers and the fluid's (saveFluidState).
    const char* kind = fluid ? "fluid and deformable bodies" : "deformable bodies";
    const uint64_t fingerprint = fluid ? coupledFingerprint(bodies.fingerprint(), *fluid) : bodies.fingerprint();
    uint64_t first = 0;
    if (!o.loadState.empty()) {
        const io::SolidState state = io::loadSolidState(o.loadState, kind, fingerprint);
        bodies.loadState(graph, state, o.loadState);
        if (fluid) {
            loadFluidState(graph, *fluid, state, o.loadState);
            coupling->invalidate(); // the samples follow the loaded bodies
        }
        first = state.step;
    }
    const StepSpan span = stepSpan(o, scene.config.stopAt, dt, first);
    const uint64_t steps = span.steps;
    const auto saveNow = [&](uint64_t at) {
        io::SolidState state{kind, fingerprint, at, {}};
        bodies.saveState(graph, state);
        if (fluid) saveFluidState(graph, *fluid, state);
        io::saveSolidState(o.saveState, state);
    };

    // Pictures: the surfaces from the front and above, with the floor.
    const bool rendering = frameCount > 0 || o.capture;
    RunPictures pictures = makeRunPictures(context, shaders, o, rendering, 1);
    render::OffscreenTarget* target = pictures.target.get();
    render::Renderer* renderer = pictures.renderer.get();
    render::ViewSettings view;
    if (rendering) view = bodySceneView(scene, settings, float(o.width) / float(o.height));
    SceneDrawing drawing;
    if (rendering && fluid) {
        // The fluid's view (its particles by speed), its walls outlined; the bodies as surfaces.
        view = sceneView(scene, world, float(o.width) / float(o.height));
        drawing = uploadSceneDrawing(context, graph, scene, world);
        if (drawing.outlineCount) renderer->setOutlines(&drawing.outlines, drawing.outlineCount);
    }
    const render::MeshDraw meshArray[2] = {
        {&bodies.positions(), &bodies.normals(), &bodies.triangles(), bodies.triangleCount()},
        {&bodies.obstaclePositions(), &bodies.obstacleNormals(), &bodies.obstacleIndices(), bodies.obstacleTriangleCount()}};
    // With a fluid, the static meshes are its walls: outlined, not drawn as surfaces that hide it.
    const std::span<const render::MeshDraw> meshes(meshArray, bodies.obstacleTriangleCount() && !fluid ? 2 : 1);
    // The glass, if any, drawn as sparse grey points on its wall (the renderer's boundary samples).
    gpu::Buffer glassPoints;
    uint32_t glassCount = 0;
    if (rendering && settings.glassRadius > 0.0f) {
        const std::vector<glm::vec4> points = glassSamples(settings);
        glassCount = static_cast<uint32_t>(points.size());
        glassPoints =
            gpu::Buffer(context, {"glass points", points.size() * 16, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
        sim::uploadNow(context, graph, glassPoints, points.data(), points.size() * 16);
    }
    const gpu::Buffer* glass = glassCount ? &glassPoints : nullptr;
    // --render: the surfaces (fluid, the default), the vertices as spheres of the contact radius
    // (particles), or both; the vertices take the place of the glass's points.
    const int mode = fluid ? RENDER_MODE_FLUID : o.render.empty() ? RENDER_MODE_FLUID : render::parseRenderMode(o.render);
    if (mode < 0) throw Error(fmt::format("--render: '{}' is not particles, fluid or both", o.render));
    if (fluid) {
        view.mode = render::parseRenderMode(o.render.empty() ? "particles" : o.render);
        if (view.mode < 0) throw Error(fmt::format("--render: '{}' is not particles, fluid or both", o.render));
        glass = drawing.boundaryCount ? &drawing.boundary : nullptr;
        glassCount = drawing.boundaryCount;
    }
    if (mode != RENDER_MODE_FLUID) {
        glass = &bodies.positions();
        glassCount = bodies.particleCount();
        view.boundaryRadius = bodies.contactRadius();
    }
    const std::span<const render::MeshDraw> drawn =
        mode == RENDER_MODE_PARTICLES ? meshes.subspan(bodies.obstacleTriangleCount() ? 1 : meshes.size()) : meshes;
    const sim::ParticleBuffers* fluidDrawn = fluid ? &fluid->particles() : nullptr;

    gpu::FrameResources frames(context, body::DeformableBodies::kFrames);
    std::vector<gpu::Buffer> readbacks, motionReadbacks, fluidReadbacks; // per frame: metrics, bodies.csv's rows, the fluid's
    for (uint32_t f = 0; f < frames.count(); ++f) {
        if (fluid)
            fluidReadbacks.emplace_back(context, gpu::BufferDesc{fmt::format("fluid metrics read-back {}", f),
                                                                 sizeof(sim::StepReadback), gpu::MemoryKind::Readback});
        readbacks.emplace_back(context, gpu::BufferDesc{fmt::format("body metrics read-back {}", f),
                                                        uint64_t(bodies.bodyCount()) * 16, gpu::MemoryKind::Readback});
        motionReadbacks.emplace_back(context, gpu::BufferDesc{fmt::format("body motion read-back {}", f),
                                                              uint64_t(bodies.bodyCount()) * 32, gpu::MemoryKind::Readback});
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
                                        "volume_error_max",
                                        "volume_error_avg",
                                        "rigid_error_max",
                                        "potential_energy"};
    std::vector<std::string> gpuColumns;
    std::unique_ptr<io::CsvWriter> csv;
    const std::vector<uint64_t> pictureSteps = pictureSchedule(steps, frameCount);
    const std::string method =
        fluid ? fmt::format("{} \u00b7 {} particles \u00b7 {} deformable bodies",
                            sim::pressureSolverTitle(scene.sph.pressureSolver()), fluid->count(), bodies.bodyCount())
              : fmt::format("deformable bodies \u00b7 {} bodies", bodies.bodyCount());
    size_t nextPicture = 0;
    if (rendering && !pictureSteps.empty() && pictureSteps[0] == 0) {
        renderer->addPasses(graph, target->color(), target->depth(), fluidDrawn, view, 0, glass, glassCount, drawn);
        target->addReadback(graph);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        pictures.save(outDir, overlayContent(scene.name, method, double(first) * dt));
        ++nextPicture;
    }

    RunningStat volumeStat, rigidStat;
    double worstVolume = 0.0, gpuTotal = 0.0;
    std::vector<double> finalVolume(bodies.bodyCount(), 0.0);
    RunEnd end;
    // bodies.csv: each body's centre of mass, velocity and volume error per step.
    BodiesCsv bodiesCsv(outDir);
    const auto exportNow = [&](uint64_t at, double time) {
        const std::string name = fmt::format("bodies_{:06d}{}", at, io::extensionOf(*exports.format));
        io::writeMesh(outDir / name, bodyFrame(bodies, graph, context, at, time), *exports.format);
        end.exports.push_back(name);
        if (fluid) {
            // The fluid's particles beside the bodies' surfaces, as a fluid run writes them.
            const std::string particles = fmt::format("particles_{:06d}{}", at, io::extensionOf(*exports.format));
            writeFluidParticles(graph, *fluid, outDir / particles, *exports.format);
            end.exports.push_back(particles);
        }
    };
    if (exports.due(first, true, false, false)) exportNow(first, double(first) * dt);
    setup.stop();
    Progress progress("floe run", steps, !o.quiet);
    watchInterrupts();
    // Two steps in flight: the host records step k + 1 while the device runs step k, and reads a
    // step's metrics when its slot comes round again. A step that takes a picture, exports,
    // saves or is captured is waited for before the next is recorded (those read the bodies'
    // buffers, or the one picture target, as the step left them).
    struct Pending {
        uint64_t step;
        uint32_t slot;
        bool picture;
    };
    std::deque<Pending> pending;
    uint64_t collected = first; // the last step whose results were read
    bool stop = false;          // diverged: later steps' results are dropped
    const auto collect = [&](const Pending& p) {
        frames.wait(p.slot);
        if (stop) return;
        const double time = double(p.step) * dt;
        if (renderDoc && p.step == first + 1) {
            end.capture = renderDoc->endFrameCapture(context.instance(), 1);
            renderDoc.reset();
        }
        if (p.picture) pictures.save(outDir, overlayContent(scene.name, method, time));
        const std::vector<glm::vec4> m = readbacks[p.slot].readVector<glm::vec4>(bodies.bodyCount());
        double maxVolume = 0, sumVolume = 0, maxRigid = 0, kinetic = 0, potential = 0;
        bool finite = true;
        for (uint32_t b = 0; b < bodies.bodyCount(); ++b) {
            finite = finite && std::isfinite(m[b].x) && std::isfinite(m[b].z) && std::isfinite(m[b].w);
            kinetic += m[b].w;
            potential += m[b].y;
            if (std::fabs(m[b].x) >= std::fabs(maxVolume)) maxVolume = m[b].x;
            sumVolume += m[b].x;
            maxRigid = std::max(maxRigid, double(m[b].z));
            finalVolume[b] = m[b].x;
        }
        std::string fluidBlowUp;
        if (fluid) {
            sim::StepReadback r;
            fluidReadbacks[p.slot].read(&r, sizeof(r));
            // The fluid's own checks, then the energy of fluid and bodies together below.
            const sim::StepMetrics f = coupled.record(*csv, r, scene, fluidBlowUp);
            kinetic += f.kineticEnergy;
            csv->set("escaped", uint64_t(f.escaped));
        } else {
            csv->set("escaped", uint64_t(0));
        }
        csv->set("step", p.step);
        csv->set("time", time);
        csv->set("dt", dt);
        csv->set("particles", uint64_t(bodies.particleCount()) + (fluid ? fluid->count() : 0u));
        csv->set("kinetic_energy", kinetic);
        if (fluidBlowUp.empty() && kinetic > coupled.energyLimit)
            fluidBlowUp = fmt::format("kinetic energy {:.4g} J of fluid and bodies above the {:.4g} J their initial motion and "
                                      "gravity can supply at t = {:.4g} s (energy from nowhere)",
                                      kinetic, coupled.energyLimit, time);
        const double ms = recordPassTimes(*csv, frames.timer(p.slot).results(), gpuColumns);
        csv->set("volume_error_max", maxVolume);
        csv->set("volume_error_avg", sumVolume / bodies.bodyCount());
        csv->set("rigid_error_max", maxRigid);
        csv->set("potential_energy", potential);
        csv->endRow();
        const std::vector<glm::vec4> motion = motionReadbacks[p.slot].readVector<glm::vec4>(2 * bodies.bodyCount());
        for (uint32_t b = 0; b < bodies.bodyCount(); ++b)
            bodiesCsv.add(p.step, time,
                          {b, false, 0, glm::vec3(motion[2 * b]), glm::vec3(motion[2 * b + 1]), motion[2 * b].w, m[b].x});
        gpuTotal += ms;
        volumeStat.add(std::fabs(maxVolume));
        rigidStat.add(maxRigid);
        worstVolume = std::max(worstVolume, std::fabs(maxVolume));
        collected = p.step;
        if (!finite || std::fabs(maxVolume) > 1.0 || !fluidBlowUp.empty()) {
            end.diverged = !fluidBlowUp.empty() ? "the coupled run: " + fluidBlowUp
                           : !finite            ? "a body's volume, shape error or kinetic energy is not finite"
                                                : fmt::format("a body's volume changed by {:.0f} %", 100.0 * maxVolume);
            stop = true;
            return;
        }
        if (exports.due(p.step, false, p.picture, p.step == span.last())) exportNow(p.step, time);
        if (o.saveEvery && p.step % o.saveEvery == 0) saveNow(p.step);
        progress.update(p.step - first, fmt::format("t = {:.3f} s, volume error {:.3f} %", time, 100.0 * maxVolume));
    };
    const auto drain = [&]() {
        while (!pending.empty()) {
            collect(pending.front());
            pending.pop_front();
        }
    };
    for (uint64_t step = first + 1; step <= span.last() && !stop; ++step) {
        if (interruptRequested()) {
            end.interrupted = true;
            break;
        }
        const uint32_t slot = static_cast<uint32_t>(step % frames.count());
        while (!pending.empty() && pending.front().slot == slot) {
            collect(pending.front());
            pending.pop_front();
        }
        if (stop) break;
        const double time = double(step) * dt;
        bodies.setFrame(slot);
        if (scene.deformable.plateSpeed > 0.0f) {
            // The plate is the domain's ceiling, moving down at plateSpeed until plateEnd.
            settings.domainMax.y =
                std::min(domainMax.y, std::max(scene.deformable.plateEnd,
                                               scene.deformable.plateStart - scene.deformable.plateSpeed * float(time)));
            bodies.setSettings(settings);
        }
        const bool capture = renderDoc && step == first + 1;
        if (capture) renderDoc->startFrameCapture(context.instance());
        VkCommandBuffer cmd = frames.begin(slot);
        if (fluid) {
            coupling->addStep(graph); // the fluid's, the bodies' and what couples them
            fluid->addReadback(graph, fluidReadbacks[slot], 0);
            graph.addHostRead(fluidReadbacks[slot]);
        } else {
            bodies.addStep(graph);
        }
        bodies.addMetricsReadback(graph, readbacks[slot]);
        graph.addHostRead(readbacks[slot]);
        bodies.addMotionReadback(graph, motionReadbacks[slot]);
        graph.addHostRead(motionReadbacks[slot]);
        const bool picture = rendering && nextPicture < pictureSteps.size() && pictureSteps[nextPicture] <= step - first;
        if (picture) ++nextPicture;
        if (picture || capture) {
            renderer->addPasses(graph, target->color(), target->depth(), fluidDrawn, view, 0, glass, glassCount, drawn);
            target->addReadback(graph);
        }
        if (!csv) {
            gpuColumns = passColumns(graph.pendingTimerNames());
            for (const std::string& n : gpuColumns) columns.push_back("gpu_ms:" + n);
            csv = std::make_unique<io::CsvWriter>(outDir / "metrics.csv", columns);
        }
        graph.execute(cmd, &frames.timer(slot));
        frames.submit(slot);
        pending.push_back({step, slot, picture});
        const bool sync = picture || capture || exports.due(step, false, picture, step == span.last()) ||
                          (o.saveEvery && step % o.saveEvery == 0);
        if (sync) drain();
    }
    drain();
    progress.finish();
    csv->flush();
    bodiesCsv.flush();
    const uint64_t done = collected - first;
    end.steps = done;
    if (!o.saveState.empty() && end.diverged.empty()) saveNow(first + done);
    end.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    end.pictures = pictures.files;

    nlohmann::ordered_json summary;
    summary["scene"] = o.scene.string();
    summary["scene_name"] = scene.name;
    summary["kind"] = fluid ? "fluid and deformable bodies" : "deformable bodies";
    if (coupled) coupled.summarize(summary, scene);
    summary["device"] = context.deviceName();
    summary["bodies"] = bodies.bodyCount();
    summary["particles"] = bodies.particleCount();
    summary["triangles"] = bodies.triangleCount();
    summary["omega"] = settings.omega;
    summary["stiffness"] = settings.stiffness;
    summary["volume"] = scene.deformable.volume;
    summary["first_step"] = first + 1;
    summary["steps"] = done;
    summary["loaded_state"] = o.loadState.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(o.loadState.string());
    summary["saved_state"] = o.saveState.empty() || !end.diverged.empty() ? nlohmann::ordered_json(nullptr)
                                                                          : nlohmann::ordered_json(o.saveState.string());
    summary["simulated_seconds"] = double(first + done) * dt;
    summary["wall_seconds"] = end.wallSeconds;
    summary["volume_error_abs_max"] = worstVolume;
    summary["metrics"] = {{"volume_error_abs_max", volumeStat.json()}, {"rigid_error_max", rigidStat.json()}};
    summary["volume_error_final"] = finalVolume;
    summary["gpu_ms_per_step"] = done ? gpuTotal / double(done) : 0.0;
    // Entries the contact grid between bodies had no room for: some contacts were missed.
    const uint32_t overflows = bodies.contactGridOverflows(graph);
    summary["contact_grid_overflows"] = overflows;
    std::vector<std::string> warnings = scene.warnings;
    if (overflows > 0) {
        warnings.push_back(fmt::format("the contact grid between bodies left out {} triangle entries (a body stretched far beyond "
                                       "its rest size); contacts with those triangles were missed",
                                       overflows));
        fmt::print(stderr, "floe run: warning: {}\n", warnings.back());
    }
    writeRunSummary(summary, end, context, warnings, outDir);

    fmt::print("floe run: {} ({} bodies, {} particles, omega {}, volume {}, {} steps, t = {:.4g} s) on {}\n", scene.name,
               bodies.bodyCount(), bodies.particleCount(), settings.omega, scene.deformable.volume, done, double(first + done) * dt,
               context.deviceName());
    if (fluid)
        fmt::print("  fluid       {} particles, {}, coupled through {} surface samples\n", fluid->count(),
                   sim::pressureSolverTitle(scene.sph.pressureSolver()), coupling->sampleCount());
    fmt::print("  status      {}\n", runStatusLine(end));
    fmt::print("  volume      largest |V - V0| / V0 {:.4f} %\n", 100.0 * worstVolume);
    printRunFiles(output, end, context, o.plots);
    return runExitCode(end);
}

} // namespace floe
