// Frames in flight: each slot has a command buffer, a fence and a GPU timer. begin() waits for
// the slot's previous submission, so its timings and read-backs are ready when the caller
// collects them.
#pragma once

#include <memory>
#include <vector>

#include <volk.h>

#include "gpu/GpuTimer.h"

namespace floe::gpu {

class Context;

class FrameResources {
public:
    FrameResources(Context& context, uint32_t framesInFlight);
    ~FrameResources();
    FrameResources(const FrameResources&) = delete;
    FrameResources& operator=(const FrameResources&) = delete;

    uint32_t count() const { return static_cast<uint32_t>(slots_.size()); }
    // Waits for slot `index` (if it was submitted), resets its timer and begins its command buffer.
    VkCommandBuffer begin(uint32_t index);
    // Ends and submits the slot's command buffer with its fence; optionally waiting for `wait`
    // at `waitStages` (a swapchain image's acquisition) and signalling `signal` (for present).
    void submit(uint32_t index, VkSemaphore wait = VK_NULL_HANDLE, VkPipelineStageFlags2 waitStages = 0,
                VkSemaphore signal = VK_NULL_HANDLE);
    // Waits for the slot's last submission (no-op if none is pending). True if one was pending.
    bool wait(uint32_t index);
    void waitAll();
    GpuTimer& timer(uint32_t index) { return *slots_[index].timer; }

private:
    struct Slot {
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        bool pending = false;
        std::unique_ptr<GpuTimer> timer;
    };
    Context& context_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::vector<Slot> slots_;
};

} // namespace floe::gpu
