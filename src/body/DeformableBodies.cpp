#include "body/DeformableBodies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "base/Error.h"
#include "body/SurfaceMesh.h"
#include "geometry/ObstacleGrid.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/body.h"
#include "sim/ParticleBuffers.h"

namespace floe::body {
using sim::uploaded;
namespace {

constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kUint = VK_FORMAT_R32_UINT;
constexpr VkFormat kUvec4 = VK_FORMAT_R32G32B32A32_UINT;

} // namespace

std::vector<glm::vec4> DeformableBodies::originsOf(const std::vector<glm::vec4>& world) const
{
    // Per body its first particle's position, then its move (none yet): 2 vec4 per body.
    std::vector<glm::vec4> origins(2 * first_.size(), glm::vec4(0.0f));
    for (size_t b = 0; b < first_.size(); ++b) origins[b] = glm::vec4(glm::vec3(world[first_[b]]), 0.0f);
    return origins;
}

std::vector<glm::vec4> DeformableBodies::relativeTo(const std::vector<glm::vec4>& origins,
                                                    const std::vector<glm::vec4>& world) const
{
    std::vector<glm::vec4> relative(world.size());
    for (size_t b = 0; b < first_.size(); ++b) {
        const size_t end = b + 1 < first_.size() ? first_[b + 1] : world.size();
        for (size_t i = first_[b]; i < end; ++i) relative[i] = glm::vec4(glm::vec3(world[i]) - glm::vec3(origins[b]), world[i].w);
    }
    return relative;
}

DeformableBodies::DeformableBodies(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                   const std::vector<BodyInstance>& bodies, const BodySettings& settings,
                                   const std::vector<geometry::TriangleMesh>& obstacles)
    : context_(context), pipelines_(context, shaders), settings_(settings)
{
    if (bodies.empty()) throw Error("deformable bodies: none given");
    std::vector<glm::vec4> positions, velocities, rest, regionInfo, regionCentre, restNormals, warm, bodyData, joints;
    std::vector<uint32_t> regionStart, intervals, pathHeads, bodyHeads, incidentStart, incident, memberStart, members, adjStart,
        adj;
    std::vector<glm::uvec4> triangles, bodyRange;
    // The precomputation is cached per mesh: a body whose mesh equals an earlier one's up to a
    // translation reuses its layout, shifted (paths, regions, normals and joints do not move).
    const auto sameShape = [](const geometry::TriangleMesh& a, const geometry::TriangleMesh& b) {
        if (a.vertices.size() != b.vertices.size() || a.triangles != b.triangles || a.vertices.empty()) return false;
        for (size_t v = 0; v < a.vertices.size(); ++v)
            if (a.vertices[v] - a.vertices[0] != b.vertices[v] - b.vertices[0]) return false;
        return true;
    };
    for (size_t b = 0; b < bodies.size(); ++b) {
        size_t cached = b;
        for (size_t c = 0; c < b && cached == b; ++c)
            if (sameShape(bodies[c].mesh, bodies[b].mesh)) cached = c;
        BodyLayout L;
        if (cached < b) {
            L = layouts_[cached];
            const glm::vec3 shift = bodies[b].mesh.vertices[0] - bodies[cached].mesh.vertices[0];
            for (glm::vec3& p : L.rest) p += shift;
        } else {
            L = layoutBody(bodies[b].mesh, settings.omega);
        }
        if (!bodies[b].initial.empty() && bodies[b].initial.size() != bodies[b].mesh.vertices.size())
            throw Error(fmt::format("deformable body {}: {} start positions for {} vertices", b, bodies[b].initial.size(),
                                    bodies[b].mesh.vertices.size()));
        if (L.rest.size() != bodies[b].mesh.vertices.size())
            throw Error(fmt::format("deformable body {}: the mesh must be a closed surface already (closedSurface)", b));
        const uint32_t base = static_cast<uint32_t>(positions.size());
        const uint32_t n = static_cast<uint32_t>(L.rest.size());
        const float mass = float(double(bodies[b].density) * L.restVolume / double(n));
        first_.push_back(base);
        bodyOverrides_.emplace_back(float(bodies[b].volumeMode), bodies[b].alpha, bodies[b].beta);
        bodyRange.push_back({base, n, 0, 0});
        bodyData.push_back({L.scale, float(L.restVolume), mass, 0.0f});
        const uint32_t triangleBase = static_cast<uint32_t>(triangles.size());
        glm::dvec3 centroid(0);
        for (const glm::vec3& p : L.rest) centroid += glm::dvec3(p);
        centroid /= double(n);
        for (uint32_t p = 0; p < n; ++p) {
            const bool deformed = bodies[b].initial.size() == bodies[b].mesh.vertices.size();
            positions.emplace_back(deformed ? bodies[b].initial[L.order[p]] : L.rest[p], mass);
            const glm::vec3 arm = L.rest[p] - glm::vec3(centroid);
            velocities.emplace_back(bodies[b].velocity + glm::cross(bodies[b].angularVelocity, arm), 0.0f);
            rest.emplace_back((L.rest[p] - L.rest[0]) * L.scale, float(b));
            pathHeads.push_back(L.pathHead[p]);
            bodyHeads.push_back(p == 0 ? 1u : 0u);
            restNormals.emplace_back(L.restNormal[p], 0.0f);
            regionInfo.emplace_back(mass * float(L.regionCount[p]), float(L.regionCount[p]), L.extraDistance[p] * L.scale, 0.0f);
            regionCentre.emplace_back(L.regionRestCentre[p] * L.scale, 0.0f);
            regionStart.push_back(static_cast<uint32_t>(intervals.size() / 2));
            memberStart.push_back(static_cast<uint32_t>(members.size()));
            for (uint32_t k = L.regionStart[p]; k < L.regionStart[p + 1]; ++k) {
                intervals.push_back(base + L.intervals[k].x);
                intervals.push_back(base + L.intervals[k].y);
                if (settings.naiveSummation)
                    for (uint32_t q = L.intervals[k].x; q <= L.intervals[k].y; ++q) members.push_back(base + q);
            }
            for (int c = 0; c < 3; ++c) warm.emplace_back(c == 0 ? 1.0f : 0.0f, c == 1 ? 1.0f : 0.0f, c == 2 ? 1.0f : 0.0f, 0.0f);
            const int32_t partner = L.jointPartner[p];
            joints.emplace_back(partner >= 0 ? float(base + uint32_t(partner)) : 0.0f, L.jointLength[p], L.jointStiffness[p],
                                partner >= 0 ? 1.0f : 0.0f);
            adjStart.push_back(static_cast<uint32_t>(adj.size()));
            for (uint32_t q : L.adj[p]) adj.push_back(base + q);
            incidentStart.push_back(static_cast<uint32_t>(incident.size()));
            for (uint32_t k = L.incidentStart[p]; k < L.incidentStart[p + 1]; ++k) incident.push_back(triangleBase + L.incident[k]);
        }
        for (const glm::uvec3& t : L.triangles) triangles.push_back({base + t.x, base + t.y, base + t.z, uint32_t(b)});
        layouts_.push_back(std::move(L));
    }
    regionStart.push_back(static_cast<uint32_t>(intervals.size() / 2));
    memberStart.push_back(static_cast<uint32_t>(members.size()));
    incidentStart.push_back(static_cast<uint32_t>(incident.size()));
    adjStart.push_back(static_cast<uint32_t>(adj.size()));
    particles_ = static_cast<uint32_t>(positions.size());
    // The contact radius between bodies: half the mean edge length of the finest body (a vertex
    // is kept that far in front of another body's triangles; body/contacts finds triangles of
    // any size, so coarse bodies need no larger one).
    contactRadius_ = std::numeric_limits<float>::max();
    for (const BodyLayout& L : layouts_) {
        double sum = 0;
        size_t edges = 0;
        for (size_t p = 0; p < L.adj.size(); ++p)
            for (uint32_t q : L.adj[p]) {
                sum += glm::length(L.rest[p] - L.rest[q]);
                ++edges;
            }
        contactRadius_ = std::min(contactRadius_, float(0.5 * sum / double(std::max<size_t>(edges, 1))));
    }
    triangles_ = static_cast<uint32_t>(triangles.size());
    if (uint64_t(particles_) * 48 > context.limits().maxStorageBufferRange)
        throw Error(
            fmt::format("deformable bodies: {} particles do not fit on {} (maxStorageBufferRange {} bytes, 48 per particle)",
                        particles_, context.deviceName(), context.limits().maxStorageBufferRange));

    scan_.emplace(context, shaders, particles_);
    for (uint32_t f = 0; f < kFrames; ++f)
        params_[f] =
            gpu::Buffer(context, {fmt::format("body params (frame {})", f), sizeof(shared::BodyParams), gpu::MemoryKind::Upload});
    {
        io::Fingerprint f;
        f.add(uint64_t(particles_)).add(uint64_t(triangles.size())).add(uint64_t(bodies.size())).add(uint64_t(settings.omega));
        for (size_t k = 0; k < rest.size(); ++k) f.add(rest[k].x).add(rest[k].y).add(rest[k].z).add(positions[k].w);
        fingerprint_ = f.value();
    }
    // Positions are stored relative to their body's origin (body/origins; issue 17 item 4), which
    // starts at the body's first particle.
    const std::vector<glm::vec4> origins = originsOf(positions);
    const std::vector<glm::vec4> relative = relativeTo(origins, positions);
    positions_ = uploaded(context, graph, "body positions (relative)", relative, kVec4);
    velocities_ = uploaded(context, graph, "body velocities", velocities, kVec4);
    previous_ = uploaded(context, graph, "body previous positions (relative)", relative, kVec4);
    origins_ = uploaded(context, graph, "body origins", origins, kVec4);
    world_ = gpu::Buffer(context, {"body positions", uint64_t(particles_) * 16, gpu::MemoryKind::DeviceLocal, kVec4});
    rest_ = uploaded(context, graph, "body rest (local)", rest, kVec4);
    bodyRange_ = uploaded(context, graph, "body ranges", bodyRange, kUvec4);
    bodyData_ = uploaded(context, graph, "body data", bodyData, kVec4);
    regionInfo_ = uploaded(context, graph, "body region info", regionInfo, kVec4);
    regionCentre_ = uploaded(context, graph, "body region centres", regionCentre, kVec4);
    regionStart_ = uploaded(context, graph, "body region starts", regionStart, kUint);
    intervals_ = uploaded(context, graph, "body intervals", intervals, kUint);
    if (settings.naiveSummation) {
        memberStart_ = uploaded(context, graph, "body member starts", memberStart, kUint);
        members_ = uploaded(context, graph, "body members", members, kUint);
    }
    pathHeads_ = uploaded(context, graph, "body path heads", pathHeads, kUint);
    bodyHeads_ = uploaded(context, graph, "body heads", bodyHeads, kUint);
    restNormals_ = uploaded(context, graph, "body rest normals", restNormals, kVec4);
    warm_ = uploaded(context, graph, "body polar warm start", warm, kVec4);
    incidentStart_ = uploaded(context, graph, "body incident starts", incidentStart, kUint);
    incident_ = uploaded(context, graph, "body incident triangles", incident, kUint);
    adjStart_ = uploaded(context, graph, "body 1-ring starts", adjStart, kUint);
    joints_ = uploaded(context, graph, "body interior joints", joints, kVec4);
    for (uint32_t f = 0; f < kFrames; ++f)
        bodyVolume_[f] = gpu::Buffer(
            context, {fmt::format("body volume settings (frame {})", f), bodyRange.size() * 16, gpu::MemoryKind::Upload, kVec4});
    adj_ = uploaded(context, graph, "body 1-rings", adj, kUint);
    triangleBuffer_ = uploaded(context, graph, "body triangles", triangles, kUvec4);
    const auto perParticle = [&](const char* name, uint64_t vec4s) {
        return gpu::Buffer(context, {name, uint64_t(particles_) * vec4s * 16, gpu::MemoryKind::DeviceLocal, kVec4});
    };
    normals_ = perParticle("body normals", 1);
    displacement_ = perParticle("body displacement", 1);
    flags_ = gpu::Buffer(context, {"body contact flags", uint64_t(particles_) * 4, gpu::MemoryKind::DeviceLocal, kUint});
    terms_ = perParticle("body shape-matching terms", 3);
    scanned_ = perParticle("body scanned terms", 3);
    transforms_ = perParticle("body region transforms", 3);
    centroids_ = perParticle("body region centroids", 1);
    weights_ = perParticle("body volume weights", 1);
    weightsB_ = perParticle("body volume weights (smoothing)", 1);
    dampRigid_ = perParticle("body damping rigid terms", 2);
    volumeTerms_ = perParticle("body volume terms", 3); // the measurement's records: 3 vec4
    volumeScanned_ = perParticle("body volume sums", 3);
    weightTerms_ = perParticle("body weight terms", 1);
    weightScanned_ = perParticle("body weight sums", 1);
    metrics_ = gpu::Buffer(context, {"body metrics", 4 * bodyRange.size() * 16, gpu::MemoryKind::DeviceLocal, kVec4});
    dampLoss_ =
        gpu::Buffer(context, {"body damping loss", uint64_t(particles_) * 4, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_SFLOAT});
    if (settings.bodyContacts && bodies.size() > 1) buildBodyContacts(shaders, graph, settings, triangles, positions);
    buildObstacles(graph, obstacles);
    // Normals and world positions of the start shape, for pictures taken before the first step.
    setSettings(settings);
    addNormals(graph);
    addWorld(graph);
    graph.addFill("body metrics clear", metrics_, 0);
    graph.addFill("body displacement clear", displacement_, 0);
    graph.addFill("body flags clear", flags_, 0);
    graph.addFill("body damping loss clear", dampLoss_, 0);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
}

void DeformableBodies::buildObstacles(graph::RenderGraph& graph, const std::vector<geometry::TriangleMesh>& obstacles)
{
    // Each triangle in every cell its box, grown by two contact radii, touches, so a particle
    // finds every triangle within reach in its own cell.
    obstacles_ = sim::ObstacleBuffers(context_, graph,
                                      geometry::buildObstacleGrid(obstacles, 2.0f * std::max(contactRadius_, 1e-4f)), "obstacle");
}

void DeformableBodies::setSettings(const BodySettings& s)
{
    if (s.omega != layouts_.front().omega)
        throw Error(
            fmt::format("deformable bodies: omega is fixed at {} (build new bodies for {})", layouts_.front().omega, s.omega));
    if (!(s.timeStep > 0.0f)) throw Error("deformable bodies: the time step must be positive");
    if (s.naiveSummation && !members_.valid())
        throw Error("deformable bodies: naive summation needs the member lists built at construction");
    settings_ = s;
    stale_.fill(true);
    writeFrame();
}

void DeformableBodies::setTimeStep(float dt)
{
    if (!(dt > 0.0f)) throw std::logic_error(fmt::format("DeformableBodies::setTimeStep: {} s", dt));
    settings_.timeStep = dt;
    stale_.fill(true);
    writeFrame();
}

void DeformableBodies::setFrame(uint32_t frame)
{
    if (frame >= kFrames) throw std::logic_error(fmt::format("DeformableBodies::setFrame: frame {} of {}", frame, kFrames));
    frame_ = frame;
    if (stale_[frame_]) writeFrame();
}

void DeformableBodies::writeFrame()
{
    const BodySettings& s = settings_;
    shared::BodyParams p{};
    p.gravity = glm::vec4(s.gravity, s.timeStep);
    p.control = glm::vec4(std::clamp(s.stiffness, 0.0f, 1.0f), std::clamp(s.alpha, 0.0f, 1.0f), float(s.volumeMode),
                          float(std::clamp(s.jacobiSweeps, 1, 32)));
    p.contact = glm::vec4(s.friction, s.restitution, s.contactDistance, contactRadius_);
    p.obstacleOrigin = obstacles_.origin;
    p.obstacleDims = glm::uvec4(glm::uvec3(obstacles_.dims), 0u);
    if (contactScan_) {
        p.gridOrigin = glm::vec4(contactGrid_.origin, contactGrid_.cellSize);
        p.gridDims = glm::uvec4(contactGrid_.dims, 0u);
        p.contactCapacity = contactCapacity_;
    }
    p.domainMin = glm::vec4(s.domainMin, 0.0f);
    p.domainMax = glm::vec4(s.domainMax, 0.0f);
    p.damping = glm::vec4(std::clamp(s.damping, 0.0f, 1.0f), std::clamp(s.beta, 0.0f, 1.0f), 0.0f, 0.0f);
    p.glass = glm::vec4(s.glassCentre.x, s.domainMin.y + s.glassHeight, s.glassCentre.z, std::max(s.glassRadius, 0.0f));
    p.particles = particles_;
    p.bodies = bodyCount();
    p.triangles = triangles_;
    params_[frame_].write(&p, sizeof(p));
    // Each body's volume mode, alpha and beta: its own where the scene gives them.
    std::vector<glm::vec4> volume;
    anyVolume_ = false;
    anyLocal_ = false;
    for (const glm::vec3& o : bodyOverrides_) {
        const int mode = o.x >= 0.0f ? int(o.x) : s.volumeMode;
        volume.emplace_back(float(mode), o.y >= 0.0f ? o.y : s.alpha, o.z >= 0.0f ? o.z : s.beta, 0.0f);
        anyVolume_ = anyVolume_ || mode != BODY_VOLUME_NONE;
        anyLocal_ = anyLocal_ || mode == BODY_VOLUME_LOCAL;
    }
    bodyVolume_[frame_].write(volume.data(), volume.size() * 16);
    stale_[frame_] = false;
}

void DeformableBodies::addStep(graph::RenderGraph& graph)
{
    if (hooks_.before) hooks_.before(graph);
    // Each body's origin moves to its first particle, and the positions by as much the other way.
    graph.addCompute(pipelines_.compute("body/origins"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_BODY_RANGE, bodyRange_)
        .readWrite(BODY_BIND_ORIGINS, origins_)
        .dispatchThreads(bodyCount());
    graph.addCompute(pipelines_.compute("body/integrate"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .readWrite(BODY_BIND_POSITIONS, positions_)
        .readWrite(BODY_BIND_VELOCITIES, velocities_)
        .write(BODY_BIND_PREVIOUS, previous_)
        .write(BODY_BIND_FLAGS, flags_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_ORIGINS, origins_)
        .dispatchThreads(particles_);
    addShapeMatching(graph);
    if (settings_.damping > 0.0f) addDamping(graph);
    addStaticContacts(graph);
    if (contactScan_) addBodyContacts(graph);
    if (anyVolume_) {
        // The volume correction and the static contacts, projected in turn (Gauss-Seidel, as
        // PBD iterates its constraints). The correction moves only particles without contact;
        // the contacts put back on the wall any it moved into one, and flag them, so that the
        // next round gives them weight 0 and recovers the volume through the free surface. One
        // round left a body crushed flat between floor and plate short of its volume (a lying
        // capsule at 50 % height: -0.98 % at the deepest, -0.24 % at rest, with a jitter of
        // 13 J; a box -0.81 %); three rounds: -0.10 % and -0.03 % (BodyTest, docs/bodies.md).
        for (int round = 0; round < std::clamp(settings_.volumeIterations, 1, 16); ++round) {
            addVolume(graph);
            addStaticContacts(graph);
            // The contacts between bodies too: the correction moves vertices the contacts
            // stopped (the walls' pass clears their flags), and may push them into the other
            // body; one more iteration of this step's contacts puts them back and flags them.
            if (contactScan_) addBodyContactIterations(graph, 1);
        }
    }
    addMeasure(graph);
    addWorld(graph);
    if (hooks_.after) hooks_.after(graph);
}

void DeformableBodies::addWorld(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("body/world"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_ORIGINS, origins_)
        .write(BODY_BIND_OUT, world_)
        .dispatchThreads(particles_);
}

void DeformableBodies::addShapeTerms(graph::RenderGraph& graph, bool scan)
{
    graph.addCompute(pipelines_.compute("body/sm_terms"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_BODY_DATA, bodyData_)
        .write(BODY_BIND_OUT, terms_)
        .dispatchThreads(particles_);
    if (scan) scan_->inclusive(graph, terms_, pathHeads_, scanned_, particles_, 3);
}

graph::PassBuilder DeformableBodies::addRegionFit(graph::RenderGraph& graph, const char* shader, bool naive)
{
    auto pass = graph.addCompute(pipelines_.compute(shader));
    pass.read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_BODY_DATA, bodyData_)
        .read(BODY_BIND_SCAN, naive ? terms_ : scanned_)
        .read(BODY_BIND_REGION_INFO, regionInfo_)
        .read(BODY_BIND_REGION_CENTRE, regionCentre_)
        .read(BODY_BIND_REGION_START, naive ? memberStart_ : regionStart_)
        .read(BODY_BIND_INTERVALS, naive ? members_ : intervals_)
        .read(BODY_BIND_NORMALS, normals_)
        .read(BODY_BIND_REST_NORMALS, restNormals_);
    if (!naive) pass.read(BODY_BIND_HEADS, pathHeads_);
    return pass;
}

void DeformableBodies::addShapeMatching(graph::RenderGraph& graph)
{
    addNormals(graph);
    // Fast: segmented scans along the paths and interval gathers. Naive: every region sums its
    // members' terms directly (the O(omega^2) baseline of digest-002 Table 7.3).
    const bool naive = settings_.naiveSummation;
    const gpu::Buffer& lists = naive ? members_ : intervals_;
    const gpu::Buffer& listStart = naive ? memberStart_ : regionStart_;
    addShapeTerms(graph, !naive);
    addRegionFit(graph, naive ? "body/sm_regions_naive" : "body/sm_regions", naive)
        .readWrite(BODY_BIND_WARM, warm_)
        .write(BODY_BIND_OUT, transforms_)
        .write(BODY_BIND_CENTROIDS, centroids_)
        .dispatchThreads(particles_);
    if (!naive) scan_->inclusive(graph, transforms_, pathHeads_, scanned_, particles_, 3);
    auto pass = graph.addCompute(pipelines_.compute(naive ? "body/sm_goals_naive" : "body/sm_goals"));
    pass.read(BODY_BIND_PARAMS, params_[frame_])
        .readWrite(BODY_BIND_POSITIONS, positions_)
        .readWrite(BODY_BIND_VELOCITIES, velocities_)
        .read(BODY_BIND_PREVIOUS, previous_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_BODY_DATA, bodyData_)
        .read(BODY_BIND_SCAN, naive ? transforms_ : scanned_)
        .read(BODY_BIND_REGION_INFO, regionInfo_)
        .read(BODY_BIND_REGION_START, listStart)
        .read(BODY_BIND_INTERVALS, lists)
        .write(BODY_BIND_DISPLACEMENT, displacement_);
    if (!naive) pass.read(BODY_BIND_HEADS, pathHeads_);
    pass.dispatchThreads(particles_);
}

void DeformableBodies::addDamping(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("body/damp_terms"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_VELOCITIES, velocities_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_BODY_DATA, bodyData_)
        .read(BODY_BIND_DISPLACEMENT, displacement_)
        .write(BODY_BIND_OUT, terms_)
        .dispatchThreads(particles_);
    scan_->inclusive(graph, terms_, pathHeads_, scanned_, particles_, 3);
    graph.addCompute(pipelines_.compute("body/damp_regions"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_SCAN, scanned_)
        .read(BODY_BIND_REGION_INFO, regionInfo_)
        .read(BODY_BIND_REGION_START, regionStart_)
        .read(BODY_BIND_INTERVALS, intervals_)
        .read(BODY_BIND_HEADS, pathHeads_)
        .read(BODY_BIND_CENTROIDS, centroids_)
        .write(BODY_BIND_OUT, dampRigid_)
        .dispatchThreads(particles_);
    scan_->inclusive(graph, dampRigid_, pathHeads_, scanned_, particles_, 2);
    graph.addCompute(pipelines_.compute("body/damp_apply"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .readWrite(BODY_BIND_POSITIONS, positions_)
        .readWrite(BODY_BIND_VELOCITIES, velocities_)
        .read(BODY_BIND_PREVIOUS, previous_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_BODY_DATA, bodyData_)
        .read(BODY_BIND_DISPLACEMENT, displacement_)
        .read(BODY_BIND_SCAN, scanned_)
        .read(BODY_BIND_REGION_INFO, regionInfo_)
        .read(BODY_BIND_REGION_START, regionStart_)
        .read(BODY_BIND_INTERVALS, intervals_)
        .read(BODY_BIND_HEADS, pathHeads_)
        .write(BODY_BIND_DAMP_LOSS, dampLoss_)
        .dispatchThreads(particles_);
}

void DeformableBodies::addNormals(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("body/normals"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_INCIDENT_START, incidentStart_)
        .read(BODY_BIND_INCIDENT, incident_)
        .read(BODY_BIND_TRIANGLES, triangleBuffer_)
        .write(BODY_BIND_NORMALS, normals_)
        .dispatchThreads(particles_);
}

void DeformableBodies::addStaticContacts(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("body/collide"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .readWrite(BODY_BIND_POSITIONS, positions_)
        .readWrite(BODY_BIND_VELOCITIES, velocities_)
        .readWrite(BODY_BIND_FLAGS, flags_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_ORIGINS, origins_)
        .dispatchThreads(particles_);
    if (obstacles_.triangles > 0) {
        graph.addCompute(pipelines_.compute("body/obstacles"))
            .read(BODY_BIND_PARAMS, params_[frame_])
            .readWrite(BODY_BIND_POSITIONS, positions_)
            .readWrite(BODY_BIND_VELOCITIES, velocities_)
            .readWrite(BODY_BIND_FLAGS, flags_)
            .read(BODY_BIND_OBSTACLE_TRIANGLES, obstacles_.corners)
            .read(BODY_BIND_OBSTACLE_CELLS, obstacles_.cells)
            .read(BODY_BIND_OBSTACLE_ENTRIES, obstacles_.entries)
            .read(BODY_BIND_PREVIOUS, previous_)
            .read(BODY_BIND_REST, rest_)
            .read(BODY_BIND_ORIGINS, origins_)
            .dispatchThreads(particles_);
    }
    if (hooks_.contacts) hooks_.contacts(graph);
}

void DeformableBodies::addVolumeSums(graph::RenderGraph& graph, uint32_t stage)
{
    graph.addCompute(pipelines_.compute("body/volume_terms"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_VELOCITIES, velocities_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_ORIGINS, origins_)
        .read(BODY_BIND_NORMALS, normals_)
        .read(BODY_BIND_DISPLACEMENT, displacement_)
        .read(BODY_BIND_JOINTS, joints_)
        .read(BODY_BIND_BODY_VOLUME, bodyVolume_[frame_])
        .write(BODY_BIND_OUT, volumeTerms_)
        .push(shared::BodyPush{stage, 0, 0, 0})
        .dispatchThreads(particles_);
    scan_->inclusive(graph, volumeTerms_, bodyHeads_, volumeScanned_, particles_, stage == 1 ? 3 : 1);
}

void DeformableBodies::addVolume(graph::RenderGraph& graph)
{
    addNormals(graph);
    addVolumeSums(graph, 0); // correction terms
    const auto weightsPass = [&](uint32_t stage) {
        graph.addCompute(pipelines_.compute("body/volume_weights"))
            .read(BODY_BIND_PARAMS, params_[frame_])
            .read(BODY_BIND_REST, rest_)
            .read(BODY_BIND_BODY_RANGE, bodyRange_)
            .read(BODY_BIND_NORMALS, normals_)
            .read(BODY_BIND_DISPLACEMENT, displacement_)
            .read(BODY_BIND_FLAGS, flags_)
            .read(BODY_BIND_SCAN, volumeScanned_)
            .write(BODY_BIND_OUT, weightTerms_)
            .readWrite(BODY_BIND_WEIGHTS, weights_)
            .read(BODY_BIND_POSITIONS, positions_)
            .read(BODY_BIND_JOINTS, joints_)
            .read(BODY_BIND_BODY_VOLUME, bodyVolume_[frame_])
            .push(shared::BodyPush{stage, 0, 0, 0})
            .dispatchThreads(particles_);
    };
    weightsPass(0);
    // Local weights vary across the surface: smooth them over the 1-rings (global ones are uniform).
    const int passes = anyLocal_ ? std::clamp(settings_.weightSmoothing, 0, 64) : 0;
    for (int k = 0; k < passes; ++k) {
        const gpu::Buffer& in = k % 2 == 0 ? weights_ : weightsB_;
        const gpu::Buffer& out = k % 2 == 0 ? weightsB_ : weights_;
        graph.addCompute(pipelines_.compute("body/weights_smooth"))
            .read(BODY_BIND_PARAMS, params_[frame_])
            .read(BODY_BIND_SCAN, in)
            .read(BODY_BIND_ADJ_START, adjStart_)
            .read(BODY_BIND_ADJ, adj_)
            .write(BODY_BIND_WEIGHTS, out)
            .dispatchThreads(particles_);
    }
    if (passes % 2 == 1) graph.addCopy("body/weights_copy", weightsB_, weights_, uint64_t(particles_) * 16);
    weightsPass(1);
    scan_->inclusive(graph, weightTerms_, bodyHeads_, weightScanned_, particles_, 1);
    graph.addCompute(pipelines_.compute("body/volume_apply"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .readWrite(BODY_BIND_POSITIONS, positions_)
        .readWrite(BODY_BIND_VELOCITIES, velocities_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_BODY_RANGE, bodyRange_)
        .read(BODY_BIND_BODY_DATA, bodyData_)
        .read(BODY_BIND_NORMALS, normals_)
        .read(BODY_BIND_FLAGS, flags_)
        .read(BODY_BIND_SCAN, volumeScanned_)
        .read(BODY_BIND_SCAN_B, weightScanned_)
        .read(BODY_BIND_WEIGHTS, weights_)
        .read(BODY_BIND_BODY_VOLUME, bodyVolume_[frame_])
        .dispatchThreads(particles_);
}

void DeformableBodies::addMeasure(graph::RenderGraph& graph)
{
    addNormals(graph);
    addVolumeSums(graph, 1); // measurement
    if (energy_) addEnergyRecords(graph);
    graph.addCompute(pipelines_.compute("body/volume_measure"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_BODY_RANGE, bodyRange_)
        .read(BODY_BIND_BODY_DATA, bodyData_)
        .read(BODY_BIND_SCAN, volumeScanned_)
        .read(BODY_BIND_SCAN_B, weightScanned_)
        .read(BODY_BIND_ORIGINS, origins_)
        .write(BODY_BIND_METRICS, metrics_)
        .push(shared::BodyPush{energy_ ? 1u : 0u, 0, 0, 0})
        .dispatchThreads(bodyCount());
}

void DeformableBodies::addEnergyRecords(graph::RenderGraph& graph)
{
    // The region fits of the end positions (the step's own fits were of the predicted ones):
    // the shape-matching terms scanned along the paths again, then body/sm_energy per region,
    // always over the interval lists (they exist in both summations).
    addShapeTerms(graph, true);
    addRegionFit(graph, "body/sm_energy", false)
        .read(BODY_BIND_WARM, warm_)
        .read(BODY_BIND_DAMP_LOSS, dampLoss_)
        .read(BODY_BIND_FLAGS, flags_)
        .write(BODY_BIND_OUT, weightTerms_)
        .dispatchThreads(particles_);
    scan_->inclusive(graph, weightTerms_, bodyHeads_, weightScanned_, particles_, 1);
}

void DeformableBodies::addInitialMeasure(graph::RenderGraph& graph)
{
    if (!energy_) throw std::logic_error("DeformableBodies::addInitialMeasure: the energy account is off");
    addMeasure(graph);
}

void DeformableBodies::addEnergyReadback(graph::RenderGraph& graph, const gpu::Buffer& target) const
{
    graph.addCopy("body/readback_energy", metrics_, target, uint64_t(bodyCount()) * 16, uint64_t(bodyCount()) * 48, 0);
}

void DeformableBodies::addMetricsReadback(graph::RenderGraph& graph, const gpu::Buffer& target, VkDeviceSize offset) const
{
    graph.addCopy("body/readback_metrics", metrics_, target, uint64_t(bodyCount()) * 16, 0, offset);
}

void DeformableBodies::addMotionReadback(graph::RenderGraph& graph, const gpu::Buffer& target) const
{
    graph.addCopy("body/readback_motion", metrics_, target, uint64_t(bodyCount()) * 32, uint64_t(bodyCount()) * 16, 0);
}

std::vector<sim::CarriedBuffer> DeformableBodies::carried() const
{
    const size_t n = particles_;
    return {{"body positions", &positions_, 16 * n},   {"body origins", &origins_, 32 * size_t(bodyCount())},
            {"body velocities", &velocities_, 16 * n}, {"body polar warm start", &warm_, 48 * n},
            {"body contact flags", &flags_, 4 * n},    {"body displacement", &displacement_, 16 * n}};
}

void DeformableBodies::addRestored(graph::RenderGraph& graph)
{
    // normals() and positions() are part of what a step leaves (the coupling places its samples with them).
    addNormals(graph);
    addWorld(graph);
}

void DeformableBodies::saveState(graph::RenderGraph& graph, io::SolidState& state) const
{
    sim::saveCarried(context_, graph, carried(), state);
}

void DeformableBodies::loadState(graph::RenderGraph& graph, const io::SolidState& state, const std::filesystem::path& file)
{
    sim::loadCarried(context_, graph, carried(), state, file);
    addRestored(graph);
    context_.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
}

std::vector<glm::vec4> DeformableBodies::download(graph::RenderGraph& graph, const gpu::Buffer& buffer) const
{
    std::vector<glm::vec4> out(particles_);
    sim::downloadNow(context_, graph, buffer, out.data(), out.size() * 16);
    return out;
}

void DeformableBodies::uploadState(graph::RenderGraph& graph, const std::vector<glm::vec4>& positions,
                                   const std::vector<glm::vec4>& velocities)
{
    if (positions.size() != particles_ || velocities.size() != particles_)
        throw Error(fmt::format("deformable bodies: a state of {} particles for {}", positions.size(), particles_));
    const std::vector<glm::vec4> origins = originsOf(positions);
    const std::vector<glm::vec4> relative = relativeTo(origins, positions);
    sim::uploadNow(context_, graph, origins_, origins.data(), origins.size() * 16);
    sim::uploadNow(context_, graph, positions_, relative.data(), relative.size() * 16);
    sim::uploadNow(context_, graph, velocities_, velocities.data(), velocities.size() * 16);
    addNormals(graph);
    addWorld(graph);
    context_.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
}

} // namespace floe::body
