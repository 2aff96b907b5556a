#include "fracture/TetStress.h"

#include "graph/RenderGraph.h"
#include "shared/fracture.h"
#include "sim/ParticleBuffers.h"

namespace floe::fracture {

namespace {
constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kUint = VK_FORMAT_R32_UINT;
constexpr VkFormat kUvec4 = VK_FORMAT_R32G32B32A32_UINT;
} // namespace

void packRest(const std::vector<TetRest>& rest, std::vector<glm::vec4>& rows)
{
    rows.resize(4 * rest.size());
    for (size_t t = 0; t < rest.size(); ++t)
        for (int i = 0; i < 4; ++i) rows[4 * t + i] = glm::vec4(rest[t].b[i], i == 0 ? rest[t].volume : 0.0f);
}

TetStress::TetStress(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t tets, uint32_t nodeCapacity)
    : pipelines_(context, shaders)
{
    const VkDeviceSize corners = std::max<VkDeviceSize>(4 * VkDeviceSize(tets), 1);
    auto vec4s = [&](const char* name, VkDeviceSize count) {
        return gpu::Buffer(context, {name, std::max<VkDeviceSize>(count, 1) * 16, gpu::MemoryKind::DeviceLocal, kVec4});
    };
    records_ = vec4s("fracture incidence records", 3 * corners);
    scanned_ = vec4s("fracture incidence scanned", 3 * corners);
    tetStress_ = vec4s("fracture tet stress", 2 * VkDeviceSize(tets));
    tetSeparation_ = vec4s("fracture tet separation", tets);
    nodeSeparation_ = vec4s("fracture node separation", nodeCapacity);
    forces_ = vec4s("fracture corner forces", corners);
    scan_.emplace(context, shaders, uint32_t(corners));
}

void TetStress::addPasses(graph::RenderGraph& graph, const StressInputs& in)
{
    graph.addCompute(pipelines_.compute("fracture/stress"))
        .read(FRACTURE_BIND_PARAMS, *in.params)
        .read(FRACTURE_BIND_POSITIONS, *in.positions, kVec4)
        .read(FRACTURE_BIND_VELOCITIES, *in.velocities, kVec4)
        .read(FRACTURE_BIND_TETS, *in.tets, kUvec4)
        .read(FRACTURE_BIND_TET_REST, *in.rest, kVec4)
        .read(FRACTURE_BIND_TET_MATERIAL, *in.material, kVec4)
        .read(FRACTURE_BIND_TET_INFO, *in.tetInfo, kVec4)
        .read(FRACTURE_BIND_BODY_INFO, *in.bodyInfo, kVec4)
        .readWrite(FRACTURE_BIND_TET_DAMAGE, *in.damage, kVec4)
        .read(FRACTURE_BIND_SLOTS, *in.slots, kUint)
        .write(FRACTURE_BIND_RECORDS, records_)
        .write(FRACTURE_BIND_TET_STRESS, tetStress_)
        .write(FRACTURE_BIND_TET_SEPARATION, tetSeparation_)
        .write(FRACTURE_BIND_FORCES, forces_)
        .dispatchThreads(in.tetCount);
    scan_->inclusive(graph, records_, *in.heads, scanned_, 4 * in.tetCount, 3);
    graph.addCompute(pipelines_.compute("fracture/separation"))
        .read(FRACTURE_BIND_PARAMS, *in.params)
        .read(FRACTURE_BIND_SCANNED, scanned_)
        .read(FRACTURE_BIND_NODE_START, *in.nodeStart, kUint)
        .write(FRACTURE_BIND_NODE_SEPARATION, nodeSeparation_)
        .dispatchThreads(in.nodeCount);
}

TetMeshBuffers::TetMeshBuffers(gpu::Context& context, graph::RenderGraph& graph, const TetMesh& mesh, const Material& m,
                               SeparationMode mode, const std::vector<Material>& materials, float tauScale)
    : tetCount(uint32_t(mesh.tets.size())), nodeCount(uint32_t(mesh.nodes.size()))
{
    using sim::uploaded;
    std::vector<glm::vec4> rows, lame(mesh.tets.size()), info(mesh.tets.size()), ductile(mesh.tets.size());
    packRest(restData(mesh), rows);
    for (size_t t = 0; t < mesh.tets.size(); ++t) {
        const Material& mt = materials.empty() ? m : materials.at(t);
        lame[t] = glm::vec4(mt.lambda, mt.mu, mt.phi, mt.psi);
        info[t] = glm::vec4(0.0f, 0.0f, 0.0f, mt.yield);
        ductile[t] = glm::vec4(0.0f, inverseDuctility(mt), 0.0f, 0.0f);
    }
    const std::vector<glm::vec4> body{glm::vec4(m.tau, 1.0f, 0.0f, 0.0f)};
    const Incidence inc = incidence(mesh);
    std::vector<uint32_t> headFlags(inc.corner.size(), 0);
    for (uint32_t n = 0; n < nodeCount; ++n)
        if (inc.start[n] < inc.start[n + 1]) headFlags[inc.start[n]] = 1;
    shared::FractureParams p{};
    p.tets = tetCount;
    p.nodes = nodeCount;
    p.separation = uint32_t(mode);
    p.nodeCapacity = nodeCount;
    p.fracture.x = tauScale;
    params = gpu::Buffer(context, {"fracture params", sizeof(p), gpu::MemoryKind::Upload});
    params.write(&p, sizeof(p));
    tets = uploaded(context, graph, "fracture tets", mesh.tets, kUvec4);
    rest = uploaded(context, graph, "fracture tet rest", rows, kVec4);
    material = uploaded(context, graph, "fracture tet material", lame, kVec4);
    tetInfo = uploaded(context, graph, "fracture tet info", info, kVec4);
    damage = uploaded(context, graph, "fracture tet damage", ductile, kVec4);
    bodyInfo = uploaded(context, graph, "fracture body info", body, kVec4);
    slots = uploaded(context, graph, "fracture incidence slots", inc.slot, kUint);
    nodeStart = uploaded(context, graph, "fracture node start", inc.start, kUint);
    heads = uploaded(context, graph, "fracture incidence heads", headFlags, kUint);
}

StressInputs TetMeshBuffers::inputs(const gpu::Buffer& positions, const gpu::Buffer& velocities) const
{
    StressInputs in;
    in.params = &params;
    in.positions = &positions;
    in.velocities = &velocities;
    in.tets = &tets;
    in.rest = &rest;
    in.material = &material;
    in.tetInfo = &tetInfo;
    in.damage = &damage;
    in.bodyInfo = &bodyInfo;
    in.slots = &slots;
    in.nodeStart = &nodeStart;
    in.heads = &heads;
    in.tetCount = tetCount;
    in.nodeCount = nodeCount;
    return in;
}

} // namespace floe::fracture
