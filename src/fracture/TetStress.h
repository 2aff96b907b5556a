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
#include "fracture/TetMesh.h"
#include "gpu/Buffer.h"
#include "gpu/PipelineCache.h"
#include "sim/prim/SegmentedScan.h"

namespace floe::graph {
class RenderGraph;
}

namespace floe::fracture {

enum class SeparationMode : uint32_t {
    Eq16 = 0,     // digest-004 (16) per node (the recommended reading, §3.0)
    Averaged = 1, // mean of the incident elements' tensors (what the thesis' code does)
};

class TetStress {
public:
    // One mesh, one material per tet (`materials` empty: `material` for all).
    TetStress(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const TetMesh& mesh,
              const Material& material, const std::vector<Material>& materials = {});

    void setSeparationMode(SeparationMode mode);
    // Records the passes reading `positions` and `velocities` (vec4 per node).
    void addPasses(graph::RenderGraph& graph, const gpu::Buffer& positions, const gpu::Buffer& velocities);

    uint32_t tets() const { return tets_; }
    uint32_t nodes() const { return nodes_; }
    const gpu::Buffer& tetStress() const { return tetStress_; }           // 2 vec4 per tet
    const gpu::Buffer& tetSeparation() const { return tetSeparation_; }   // vec4 per tet
    const gpu::Buffer& nodeSeparation() const { return nodeSeparation_; } // vec4 per node
    const gpu::Buffer& forces() const { return forces_; }                 // vec4 per corner
    const gpu::Buffer& records() const { return records_; }               // 3 vec4 per incidence slot

private:
    gpu::PipelineCache pipelines_;
    uint32_t tets_ = 0, nodes_ = 0;
    SeparationMode mode_ = SeparationMode::Eq16;
    gpu::Buffer params_, tetBuffer_, rest_, material_, slots_, nodeStart_, heads_;
    gpu::Buffer records_, scanned_, tetStress_, tetSeparation_, nodeSeparation_, forces_;
    std::optional<sim::SegmentedScan> scan_;
};

} // namespace floe::fracture
