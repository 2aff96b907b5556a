#include "coupling/SolidContacts.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "base/Error.h"
#include "body/DeformableBodies.h"
#include "fracture/FractureBodies.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "sim/ParticleBuffers.h"
#include "sim/SpatialGrid.h"

namespace floe::coupling {
namespace {

constexpr VkFormat kUint = VK_FORMAT_R32_UINT;

// Face c of a tet, as the shaders take it (coupling/solid_contacts_common.glsl).
constexpr uint32_t kFaceCorners[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

} // namespace

SolidContacts::SolidContacts(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                             body::DeformableBodies& bodies, fracture::FractureBodies& fracture, bool clearsContact)
    : context_(context), pipelines_(context, shaders), bodies_(bodies), fracture_(fracture), clearsContact_(clearsContact)
{
    // Every tet face at rest (crack faces become surfaces), world positions.
    const uint32_t nodes = fracture.nodeCount(), tets = fracture.tetCount();
    const std::vector<glm::vec4> x = fracture.download(graph, fracture.positions(), nodes);
    const std::vector<glm::vec4> origin = fracture.download(graph, fracture.origins(), nodes);
    std::vector<glm::uvec4> tet(tets);
    sim::downloadNow(context, graph, fracture.tets(), tet.data(), uint64_t(tets) * 16);
    const auto node = [&](uint32_t k) { return glm::vec3(x[k]) + glm::vec3(origin[k]); };
    double edges = 0.0;
    uint32_t faces = 0;
    for (uint32_t t = 0; t < tets; ++t)
        for (const auto& c : kFaceCorners) {
            const glm::vec3 a = node(tet[t][c[0]]), b = node(tet[t][c[1]]), d = node(tet[t][c[2]]);
            edges += std::max({glm::length(b - a), glm::length(d - b), glm::length(a - d)});
            ++faces;
        }
    // The contact distance: the smaller of the two kinds' own (the deformable bodies' radius
    // between bodies, half their finest mean edge; the fracture nodes' spheres), so that a coarse
    // body of either kind does not hold the other off by its own coarseness.
    radius_ = std::min(bodies.contactRadius(), fracture.finestContactRadius());
    if (!(radius_ > 0.0f)) radius_ = std::max(bodies.contactRadius(), fracture.finestContactRadius());
    const float r = radius_;
    // Cells of a mean face's longest edge, at least 4 contact radii, larger where the domain
    // would need more than 2M cells (as the bodies' own contact grid).
    const body::BodySettings& s = bodies.settings();
    const glm::vec3 extent = glm::max(s.domainMax - s.domainMin, glm::vec3(1e-3f));
    cellSize_ = std::max({4.0f * r, float(faces ? edges / faces : 0.0), std::cbrt(extent.x * extent.y * extent.z / 2.0e6f)});
    const sim::GridSpec grid = sim::GridSpec::cover(s.domainMin, s.domainMax, cellSize_, false);
    gridOrigin_ = grid.origin;
    gridDims_ = grid.dims;
    const uint64_t maxCells =
        std::min<uint64_t>(context.limits().maxTexelBufferElements, context.limits().maxStorageBufferRange / 4) - 1;
    if (grid.cells() > maxCells)
        throw Error(fmt::format("contacts between deformable and fracture bodies: the face grid needs {} cells of {} m, over this "
                                "device's {}; shrink the domain",
                                grid.cells(), cellSize_, maxCells));
    cells_ = static_cast<uint32_t>(grid.cells());
    // Room for every face's cells at rest (its box grown by r, straddling cell borders), twice
    // over for moving and stretched bodies; face_bins counts what is left out.
    // The cells a triangle's box grown by `grow` may touch.
    const auto boxCells = [&](const glm::vec3& a, const glm::vec3& b, const glm::vec3& d, float grow) {
        const glm::vec3 n =
            glm::floor((glm::max(glm::max(a, b), d) - glm::min(glm::min(a, b), d) + 2.0f * grow) / cellSize_) + 2.0f;
        return uint64_t(n.x) * uint64_t(n.y) * uint64_t(n.z);
    };
    uint64_t entries = 0;
    for (uint32_t t = 0; t < tets; ++t)
        for (const auto& c : kFaceCorners) entries += boxCells(node(tet[t][c[0]]), node(tet[t][c[1]]), node(tet[t][c[2]]), r);
    capacity_ = static_cast<uint32_t>(std::clamp<uint64_t>(2 * entries, 1024, maxCells));
    // The same for the deformable triangles at rest, their boxes grown by 2r (triangle_bins).
    {
        const std::vector<glm::vec4> v = bodies.download(graph, bodies.positions());
        std::vector<glm::uvec4> tri(bodies.triangleCount());
        sim::downloadNow(context, graph, bodies.triangles(), tri.data(), uint64_t(tri.size()) * 16);
        uint64_t triangleEntries = 0;
        for (const glm::uvec4& t : tri)
            triangleEntries += boxCells(glm::vec3(v[t.x]), glm::vec3(v[t.y]), glm::vec3(v[t.z]), 2.0f * r);
        triangleCapacity_ = static_cast<uint32_t>(std::clamp<uint64_t>(2 * triangleEntries, 1024, maxCells));
    }
    const auto uints = [&](const char* name, uint64_t count) {
        return gpu::Buffer(context, {name, count * 4, gpu::MemoryKind::DeviceLocal, kUint});
    };
    faceCounts_ = uints("solid contact face counts", uint64_t(cells_) + 1);
    faceStart_ = uints("solid contact face starts", uint64_t(cells_) + 1);
    faceEntries_ = uints("solid contact face entries", capacity_);
    state_ = uints("solid contact state", 4);
    nodeSums_ = uints("solid contact node impulses (fixed point)", uint64_t(fracture.nodeCapacity()) * 4);
    triangleCounts_ = uints("solid contact triangle counts", uint64_t(cells_) + 1);
    triangleStart_ = uints("solid contact triangle starts", uint64_t(cells_) + 1);
    triangleEntries_ = uints("solid contact triangle entries", triangleCapacity_);
    vertexSums_ = uints("solid contact vertex pushes (fixed point)", uint64_t(bodies.particleCount()) * 8);
    scan_.emplace(context, shaders, cells_ + 1);
    graph.addFill("solid contact state clear", state_, 0);
    graph.addFill("solid contact node impulses clear", nodeSums_, 0);
    graph.addFill("solid contact vertex pushes clear", vertexSums_, 0);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });

    bodies.setContactHooks({[this](graph::RenderGraph& g) {
                                round_ = 0;
                                addFaceBins(g);
                            },
                            [this](graph::RenderGraph& g) {
                                addVertexFaces(g);
                                if (round_++ == 0) addTriangleBins(g);
                                addNodeTriangles(g);
                                addVertexPushes(g);
                            },
                            [this](graph::RenderGraph& g) { addNodeImpulses(g); }});
}

SolidContacts::~SolidContacts()
{
    bodies_.setContactHooks({});
}

shared::SolidContactParams SolidContacts::params() const
{
    const body::BodySettings& s = bodies_.settings();
    shared::SolidContactParams p{};
    p.gridOrigin = glm::vec4(gridOrigin_, cellSize_);
    p.gridDims = glm::uvec4(gridDims_, capacity_);
    p.contact = glm::vec4(s.friction, s.restitution, radius_, s.timeStep);
    p.counts = glm::uvec4(fracture_.tetCount(), fracture_.nodeCount(), bodies_.particleCount(), 0u);
    p.triangles = glm::uvec4(bodies_.triangleCount(), triangleCapacity_, fracture_.pieced() ? 1u : 0u, 0u);
    return p;
}

void SolidContacts::addCountingSort(graph::RenderGraph& graph, const char* what, const gpu::Buffer& counts,
                                    const gpu::Buffer& start, const std::function<void(uint32_t stage)>& bins)
{
    graph.addFill(fmt::format("coupling/{}_counts_clear", what), counts, 0);
    bins(0);
    scan_->exclusive(graph, counts, start, cells_ + 1);
    graph.addFill(fmt::format("coupling/{}_counts_reset", what), counts, 0);
    bins(1);
}

void SolidContacts::addFaceBins(graph::RenderGraph& graph)
{
    shared::SolidContactParams p = params();
    graph.beginGroup("coupling/face_bins");
    if (clearsContact_) graph.addFill("coupling/solid_contact_clear", fracture_.externalContact(), 0);
    addCountingSort(graph, "face", faceCounts_, faceStart_, [&](uint32_t stage) {
        p.counts.w = stage;
        graph.addCompute(pipelines_.compute("coupling/face_bins"))
            .read(SOLID_CONTACT_BIND_NODE_POSITIONS, fracture_.positions())
            .read(SOLID_CONTACT_BIND_NODE_ORIGINS, fracture_.origins())
            .read(SOLID_CONTACT_BIND_NODE_VELOCITIES, fracture_.velocities())
            .read(SOLID_CONTACT_BIND_TETS, fracture_.tets())
            .read(SOLID_CONTACT_BIND_FACE_NEIGHBOURS, fracture_.faceNeighbours())
            .read(SOLID_CONTACT_BIND_LABELS, fracture_.labels())
            .read(SOLID_CONTACT_BIND_FACE_START, faceStart_)
            .readWrite(SOLID_CONTACT_BIND_FACE_COUNTS, faceCounts_)
            .readWrite(SOLID_CONTACT_BIND_FACE_ENTRIES, faceEntries_)
            .readWrite(SOLID_CONTACT_BIND_STATE, state_)
            .push(p)
            .dispatchThreads(4 * uint64_t(fracture_.tetCount()));
    });
    graph.endGroup();
}

void SolidContacts::addVertexFaces(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("coupling/vertex_faces"))
        .read(SOLID_CONTACT_BIND_NODE_POSITIONS, fracture_.positions())
        .read(SOLID_CONTACT_BIND_NODE_ORIGINS, fracture_.origins())
        .read(SOLID_CONTACT_BIND_NODE_VELOCITIES, fracture_.velocities())
        .read(SOLID_CONTACT_BIND_TETS, fracture_.tets())
        .read(SOLID_CONTACT_BIND_FACE_START, faceStart_)
        .read(SOLID_CONTACT_BIND_FACE_ENTRIES, faceEntries_)
        .read(SOLID_CONTACT_BIND_VERTEX_REST, bodies_.restData())
        .read(SOLID_CONTACT_BIND_BODY_ORIGINS, bodies_.bodyOrigins())
        .read(SOLID_CONTACT_BIND_VERTEX_PREVIOUS, bodies_.previousPositions())
        .readWrite(SOLID_CONTACT_BIND_VERTICES, bodies_.relativePositions())
        .readWrite(SOLID_CONTACT_BIND_VERTEX_VELOCITIES, bodies_.velocities())
        .readWrite(SOLID_CONTACT_BIND_VERTEX_FLAGS, bodies_.flags())
        .readWrite(SOLID_CONTACT_BIND_NODE_SUMS, nodeSums_)
        .readWrite(SOLID_CONTACT_BIND_STATE, state_)
        .readWrite(SOLID_CONTACT_BIND_CONTACT, fracture_.externalContact())
        .push(params())
        .dispatchThreads(bodies_.particleCount());
}

void SolidContacts::addTriangleBins(graph::RenderGraph& graph)
{
    shared::SolidContactParams p = params();
    graph.beginGroup("coupling/triangle_bins");
    addCountingSort(graph, "triangle", triangleCounts_, triangleStart_, [&](uint32_t stage) {
        p.counts.w = stage;
        graph.addCompute(pipelines_.compute("coupling/triangle_bins"))
            .read(SOLID_CONTACT_BIND_TRIANGLES, bodies_.triangles())
            .read(SOLID_CONTACT_BIND_VERTICES, bodies_.relativePositions())
            .read(SOLID_CONTACT_BIND_VERTEX_REST, bodies_.restData())
            .read(SOLID_CONTACT_BIND_BODY_ORIGINS, bodies_.bodyOrigins())
            .read(SOLID_CONTACT_BIND_TRIANGLE_START, triangleStart_)
            .readWrite(SOLID_CONTACT_BIND_TRIANGLE_COUNTS, triangleCounts_)
            .readWrite(SOLID_CONTACT_BIND_TRIANGLE_ENTRIES, triangleEntries_)
            .readWrite(SOLID_CONTACT_BIND_STATE, state_)
            .push(p)
            .dispatchThreads(bodies_.triangleCount());
    });
    graph.endGroup();
}

void SolidContacts::addNodeTriangles(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("coupling/node_triangles"))
        .read(SOLID_CONTACT_BIND_NODE_POSITIONS, fracture_.positions())
        .read(SOLID_CONTACT_BIND_NODE_ORIGINS, fracture_.origins())
        .read(SOLID_CONTACT_BIND_NODE_VELOCITIES, fracture_.velocities())
        .read(SOLID_CONTACT_BIND_TRIANGLES, bodies_.triangles())
        .read(SOLID_CONTACT_BIND_TRIANGLE_START, triangleStart_)
        .read(SOLID_CONTACT_BIND_TRIANGLE_ENTRIES, triangleEntries_)
        .read(SOLID_CONTACT_BIND_VERTICES, bodies_.relativePositions())
        .read(SOLID_CONTACT_BIND_VERTEX_VELOCITIES, bodies_.velocities())
        .read(SOLID_CONTACT_BIND_VERTEX_REST, bodies_.restData())
        .read(SOLID_CONTACT_BIND_BODY_ORIGINS, bodies_.bodyOrigins())
        .readWrite(SOLID_CONTACT_BIND_NODE_SUMS, nodeSums_)
        .readWrite(SOLID_CONTACT_BIND_VERTEX_SUMS, vertexSums_)
        .readWrite(SOLID_CONTACT_BIND_STATE, state_)
        .readWrite(SOLID_CONTACT_BIND_CONTACT, fracture_.externalContact())
        .push(params())
        .dispatchThreads(fracture_.nodeCount());
}

void SolidContacts::addVertexPushes(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("coupling/vertex_pushes_apply"))
        .readWrite(SOLID_CONTACT_BIND_VERTICES, bodies_.relativePositions())
        .readWrite(SOLID_CONTACT_BIND_VERTEX_VELOCITIES, bodies_.velocities())
        .readWrite(SOLID_CONTACT_BIND_VERTEX_FLAGS, bodies_.flags())
        .readWrite(SOLID_CONTACT_BIND_VERTEX_SUMS, vertexSums_)
        .push(params())
        .dispatchThreads(bodies_.particleCount());
}

void SolidContacts::addNodeImpulses(graph::RenderGraph& graph)
{
    graph.addCompute(pipelines_.compute("coupling/node_impulses_apply"))
        .read(SOLID_CONTACT_BIND_NODE_POSITIONS, fracture_.positions())
        .readWrite(SOLID_CONTACT_BIND_NODE_VELOCITIES, fracture_.velocities())
        .readWrite(SOLID_CONTACT_BIND_NODE_SUMS, nodeSums_)
        .push(params())
        .dispatchThreads(fracture_.nodeCount());
}

glm::uvec4 SolidContacts::state(graph::RenderGraph& graph) const
{
    glm::uvec4 s(0);
    sim::downloadNow(context_, graph, state_, &s, 16);
    return s;
}

} // namespace floe::coupling
