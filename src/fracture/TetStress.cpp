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

TetStress::TetStress(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const TetMesh& mesh,
                     const Material& material, const std::vector<Material>& materials)
    : pipelines_(context, shaders), tets_(uint32_t(mesh.tets.size())), nodes_(uint32_t(mesh.nodes.size()))
{
    using sim::uploaded;
    const std::vector<TetRest> rest = restData(mesh);
    std::vector<glm::vec4> restRows(4 * rest.size()), lame(rest.size());
    for (size_t t = 0; t < rest.size(); ++t) {
        for (int i = 0; i < 4; ++i) restRows[4 * t + i] = glm::vec4(rest[t].b[i], i == 0 ? rest[t].volume : 0.0f);
        const Material& m = materials.empty() ? material : materials.at(t);
        lame[t] = glm::vec4(m.lambda, m.mu, m.phi, m.psi);
    }
    const Incidence inc = incidence(mesh);
    std::vector<uint32_t> heads(inc.corner.size(), 0);
    for (uint32_t n = 0; n < nodes_; ++n)
        if (inc.start[n] < inc.start[n + 1]) heads[inc.start[n]] = 1;
    params_ = gpu::Buffer(context, {"fracture params", sizeof(shared::FractureParams), gpu::MemoryKind::Upload});
    tetBuffer_ = uploaded(context, graph, "fracture tets", mesh.tets, kUvec4);
    rest_ = uploaded(context, graph, "fracture tet rest", restRows, kVec4);
    material_ = uploaded(context, graph, "fracture tet material", lame, kVec4);
    slots_ = uploaded(context, graph, "fracture incidence slots", inc.slot, kUint);
    nodeStart_ = uploaded(context, graph, "fracture node start", inc.start, kUint);
    heads_ = uploaded(context, graph, "fracture incidence heads", heads, kUint);
    const VkDeviceSize corners = std::max<VkDeviceSize>(4 * tets_, 1);
    auto vec4s = [&](const char* name, VkDeviceSize count) {
        return gpu::Buffer(context, {name, std::max<VkDeviceSize>(count, 1) * 16, gpu::MemoryKind::DeviceLocal, kVec4});
    };
    records_ = vec4s("fracture incidence records", 3 * corners);
    scanned_ = vec4s("fracture incidence scanned", 3 * corners);
    tetStress_ = vec4s("fracture tet stress", 2 * VkDeviceSize(tets_));
    tetSeparation_ = vec4s("fracture tet separation", tets_);
    nodeSeparation_ = vec4s("fracture node separation", nodes_);
    forces_ = vec4s("fracture corner forces", corners);
    scan_.emplace(context, shaders, uint32_t(corners));
    setSeparationMode(SeparationMode::Eq16);
}

void TetStress::setSeparationMode(SeparationMode mode)
{
    mode_ = mode;
    const shared::FractureParams p{tets_, nodes_, uint32_t(mode), 0};
    params_.write(&p, sizeof(p));
}

void TetStress::addPasses(graph::RenderGraph& graph, const gpu::Buffer& positions, const gpu::Buffer& velocities)
{
    graph.addCompute(pipelines_.compute("fracture/stress"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_POSITIONS, positions, kVec4)
        .read(FRACTURE_BIND_VELOCITIES, velocities, kVec4)
        .read(FRACTURE_BIND_TETS, tetBuffer_)
        .read(FRACTURE_BIND_TET_REST, rest_)
        .read(FRACTURE_BIND_TET_MATERIAL, material_)
        .read(FRACTURE_BIND_SLOTS, slots_)
        .write(FRACTURE_BIND_RECORDS, records_)
        .write(FRACTURE_BIND_TET_STRESS, tetStress_)
        .write(FRACTURE_BIND_TET_SEPARATION, tetSeparation_)
        .write(FRACTURE_BIND_FORCES, forces_)
        .dispatchThreads(tets_);
    scan_->inclusive(graph, records_, heads_, scanned_, 4 * tets_, 3);
    graph.addCompute(pipelines_.compute("fracture/separation"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_SCANNED, scanned_)
        .read(FRACTURE_BIND_NODE_START, nodeStart_)
        .write(FRACTURE_BIND_NODE_SEPARATION, nodeSeparation_)
        .dispatchThreads(nodes_);
}

} // namespace floe::fracture
