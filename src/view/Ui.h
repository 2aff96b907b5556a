// Dear ImGui 1.86 on the window: its GLFW backend for input, its Vulkan backend for drawing.
// 1.86's Vulkan backend needs a classic render pass, so the UI pass owns one (load, store,
// colour-attachment layout in and out) and is added to the render graph as a custom pass that
// declares the swapchain image it draws into: the graph still does every barrier.
#pragma once

#include <cstdint>
#include <vector>

#include <volk.h>

namespace floe::gpu {
class Context;
class Image;
} // namespace floe::gpu
namespace floe::graph {
class RenderGraph;
}

namespace floe::view {

class Swapchain;
class Window;

class Ui {
public:
    Ui(gpu::Context& context, Window& window, const Swapchain& swapchain);
    ~Ui();
    Ui(const Ui&) = delete;
    Ui& operator=(const Ui&) = delete;

    void newFrame(); // starts an ImGui frame (then build windows with ImGui::...)
    // Ends the ImGui frame and adds the pass drawing it into swapchain image `index`.
    void addPass(graph::RenderGraph& graph, const Swapchain& swapchain, uint32_t index);
    // Vertices drawn by the last frame's UI (tests: the UI was drawn).
    int lastVertexCount() const { return lastVertices_; }

private:
    void rebuildFramebuffers(const Swapchain& swapchain);
    gpu::Context& context_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_;
    uint64_t generation_ = 0;
    int lastVertices_ = 0;
};

} // namespace floe::view
