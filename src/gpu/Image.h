// A 2D image with its memory, one view and its render-graph identity (colour targets, depth
// buffers, later screen-space fluid intermediates).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <volk.h>

namespace floe::gpu {

class Context;

struct ImageDesc {
    std::string name;
    VkFormat format = VK_FORMAT_R8G8B8A8_SRGB;
    uint32_t width = 1;
    uint32_t height = 1;
    VkImageUsageFlags usage = 0;
};

class Image {
public:
    Image() = default;
    Image(Context& context, const ImageDesc& desc); // throws floe::Error over maxImageDimension2D
    // Wraps an image Floe does not own (a swapchain image): creates a view, and a render-graph
    // identity; the destructor destroys only the view.
    static Image wrap(Context& context, VkImage image, VkFormat format, uint32_t width, uint32_t height, const std::string& name);
    ~Image();
    Image(Image&& other) noexcept { swap(other); }
    Image& operator=(Image&& other) noexcept
    {
        Image tmp(std::move(other));
        swap(tmp);
        return *this;
    }
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;

    VkImage handle() const { return image_; }
    VkImageView view() const { return view_; }
    VkFormat format() const { return format_; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    uint64_t id() const { return id_; }
    const std::string& name() const { return name_; }
    VkImageAspectFlags aspect() const { return aspect_; }

private:
    void swap(Image& o) noexcept
    {
        std::swap(device_, o.device_);
        std::swap(image_, o.image_);
        std::swap(memory_, o.memory_);
        std::swap(view_, o.view_);
        std::swap(format_, o.format_);
        std::swap(width_, o.width_);
        std::swap(height_, o.height_);
        std::swap(id_, o.id_);
        std::swap(name_, o.name_);
        std::swap(aspect_, o.aspect_);
        std::swap(owned_, o.owned_);
    }

    VkDevice device_ = VK_NULL_HANDLE;
    VkImage image_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    uint32_t width_ = 0;
    uint32_t height_ = 0;
    uint64_t id_ = 0;
    std::string name_;
    VkImageAspectFlags aspect_ = VK_IMAGE_ASPECT_COLOR_BIT;
    bool owned_ = true;
};

bool isDepthFormat(VkFormat format);

} // namespace floe::gpu
