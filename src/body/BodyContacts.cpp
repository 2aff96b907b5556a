// Contacts between deformable bodies, point against triangle (digest-002 §2.4, §4.2.1): the
// triangle grid, detection and the Jacobi iterations with mass splitting (shaders/body/
// triangle_bins, contacts, contacts_resolve, contacts_apply; docs/bodies.md).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/Error.h"
#include "body/DeformableBodies.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/body.h"
#include "sim/ParticleBuffers.h"

namespace floe::body {
namespace {

constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kUint = VK_FORMAT_R32_UINT;

} // namespace

void DeformableBodies::buildBodyContacts(const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const BodySettings& settings,
                                         const std::vector<glm::uvec4>& triangles, const std::vector<glm::vec4>& positions)
{
    // Cells of at least 4r over the domain, larger where the domain would need too many (2r
    // and 3r cost the same on lavapipe in the pile: fewer entries per cell, more cells).
    const glm::vec3 extent = glm::max(settings.domainMax - settings.domainMin, glm::vec3(1e-3f));
    const float cell = std::max(4.0f * contactRadius_, std::cbrt(extent.x * extent.y * extent.z / 2.0e6f));
    contactGrid_ = sim::GridSpec::cover(settings.domainMin, settings.domainMax, cell, false);
    const uint64_t maxCells =
        std::min<uint64_t>(context_.limits().maxTexelBufferElements, context_.limits().maxStorageBufferRange / 4) - 1;
    if (contactGrid_.cells() > maxCells)
        throw Error(fmt::format("deformable bodies: the contact grid needs {} cells of {} m, over this device's {}; shrink "
                                "the domain",
                                contactGrid_.cells(), cell, maxCells));
    // Room for each triangle's cells at rest (its box grown by r, straddling cell borders),
    // twice over for stretching and moving bodies; body/triangle_bins counts what is left out.
    uint64_t entries = 0;
    for (const glm::uvec4& t : triangles) {
        glm::vec3 lo(positions[t.x]), hi(positions[t.x]);
        for (uint32_t k : {t.y, t.z}) lo = glm::min(lo, glm::vec3(positions[k])), hi = glm::max(hi, glm::vec3(positions[k]));
        const glm::vec3 n = glm::floor((hi - lo + 2.0f * contactRadius_) / cell) + 2.0f;
        entries += uint64_t(n.x) * uint64_t(n.y) * uint64_t(n.z);
    }
    contactCapacity_ = static_cast<uint32_t>(std::min<uint64_t>(2 * entries, maxCells));
    const auto uints = [&](const char* name, uint64_t count) {
        return gpu::Buffer(context_, {name, count * 4, gpu::MemoryKind::DeviceLocal, kUint});
    };
    contactCounts_ = uints("body contact grid counts", contactGrid_.cells() + 1);
    contactStart_ = uints("body contact grid cell starts", contactGrid_.cells() + 1);
    contactEntries_ = uints("body contact grid entries", contactCapacity_);
    contactState_ = uints("body contact grid state", 4);
    contactMasks_ = uints("body contact grid body masks", contactGrid_.cells());
    contactPlanes_ =
        gpu::Buffer(context_, {"body triangle planes", uint64_t(triangles.size()) * 32, gpu::MemoryKind::DeviceLocal, kVec4});
    contactScan_.emplace(context_, shaders, static_cast<uint32_t>(contactGrid_.cells() + 1));
    contactSums_ = uints("body contact sums", uint64_t(particles_) * BODY_CONTACT_WIDTH);
    contacts_ = gpu::Buffer(context_, {"body contacts", uint64_t(particles_) * 3 * 16, gpu::MemoryKind::DeviceLocal, kVec4});
    graph.addFill("body contact grid state clear", contactState_, 0);
}

void DeformableBodies::addBodyContacts(graph::RenderGraph& graph)
{
    graph.beginGroup("body/triangle_bins");
    graph.addFill("body/contact_sums_clear", contactSums_, 0);
    graph.addFill("body/contact_grid_clear", contactCounts_, 0);
    graph.addFill("body/contact_grid_masks_clear", contactMasks_, 0);
    const auto bins = [&](uint32_t stage) {
        graph.addCompute(pipelines_.compute("body/triangle_bins"))
            .read(BODY_BIND_PARAMS, params_[frame_])
            .read(BODY_BIND_POSITIONS, positions_)
            .read(BODY_BIND_PREVIOUS, previous_)
            .read(BODY_BIND_ORIGINS, origins_)
            .read(BODY_BIND_TRIANGLES, triangleBuffer_)
            .read(BODY_BIND_CELL_START, contactStart_)
            .readWrite(BODY_BIND_CONTACT_COUNTS, contactCounts_)
            .readWrite(BODY_BIND_CONTACT_ENTRIES, contactEntries_)
            .readWrite(BODY_BIND_CONTACT_STATE, contactState_)
            .readWrite(BODY_BIND_CONTACT_MASKS, contactMasks_)
            .write(BODY_BIND_CONTACT_PLANES, contactPlanes_)
            .push(shared::BodyPush{stage, 0, 0, 0})
            .dispatchThreads(triangles_);
    };
    bins(0);
    contactScan_->exclusive(graph, contactCounts_, contactStart_, static_cast<uint32_t>(contactGrid_.cells() + 1));
    bins(1);
    graph.endGroup();
    graph.addCompute(pipelines_.compute("body/contacts"))
        .read(BODY_BIND_PARAMS, params_[frame_])
        .read(BODY_BIND_POSITIONS, positions_)
        .read(BODY_BIND_VELOCITIES, velocities_)
        .read(BODY_BIND_PREVIOUS, previous_)
        .read(BODY_BIND_REST, rest_)
        .read(BODY_BIND_ORIGINS, origins_)
        .read(BODY_BIND_CELL_START, contactStart_)
        .read(BODY_BIND_CONTACT_ENTRIES, contactEntries_)
        .read(BODY_BIND_CONTACT_MASKS, contactMasks_)
        .read(BODY_BIND_CONTACT_PLANES, contactPlanes_)
        .read(BODY_BIND_TRIANGLES, triangleBuffer_)
        .readWrite(BODY_BIND_CONTACT_SUMS, contactSums_)
        .write(BODY_BIND_CONTACTS, contacts_)
        .dispatchThreads(particles_);
    addBodyContactIterations(graph, std::clamp(settings_.contactIterations, 1, 32));
}

void DeformableBodies::addBodyContactIterations(graph::RenderGraph& graph, int iterations)
{
    for (int k = 0; k < iterations; ++k) {
        graph.addCompute(pipelines_.compute("body/contacts_resolve"))
            .read(BODY_BIND_PARAMS, params_[frame_])
            .read(BODY_BIND_POSITIONS, positions_)
            .read(BODY_BIND_VELOCITIES, velocities_)
            .read(BODY_BIND_TRIANGLES, triangleBuffer_)
            .read(BODY_BIND_REST, rest_)
            .read(BODY_BIND_ORIGINS, origins_)
            .readWrite(BODY_BIND_CONTACTS, contacts_)
            .readWrite(BODY_BIND_CONTACT_SUMS, contactSums_)
            .dispatchThreads(particles_);
        graph.addCompute(pipelines_.compute("body/contacts_apply"))
            .read(BODY_BIND_PARAMS, params_[frame_])
            .readWrite(BODY_BIND_POSITIONS, positions_)
            .readWrite(BODY_BIND_VELOCITIES, velocities_)
            .readWrite(BODY_BIND_FLAGS, flags_)
            .readWrite(BODY_BIND_CONTACT_SUMS, contactSums_)
            .dispatchThreads(particles_);
    }
}

uint32_t DeformableBodies::contactGridOverflows(graph::RenderGraph& graph) const
{
    if (!contactScan_) return 0;
    glm::uvec4 state(0);
    sim::downloadNow(context_, graph, contactState_, &state, 16);
    return state.x;
}

} // namespace floe::body
