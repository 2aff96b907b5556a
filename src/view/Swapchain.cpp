#include "view/Swapchain.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Check.h"
#include "gpu/Context.h"

namespace floe::view {

Swapchain::Swapchain(gpu::Context& context, VkSurfaceKHR surface) : context_(context), surface_(surface)
{
    uint32_t count = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(context.physicalDevice(), surface, &count, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(count);
    vkGetPhysicalDeviceSurfaceFormatsKHR(context.physicalDevice(), surface, &count, formats.data());
    if (formats.empty()) throw Error("floe view: the window's surface offers no image format", ExitCode::Failure);
    // sRGB-encoding formats first: the renderer writes linear colour, like the offscreen pictures.
    const VkFormat preferred[] = {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB};
    VkSurfaceFormatKHR chosen = formats[0];
    for (const VkFormat f : preferred) {
        const auto it = std::find_if(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& s) {
            return s.format == f && s.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
        });
        if (it != formats.end()) {
            chosen = *it;
            break;
        }
    }
    format_ = chosen.format;
    colorSpace_ = chosen.colorSpace;
}

Swapchain::~Swapchain()
{
    destroy();
    if (swapchain_) vkDestroySwapchainKHR(context_.device(), swapchain_, nullptr);
}

void Swapchain::destroy()
{
    images_.clear();
    for (VkSemaphore s : renderFinished_) vkDestroySemaphore(context_.device(), s, nullptr);
    renderFinished_.clear();
}

bool Swapchain::recreate(uint32_t width, uint32_t height)
{
    VkSurfaceCapabilitiesKHR caps{};
    VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context_.physicalDevice(), surface_, &caps));
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == 0xFFFFFFFFu) {
        extent.width = std::clamp(width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    if (width == 0 || height == 0 || extent.width == 0 || extent.height == 0) return false;

    uint32_t imageCount = std::max(caps.minImageCount + 1, 2u);
    if (caps.maxImageCount > 0) imageCount = std::min(imageCount, caps.maxImageCount);
    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface_;
    info.minImageCount = imageCount;
    info.imageFormat = format_;
    info.imageColorSpace = colorSpace_;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    // Transfer destination for the blit of the rendered picture, source for screenshots.
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if ((caps.supportedUsageFlags & info.imageUsage) != info.imageUsage)
        throw Error("floe view: the window's swapchain images cannot be blitted to and read back", ExitCode::Failure);
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR; // always supported; paces the loop to the display
    info.clipped = VK_TRUE;
    info.oldSwapchain = swapchain_;
    VkSwapchainKHR created = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSwapchainKHR(context_.device(), &info, nullptr, &created));
    destroy();
    if (swapchain_) vkDestroySwapchainKHR(context_.device(), swapchain_, nullptr);
    swapchain_ = created;
    width_ = extent.width;
    height_ = extent.height;
    minImageCount_ = imageCount;

    uint32_t count = 0;
    VK_CHECK(vkGetSwapchainImagesKHR(context_.device(), swapchain_, &count, nullptr));
    std::vector<VkImage> handles(count);
    VK_CHECK(vkGetSwapchainImagesKHR(context_.device(), swapchain_, &count, handles.data()));
    for (uint32_t i = 0; i < count; ++i) {
        images_.push_back(gpu::Image::wrap(context_, handles[i], format_, width_, height_, fmt::format("swapchain image {}", i)));
        VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore s = VK_NULL_HANDLE;
        VK_CHECK(vkCreateSemaphore(context_.device(), &semaphoreInfo, nullptr, &s));
        renderFinished_.push_back(s);
    }
    ++generation_;
    return true;
}

std::optional<uint32_t> Swapchain::acquire(VkSemaphore acquired)
{
    uint32_t index = 0;
    const VkResult r = vkAcquireNextImageKHR(context_.device(), swapchain_, UINT64_MAX, acquired, VK_NULL_HANDLE, &index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) return std::nullopt;
    if (r != VK_SUBOPTIMAL_KHR) VK_CHECK(r);
    return index;
}

bool Swapchain::present(uint32_t index, VkSemaphore ready)
{
    VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &ready;
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain_;
    info.pImageIndices = &index;
    const VkResult r = vkQueuePresentKHR(context_.queue(), &info);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) return false;
    VK_CHECK(r);
    return true;
}

} // namespace floe::view
