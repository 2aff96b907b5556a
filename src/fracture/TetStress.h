// The stress evaluation of tetrahedral bodies on the GPU (digest-004 §2.4-§2.8, §10.2-§10.3):
// per tet the strain, strain rate, stress, its tensile/compressive split and the nodal forces
// (fracture/stress), per node the separation tensor (16) from a segmented scan of the corner
// records over the node-ordered incidence (prim/segmented_scan, fracture/separation), and the
// largest eigenpair of every tensor. All passes go through the render graph.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fracture/Elasticity.h"
#include "fracture/FractureSettings.h"
#include "fracture/TetMesh.h"
#include "gpu/Buffer.h"
#include "gpu/PipelineCache.h"
#include "sim/prim/SegmentedScan.h"

namespace floe::graph {
class RenderGraph;
}

namespace floe::fracture {

// What the stress passes read; FractureBodies owns these, TetMeshBuffers makes them for a
// fixed mesh.
struct StressInputs {
    const gpu::Buffer* params = nullptr; // FractureParams: tets, nodes, separation
    const gpu::Buffer *positions = nullptr, *velocities = nullptr;
    const gpu::Buffer *tets = nullptr, *rest = nullptr, *material = nullptr;
    const gpu::Buffer *tetInfo = nullptr, *bodyInfo = nullptr; // yield (tau units) per tet, tau per body
    const gpu::Buffer* damage = nullptr;                       // read and written: a ductile tet's damage
    const gpu::Buffer *slots = nullptr, *nodeStart = nullptr, *heads = nullptr;
    uint32_t tetCount = 0, nodeCount = 0;
};

class TetStress {
public:
    TetStress(gpu::Context& context, const gpu::ShaderLibrary& shaders, uint32_t tets, uint32_t nodeCapacity);
    void addPasses(graph::RenderGraph& graph, const StressInputs& in);

    const gpu::Buffer& tetStress() const { return tetStress_; }           // 2 vec4 per tet
    const gpu::Buffer& tetSeparation() const { return tetSeparation_; }   // vec4 per tet
    const gpu::Buffer& nodeSeparation() const { return nodeSeparation_; } // vec4 per node
    const gpu::Buffer& forces() const { return forces_; }                 // vec4 per corner
    const gpu::Buffer& records() const { return records_; }               // 3 vec4 per incidence slot

private:
    gpu::PipelineCache pipelines_;
    gpu::Buffer records_, scanned_, tetStress_, tetSeparation_, nodeSeparation_, forces_;
    std::optional<sim::SegmentedScan> scan_;
};

// A fixed mesh's tets, rest data, materials (one per tet, or `material` for all), incidence
// and parameters on the GPU; one body with `material`'s tau, and tauScale `tauScale`.
struct TetMeshBuffers {
    TetMeshBuffers(gpu::Context& context, graph::RenderGraph& graph, const TetMesh& mesh, const Material& material,
                   SeparationMode mode, const std::vector<Material>& materials = {}, float tauScale = 900.0f);
    StressInputs inputs(const gpu::Buffer& positions, const gpu::Buffer& velocities) const;
    gpu::Buffer params, tets, rest, material, tetInfo, damage, bodyInfo, slots, nodeStart, heads;
    uint32_t tetCount = 0, nodeCount = 0;
};

// Rest rows and Lame vectors as the stress pass reads them.
void packRest(const std::vector<TetRest>& rest, std::vector<glm::vec4>& rows);

} // namespace floe::fracture
