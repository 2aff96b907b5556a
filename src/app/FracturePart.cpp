// The fracture bodies' part of a run's world (digest-004): metrics.csv with fragments, fracture
// events, the largest load and the bodies' energy account, bodies.csv's fragment rows, tet and
// surface exports, saved states. With FluidBlocks the fluid is two-way coupled with the bodies
// (coupling::FluidSolidCoupling) and the world steps them together.
#include "app/FracturePart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "app/DeformablePart.h"
#include "app/EnergyAccount.h"
#include "app/RunOutput.h"
#include "app/RunParts.h"
#include "app/Stat.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/MeshExport.h"
#include "io/SolidState.h"

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
    if (scene.domainGiven() || !scene.fluidBlocks.empty() || !scene.fluidModels.empty()) {
        // The scene's domain (with a fluid: the fluid's, around its tank's meshes).
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
    if (scene.rigidBodies.empty()) {
        b.add(glm::vec3(c.x - 2.0f * half, b.lo.y, c.z - 2.0f * half));
        b.add(glm::vec3(c.x + 2.0f * half, b.lo.y, c.z + 2.0f * half));
    }
    // The static meshes they land on (stairs, a table), where the fragments stay.
    for (const RigidBody& r : scene.rigidBodies)
        for (const glm::vec3& v : r.mesh.vertices) b.add(v);
    view.camera = render::Camera::fit(b.lo, b.hi, scene.floe.fovY, false, aspect);
    const float distance = glm::length(view.camera.position - view.camera.target);
    view.camera.position = view.camera.target + distance * glm::normalize(glm::vec3(0.35f, 0.6f, 1.0f));
    view.floorHeight = settings.domainMin.y;
    view.floorHalfExtent = 3.0f * std::max(half, 0.5f);
    view.floorCenter = {c.x, c.z};
    if (!scene.rigidBodies.empty()) {
        // Around the static meshes too: shards fall off them onto the floor.
        const glm::vec3 m = 0.5f * (b.lo + b.hi);
        view.floorCenter = {m.x, m.z};
        view.floorHalfExtent = std::max(view.floorHalfExtent, 1.5f * std::max(b.hi.x - b.lo.x, b.hi.z - b.lo.z));
    }
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

namespace {

class FracturePart final : public RunPart {
public:
    FracturePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const Scene& scene,
                 const fracture::FractureSettings* settings, bool withFluid)
        : context_(context), scene_(scene), withFluid_(withFluid), settings_(settings ? *settings : fractureSettings(scene)),
          bodies_(context, shaders, graph, fractureInstances(scene), settings_, staticMeshes(scene)),
          lo_(settings_.domainMin - glm::vec3(1.0f)), hi_(settings_.domainMax + glm::vec3(1.0f))
    {
        for (uint32_t f = 0; f < kMaxFramesInFlight; ++f) {
            // The step's energies, escaped and non-finite nodes, reduced on the GPU: 48 bytes per step.
            metrics_.emplace_back(context, gpu::BufferDesc{fmt::format("fracture metrics read-back {}", f),
                                                           sizeof(fracture::FractureMetrics), gpu::MemoryKind::Readback});
            // bodies.csv: each fragment's centre of mass and velocity per step (fracture/bounce's
            // sums; at most one fragment per node, and a node per tet corner).
            motion_.emplace_back(
                context,
                gpu::BufferDesc{fmt::format("fracture fragment motion read-back {}", f),
                                std::max<uint64_t>(uint64_t(bodies_.tetCount()) * 4 * sizeof(fracture::FragmentMotion), 48),
                                gpu::MemoryKind::Readback});
        }
        report_ = bodies_.report();
        initialFragments_ = report_.fragments;
        anyBreakable_ = std::any_of(scene.fractureBodies.begin(), scene.fractureBodies.end(),
                                    [](const FractureBody& b) { return b.breakable; });
        // The energy account (EnergyAccount.h): the initial energy, then each step's.
        bodies_.addMetrics(graph, lo_, hi_, metrics_[0]);
        graph.addHostRead(metrics_[0]);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        start_ = metrics_[0].readVector<fracture::FractureMetrics>(1)[0];
        account_ = EnergyAccount(double(start_.kinetic) + start_.potential + start_.elastic);
    }
    fracture::FractureBodies& bodies() { return bodies_; }
    double initialStrain() const { return std::max(0.0, double(start_.elastic)); }

    std::vector<std::string> columns() const override
    {
        return {"fragments",        "fracture_events", "cuts",         "max_separation",
                "max_damage",       "contact",         "rounds",       "rounds_at_limit",
                "potential_energy", "elastic_energy",  "damping_loss", "fracture_loss",
                "contact_loss",     "solver_loss"};
    }
    // The host reads each step's fragments and cuts (afterStep) before it records the next.
    uint32_t framesInFlight() const override { return 1; }
    void setTimeStep(double dt) override { bodies_.setTimeStep(float(dt)); }
    void addStep(graph::RenderGraph& graph) override { bodies_.addStep(graph); }
    void addReadbacks(graph::RenderGraph& graph, uint32_t slot) override
    {
        bodies_.addMetrics(graph, lo_, hi_, metrics_[slot]);
        graph.addHostRead(metrics_[slot]);
        bodies_.addFragmentMotionReadback(graph, motion_[slot]);
        graph.addHostRead(motion_[slot]);
        motionRows_ = bodies_.fragmentMotionRows();
    }
    PartStep collect(graph::RenderGraph& graph, uint32_t slot) override
    {
        PartStep out;
        // Blow-ups: a non-finite position or velocity, or a node far outside the domain's walls.
        const fracture::FractureMetrics m = metrics_[slot].readVector<fracture::FractureMetrics>(1)[0];
        const uint64_t escaped = uint64_t(std::llround(m.escaped));
        const bool finite =
            m.notFinite == 0.0f && std::isfinite(m.kinetic) && std::isfinite(m.potential) && std::isfinite(m.elastic);
        report_ = bodies_.afterStep(graph);
        account_.add(m.kinetic, m.potential, m.elastic, m.dampingLoss, double(m.elasticBeforeCuts) - double(m.elastic),
                     report_.contact);
        out.add("fragments", uint64_t(report_.fragments));
        out.add("fracture_events", uint64_t(report_.events));
        out.add("cuts", uint64_t(report_.cuts));
        out.add("max_separation", double(report_.maxLoad));
        out.add("max_damage", double(report_.maxDamage));
        out.add("contact", uint64_t(report_.contact ? 1 : 0));
        out.add("rounds", double(report_.rounds));
        out.add("rounds_at_limit", uint64_t(report_.roundsAtLimit));
        rounds_.add(report_.rounds);
        roundsAtLimit_ += report_.roundsAtLimit;
        out.add("potential_energy", double(m.potential));
        out.add("elastic_energy", double(m.elastic));
        if (!withFluid_) {
            // The bodies' energy account; with a fluid the fluid's work on them is not separated
            // from it, and the columns stay empty.
            out.add("damping_loss", account_.damping);
            out.add("fracture_loss", account_.fracture);
            out.add("contact_loss", account_.contact);
            out.add("solver_loss", account_.solver);
        }
        std::vector<fracture::FragmentMotion> fragments = motion_[slot].readVector<fracture::FragmentMotion>(motionRows_);
        std::sort(fragments.begin(), fragments.end(), [](const auto& a, const auto& b) { return a.label < b.label; });
        for (const fracture::FragmentMotion& f : fragments)
            out.rows.push_back({uint32_t(f.body), true, f.label, f.centre, f.velocity, f.mass, 0.0f});
        loadStat_.add(report_.maxLoad);
        worstLoad_ = std::max(worstLoad_, double(report_.maxLoad));
        out.kinetic = m.kinetic;
        out.particles = report_.nodes;
        out.escaped = escaped;
        if (!finite)
            out.blowUp = "a node position is not finite";
        else if (escaped > 0)
            out.blowUp = fmt::format("{} nodes left the domain", escaped);
        else if (!std::isfinite(report_.maxLoad))
            out.blowUp = "the largest load is not finite";
        return out;
    }
    std::string progress() const override
    {
        return fmt::format(", {} fragments, {} fracture events", report_.fragments, report_.events);
    }
    std::vector<std::string> laterPasses(graph::RenderGraph& graph) override { return bodies_.stepPassNames(graph); }
    std::string title(bool) const override
    {
        // Bodies that cannot break are stiff elastic blocks, not brittle ones: the overlay says so.
        const std::string solids =
            anyBreakable_ ? fmt::format("brittle fracture ({})", scene_.fracture.method) : std::string("unbreakable tet bodies");
        return fmt::format("{} \u00b7 {} tetrahedra", solids, bodies_.tetCount());
    }
    void addDrawPasses(graph::RenderGraph& graph) override { bodies_.addSurface(graph); }
    void exportFrame(graph::RenderGraph& graph, const std::filesystem::path& dir, uint64_t step, double time,
                     io::ExportFormat format, std::vector<std::string>& files) override
    {
        const std::string name = fmt::format("fracture_{:06d}{}", step, io::extensionOf(format));
        io::writeMesh(dir / name, fractureFrame(bodies_, graph, context_, step, time), format);
        files.push_back(name);
    }
    uint64_t fingerprint() const override { return bodies_.fingerprint(); }
    bool replayable() const override { return true; }
    std::vector<sim::CarriedBuffer> stepState() const override { return bodies_.carried(); }
    std::vector<uint64_t> hostState() const override { return {bodies_.nodeCount()}; }
    void addRestored(graph::RenderGraph& graph, const std::vector<uint64_t>& host) override
    {
        bodies_.addRestored(graph, static_cast<uint32_t>(host.at(0)));
    }
    void afterRestore(graph::RenderGraph& graph) override { bodies_.afterStep(graph); }
    void saveState(graph::RenderGraph& graph, io::SolidState& state) override
    {
        bodies_.saveState(graph, state);
        state.add("energy account", account_.values());
    }
    void loadState(graph::RenderGraph& graph, const io::SolidState& state, const std::filesystem::path& file) override
    {
        bodies_.loadState(graph, state, file);
        account_.restore(state.get<double>("energy account", account_.values().size(), file));
    }
    void summarize(graph::RenderGraph& graph, nlohmann::ordered_json& s, std::vector<std::string>& warnings) override
    {
        s["bodies"] = bodies_.bodyCount();
        s["tets"] = bodies_.tetCount();
        size_t initialNodes = 0;
        for (const FractureBody& b : scene_.fractureBodies) initialNodes += b.mesh.nodes.size();
        s["nodes_initial"] = initialNodes;
        s["nodes_final"] = report_.nodes;
        s["method"] = scene_.fracture.method;
        s["separation"] = scene_.fracture.separation;
        s["max_iterations"] = scene_.fracture.fracture.maxIterations;
        if (bodies_.constraintCount() > 0) {
            // Constraint method: cuts are broken constraints; the pieces' nodes are copies.
            s["pieces"] = bodies_.pieceCount();
            s["constraints"] = bodies_.constraintCount();
            s["links"] = bodies_.linkCount();
        }
        s["fragments_initial"] = initialFragments_;
        s["fragments"] = report_.fragments;
        s["fracture_events"] = report_.events;
        s["cuts"] = report_.cuts;
        s["max_separation"] = worstLoad_;
        s["max_damage"] = report_.maxDamage;
        // Node-substeps whose contact candidates did not fit their list: those walked the grid again.
        s["contact_candidate_overflows"] = report_.contactOverflows;
        // Face-grid entries the face contacts had no room for (Fracture.faceContacts): contacts missed.
        const uint32_t faceOverflows = bodies_.faceGridOverflows(graph);
        s["face_grid_overflows"] = faceOverflows;
        if (faceOverflows > 0)
            warnings.push_back(
                fmt::format("the face contacts' grid left out {} entries; contacts with those faces were missed", faceOverflows));
        s["metrics"]["max_separation"] = loadStat_.json();
        // Rounds per substep (Fracture.iterations, more while the walls find nodes deeper than the tolerance).
        s["metrics"]["rounds"] = rounds_.json();
        // Substeps that ended at the limit with a node still deeper in a wall than the tolerance
        // (the energy account shows whether that made energy).
        s["rounds_at_limit"] = roundsAtLimit_;
        // With a fluid the bodies' account does not close (the fluid works on them): left out.
        s["energy"] = withFluid_ ? nlohmann::ordered_json(nullptr) : account_.json();
    }
    void report() const override
    {
        fmt::print("  fracture    {} events, {} cuts, {} fragments (from {}), largest load {:.3g} tau\n", report_.events,
                   report_.cuts, report_.fragments, initialFragments_, worstLoad_);
    }
    std::string describe() const override
    {
        return fmt::format("{} {}, {} tets, method {}", bodies_.bodyCount(), bodies_.bodyCount() == 1 ? "body" : "bodies",
                           bodies_.tetCount(), scene_.fracture.method);
    }

private:
    gpu::Context& context_;
    const Scene& scene_;
    bool withFluid_;
    fracture::FractureSettings settings_;
    fracture::FractureBodies bodies_;
    glm::vec3 lo_, hi_; // nodes beyond count as escaped
    std::vector<gpu::Buffer> metrics_, motion_;
    uint32_t motionRows_ = 0;
    fracture::FractureReport report_;
    uint32_t initialFragments_ = 0;
    bool anyBreakable_ = false;
    fracture::FractureMetrics start_{};
    EnergyAccount account_{0.0};
    RunningStat loadStat_, rounds_;
    double worstLoad_ = 0.0;
    uint64_t roundsAtLimit_ = 0;
};

} // namespace

std::unique_ptr<RunPart> makeFracturePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                          const Scene& scene, const fracture::FractureSettings* settings,
                                          fracture::FractureBodies*& bodies, bool withFluid)
{
    auto part = std::make_unique<FracturePart>(context, shaders, graph, scene, settings, withFluid);
    bodies = &part->bodies();
    return part;
}

double initialStrainEnergy(const RunPart& part)
{
    const auto* fracture = dynamic_cast<const FracturePart*>(&part);
    return fracture ? fracture->initialStrain() : 0.0;
}

} // namespace floe
