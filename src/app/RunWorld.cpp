#include "app/RunWorld.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/DeformablePart.h"
#include "app/FracturePart.h"
#include "app/RunOutput.h"
#include "app/RunParts.h"
#include "base/Error.h"
#include "body/DeformableBodies.h"
#include "coupling/FluidSolidCoupling.h"
#include "coupling/SolidContacts.h"
#include "fracture/FractureBodies.h"
#include "gpu/Commands.h"
#include "graph/RenderGraph.h"
#include "io/SolidState.h"
#include "io/StateFile.h"
#include "scene/SceneSetup.h"
#include "shared/fluid.h"
#include "sim/Simulation.h"

namespace floe {

namespace {

// The order-independent fingerprint of what a fluid's saved state must match.
uint64_t fluidFingerprint(const sim::Simulation& s)
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

// What pictures draw of each solid: its surface, and the static meshes it collides with.
render::MeshDraw surfaceDraw(const body::DeformableBodies& b)
{
    return {&b.positions(), &b.normals(), &b.triangles(), b.triangleCount()};
}
render::MeshDraw surfaceDraw(const fracture::FractureBodies& f)
{
    return {&f.surfacePositions(), &f.surfaceNormals(), &f.surfaceTriangles(), f.surfaceTriangleCount()};
}
render::MeshDraw staticMeshDraw(const sim::ObstacleBuffers& o)
{
    return {&o.positions, &o.normals, &o.indices, o.triangles};
}

} // namespace

RunWorld::RunWorld(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const Scene& scene,
                   double endTime, const Settings& settings)
    : scene_(scene), context_(&context), timeStep_(scene.config.timeStepSize)
{
    const bool withFluid = !scene.fluidBlocks.empty() || !scene.fluidModels.empty();
    if (!scene.deformableBodies.empty())
        parts_.push_back(
            makeDeformablePart(context, shaders, graph, scene, settings.bodies ? &*settings.bodies : nullptr, bodies_, withFluid));
    if (!scene.fractureBodies.empty())
        parts_.push_back(makeFracturePart(context, shaders, graph, scene, settings.fracture ? &*settings.fracture : nullptr,
                                          fracture_, withFluid));
    // Deformable and fracture bodies meet through the deformable step's hooks, with or without a
    // fluid (whose coupling resets the fracture bodies' contact flag before its impulses set it).
    if (bodies_ && fracture_)
        solidContacts_ = std::make_unique<coupling::SolidContacts>(context, shaders, graph, *bodies_, *fracture_, !withFluid);
    if (!withFluid) {
        // Solids alone: the same bound on their kinetic energy, with the domain's walls as its box.
        sim::WorldSettings walls;
        scene.domain(walls.domainMin, walls.domainMax);
        energyLimit_ = energyBound(scene, walls, FluidSampling{});
        for (const auto& part : parts_) energyLimit_ += initialStrainEnergy(*part);
        return;
    }
    const bool solids = !parts_.empty();
    // A fluid alone ends its steps exactly at the run's end; beside solids it takes their fixed
    // steps to the last (the loop counts them), or the steps the world chooses (cflMethod).
    world_ = makeWorld(scene, solids ? 0.0f : static_cast<float>(endTime));
    choosesSteps_ = solids && scene.sph.cflMethod != 0;
    endTime_ = choosesSteps_ ? endTime : 0.0;
    const FluidSampling sampled = sampleFluid(scene);
    fluidOwned_ =
        std::make_unique<sim::Simulation>(context, shaders, graph, world_, scene.sph, sampled.positions, sampled.velocities);
    fluid_ = fluidOwned_.get();
    // With solids: the fluid two-way coupled with them, stepped with them in one command buffer.
    if (solids) coupling_ = std::make_unique<coupling::FluidSolidCoupling>(context, shaders, graph, *fluid_, bodies_, fracture_);
    energyLimit_ = energyBound(scene, world_, sampled);
    for (const auto& part : parts_) energyLimit_ += initialStrainEnergy(*part);
    parts_.insert(parts_.begin(), makeFluidPart(context, *fluid_, coupling_.get(), energyLimit_, !solids, sampled.leftOut));
    if (choosesSteps_) {
        // The first step from the fastest initial fluid particle, vertex or tet node (the samples
        // move as the solid's points; the coupling places them at the first step).
        float fastest = 0.0f;
        const auto see = [&](const std::vector<glm::vec4>& velocities) {
            for (const glm::vec4& v : velocities) fastest = std::max(fastest, glm::length(glm::vec3(v)));
        };
        see(sampled.velocities);
        if (bodies_) see(bodies_->download(graph, bodies_->velocities()));
        if (fracture_) see(fracture_->download(graph, fracture_->velocities(), fracture_->nodeCount()));
        cflSpeed_ = fastest;
    }
}

RunWorld::~RunWorld() = default;

std::string RunWorld::kind() const
{
    if (fluidOnly()) return "fluid";
    const std::string solids = bodies_ && fracture_ ? "deformable and fracture bodies"
                               : bodies_            ? "deformable bodies"
                                                    : "fracture bodies";
    if (fluid_) return "fluid and " + solids;
    return fracture_ && !bodies_ ? "fracture" : solids;
}

void RunWorld::summarize(graph::RenderGraph& graph, nlohmann::ordered_json& summary, std::vector<std::string>& warnings)
{
    if (!solidContacts_) return;
    const glm::uvec4 s = solidContacts_->state(graph);
    summary["solid_contacts"] = {{"vertex_face_contacts", s.y},
                                 {"node_triangle_contacts", s.w},
                                 {"face_grid_overflows", s.x},
                                 {"triangle_grid_overflows", s.z}};
    if (s.x > 0 || s.z > 0)
        warnings.push_back(fmt::format("the grids of the contacts between deformable and fracture bodies left out {} face and {} "
                                       "triangle entries (a body stretched or shattered far beyond its rest size); contacts with "
                                       "those were missed",
                                       s.x, s.z));
}

uint32_t RunWorld::framesInFlight() const
{
    if (choosesSteps_) return 1;
    uint32_t n = kMaxFramesInFlight;
    for (const auto& part : parts_) n = std::min(n, part->framesInFlight());
    return n;
}

std::vector<std::string> RunWorld::columns() const
{
    std::vector<std::string> c = {
        "step",           "time",    "dt",          "particles", "density_error_avg", "density_error_max", "solver_iterations",
        "kinetic_energy", "escaped", "gpu_ms_total"};
    for (const auto& part : parts_)
        for (const std::string& name : part->columns())
            if (std::find(c.begin(), c.end(), name) == c.end()) c.push_back(name);
    return c;
}

double RunWorld::plannedStep() const
{
    if (!choosesSteps_) return timeStep_;
    if (ended_) return 0.0;
    double dt = fluid_->cflTimeStep(float(cflSpeed_));
    if (endTime_ > 0.0) {
        // As sph/step_begin ends a fluid alone: the last one or two steps share what is left
        // (each between dt/2 and dt), without a sliver of a step; what is left within rounding of
        // the float steps summed (1e-6 of a step) of one step is one step.
        const double left = std::max(endTime_ - clock_, 0.0);
        dt = left <= dt * (1.0 + 1e-6) ? left : (left < 2.0 * dt ? 0.5 * left : dt);
    }
    return double(float(dt));
}

void RunWorld::beginStep(uint32_t slot, double time)
{
    if (!choosesSteps_) {
        for (const auto& part : parts_) part->beginStep(slot, time);
        return;
    }
    const double dt = plannedStep();
    if (!(dt > 0.0)) throw std::logic_error("RunWorld::beginStep: the world reached its end time");
    // Took what was left (the float step within rounding of it).
    ended_ = endTime_ > 0.0 && endTime_ - clock_ - dt <= 1e-6 * dt;
    clock_ = ended_ ? endTime_ : clock_ + dt;
    for (const auto& part : parts_) {
        part->beginStep(slot, clock_);
        part->setTimeStep(dt);
    }
}

void RunWorld::addStep(graph::RenderGraph& graph)
{
    if (coupling_) {
        coupling_->addStep(graph); // the fluid's, the solids' and what couples them
        return;
    }
    for (const auto& part : parts_) part->addStep(graph);
}

void RunWorld::addReadbacks(graph::RenderGraph& graph, uint32_t slot)
{
    for (const auto& part : parts_) part->addReadbacks(graph, slot);
}

WorldStep RunWorld::collect(graph::RenderGraph& graph, uint32_t slot, double time)
{
    WorldStep w;
    // The fluid's first: a step it takes again counts for no part (their accounts skip it).
    for (const auto& part : parts_) {
        w.parts.push_back(part->collect(graph, slot));
        if (w.parts.back().replay) break;
    }
    const PartStep& first = w.parts.front();
    w.dt = first.dt;
    w.time = first.time;
    w.replay = std::any_of(w.parts.begin(), w.parts.end(), [](const PartStep& p) { return p.replay; });
    if (w.replay) return w;
    if (choosesSteps_ && first.cflSpeed) cflSpeed_ = *first.cflSpeed;
    if (first.dt && *first.dt <= 0.0f) {
        w.afterStop = true;
        return w;
    }
    // The solids' energy first, then the fluid's (as the coupled runs summed it before the world).
    for (size_t k = w.parts.size(); k-- > 0;) {
        w.kinetic += w.parts[k].kinetic;
        w.particles += w.parts[k].particles;
        w.escaped += w.parts[k].escaped;
    }
    w.kineticIsFloat = w.parts.size() == 1 && first.kineticIsFloat;
    const bool coupled = w.parts.size() > 1;
    for (size_t k = 0; k < w.parts.size() && w.blowUp.empty(); ++k)
        if (!w.parts[k].blowUp.empty()) w.blowUp = (fluid_ && k == 0 && coupled ? "the coupled run: " : "") + w.parts[k].blowUp;
    if (w.blowUp.empty() && (coupled || !fluid_) && w.kinetic > energyLimit_)
        w.blowUp = fmt::format("{}kinetic energy {:.4g} J of {} above the {:.4g} J their initial motion, strain and gravity can "
                               "supply at t = {:.4g} s (energy from nowhere)",
                               fluid_ ? "the coupled run: " : "", w.kinetic, fluid_ ? "fluid and solids" : "the solids",
                               energyLimit_, time);
    return w;
}

std::vector<std::string> RunWorld::stepPasses(graph::RenderGraph& graph)
{
    std::vector<std::string> names;
    if (fluidOnly()) {
        // A fluid step changes nothing on the host when recorded: record one and discard it
        // (it alone: the passes pending before it, such as the first clears, still run).
        const size_t first = graph.pendingPasses();
        fluid_->addStep(graph);
        names = graph.pendingTimerNames(first);
        graph.discard(first);
    }
    for (const auto& part : parts_)
        for (const std::string& n : part->laterPasses(graph)) names.push_back(n);
    return names;
}

std::string RunWorld::title() const
{
    std::string t;
    for (const auto& part : parts_) t += (t.empty() ? "" : " \u00b7 ") + part->title(parts_.size() == 1);
    return t;
}

std::string RunWorld::describe() const
{
    std::string t;
    for (const auto& part : parts_) t += (t.empty() ? "" : "; ") + part->describe();
    return t;
}

void RunWorld::prepareDrawing(WorldDrawing& d, gpu::Context& context, graph::RenderGraph& graph, const RunOptions& o) const
{
    const float aspect = float(o.width) / float(o.height);
    const auto renderMode = [&](const char* fallback) {
        const int mode = render::parseRenderMode(o.render.empty() ? fallback : o.render);
        if (mode < 0) throw Error(fmt::format("--render: '{}' is not particles, fluid or both", o.render));
        return mode;
    };
    if (fluid_) {
        // The fluid's view (its particles by speed, --render as for a fluid), its walls outlined
        // and its obstacles drawn as samples; the solids as surfaces (the static meshes are the
        // fluid's walls: outlined, not drawn as surfaces that hide it).
        d.view = sceneView(scene_, world_, aspect);
        d.view.mode = renderMode("particles");
        if (o.smoothing) d.view.fluid.iterations = *o.smoothing;
        d.scene = uploadSceneDrawing(context, graph, scene_, world_);
        d.particles = &fluid_->particles();
        d.points = &d.scene.boundary;
        d.pointCount = d.scene.boundaryCount;
        d.legend = true;
        if (bodies_) d.meshes.push_back(surfaceDraw(*bodies_));
        if (fracture_) d.meshes.push_back(surfaceDraw(*fracture_));
        return;
    }
    if (bodies_) {
        // The bodies from the front and above with the floor; --render fluid (the default) draws
        // their surfaces, particles the vertices as spheres of the contact radius, both both. The
        // glass, if any, as sparse grey points on its wall, which the vertices replace.
        const body::BodySettings& settings = bodies_->settings(); // the window's panel may have changed the scene's
        d.view = bodySceneView(scene_, settings, aspect);
        const int mode = renderMode("fluid");
        if (mode != RENDER_MODE_PARTICLES) d.meshes.push_back(surfaceDraw(*bodies_));
        if (fracture_) d.meshes.push_back(surfaceDraw(*fracture_)); // the fracture bodies beside them
        if (bodies_->obstacles().triangles) d.meshes.push_back(staticMeshDraw(bodies_->obstacles()));
        if (mode != RENDER_MODE_FLUID) {
            d.points = &bodies_->positions();
            d.pointCount = bodies_->particleCount();
            d.view.boundaryRadius = bodies_->contactRadius();
        } else if (settings.glassRadius > 0.0f) {
            const std::vector<glm::vec4> points = glassSamples(settings);
            d.glass = gpu::Buffer(
                context, {"glass points", points.size() * 16, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
            sim::uploadNow(context, graph, d.glass, points.data(), points.size() * 16);
            d.points = &d.glass;
            d.pointCount = static_cast<uint32_t>(points.size());
        }
        return;
    }
    // Fracture bodies: their tets' faces (or their stress), the floor around where they land, and
    // the static meshes they collide with.
    d.view = fractureSceneView(scene_, fracture_->settings(), aspect);
    d.meshes.push_back(surfaceDraw(*fracture_));
    if (fracture_->obstacles().triangles) d.meshes.push_back(staticMeshDraw(fracture_->obstacles()));
}

void RunWorld::addDrawPasses(graph::RenderGraph& graph)
{
    for (const auto& part : parts_) part->addDrawPasses(graph);
}

uint64_t RunWorld::fingerprint() const
{
    if (fluidOnly()) return fluidFingerprint(*fluid_);
    uint64_t solids = 0;
    for (const auto& part : parts_)
        if (part->fingerprint()) solids = part->fingerprint();
    return fluid_ ? coupledFingerprint(solids, *fluid_) : solids;
}

void RunWorld::save(graph::RenderGraph& graph, const std::filesystem::path& file, uint64_t step, double time)
{
    if (fluidOnly()) {
        sim::SimulationState state = fluid_->download(graph);
        state.reportedTime = time;
        io::saveState(file, state, fingerprint());
        return;
    }
    io::SolidState state{kind(), fingerprint(), step, {}};
    // The solids' buffers first, then the fluid's.
    for (auto it = parts_.rbegin(); it != parts_.rend(); ++it) (*it)->saveState(graph, state);
    // Steps the world chooses: what the next step's choice depends on, and the run's time column.
    if (choosesSteps_)
        state.add("world clock (time column, clock, CFL speed, ended)",
                  std::vector<double>{time, clock_, cflSpeed_, ended_ ? 1.0 : 0.0});
    io::saveSolidState(file, state);
}

RunWorld::Loaded RunWorld::load(graph::RenderGraph& graph, const std::filesystem::path& file)
{
    if (fluidOnly()) {
        const sim::SimulationState state = io::loadState(file, fingerprint());
        fluid_->upload(graph, state);
        // The time column sums the steps as they print (0.002, not 0.00200000009) from 0: a resumed
        // run continues the saved run's sum, not the GPU's float time, so that its column matches
        // the uninterrupted run's digit for digit.
        return {static_cast<uint64_t>(state.state[0].w), state.reportedTime};
    }
    const io::SolidState state = io::loadSolidState(file, kind(), fingerprint());
    for (auto it = parts_.rbegin(); it != parts_.rend(); ++it) (*it)->loadState(graph, state, file);
    if (coupling_) coupling_->invalidate(); // the samples follow the loaded solids
    if (choosesSteps_) {
        const std::vector<double> c = state.get<double>("world clock (time column, clock, CFL speed, ended)", 4, file);
        clock_ = c[1];
        cflSpeed_ = c[2];
        ended_ = c[3] != 0.0;
        return {state.step, c[0]};
    }
    return {state.step, double(state.step) * timeStep_};
}

bool RunWorld::replays() const
{
    return fluid_ && !fluidOnly() && !solidContacts_ &&
           std::all_of(parts_.begin(), parts_.end(), [](const std::unique_ptr<RunPart>& p) { return p->replayable(); });
}

void RunWorld::addSnapshot(graph::RenderGraph& graph, uint32_t slot)
{
    if (snapshots_.empty()) snapshots_.resize(sim::Simulation::kSnapshots);
    Snapshot& s = snapshots_.at(slot);
    s.bytes.clear();
    s.host.clear();
    size_t k = 0;
    for (const auto& part : parts_) {
        for (const sim::CarriedBuffer& b : part->stepState()) {
            // A buffer's live size (its capacity: a fracture body's nodes grow into it).
            const VkDeviceSize room = b.buffer->size();
            if (k == s.buffers.size())
                s.buffers.emplace_back(*context_, gpu::BufferDesc{fmt::format("replay snapshot {}: {}", slot, b.name), room});
            if (b.bytes) graph.addCopy("world/snapshot", *b.buffer, s.buffers[k], b.bytes);
            s.bytes.push_back(b.bytes);
            ++k;
        }
        s.host.push_back(part->hostState());
    }
    s.clock = clock_;
    s.ended = ended_;
    s.placed = !coupling_ || coupling_->placed();
}

void RunWorld::restoreSnapshot(graph::RenderGraph& graph, uint32_t slot)
{
    const Snapshot& s = snapshots_.at(slot);
    size_t k = 0;
    for (size_t p = 0; p < parts_.size(); ++p) {
        for (const sim::CarriedBuffer& b : parts_[p]->stepState()) {
            if (s.bytes.at(k)) graph.addCopy("world/restore", s.buffers.at(k), *b.buffer, s.bytes[k]);
            ++k;
        }
        parts_[p]->addRestored(graph, s.host.at(p));
    }
    context_->submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
    for (const auto& part : parts_) part->afterRestore(graph);
    // Before the first step the solids' samples were not placed yet (the snapshot holds none).
    if (coupling_ && !s.placed) coupling_->invalidate();
    clock_ = s.clock;
    ended_ = s.ended;
}

} // namespace floe
