// The window's swapchain: images wrapped as gpu::Image for the render graph, recreated when
// the window is resized (or presentation reports it out of date), paused while minimised.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <volk.h>

#include "gpu/Image.h"

namespace floe::gpu {
class Context;
}

namespace floe::view {

class Swapchain {
public:
    Swapchain(gpu::Context& context, VkSurfaceKHR surface);
    ~Swapchain();
    Swapchain(const Swapchain&) = delete;
    Swapchain& operator=(const Swapchain&) = delete;

    // (Re)creates the swapchain for a framebuffer of width x height (the caller waits for the
    // device to be idle first). Returns false for a zero size (minimised): nothing to draw into.
    bool recreate(uint32_t width, uint32_t height);
    // The index of the next image, waiting on `acquired`; nullopt when out of date (recreate).
    std::optional<uint32_t> acquire(VkSemaphore acquired);
    // Presents image `index` after `ready` signals; false when out of date or suboptimal.
    bool present(uint32_t index, VkSemaphore ready);

    VkFormat format() const { return format_; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    uint32_t imageCount() const { return static_cast<uint32_t>(images_.size()); }
    uint32_t minImageCount() const { return minImageCount_; }
    const gpu::Image& image(uint32_t index) const { return images_.at(index); }
    // Bumped on every recreation: framebuffers built on the old images must be rebuilt.
    uint64_t generation() const { return generation_; }
    VkSemaphore renderFinished(uint32_t index) const { return renderFinished_.at(index); }

private:
    void destroy();
    gpu::Context& context_;
    VkSurfaceKHR surface_;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkColorSpaceKHR colorSpace_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    uint32_t width_ = 0, height_ = 0, minImageCount_ = 2;
    std::vector<gpu::Image> images_;
    std::vector<VkSemaphore> renderFinished_; // one per image: reused only when that image is
    uint64_t generation_ = 0;
};

} // namespace floe::view
