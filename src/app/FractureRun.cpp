// floe run for scenes of breakable tetrahedral bodies (digest-004): fixed steps of
// Configuration.timeStepSize, metrics.csv with fragments, fracture events, the largest load and
// GPU ms per pass, summary.json, pictures of the fragments (or of the stress), plots. The same
// outputs and flags as a fluid run where they apply. With FluidBlocks the fluid is two-way
// coupled with the bodies (coupling::FluidSolidCoupling) and stepped with them.
#include "app/FractureRun.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "app/CoupledFluid.h"
#include "app/EnergyAccount.h"
#include "app/Interrupt.h"
#include "app/Plots.h"
#include "app/Progress.h"
#include "app/RunOutput.h"
#include "app/SceneSetup.h"
#include "app/SceneView.h"
#include "app/Stat.h"
#include "base/Error.h"
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
#include "shared/fluid.h"
#include "sim/ParticleBuffers.h"
#include "sim/Simulation.h"

namespace floe {

fracture::FractureSettings fractureSettings(const Scene& scene)
{
    const FractureSceneSettings& f = scene.fracture;
    fracture::FractureSettings s = f.fracture;
    s.method = *fracture::fractureMethodFromName(f.method);
    s.separation = f.separation == "averaged" ? fracture::SeparationMode::Averaged : fracture::SeparationMode::Eq16;
    s.timeStep = scene.config.timeStepSize;
    s.gravity = scene.config.gravitation;
    s.colourMode = f.view == "stress" ? 1u : 0u;
    s.waveSplitBand = f.waveBand == "split";
    if (scene.domainGiven()) {
        scene.domain(s.domainMin, s.domainMax);
    } else {
        // The floor at y = 0 (digest-004 §5: dropped from height 5 onto the ground), room around.
        geometry::Bounds b;
        for (const FractureBody& body : scene.fractureBodies)
            for (const glm::vec3& x : body.mesh.nodes) b.add(x);
        const glm::vec3 size = b.hi - b.lo;
        const float room = std::max(3.0f * std::max(size.x, size.z), 4.0f);
        s.domainMin = glm::vec3(b.lo.x - room, std::min(0.0f, b.lo.y), b.lo.z - room);
        s.domainMax = glm::vec3(b.hi.x + room, b.hi.y + room, b.hi.z + room);
    }
    return s;
}

std::vector<fracture::FractureBodyInstance> fractureInstances(const Scene& scene)
{
    std::vector<fracture::FractureBodyInstance> out;
    const float dampingTime = scene.fracture.dampingTime;
    for (const FractureBody& b : scene.fractureBodies) {
        fracture::FractureBodyInstance i;
        i.mesh = b.mesh;
        i.material = fracture::materialPreset(b.material).value_or(fracture::Material{});
        if (b.lambda >= 0) i.material.lambda = b.lambda;
        if (b.mu >= 0) i.material.mu = b.mu;
        if (b.phi >= 0) i.material.phi = b.phi;
        if (b.psi >= 0) i.material.psi = b.psi;
        if (b.tau > 0) i.material.tau = b.tau;
        if (b.yield >= 0) i.material.yield = b.yield;
        if (b.ductility >= 0) i.material.ductility = b.ductility;
        if (b.restitution >= 0) i.material.restitution = b.restitution;
        // Table 1 prints phi and psi without their unit's exponent (digest-004 §5.1); Floe reads
        // them as multiples of dampingTime seconds times the Lame unit.
        i.material.phi *= dampingTime;
        i.material.psi *= dampingTime;
        i.density = b.density;
        i.youngsModulus = b.youngsModulus > 0 ? b.youngsModulus : fracture::dynamicsStiffness(i.material);
        i.velocity = b.velocity;
        i.angularVelocity = b.angularVelocity;
        i.breakable = b.breakable;
        out.push_back(std::move(i));
    }
    return out;
}

render::ViewSettings fractureSceneView(const Scene& scene, const fracture::FractureSettings& settings, float aspect)
{
    render::ViewSettings view;
    geometry::Bounds b;
    for (const FractureBody& body : scene.fractureBodies)
        for (const glm::vec3& x : body.mesh.nodes) {
            b.add(x);
            b.add(glm::vec3(x.x, settings.domainMin.y, x.z)); // where it will land
        }
    // Fragments scatter: frame twice the bodies' footprint.
    const glm::vec3 c = 0.5f * (b.lo + b.hi);
    const float half = 0.5f * std::max(b.hi.x - b.lo.x, b.hi.z - b.lo.z);
    b.add(glm::vec3(c.x - 2.0f * half, b.lo.y, c.z - 2.0f * half));
    b.add(glm::vec3(c.x + 2.0f * half, b.lo.y, c.z + 2.0f * half));
    view.camera = render::Camera::fit(b.lo, b.hi, scene.floe.fovY, false, aspect);
    const float distance = glm::length(view.camera.position - view.camera.target);
    view.camera.position = view.camera.target + distance * glm::normalize(glm::vec3(0.35f, 0.6f, 1.0f));
    view.floorHeight = settings.domainMin.y;
    view.floorHalfExtent = 3.0f * std::max(half, 0.5f);
    view.floorCenter = {c.x, c.z};
    return view;
}

// The bodies as they are, for --export: world positions (each node's plus its fragment's
// origin), velocities, the fragments' labels per node, tet and surface face, per tet its body
// and ductile damage, and the fragments' closed surfaces.
io::MeshFrame fractureFrame(fracture::FractureBodies& bodies, graph::RenderGraph& graph, gpu::Context& context, uint64_t step,
                            double time)
{
    io::MeshFrame f;
    f.what = "fracture bodies";
    f.step = step;
    f.time = time;
    const uint32_t n = bodies.nodeCount(), tets = bodies.tetCount();
    const std::vector<glm::vec4> x = bodies.download(graph, bodies.positions(), n);
    const std::vector<glm::vec4> origin = bodies.download(graph, bodies.origins(), n);
    const std::vector<glm::vec4> v = bodies.download(graph, bodies.velocities(), n);
    const std::vector<glm::vec4> info = bodies.download(graph, bodies.tetInfo(), tets);
    const std::vector<glm::vec4> damage = bodies.download(graph, bodies.tetDamage(), tets);
    f.pointGroup.resize(n);
    f.tets.resize(tets);
    sim::downloadNow(context, graph, bodies.labels(), f.pointGroup.data(), uint64_t(n) * 4);
    sim::downloadNow(context, graph, bodies.tets(), f.tets.data(), uint64_t(tets) * 16);
    for (uint32_t k = 0; k < n; ++k) {
        f.positions.push_back(glm::vec3(x[k]) + glm::vec3(origin[k]));
        f.velocities.emplace_back(v[k]);
    }
    std::vector<float> body(tets), damaged(tets);
    for (uint32_t t = 0; t < tets; ++t) {
        f.tetGroup.push_back(f.pointGroup[f.tets[t].x]);
        body[t] = info[t].x;
        damaged[t] = damage[t].x;
    }
    f.cellScalars = {{"body", std::move(body)}, {"damage", std::move(damaged)}};
    // The fragments' surfaces: the faces one tet bounds (the cuts' crack faces among them).
    fracture::TetMesh mesh{f.positions, f.tets, "export"};
    std::vector<uint32_t> tetOfFace;
    f.triangles = fracture::boundaryFaces(mesh, &tetOfFace);
    for (uint32_t t : tetOfFace) f.triangleGroup.push_back(f.tetGroup[t]);
    return f;
}

int runFracture(const RunOptions& o, const Scene& scene, std::chrono::steady_clock::time_point wallStart, SetupProgress& setup)
{
    const bool withFluid = !scene.fluidBlocks.empty() || !scene.fluidModels.empty();
    if (!o.solver.empty() && !withFluid) throw Error(fmt::format("--solver {}: the scene has fracture bodies, no fluid", o.solver));
    if (o.saveEvery && o.saveState.empty()) throw Error("--save-every needs --save-state FILE");
    const ExportPlan exports = exportPlan(o);
    if (!o.render.empty() && o.render != "fluid" && !withFluid)
        throw Error(fmt::format("--render {}: fracture scenes draw their tetrahedra's faces only", o.render));
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
    const fracture::FractureSettings settings = fractureSettings(scene);
    setup.stage("building the fracture bodies' buffers and pipelines");
    fracture::FractureBodies bodies(context, shaders, graph, fractureInstances(scene), settings);
    // With FluidBlocks: the fluid, two-way coupled, stepped with the bodies in one command buffer
    // (coupling::FluidSolidCoupling::addStep; the bodies' afterStep follows each submission).
    if (withFluid) setup.stage("sampling the fluid and the bodies' faces");
    CoupledFluid coupled = coupleFluid(context, shaders, graph, scene, nullptr, &bodies);
    sim::Simulation* fluid = coupled.fluid.get();
    coupling::FluidSolidCoupling* coupling = coupled.coupling.get();
    const sim::WorldSettings& world = coupled.world;
    // --load-state: the run goes on from the saved step (bit-identical to an uninterrupted run),
    // its energy account too. A coupled run's state holds the fluid's buffers too.
    const char* kind = fluid ? "fluid and fracture bodies" : "fracture";
    const uint64_t fingerprint = fluid ? coupledFingerprint(bodies.fingerprint(), *fluid) : bodies.fingerprint();
    std::optional<io::SolidState> loaded;
    if (!o.loadState.empty()) {
        loaded = io::loadSolidState(o.loadState, kind, fingerprint);
        bodies.loadState(graph, *loaded, o.loadState);
        if (fluid) {
            loadFluidState(graph, *fluid, *loaded, o.loadState);
            coupling->invalidate(); // the samples follow the loaded bodies
        }
    }
    const uint64_t first = loaded ? loaded->step : 0;
    const StepSpan span = stepSpan(o, scene.config.stopAt, dt, first);
    const uint64_t steps = span.steps;

    const bool rendering = frameCount > 0 || o.capture;
    RunPictures pictures = makeRunPictures(context, shaders, o, rendering, 1);
    render::OffscreenTarget* target = pictures.target.get();
    render::Renderer* renderer = pictures.renderer.get();
    render::ViewSettings view;
    if (rendering) view = fractureSceneView(scene, settings, float(o.width) / float(o.height));
    // With a fluid: the fluid's view (its particles by speed, --render as a fluid run), its walls
    // outlined and its boundary drawn as points; the bodies as their tets' faces.
    SceneDrawing drawing;
    if (rendering && fluid) {
        view = sceneView(scene, world, float(o.width) / float(o.height));
        view.mode = render::parseRenderMode(o.render.empty() ? "particles" : o.render);
        if (view.mode < 0) throw Error(fmt::format("--render: '{}' is not particles, fluid or both", o.render));
        drawing = uploadSceneDrawing(context, graph, scene, world);
        if (drawing.outlineCount) renderer->setOutlines(&drawing.outlines, drawing.outlineCount);
    }
    const render::MeshDraw mesh{&bodies.surfacePositions(), &bodies.surfaceNormals(), &bodies.surfaceTriangles(),
                                bodies.surfaceTriangleCount()};
    const auto addPicture = [&] {
        bodies.addSurface(graph);
        renderer->addPasses(graph, target->color(), target->depth(), fluid ? &fluid->particles() : nullptr, view, 0,
                            drawing.boundaryCount ? &drawing.boundary : nullptr, drawing.boundaryCount, std::span(&mesh, 1));
        target->addReadback(graph);
    };

    gpu::FrameResources frames(context, 1);
    // The step's energies, escaped and non-finite nodes, reduced on the GPU: 48 bytes per step.
    gpu::Buffer metricsReadback(context,
                                {"fracture metrics read-back", sizeof(fracture::FractureMetrics), gpu::MemoryKind::Readback});
    std::optional<gpu::Buffer> fluidReadback;
    if (fluid)
        fluidReadback.emplace(context,
                              gpu::BufferDesc{"fluid metrics read-back", sizeof(sim::StepReadback), gpu::MemoryKind::Readback});
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
                                        "fragments",
                                        "fracture_events",
                                        "cuts",
                                        "max_separation",
                                        "max_damage",
                                        "contact",
                                        "potential_energy",
                                        "elastic_energy",
                                        "damping_loss",
                                        "fracture_loss",
                                        "contact_loss",
                                        "solver_loss"};
    std::vector<std::string> gpuColumns;
    std::unique_ptr<io::CsvWriter> csv;
    const std::vector<uint64_t> pictureSteps = pictureSchedule(steps, frameCount);
    // Bodies that cannot break are stiff elastic blocks, not brittle ones: the overlay says so.
    const bool anyBreakable =
        std::any_of(scene.fractureBodies.begin(), scene.fractureBodies.end(), [](const FractureBody& b) { return b.breakable; });
    const std::string solids =
        anyBreakable ? fmt::format("brittle fracture ({})", scene.fracture.method) : std::string("unbreakable tet bodies");
    const std::string method =
        fluid ? fmt::format("{} \u00b7 {} particles \u00b7 {} \u00b7 {} tetrahedra",
                            sim::pressureSolverTitle(scene.sph.pressureSolver()), fluid->count(), solids, bodies.tetCount())
              : fmt::format("{} \u00b7 {} tetrahedra", solids, bodies.tetCount());
    size_t nextPicture = 0;
    if (rendering && !pictureSteps.empty() && pictureSteps[0] == 0) {
        addPicture();
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        pictures.save(outDir, overlayContent(scene.name, method, double(first) * dt));
        ++nextPicture;
    }

    const std::vector<std::string> stepNames = bodies.stepPassNames(graph);
    RunningStat loadStat;
    bool timingWarned = false;
    double gpuTotal = 0.0, worstLoad = 0.0;
    uint64_t step = 0;
    fracture::FractureReport report = bodies.report();
    const uint32_t initialFragments = report.fragments;
    setup.stop();
    Progress progress("floe run", steps, !o.quiet);
    const glm::vec3 lo = settings.domainMin - glm::vec3(1.0f), hi = settings.domainMax + glm::vec3(1.0f);
    // The energy account (EnergyAccount.h): the initial energy, then each step's.
    bodies.addMetrics(graph, lo, hi, metricsReadback);
    graph.addHostRead(metricsReadback);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
    const fracture::FractureMetrics start = metricsReadback.readVector<fracture::FractureMetrics>(1)[0];
    EnergyAccount account(double(start.kinetic) + start.potential + start.elastic);
    if (loaded) account.restore(loaded->get<double>("energy account", account.values().size(), o.loadState));
    const auto saveNow = [&](uint64_t at) {
        io::SolidState state{kind, fingerprint, at, {}};
        bodies.saveState(graph, state);
        state.add("energy account", account.values());
        if (fluid) saveFluidState(graph, *fluid, state);
        io::saveSolidState(o.saveState, state);
    };
    RunEnd end;
    // bodies.csv: each fragment's centre of mass and velocity per step (fracture/bounce's sums;
    // at most one fragment per node, and a node per tet corner).
    gpu::Buffer motionReadback(context, {"fracture fragment motion read-back",
                                         std::max<uint64_t>(uint64_t(bodies.tetCount()) * 4 * sizeof(fracture::FragmentMotion), 48),
                                         gpu::MemoryKind::Readback});
    BodiesCsv bodiesCsv(outDir);
    const auto exportNow = [&](uint64_t at, double time) {
        const std::string name = fmt::format("fracture_{:06d}{}", at, io::extensionOf(*exports.format));
        io::writeMesh(outDir / name, fractureFrame(bodies, graph, context, at, time), *exports.format);
        end.exports.push_back(name);
        if (fluid) {
            const std::string particles = fmt::format("particles_{:06d}{}", at, io::extensionOf(*exports.format));
            writeFluidParticles(graph, *fluid, outDir / particles, *exports.format);
            end.exports.push_back(particles);
        }
    };
    if (exports.due(first, true, false, false)) exportNow(first, double(first) * dt);
    watchInterrupts();
    for (step = first + 1; step <= span.last(); ++step) {
        if (interruptRequested()) {
            end.interrupted = true;
            break;
        }
        const double time = double(step) * dt;
        if (renderDoc && step == first + 1) renderDoc->startFrameCapture(context.instance());
        VkCommandBuffer cmd = frames.begin(0);
        if (fluid) {
            coupling->addStep(graph); // the fluid's, the bodies' and what couples them
            fluid->addReadback(graph, *fluidReadback, 0);
            graph.addHostRead(*fluidReadback);
        } else {
            bodies.addStep(graph);
        }
        bodies.addMetrics(graph, lo, hi, metricsReadback);
        graph.addHostRead(metricsReadback);
        bodies.addFragmentMotionReadback(graph, motionReadback);
        graph.addHostRead(motionReadback);
        const uint32_t motionRows = bodies.fragmentMotionRows();
        const bool picture = rendering && nextPicture < pictureSteps.size() && pictureSteps[nextPicture] <= step - first;
        if (picture || (renderDoc && step == first + 1)) addPicture();
        if (!csv) {
            // Passes that start later (contacts between fragments) get their columns too.
            std::vector<std::string> names = stepNames;
            for (const std::string& n : graph.pendingTimerNames()) names.push_back(n);
            gpuColumns = passColumns(names);
            for (const std::string& n : gpuColumns) columns.push_back("gpu_ms:" + n);
            csv = std::make_unique<io::CsvWriter>(outDir / "metrics.csv", columns);
        }
        graph.execute(cmd, &frames.timer(0));
        frames.submit(0);
        frames.wait(0);
        if (renderDoc && step == first + 1) {
            end.capture = renderDoc->endFrameCapture(context.instance(), 1);
            renderDoc.reset();
        }
        if (picture) {
            pictures.save(outDir, overlayContent(scene.name, method, time));
            ++nextPicture;
        }
        // Blow-ups: a non-finite position or velocity, or a node far outside the domain's walls.
        const fracture::FractureMetrics m = metricsReadback.readVector<fracture::FractureMetrics>(1)[0];
        const uint64_t escaped = uint64_t(std::llround(m.escaped));
        const bool finite =
            m.notFinite == 0.0f && std::isfinite(m.kinetic) && std::isfinite(m.potential) && std::isfinite(m.elastic);
        double kinetic = m.kinetic;
        report = bodies.afterStep(graph);
        account.add(m.kinetic, m.potential, m.elastic, m.dampingLoss, double(m.elasticBeforeCuts) - double(m.elastic),
                    report.contact);
        std::string fluidBlowUp;
        if (fluid) {
            sim::StepReadback r;
            fluidReadback->read(&r, sizeof(r));
            // The fluid's own checks, then the energy of fluid and bodies together.
            kinetic += coupled.record(*csv, r, scene, fluidBlowUp).kineticEnergy;
            const double limit = coupled.energyLimit + std::max(0.0, double(start.elastic));
            if (fluidBlowUp.empty() && kinetic > limit)
                fluidBlowUp = fmt::format("kinetic energy {:.4g} J of fluid and bodies above the {:.4g} J their initial motion, "
                                          "strain and gravity can supply at t = {:.4g} s (energy from nowhere)",
                                          kinetic, limit, time);
        }
        if (frames.timer(0).dropped() && !timingWarned) {
            std::fprintf(stderr, "floe run: warning: %u passes of step %llu were not timed (timer scopes used up)\n",
                         frames.timer(0).dropped(), static_cast<unsigned long long>(step));
            timingWarned = true;
        }
        csv->set("step", step);
        csv->set("time", time);
        csv->set("dt", dt);
        csv->set("particles", uint64_t(report.nodes) + (fluid ? fluid->count() : 0u));
        csv->set("escaped", escaped);
        csv->set("kinetic_energy", kinetic);
        const double ms = recordPassTimes(*csv, frames.timer(0).results(), gpuColumns);
        csv->set("fragments", uint64_t(report.fragments));
        csv->set("fracture_events", uint64_t(report.events));
        csv->set("cuts", uint64_t(report.cuts));
        csv->set("max_separation", double(report.maxLoad));
        csv->set("max_damage", double(report.maxDamage));
        csv->set("contact", uint64_t(report.contact ? 1 : 0));
        csv->set("potential_energy", double(m.potential));
        csv->set("elastic_energy", double(m.elastic));
        if (!fluid) {
            // The bodies' energy account; with a fluid the fluid's work on them is not separated
            // from it, and the columns stay empty.
            csv->set("damping_loss", account.damping);
            csv->set("fracture_loss", account.fracture);
            csv->set("contact_loss", account.contact);
            csv->set("solver_loss", account.solver);
        }
        csv->endRow();
        std::vector<fracture::FragmentMotion> rows = motionReadback.readVector<fracture::FragmentMotion>(motionRows);
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.label < b.label; });
        for (const fracture::FragmentMotion& f : rows)
            bodiesCsv.add(step, time, {uint32_t(f.body), true, f.label, f.centre, f.velocity, f.mass, 0.0f});
        gpuTotal += ms;
        loadStat.add(report.maxLoad);
        worstLoad = std::max(worstLoad, double(report.maxLoad));
        if (!finite || escaped > 0 || !std::isfinite(report.maxLoad) || !fluidBlowUp.empty()) {
            end.diverged = !fluidBlowUp.empty() ? "the coupled run: " + fluidBlowUp
                           : !finite            ? "a node position is not finite"
                           : escaped > 0        ? fmt::format("{} nodes left the domain", escaped)
                                                : "the largest load is not finite";
            break;
        }
        if (exports.due(step, false, picture, step == span.last())) exportNow(step, time);
        if (o.saveEvery && step % o.saveEvery == 0) saveNow(step);
        progress.update(step - first,
                        fmt::format("t = {:.3f} s, {} fragments, {} fracture events", time, report.fragments, report.events));
    }
    progress.finish();
    csv->flush();
    bodiesCsv.flush();
    const uint64_t done = (end.interrupted ? step - 1 : std::min(step, span.last())) - first;
    end.steps = done;
    if (!o.saveState.empty() && end.diverged.empty()) saveNow(first + done);
    end.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    end.pictures = pictures.files;

    nlohmann::ordered_json summary;
    summary["scene"] = o.scene.string();
    summary["scene_name"] = scene.name;
    summary["kind"] = kind;
    if (coupled) coupled.summarize(summary, scene);
    summary["device"] = context.deviceName();
    summary["bodies"] = bodies.bodyCount();
    summary["tets"] = bodies.tetCount();
    size_t initialNodes = 0;
    for (const FractureBody& b : scene.fractureBodies) initialNodes += b.mesh.nodes.size();
    summary["nodes_initial"] = initialNodes;
    summary["nodes_final"] = report.nodes;
    summary["method"] = scene.fracture.method;
    summary["separation"] = scene.fracture.separation;
    summary["max_iterations"] = scene.fracture.fracture.maxIterations;
    if (bodies.constraintCount() > 0) {
        // Constraint method: cuts are broken constraints; the pieces' nodes are copies.
        summary["pieces"] = bodies.pieceCount();
        summary["constraints"] = bodies.constraintCount();
        summary["links"] = bodies.linkCount();
    }
    summary["fragments_initial"] = initialFragments;
    summary["fragments"] = report.fragments;
    summary["fracture_events"] = report.events;
    summary["cuts"] = report.cuts;
    summary["max_separation"] = worstLoad;
    summary["max_damage"] = report.maxDamage;
    // Node-substeps whose contact candidates did not fit their list: those walked the grid again.
    summary["contact_candidate_overflows"] = report.contactOverflows;
    // Face-grid entries the face contacts had no room for (Fracture.faceContacts): contacts missed.
    const uint32_t faceOverflows = bodies.faceGridOverflows(graph);
    summary["face_grid_overflows"] = faceOverflows;
    if (faceOverflows > 0)
        fmt::print(stderr,
                   "floe run: warning: the face contacts' grid left out {} entries; contacts with those faces were missed\n",
                   faceOverflows);
    summary["metrics"] = {{"max_separation", loadStat.json()}};
    // With a fluid the bodies' account does not close (the fluid works on them): left out.
    summary["energy"] = fluid ? nlohmann::ordered_json(nullptr) : account.json();
    summary["first_step"] = first + 1;
    summary["steps"] = done;
    summary["simulated_seconds"] = double(first + done) * dt;
    summary["loaded_state"] = o.loadState.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(o.loadState.string());
    summary["saved_state"] = o.saveState.empty() || !end.diverged.empty() ? nlohmann::ordered_json(nullptr)
                                                                          : nlohmann::ordered_json(o.saveState.string());
    summary["wall_seconds"] = end.wallSeconds;
    summary["gpu_ms_per_step"] = done ? gpuTotal / double(done) : 0.0;
    writeRunSummary(summary, end, context, scene.warnings, outDir);

    fmt::print("floe run: {} ({} bodies, {} tets, method {}, {} steps, t = {:.4g} s) on {}\n", scene.name, bodies.bodyCount(),
               bodies.tetCount(), scene.fracture.method, done, double(first + done) * dt, context.deviceName());
    if (fluid)
        fmt::print("  fluid       {} particles, {}, coupled through {} face samples\n", fluid->count(),
                   sim::pressureSolverTitle(scene.sph.pressureSolver()), coupling->sampleCount());
    fmt::print("  status      {}\n", runStatusLine(end));
    fmt::print("  fracture    {} events, {} cuts, {} fragments (from {}), largest load {:.3g} tau\n", report.events, report.cuts,
               report.fragments, initialFragments, worstLoad);
    printRunFiles(output, end, context, o.plots);
    return runExitCode(end);
}

} // namespace floe
