// Screen-space fluid surface (van der Laan et al. 2009; Green 2010) in the render graph:
// sphere eye depth and additive thickness drawn from the simulation's position buffer, the
// depth smoothed by separable narrow-range passes in compute, then shaded and composited over
// the solid scene (floor, boundaries) in one full-screen pass.
//
// Intermediates that compute passes read or write live in buffers, one element per pixel
// (texel buffers are lavapipe's fast path and need no sampler or image layouts); rasterised
// intermediates are copied into them. At 1280x720 the copies move about 12 MB per frame.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "gpu/Buffer.h"
#include "gpu/Image.h"
#include "gpu/Pipeline.h"
#include "shared/render.h"

namespace floe::graph {
class RenderGraph;
}
namespace floe::gpu {
class ShaderLibrary;
}

namespace floe::render {

struct FluidSettings {
    int iterations = 3;                     // horizontal + vertical smoothing passes; 0 shows raw spheres
    float sphereScale = 1.5f;               // spheres of the surface passes are this many particle radii
    float filterRadius = 0.05f;             // m, world-space radius of the smoothing filter
    float maxFilterPixels = 24.0f;          // the filter's radius in pixels is at most this
    float depthRange = 0.05f;               // m, narrow-range threshold mu
    glm::vec3 absorption{3.0f, 1.2f, 0.5f}; // 1/m, Beer-Lambert coefficients per channel
    float refraction = 0.05f;               // displacement in picture heights per m of thickness
    glm::vec3 scatter{0.12f, 0.42f, 0.62f}; // linear RGB of light scattered inside the fluid
    float specularExponent = 96.0f;
    // A flat layer (2D): its thickness is smoothed instead of its depth, and the surface is the
    // region inside the smoothed thickness's iso-line at half the bulk layer's, with an outline.
    bool flat = false;
    float outlinePixels = 1.5f;
};

// Settings scaled to a scene: the filter spans a few particles, absorption makes the fluid's
// depth across the domain (extent, m) look like a few metres of clear water; `flat` for 2D.
FluidSettings fluidSettingsFor(float particleRadius, const glm::vec3& extent, bool flat);

class FluidSurface {
public:
    FluidSurface(gpu::Context& context, const gpu::ShaderLibrary& shaders, VkFormat colorFormat, uint32_t framesInFlight);

    // Intermediates sized for a width x height target; reallocated when the size changes.
    void resize(uint32_t width, uint32_t height);

    // Pass 1: copies the solid scene's depth (before the particles of RENDER_MODE_BOTH are drawn).
    void addSceneDepthCopy(graph::RenderGraph& graph, const gpu::Image& depth);
    // Passes 2..: copies the scene's colour, draws depth and thickness of `count` spheres from
    // `positions`, smooths, and composites the surface into `color`. `frame` holds the frame's
    // camera and particle radius; `frameSlot` selects the per-frame constant buffers.
    void addPasses(graph::RenderGraph& graph, const gpu::Image& color, const shared::RenderParams& frame,
                   const gpu::Buffer& positions, uint32_t count, const FluidSettings& settings, uint32_t frameSlot);

    // Per pixel after the frame (tests): eye depth (m, 0 = no fluid) as drawn and as smoothed
    // (the raw depth with 0 iterations), and the thickness (m, half floats).
    const gpu::Buffer& smoothedDepth() const { return *smoothed_; }
    const gpu::Buffer& rawDepth() const { return rawDepth_; }
    const gpu::Buffer& thickness() const { return thicknessBuffer_; }
    // The thickness the composite read: smoothed (float) for a flat layer, else thickness().
    const gpu::Buffer& compositeThickness() const { return *compositeThickness_; }

private:
    gpu::Context& context_;
    gpu::Pipeline depthPass_, thicknessPass_, smooth_, composite_;
    std::vector<gpu::Buffer> params_;      // per frame slot: FluidParams
    std::vector<gpu::Buffer> sphereFrame_; // per frame slot: RenderParams with the chord scale
    const gpu::Buffer* smoothed_ = &rawDepth_;
    const gpu::Buffer* compositeThickness_ = &thicknessBuffer_;
    uint32_t width_ = 0, height_ = 0;
    gpu::Image depthImage_, depthTest_, thicknessImage_;
    gpu::Buffer rawDepth_, depthA_, depthB_, thicknessBuffer_, sceneColor_, sceneDepth_;
};

} // namespace floe::render
