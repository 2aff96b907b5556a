// A buffer with its own memory, its render-graph identity and lazily created texel views.
// Every buffer may be bound as a storage buffer, a uniform or storage texel buffer and a
// transfer source or destination; which binding a pass uses is decided by the shader.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

namespace floe::gpu {

class Context;

enum class MemoryKind {
    DeviceLocal, // GPU-only data; uploads through a staging buffer
    Upload,      // host-visible, written by the CPU, read by the GPU (staging, per-frame constants)
    Readback,    // host-visible and cached, written by the GPU, read by the CPU
};

struct BufferDesc {
    std::string name;      // debug name: validation messages and RenderDoc
    VkDeviceSize size = 0; // bytes; 0 is allowed (a 16-byte buffer is made)
    MemoryKind memory = MemoryKind::DeviceLocal;
    VkFormat elementFormat = VK_FORMAT_R32_UINT; // texel format of views when a pass names none
    VkBufferUsageFlags extraUsage = 0;
};

class Buffer {
public:
    Buffer() = default;
    Buffer(Context& context, const BufferDesc& desc); // throws floe::Error when over a device limit
    ~Buffer();
    Buffer(Buffer&& other) noexcept { swap(other); }
    Buffer& operator=(Buffer&& other) noexcept
    {
        Buffer tmp(std::move(other));
        swap(tmp);
        return *this;
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    uint64_t id() const { return id_; }
    const std::string& name() const { return name_; }
    VkFormat elementFormat() const { return elementFormat_; }
    bool valid() const { return buffer_ != VK_NULL_HANDLE; }
    bool hostVisible() const { return mapped_ != nullptr; }
    bool hostCoherent() const { return coherent_; } // false: write() flushes, read() invalidates

    // A texel view of the whole buffer in `format` (created on first use, owned by the buffer).
    VkBufferView view(VkFormat format) const;

    // Host access for Upload/Readback buffers. Callers synchronise through the render graph
    // (RenderGraph::addHostRead) and fences.
    void* mapped() const { return mapped_; }
    void write(const void* data, VkDeviceSize bytes, VkDeviceSize offset = 0);
    void read(void* data, VkDeviceSize bytes, VkDeviceSize offset = 0) const;
    template <class T> void writeSpan(std::span<const T> data, VkDeviceSize offsetElements = 0)
    {
        write(data.data(), data.size_bytes(), offsetElements * sizeof(T));
    }
    template <class T> std::vector<T> readVector(size_t count, VkDeviceSize offsetElements = 0) const
    {
        std::vector<T> out(count);
        read(out.data(), count * sizeof(T), offsetElements * sizeof(T));
        return out;
    }

private:
    void swap(Buffer& o) noexcept
    {
        std::swap(device_, o.device_);
        std::swap(buffer_, o.buffer_);
        std::swap(memory_, o.memory_);
        std::swap(size_, o.size_);
        std::swap(id_, o.id_);
        std::swap(name_, o.name_);
        std::swap(elementFormat_, o.elementFormat_);
        std::swap(mapped_, o.mapped_);
        std::swap(coherent_, o.coherent_);
        std::swap(views_, o.views_);
        std::swap(context_, o.context_);
    }

    Context* context_ = nullptr;
    VkDevice device_ = VK_NULL_HANDLE;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    uint64_t id_ = 0;
    std::string name_;
    VkFormat elementFormat_ = VK_FORMAT_R32_UINT;
    void* mapped_ = nullptr;
    bool coherent_ = true;
    mutable std::vector<std::pair<VkFormat, VkBufferView>> views_;
};

// Bytes per texel of the formats Floe uses for texel buffers.
uint32_t texelSize(VkFormat format);

} // namespace floe::gpu
