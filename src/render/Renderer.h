// Draws the scene into colour + depth targets through the render graph: a floor for context
// and the particles as ray-cast sphere impostors pulled straight from the simulation's
// position and velocity buffers (no copies). The window and headless pictures use the same passes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "gpu/Buffer.h"
#include "gpu/Pipeline.h"
#include "render/Camera.h"
#include "render/FluidSurface.h"

namespace floe::graph {
class RenderGraph;
}
namespace floe::gpu {
class Image;
class ShaderLibrary;
} // namespace floe::gpu
namespace floe::sim {
struct ParticleBuffers;
}

namespace floe::render {

// The pictures' background (linear RGB), where nothing is drawn.
inline constexpr glm::vec4 kBackground{0.10f, 0.11f, 0.13f, 1.0f};

struct ViewSettings {
    Camera camera;
    float particleRadius = 0.025f; // m
    int colorAttribute = 0;        // RENDER_COLOR_*
    float colorMin = 0.0f;         // attribute value mapped to the start of the colour map
    float colorMax = 3.0f;         // ... and to its end
    bool drawFloor = true;
    float boundaryRadius = 0.0125f; // m, radius boundary particles are drawn with
    float floorHeight = 0.0f;       // m
    float floorHalfExtent = 2.0f;   // m
    glm::vec2 floorCenter{0, 0};    // m (x, z)
    int mode = 0;                   // RENDER_MODE_* (shared/fluid.h): particles, fluid surface, both
    FluidSettings fluid;
};

// "particles", "fluid", "both" <-> RENDER_MODE_*; parseRenderMode returns -1 for anything else.
int parseRenderMode(const std::string& name);
const char* renderModeName(int mode);

// A triangle surface drawn straight from simulation buffers (deformable bodies): vec4
// positions, vec4 area-weighted normal sums, uvec4 triangles (indices, body).
struct MeshDraw {
    const gpu::Buffer* positions = nullptr;
    const gpu::Buffer* normals = nullptr;
    const gpu::Buffer* triangles = nullptr;
    uint32_t triangleCount = 0;
};

class Renderer {
public:
    // `framesInFlight` per-frame constant buffers are kept so a frame never overwrites constants
    // the GPU may still read.
    Renderer(gpu::Context& context, const gpu::ShaderLibrary& shaders, VkFormat colorFormat, VkFormat depthFormat,
             uint32_t framesInFlight);

    // Records the frame's passes into `color`/`depth`, using constant slot `frameSlot`.
    // Boundary particles (vec4 xyz m) are drawn in grey when `boundaryCount` > 0. The fluid
    // surface modes need `color` usable as a transfer source and `depth` too.
    void addPasses(graph::RenderGraph& graph, const gpu::Image& color, const gpu::Image& depth,
                   const sim::ParticleBuffers& particles, const ViewSettings& view, uint32_t frameSlot,
                   const gpu::Buffer* boundary = nullptr, uint32_t boundaryCount = 0);
    // The same with optional fluid particles and triangle surfaces (drawn as solids).
    void addPasses(graph::RenderGraph& graph, const gpu::Image& color, const gpu::Image& depth, const sim::ParticleBuffers* fluid,
                   const ViewSettings& view, uint32_t frameSlot, const gpu::Buffer* boundary, uint32_t boundaryCount,
                   std::span<const MeshDraw> meshes);

    // Lines drawn with every frame, depth-tested against the solids and the particles: the
    // outlines of walls and containers (`points`: vec4 positions, two per line; null: none). The
    // buffer must outlive the renderer's use of it.
    void setOutlines(const gpu::Buffer* points, uint32_t pointCount);

    // The fluid surface's intermediates (tests); null until a fluid mode was drawn.
    const FluidSurface* fluidSurface() const { return fluid_.get(); }

private:
    gpu::Context& context_;
    const gpu::ShaderLibrary& shaders_;
    VkFormat colorFormat_, depthFormat_;
    uint32_t framesInFlight_;
    std::unique_ptr<FluidSurface> fluid_; // created on first use
    gpu::Pipeline particles_;
    gpu::Pipeline floor_;
    gpu::Pipeline mesh_;  // created on first use
    gpu::Pipeline edges_; // created with the first outlines
    const gpu::Buffer* outlines_ = nullptr;
    uint32_t outlinePoints_ = 0;
    std::vector<gpu::Buffer> frameConstants_;    // per frame slot: the fluid's constants
    std::vector<gpu::Buffer> boundaryConstants_; // per frame slot: the boundary's
};

} // namespace floe::render
