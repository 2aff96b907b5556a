// Colour and depth images for headless rendering, with a read-back buffer for pictures.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/Buffer.h"
#include "gpu/Image.h"

namespace floe::graph {
class RenderGraph;
}

namespace floe::render {

class OffscreenTarget {
public:
    static constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;
    static constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

    OffscreenTarget(gpu::Context& context, uint32_t width, uint32_t height); // throws floe::Error for bad sizes
    const gpu::Image& color() const { return color_; }
    const gpu::Image& depth() const { return depth_; }
    uint32_t width() const { return color_.width(); }
    uint32_t height() const { return color_.height(); }

    // Copies the colour image into the read-back buffer, visible to the host after the fence.
    void addReadback(graph::RenderGraph& graph) const;
    // RGBA8 pixels (sRGB), top row first; valid after the submission with addReadback completed.
    std::vector<uint8_t> pixels() const;

private:
    gpu::Image color_;
    gpu::Image depth_;
    gpu::Buffer readback_;
};

} // namespace floe::render
