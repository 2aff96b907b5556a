#include "render/OffscreenTarget.h"

#include "graph/RenderGraph.h"

namespace floe::render {

OffscreenTarget::OffscreenTarget(gpu::Context& context, uint32_t width, uint32_t height)
    : color_(context, {"offscreen colour", kColorFormat, width, height,
                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT}),
      depth_(context, {"offscreen depth", kDepthFormat, width, height,
                       VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT}),
      readback_(context, {"offscreen read-back", uint64_t(width) * height * 4, gpu::MemoryKind::Readback})
{
}

void OffscreenTarget::addReadback(graph::RenderGraph& graph) const
{
    graph.addCopyImageToBuffer("render/readback", color_, readback_);
    graph.addHostRead(readback_);
}

std::vector<uint8_t> OffscreenTarget::pixels() const
{
    return readback_.readVector<uint8_t>(size_t(width()) * height() * 4);
}

} // namespace floe::render
