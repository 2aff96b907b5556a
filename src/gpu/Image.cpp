#include "gpu/Image.h"

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Check.h"
#include "gpu/Context.h"

namespace floe::gpu {

namespace {

VkImageView createView(VkDevice device, VkImage image, VkFormat format, VkImageAspectFlags aspect)
{
    VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image;
    info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    info.format = format;
    info.subresourceRange = {aspect, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    VK_CHECK(vkCreateImageView(device, &info, nullptr, &view));
    return view;
}

} // namespace

bool isDepthFormat(VkFormat format)
{
    return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D24_UNORM_S8_UINT ||
           format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

Image::Image(Context& context, const ImageDesc& desc)
    : device_(context.device()), format_(desc.format), width_(desc.width), height_(desc.height), name_(desc.name)
{
    const uint32_t maxDim = context.limits().maxImageDimension2D;
    if (desc.width == 0 || desc.height == 0 || desc.width > maxDim || desc.height > maxDim)
        throw Error(fmt::format("image '{}' of {}x{} pixels: each side must be 1..{} on this device", desc.name, desc.width,
                                desc.height, maxDim));
    aspect_ = isDepthFormat(desc.format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;

    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = desc.format;
    info.extent = {desc.width, desc.height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = desc.usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VK_CHECK(vkCreateImage(device_, &info, nullptr, &image_));

    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(device_, image_, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = context.findMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    const VkResult result = vkAllocateMemory(device_, &alloc, nullptr, &memory_);
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY)
        throw Error(fmt::format("out of device memory allocating image '{}' ({}x{})", desc.name, desc.width, desc.height));
    VK_CHECK(result);
    VK_CHECK(vkBindImageMemory(device_, image_, memory_, 0));

    view_ = createView(device_, image_, desc.format, aspect_);

    id_ = context.newResourceId();
    context.setObjectName(VK_OBJECT_TYPE_IMAGE, reinterpret_cast<uint64_t>(image_), name_);
    context.setObjectName(VK_OBJECT_TYPE_IMAGE_VIEW, reinterpret_cast<uint64_t>(view_), name_ + " view");
}

Image Image::wrap(Context& context, VkImage image, VkFormat format, uint32_t width, uint32_t height, const std::string& name)
{
    Image out;
    out.device_ = context.device();
    out.image_ = image;
    out.format_ = format;
    out.width_ = width;
    out.height_ = height;
    out.name_ = name;
    out.owned_ = false;
    out.aspect_ = isDepthFormat(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    out.view_ = createView(out.device_, image, format, out.aspect_);
    out.id_ = context.newResourceId();
    context.setObjectName(VK_OBJECT_TYPE_IMAGE_VIEW, reinterpret_cast<uint64_t>(out.view_), name + " view");
    return out;
}

Image::~Image()
{
    if (!device_) return;
    if (view_) vkDestroyImageView(device_, view_, nullptr);
    if (!owned_) return;
    if (image_) vkDestroyImage(device_, image_, nullptr);
    if (memory_) vkFreeMemory(device_, memory_, nullptr);
}

} // namespace floe::gpu
