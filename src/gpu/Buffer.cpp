#include "gpu/Buffer.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Check.h"
#include "gpu/Context.h"

namespace floe::gpu {

uint32_t texelSize(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_R32_UINT:
    case VK_FORMAT_R32_SINT:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R8G8B8A8_UNORM: return 4;
    case VK_FORMAT_R32G32_UINT:
    case VK_FORMAT_R32G32_SFLOAT: return 8;
    case VK_FORMAT_R32G32B32A32_UINT:
    case VK_FORMAT_R32G32B32A32_SINT:
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    default: return 0;
    }
}

Buffer::Buffer(Context& context, const BufferDesc& desc)
    : context_(&context), device_(context.device()), size_(desc.size), name_(desc.name), elementFormat_(desc.elementFormat)
{
    const VkDeviceSize allocSize = std::max<VkDeviceSize>(16, (desc.size + 15) & ~VkDeviceSize(15));
    const VkDeviceSize maxAllocation = context.caps().maxMemoryAllocationSize;
    if (maxAllocation && allocSize > maxAllocation)
        throw Error(fmt::format("buffer '{}' needs {} bytes, over this device's maxMemoryAllocationSize of {} bytes", name_,
                                desc.size, maxAllocation));

    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = allocSize;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                 VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                 VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | desc.extraUsage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VK_CHECK(vkCreateBuffer(device_, &info, nullptr, &buffer_));

    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device_, buffer_, &req);
    VkMemoryPropertyFlags required = 0;
    VkMemoryPropertyFlags preferred = 0;
    switch (desc.memory) {
    case MemoryKind::DeviceLocal: preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
    case MemoryKind::Upload:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case MemoryKind::Readback:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    }
    const uint32_t type = context.findMemoryType(req.memoryTypeBits, required, preferred);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    const VkResult result = vkAllocateMemory(device_, &alloc, nullptr, &memory_);
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) {
        vkDestroyBuffer(device_, buffer_, nullptr);
        buffer_ = VK_NULL_HANDLE;
        throw Error(fmt::format("out of device memory allocating {} bytes for buffer '{}'", req.size, name_));
    }
    VK_CHECK(result);
    VK_CHECK(vkBindBufferMemory(device_, buffer_, memory_, 0));
    if (desc.memory != MemoryKind::DeviceLocal) {
        VK_CHECK(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
        coherent_ = (context.memoryFlags(type) & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0 && !context.caps().forceNonCoherent;
    }
    id_ = context.newResourceId();
    context.setObjectName(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer_), name_);
    if (context.caps().poison) {
        // Test builds: unwritten memory reads as NaN / 0xFFFFFFFF, never as a driver's zeros. The
        // barrier makes the fill visible to every later command on the queue, in later
        // submissions too.
        if (mapped_) {
            std::memset(mapped_, context.caps().poisonByte, allocSize);
            if (!coherent_) {
                const VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, memory_, 0, VK_WHOLE_SIZE};
                VK_CHECK(vkFlushMappedMemoryRanges(device_, 1, &range));
            }
        } else {
            context.submitAndWait([&](VkCommandBuffer cmd) {
                vkCmdFillBuffer(cmd, buffer_, 0, VK_WHOLE_SIZE, 0x01010101u * context.caps().poisonByte);
                VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
                barrier.srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
                barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
                barrier.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
                barrier.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
                VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
                dependency.memoryBarrierCount = 1;
                dependency.pMemoryBarriers = &barrier;
                vkCmdPipelineBarrier2(cmd, &dependency);
            });
        }
    }
}

Buffer::~Buffer()
{
    if (!device_) return;
    for (auto& [format, view] : views_) vkDestroyBufferView(device_, view, nullptr);
    if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_) vkFreeMemory(device_, memory_, nullptr);
}

VkBufferView Buffer::view(VkFormat format) const
{
    for (const auto& [f, v] : views_)
        if (f == format) return v;
    VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = buffer_;
    info.format = format;
    info.offset = 0;
    // The view covers whole texels only; the spec's maxTexelBufferElements was checked by the
    // owner of the data before it sized this buffer.
    const uint32_t texel = texelSize(format);
    const VkDeviceSize bytes = std::max<VkDeviceSize>(16, (size_ + 15) & ~VkDeviceSize(15));
    info.range = texel ? (bytes / texel) * texel : VK_WHOLE_SIZE;
    const uint32_t maxTexels = context_->limits().maxTexelBufferElements;
    if (texel && bytes / texel > maxTexels)
        throw Error(fmt::format("buffer '{}' holds {} texels, over this device's maxTexelBufferElements of {}", name_,
                                bytes / texel, maxTexels));
    VkBufferView view = VK_NULL_HANDLE;
    VK_CHECK(vkCreateBufferView(device_, &info, nullptr, &view));
    context_->setObjectName(VK_OBJECT_TYPE_BUFFER_VIEW, reinterpret_cast<uint64_t>(view), name_ + " view");
    views_.emplace_back(format, view);
    return view;
}

void Buffer::write(const void* data, VkDeviceSize bytes, VkDeviceSize offset)
{
    if (!mapped_) vkFatal(VK_ERROR_MEMORY_MAP_FAILED, "Buffer::write on a device-local buffer", __FILE__, __LINE__);
    if (offset + bytes > size_) vkFatal(VK_ERROR_UNKNOWN, "Buffer::write past the end", __FILE__, __LINE__);
    if (bytes) std::memcpy(static_cast<char*>(mapped_) + offset, data, bytes);
    if (!coherent_) {
        VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
        range.memory = memory_;
        range.size = VK_WHOLE_SIZE;
        VK_CHECK(vkFlushMappedMemoryRanges(device_, 1, &range));
    }
}

void Buffer::read(void* data, VkDeviceSize bytes, VkDeviceSize offset) const
{
    if (!mapped_) vkFatal(VK_ERROR_MEMORY_MAP_FAILED, "Buffer::read on a device-local buffer", __FILE__, __LINE__);
    if (offset + bytes > size_) vkFatal(VK_ERROR_UNKNOWN, "Buffer::read past the end", __FILE__, __LINE__);
    if (!coherent_) {
        VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
        range.memory = memory_;
        range.size = VK_WHOLE_SIZE;
        VK_CHECK(vkInvalidateMappedMemoryRanges(device_, 1, &range));
    }
    if (bytes) std::memcpy(data, static_cast<const char*>(mapped_) + offset, bytes);
}

} // namespace floe::gpu
