// The render graph: a frame is a list of named passes, each declaring the buffers and images it
// reads and writes. execute() records them in order and inserts every barrier from the pure
// transition() policy (graph/Access.h); no other code in Floe records a barrier. Resource states
// persist across frames, so work split over several command buffers stays correct.
//
// Descriptor kinds come from the shaders (SPIR-V reflection): read() on a uniform texel binding
// gets a texel view, on a storage buffer an SSBO range. Binding a write to a readonly binding,
// leaving a shader binding unbound, or naming a binding the shader lacks is a programming error
// (std::logic_error naming the pass and binding).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec4.hpp>
#include <volk.h>

#include "gpu/GpuTimer.h"
#include "graph/BarrierPlan.h"

namespace floe::gpu {
class Buffer;
class Context;
class GpuTimer;
class Image;
class Pipeline;
} // namespace floe::gpu

namespace floe::graph {

class RenderGraph;

// What execute() recorded (the launch budget): cumulative until resetStats().
struct RecordStats {
    uint64_t dispatches = 0;            // compute dispatches, direct and indirect, outside conditional regions
    uint64_t conditionalDispatches = 0; // inside conditional regions: skipped on the GPU when their predicate is 0
    uint64_t draws = 0;
    uint64_t transfers = 0; // fills, copies, blits
    uint64_t barriers = 0;  // vkCmdPipelineBarrier2 calls
    uint64_t timestamps = 0;
    RecordStats& operator+=(const RecordStats& o)
    {
        dispatches += o.dispatches;
        conditionalDispatches += o.conditionalDispatches;
        draws += o.draws;
        transfers += o.transfers;
        barriers += o.barriers;
        timestamps += o.timestamps;
        return *this;
    }
};

class PassBuilder {
public:
    PassBuilder& read(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat = VK_FORMAT_UNDEFINED);
    PassBuilder& write(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat = VK_FORMAT_UNDEFINED);
    PassBuilder& readWrite(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat = VK_FORMAT_UNDEFINED);
    template <class T> PassBuilder& push(const T& constants)
    {
        static_assert(sizeof(T) <= 128, "push constants are at most 128 bytes");
        return pushBytes(&constants, sizeof(T));
    }
    PassBuilder& pushBytes(const void* data, uint32_t bytes);

    // Compute passes.
    void dispatch(uint32_t groupsX, uint32_t groupsY = 1, uint32_t groupsZ = 1);
    // ceil(threads / local size) workgroups, folded into 2D when over maxComputeWorkGroupCount[0];
    // shaders index with floeGlobalIndex() (shaders/common/dispatch.glsl) and bounds-check.
    void dispatchThreads(uint64_t threads);
    // Group counts read by the GPU from `arguments` at `offset` (VkDispatchIndirectCommand), so
    // that GPU-side logic can shrink or skip the dispatch.
    void dispatchIndirect(const gpu::Buffer& arguments, VkDeviceSize offset);

    // Graphics passes (dynamic rendering, one draw per pass).
    PassBuilder& color(const gpu::Image& image, std::optional<glm::vec4> clear = std::nullopt);
    PassBuilder& depth(const gpu::Image& image, std::optional<float> clear = std::nullopt);
    void draw(uint32_t vertexCount, uint32_t instanceCount = 1);

private:
    friend class RenderGraph;
    PassBuilder(RenderGraph& graph, size_t pass) : graph_(graph), pass_(pass) {}
    PassBuilder& bind(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat, bool reads, bool writes);
    void finish();
    RenderGraph& graph_;
    size_t pass_;
};

class RenderGraph {
public:
    explicit RenderGraph(gpu::Context& context);

    PassBuilder addCompute(const gpu::Pipeline& pipeline); // the pass is named after the pipeline
    PassBuilder addGraphics(const gpu::Pipeline& pipeline);
    void addFill(const std::string& name, const gpu::Buffer& buffer, uint32_t value);
    void addCopy(const std::string& name, const gpu::Buffer& src, const gpu::Buffer& dst, VkDeviceSize bytes,
                 VkDeviceSize srcOffset = 0, VkDeviceSize dstOffset = 0);
    void addCopyImageToBuffer(const std::string& name, const gpu::Image& src, const gpu::Buffer& dst);
    // Copies `src` into `dst` (same size or scaled, formats converted, e.g. RGBA to BGRA).
    void addBlit(const std::string& name, const gpu::Image& src, const gpu::Image& dst);
    // Clears `dst` to `clear` (linear RGBA) and copies `src` (no wider or taller than `dst`) into
    // its top-left corner: a picture beside a panel that covers the rest.
    void addBlitBeside(const std::string& name, const gpu::Image& src, const gpu::Image& dst, const glm::vec4& clear);
    // Makes the buffer's device writes visible to the host once the command buffer's fence signals.
    void addHostRead(const gpu::Buffer& buffer);
    // A pass recorded by a callback (e.g. a UI renderer) with declared uses; still synchronised
    // here. Images among the uses are listed in `images` (for their layout transitions).
    void addCustom(const std::string& name, std::vector<ResourceUse> uses, std::function<void(VkCommandBuffer)> record,
                   std::vector<const gpu::Image*> images = {});
    // Swapchain images: acquired() before the first pass that uses an image just acquired (its
    // contents are undefined; the acquire semaphore is waited for at `waitStages`), and
    // addPresent() after its last use (layout PRESENT_SRC_KHR).
    void acquired(const gpu::Image& image, VkPipelineStageFlags2 waitStages);
    void addPresent(const gpu::Image& image);

    // Conditional rendering (VK_EXT_conditional_rendering): the dispatches between these are
    // skipped by the GPU when the 32-bit value at `offset` in `predicate` is 0 at the region's
    // start (nothing else in the region may write it). The predicate must have been created with
    // VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT (BufferDesc::extraUsage).
    // Barriers inside still execute. Without the feature both calls add nothing, and the region's
    // dispatches always run. Regions do not nest.
    void beginConditional(const gpu::Buffer& predicate, VkDeviceSize offset);
    void endConditional();
    bool conditionalRendering() const;

    // Which timestamps execute() writes with a timer (the default is Pass).
    void setTimerMode(gpu::TimerMode mode) { timerMode_ = mode; }
    gpu::TimerMode timerMode() const { return timerMode_; }
    const RecordStats& stats() const { return stats_; }
    void resetStats() { stats_ = {}; }

    // Groups share one timer row and one debug label (e.g. all passes of one primitive call or
    // one batch of solver iterations); passes inside a group are not timed one by one.
    void beginGroup(const std::string& name);
    void endGroup();

    // Records all passes added since the last execute into `cmd` and clears the list. With a
    // timer, each top-level pass or group gets a timestamp scope.
    void execute(VkCommandBuffer cmd, gpu::GpuTimer* timer = nullptr);
    // The barriers execute() would record for the pending passes, without recording (tests).
    std::vector<PassBarriers> plan() const;
    size_t pendingPasses() const { return passes_.size(); }
    std::vector<std::string> pendingPassNames() const;
    // The rows a timer would get for the pending passes from index `first` on (pendingPasses()
    // before they were added): top-level passes and outermost groups.
    std::vector<std::string> pendingTimerNames(size_t first = 0) const;
    // Drops the pending passes from index `first` on (all of them by default) without recording
    // them; resource states are unchanged. A caller that records a step only to learn its passes'
    // names drops that step alone: passes recorded before it (a buffer's first clear, an upload)
    // still run. Those after `first` must have closed their groups and conditional regions.
    void discard(size_t first = 0);
    void forget(uint64_t resource) { planner_.forget(resource); }

private:
    friend class PassBuilder;
    enum class Kind {
        Compute,
        Graphics,
        Fill,
        Copy,
        CopyImage,
        Blit,
        HostRead,
        Custom,
        Present,
        BeginGroup,
        EndGroup,
        BeginConditional,
        EndConditional
    };
    struct Descriptor {
        uint32_t binding = 0;
        VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceSize range = 0;
        VkBufferView view = VK_NULL_HANDLE;
    };
    struct Attachment {
        VkImage image = VK_NULL_HANDLE;
        VkImageView view = VK_NULL_HANDLE;
        VkImageAspectFlags aspect = 0;
        uint32_t width = 0, height = 0;
        bool clear = false;
        VkClearValue clearValue{};
    };
    struct Pass {
        Kind kind = Kind::Compute;
        std::string name;
        const gpu::Pipeline* pipeline = nullptr;
        std::vector<Descriptor> descriptors;
        std::vector<ResourceUse> uses;
        std::array<uint8_t, 128> push{};
        uint32_t pushSize = 0;
        std::array<uint32_t, 3> groups{0, 0, 0};
        VkBuffer indirect = VK_NULL_HANDLE;
        VkDeviceSize indirectOffset = 0;
        uint32_t vertexCount = 0, instanceCount = 0;
        std::optional<Attachment> color, depth;
        VkBuffer src = VK_NULL_HANDLE, dst = VK_NULL_HANDLE;
        VkImage srcImage = VK_NULL_HANDLE, dstImage = VK_NULL_HANDLE;
        uint32_t dstWidth = 0, dstHeight = 0;
        std::optional<glm::vec4> clearDst; // Blit: clear dst first, then copy src 1:1 into its corner
        VkImageAspectFlags srcAspect = 0;
        uint32_t width = 0, height = 0;
        VkDeviceSize bytes = 0, srcOffset = 0, dstOffset = 0;
        uint32_t fillValue = 0;
        std::function<void(VkCommandBuffer)> record;
        struct ImageRef {
            uint64_t resource;
            VkImage image;
            VkImageAspectFlags aspect;
        };
        std::vector<ImageRef> images; // handles for the image barriers of this pass
        bool finished = false;
    };
    void recordPass(VkCommandBuffer cmd, const Pass& pass);
    // A blit of all of src into dst's top-left dstWidth x dstHeight, after clearing dst to `clear`.
    void addBlitPass(const std::string& name, const gpu::Image& src, const gpu::Image& dst, uint32_t dstWidth, uint32_t dstHeight,
                     const std::optional<glm::vec4>& clear);
    static VkPipelineStageFlags2 passStages(const Pass& pass);
    void recordBarriers(VkCommandBuffer cmd, const Pass& pass, const PassBarriers& barriers) const;
    void checkOpenBuilder() const;

    gpu::Context& context_;
    BarrierPlanner planner_;
    std::vector<Pass> passes_;
    int groupDepth_ = 0;
    bool conditionalOpen_ = false;
    gpu::TimerMode timerMode_ = gpu::TimerMode::Pass;
    RecordStats stats_;
};

} // namespace floe::graph
