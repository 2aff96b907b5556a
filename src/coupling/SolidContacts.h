// Contacts between deformable bodies and fracture bodies (and so the dynamic rigid bodies, which
// are unbreakable fracture bodies), two-way, on the GPU (shared/solid_contacts.h has the model):
// recorded through the deformable bodies' step hooks, so a world with or without a fluid steps
// them the same way:
//   start of the deformable step: the fracture bodies' boundary faces, where their velocities
//   carry them by the step's end, into a grid (coupling/face_bins: count, scan, scatter);
//   each collision round of the deformable step, after the walls and static meshes:
//   coupling/vertex_faces (a vertex within the contact radius of a face is put in front of it,
//   the contact impulse taken from its approach; the opposite impulse summed on the face's nodes);
//   in the first round the deformable triangles into a grid of the same cells
//   (coupling/triangle_bins), then in each round coupling/node_triangles (a node within the
//   radius of a triangle pushes the triangle's vertices back, the impulse node against triangle)
//   and coupling/vertex_pushes_apply (the vertices' mean move and summed impulse);
//   end of the deformable step: coupling/node_impulses_apply (the sums into the nodes'
//   velocities, before the fracture bodies' step, which counts it as a step with contact).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "gpu/Buffer.h"
#include "gpu/PipelineCache.h"
#include "shared/solid_contacts.h"
#include "sim/prim/Scan.h"

namespace floe::graph {
class RenderGraph;
}
namespace floe::body {
class DeformableBodies;
}
namespace floe::fracture {
class FractureBodies;
}

namespace floe::coupling {

class SolidContacts {
public:
    // Sets the deformable bodies' contact hooks (they must outlive this object's use).
    // `clearsContact`: reset the fracture bodies' external-contact flag at the start of each step
    // (false where a coupled fluid resets it before its impulses set it).
    SolidContacts(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                  body::DeformableBodies& bodies, fracture::FractureBodies& fracture, bool clearsContact);
    ~SolidContacts();
    SolidContacts(const SolidContacts&) = delete;
    SolidContacts& operator=(const SolidContacts&) = delete;

    // The passes, as the hooks record them (tests record them alone).
    void addFaceBins(graph::RenderGraph& graph);
    void addVertexFaces(graph::RenderGraph& graph);
    void addTriangleBins(graph::RenderGraph& graph);
    void addNodeTriangles(graph::RenderGraph& graph);
    void addVertexPushes(graph::RenderGraph& graph);
    void addNodeImpulses(graph::RenderGraph& graph);

    // Since the start (submits and waits): x face-grid entries left out for lack of room
    // (contacts missed), y vertex contacts with a face, z triangle-grid entries left out, w node
    // contacts with a triangle.
    glm::uvec4 state(graph::RenderGraph& graph) const;
    shared::SolidContactParams params() const; // as the next pass records them

    const gpu::Buffer& faceStart() const { return faceStart_; }
    const gpu::Buffer& faceEntries() const { return faceEntries_; }
    const gpu::Buffer& nodeSums() const { return nodeSums_; }
    const gpu::Buffer& triangleStart() const { return triangleStart_; }
    const gpu::Buffer& triangleEntries() const { return triangleEntries_; }
    const gpu::Buffer& vertexSums() const { return vertexSums_; }
    uint32_t cells() const { return cells_; }
    uint32_t capacity() const { return capacity_; }
    uint32_t triangleCapacity() const { return triangleCapacity_; }

private:
    // The grids' counting sort: the counts cleared, bins(0) counts, the scan into `start`, the
    // counts reset as cursors, bins(1) scatters.
    void addCountingSort(graph::RenderGraph& graph, const char* what, const gpu::Buffer& counts, const gpu::Buffer& start,
                         const std::function<void(uint32_t stage)>& bins);

    gpu::Context& context_;
    gpu::PipelineCache pipelines_;
    body::DeformableBodies& bodies_;
    fracture::FractureBodies& fracture_;
    bool clearsContact_ = true;
    glm::vec3 gridOrigin_{0.0f};
    glm::uvec3 gridDims_{1u};
    float cellSize_ = 1.0f;
    float radius_ = 0.0f; // m, the contact distance (params().contact.z)
    uint32_t cells_ = 1, capacity_ = 0, triangleCapacity_ = 0;
    uint32_t round_ = 0; // the deformable step's collision round about to be recorded
    gpu::Buffer faceCounts_, faceStart_, faceEntries_, state_, nodeSums_;
    gpu::Buffer triangleCounts_, triangleStart_, triangleEntries_, vertexSums_;
    std::optional<sim::Scan> scan_;
};

} // namespace floe::coupling
