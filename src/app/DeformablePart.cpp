// The deformable bodies' part of a run's world (digest-002): the plate moving down if the scene
// has one, metrics.csv with the volume and rigid-consistency errors of the worst body and the
// bodies' energy account, bodies.csv's rows, surface exports, saved states.
#include "app/DeformablePart.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "app/EnergyAccount.h"
#include "app/RunOutput.h"
#include "app/RunParts.h"
#include "app/Stat.h"
#include "body/DeformableBodies.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/Csv.h"
#include "io/MeshExport.h"
#include "io/SolidState.h"
#include "render/Renderer.h"
#include "shared/body.h"

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

render::ViewSettings bodySceneView(const Scene& scene, const body::BodySettings& settings, float aspect)
{
    render::ViewSettings view;
    geometry::Bounds b;
    for (const DeformableBody& body : scene.deformableBodies)
        for (const glm::vec3& v : body.mesh.vertices) b.add(v);
    for (const FractureBody& body : scene.fractureBodies) // beside them
        for (const glm::vec3& v : body.mesh.nodes) b.add(v);
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

namespace {

class DeformablePart final : public RunPart {
public:
    DeformablePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const Scene& scene,
                   const body::BodySettings* settings, bool withFluid)
        : context_(context), scene_(scene), settings_(settings ? *settings : bodySettings(scene)), domainMax_(settings_.domainMax),
          bodies_(context, shaders, graph, bodyInstances(scene), settings_, staticMeshes(scene)),
          finalVolume_(bodies_.bodyCount(), 0.0), worstBodyVolume_(bodies_.bodyCount(), 0.0),
          // Work from outside does not enter the account: a fluid's forces, the moving plate's push.
          open_(withFluid                            ? "a fluid works on the bodies"
                : scene.deformable.plateSpeed > 0.0f ? "the moving plate works on the bodies"
                                                     : "")
    {
        for (uint32_t f = 0; f < body::DeformableBodies::kFrames; ++f) {
            readbacks_.emplace_back(context, gpu::BufferDesc{fmt::format("body metrics read-back {}", f),
                                                             uint64_t(bodies_.bodyCount()) * 16, gpu::MemoryKind::Readback});
            motionReadbacks_.emplace_back(context, gpu::BufferDesc{fmt::format("body motion read-back {}", f),
                                                                   uint64_t(bodies_.bodyCount()) * 32, gpu::MemoryKind::Readback});
            energyReadbacks_.emplace_back(context, gpu::BufferDesc{fmt::format("body energy read-back {}", f),
                                                                   uint64_t(bodies_.bodyCount()) * 16, gpu::MemoryKind::Readback});
        }
        // The energy account (EnergyAccount.h): the bodies as placed, then each step.
        bodies_.setEnergyAccount(true);
        bodies_.addInitialMeasure(graph);
        addReadbacks(graph, 0);
        context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        const Energies e = energies(readbacks_[0].readVector<glm::vec4>(bodies_.bodyCount()), 0);
        account_ = EnergyAccount(e.kinetic + e.potential + e.elastic);
    }
    body::DeformableBodies& bodies() { return bodies_; }

    std::vector<std::string> columns() const override
    {
        return {"volume_error_max", "volume_error_avg", "rigid_error_max", "potential_energy",
                "elastic_energy",   "damping_loss",     "contact_loss",    "solver_loss"};
    }
    uint32_t framesInFlight() const override { return body::DeformableBodies::kFrames; }
    void setTimeStep(double dt) override { bodies_.setTimeStep(float(dt)); }
    void beginStep(uint32_t slot, double time) override
    {
        bodies_.setFrame(slot);
        const DeformableSettings& d = scene_.deformable;
        if (d.plateSpeed > 0.0f) {
            // The plate is the domain's ceiling, moving down at plateSpeed until plateEnd (the
            // other settings as they are: the window's panel may have changed them).
            body::BodySettings s = bodies_.settings();
            s.domainMax.y = std::min(domainMax_.y, std::max(d.plateEnd, d.plateStart - d.plateSpeed * float(time)));
            bodies_.setSettings(s);
        }
    }
    void addStep(graph::RenderGraph& graph) override { bodies_.addStep(graph); }
    void addReadbacks(graph::RenderGraph& graph, uint32_t slot) override
    {
        bodies_.addMetricsReadback(graph, readbacks_[slot]);
        graph.addHostRead(readbacks_[slot]);
        bodies_.addMotionReadback(graph, motionReadbacks_[slot]);
        graph.addHostRead(motionReadbacks_[slot]);
        bodies_.addEnergyReadback(graph, energyReadbacks_[slot]);
        graph.addHostRead(energyReadbacks_[slot]);
    }
    PartStep collect(graph::RenderGraph&, uint32_t slot) override
    {
        PartStep out;
        const uint32_t n = bodies_.bodyCount();
        const std::vector<glm::vec4> m = readbacks_[slot].readVector<glm::vec4>(n);
        double maxVolume = 0, sumVolume = 0, maxRigid = 0;
        bool finite = true;
        for (uint32_t b = 0; b < n; ++b) {
            finite = finite && std::isfinite(m[b].x) && std::isfinite(m[b].z) && std::isfinite(m[b].w);
            if (std::fabs(m[b].x) >= std::fabs(maxVolume)) maxVolume = m[b].x;
            sumVolume += m[b].x;
            maxRigid = std::max(maxRigid, double(m[b].z));
            finalVolume_[b] = m[b].x;
            worstBodyVolume_[b] = std::max(worstBodyVolume_[b], std::fabs(double(m[b].x)));
        }
        out.add("volume_error_max", maxVolume);
        out.add("volume_error_avg", sumVolume / n);
        out.add("rigid_error_max", maxRigid);
        const Energies e = energies(m, slot);
        out.add("potential_energy", e.potential);
        finite = finite && std::isfinite(e.elastic) && std::isfinite(e.damping);
        account_.add(e.kinetic, e.potential, e.elastic, e.damping, 0.0, e.touched);
        out.add("elastic_energy", e.elastic);
        if (open_.empty()) {
            // The bodies' account; where work from outside (a fluid, the plate) is not separated
            // from it, the columns stay empty (as for fracture bodies with a fluid).
            out.add("damping_loss", account_.damping);
            out.add("contact_loss", account_.contact);
            out.add("solver_loss", account_.solver);
        }
        const std::vector<glm::vec4> motion = motionReadbacks_[slot].readVector<glm::vec4>(2 * n);
        for (uint32_t b = 0; b < n; ++b)
            out.rows.push_back({b, false, 0, glm::vec3(motion[2 * b]), glm::vec3(motion[2 * b + 1]), motion[2 * b].w, m[b].x});
        volumeStat_.add(std::fabs(maxVolume));
        rigidStat_.add(maxRigid);
        worstVolume_ = std::max(worstVolume_, std::fabs(maxVolume));
        lastVolume_ = maxVolume;
        out.kinetic = e.kinetic;
        out.particles = bodies_.particleCount();
        if (!finite)
            out.blowUp = "a body's volume, shape error or energy is not finite";
        else if (std::fabs(maxVolume) > 1.0)
            out.blowUp = fmt::format("a body's volume changed by {:.0f} %", 100.0 * maxVolume);
        return out;
    }
    std::string progress() const override { return fmt::format(", volume error {:.3f} %", 100.0 * lastVolume_); }
    std::string title(bool alone) const override
    {
        const uint32_t n = bodies_.bodyCount();
        return alone ? fmt::format("deformable bodies \u00b7 {} {}", n, n == 1 ? "body" : "bodies")
                     : fmt::format("{} deformable {}", n, n == 1 ? "body" : "bodies");
    }
    void exportFrame(graph::RenderGraph& graph, const std::filesystem::path& dir, uint64_t step, double time,
                     io::ExportFormat format, std::vector<std::string>& files) override
    {
        const std::string name = fmt::format("bodies_{:06d}{}", step, io::extensionOf(format));
        io::writeMesh(dir / name, bodyFrame(bodies_, graph, context_, step, time), format);
        files.push_back(name);
    }
    uint64_t fingerprint() const override { return bodies_.fingerprint(); }
    bool replayable() const override { return true; }
    std::vector<sim::CarriedBuffer> stepState() const override { return bodies_.carried(); }
    void addRestored(graph::RenderGraph& graph, const std::vector<uint64_t>&) override { bodies_.addRestored(graph); }
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
        s["particles"] = bodies_.particleCount();
        s["triangles"] = bodies_.triangleCount();
        s["omega"] = settings_.omega;
        s["stiffness"] = settings_.stiffness;
        s["volume"] = scene_.deformable.volume;
        s["volume_error_abs_max"] = worstVolume_;
        s["metrics"]["volume_error_abs_max"] = volumeStat_.json();
        s["metrics"]["rigid_error_max"] = rigidStat_.json();
        s["volume_error_final"] = finalVolume_;
        // A corrected body far off its volume: the correction moves only free vertices, and a body
        // whose every vertex touches the floor, the plate or another body has none (docs/bodies.md).
        for (uint32_t b = 0; b < bodies_.bodyCount(); ++b) {
            const std::string& mode =
                scene_.deformableBodies[b].volume.empty() ? scene_.deformable.volume : scene_.deformableBodies[b].volume;
            if (mode != "none" && worstBodyVolume_[b] > kVolumeWarning)
                warnings.push_back(fmt::format("DeformableBodies[{}] was {:.1f} % off its volume at worst despite the {} "
                                               "volume correction (with no vertex free of the floor, the plate and other "
                                               "bodies there is none to correct; docs/bodies.md)",
                                               b, 100.0 * worstBodyVolume_[b], mode));
        }
        // Work from outside leaves the account open: left out, with the reason.
        s["energy"] = open_.empty() ? account_.json() : nlohmann::ordered_json(nullptr);
        if (!open_.empty()) s["energy_open"] = open_;
        // Entries the contact grid between bodies had no room for: some contacts were missed.
        const uint32_t overflows = bodies_.contactGridOverflows(graph);
        s["contact_grid_overflows"] = overflows;
        if (overflows > 0)
            warnings.push_back(fmt::format("the contact grid between bodies left out {} triangle entries (a body stretched far "
                                           "beyond its rest size); contacts with those triangles were missed",
                                           overflows));
    }
    void report() const override { fmt::print("  volume      largest |V - V0| / V0 {:.4f} %\n", 100.0 * worstVolume_); }
    std::string describe() const override
    {
        return fmt::format("{} {}, {} particles, omega {}, volume {}", bodies_.bodyCount(),
                           bodies_.bodyCount() == 1 ? "body" : "bodies", bodies_.particleCount(), settings_.omega,
                           scene_.deformable.volume);
    }

private:
    struct Energies {
        double kinetic = 0, potential = 0, elastic = 0, damping = 0; // J, all bodies
        bool touched = false;                                        // a contact moved a particle
    };
    // The energies of the measurement read back into `slot` (`m`: its metrics, already read).
    Energies energies(const std::vector<glm::vec4>& m, uint32_t slot) const
    {
        const uint32_t n = bodies_.bodyCount();
        const std::vector<glm::vec4> e = energyReadbacks_[slot].readVector<glm::vec4>(n);
        Energies out;
        for (uint32_t b = 0; b < n; ++b) {
            out.kinetic += m[b].w;
            out.potential += m[b].y;
            out.elastic += e[b].x;
            out.damping += e[b].y;
            out.touched = out.touched || e[b].z > 0.0f;
        }
        return out;
    }

    gpu::Context& context_;
    const Scene& scene_;
    body::BodySettings settings_;
    glm::vec3 domainMax_;
    body::DeformableBodies bodies_;
    std::vector<gpu::Buffer> readbacks_, motionReadbacks_, energyReadbacks_; // per frame: metrics, bodies.csv's rows, energies
    RunningStat volumeStat_, rigidStat_;
    double worstVolume_ = 0.0, lastVolume_ = 0.0;
    static constexpr double kVolumeWarning = 0.02;
    std::vector<double> finalVolume_;
    std::vector<double> worstBodyVolume_; // |V - V0| / V0 per body, the run's largest
    std::string open_;                    // why the account does not close (work from outside), or empty
    EnergyAccount account_{0.0};
};

} // namespace

std::unique_ptr<RunPart> makeDeformablePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                            const Scene& scene, const body::BodySettings* settings, body::DeformableBodies*& bodies,
                                            bool withFluid)
{
    auto part = std::make_unique<DeformablePart>(context, shaders, graph, scene, settings, withFluid);
    bodies = &part->bodies();
    return part;
}

} // namespace floe
