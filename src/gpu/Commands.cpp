#include "gpu/Commands.h"

#include "gpu/Check.h"
#include "gpu/Context.h"

namespace floe::gpu {

FrameResources::FrameResources(Context& context, uint32_t framesInFlight) : context_(context)
{
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = context.queueFamily();
    VK_CHECK(vkCreateCommandPool(context.device(), &poolInfo, nullptr, &pool_));
    slots_.resize(framesInFlight);
    for (Slot& slot : slots_) {
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = pool_;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(context.device(), &alloc, &slot.cmd));
        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VK_CHECK(vkCreateFence(context.device(), &fenceInfo, nullptr, &slot.fence));
        slot.timer = std::make_unique<GpuTimer>(context);
    }
}

FrameResources::~FrameResources()
{
    waitAll();
    for (Slot& slot : slots_) vkDestroyFence(context_.device(), slot.fence, nullptr);
    vkDestroyCommandPool(context_.device(), pool_, nullptr);
}

bool FrameResources::wait(uint32_t index)
{
    Slot& slot = slots_[index];
    if (!slot.pending) return false;
    VK_CHECK(vkWaitForFences(context_.device(), 1, &slot.fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkResetFences(context_.device(), 1, &slot.fence));
    slot.pending = false;
    return true;
}

void FrameResources::waitAll()
{
    for (uint32_t i = 0; i < count(); ++i) wait(i);
}

VkCommandBuffer FrameResources::begin(uint32_t index)
{
    wait(index);
    Slot& slot = slots_[index];
    slot.timer->reset();
    VK_CHECK(vkResetCommandBuffer(slot.cmd, 0));
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(slot.cmd, &info));
    return slot.cmd;
}

void FrameResources::submit(uint32_t index, VkSemaphore wait, VkPipelineStageFlags2 waitStages, VkSemaphore signal)
{
    Slot& slot = slots_[index];
    VK_CHECK(vkEndCommandBuffer(slot.cmd));
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = slot.cmd;
    VkSubmitInfo2 submitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submitInfo.commandBufferInfoCount = 1;
    submitInfo.pCommandBufferInfos = &cmdInfo;
    VkSemaphoreSubmitInfo waitInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    waitInfo.semaphore = wait;
    waitInfo.stageMask = waitStages;
    VkSemaphoreSubmitInfo signalInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signalInfo.semaphore = signal;
    signalInfo.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    if (wait) {
        submitInfo.waitSemaphoreInfoCount = 1;
        submitInfo.pWaitSemaphoreInfos = &waitInfo;
    }
    if (signal) {
        submitInfo.signalSemaphoreInfoCount = 1;
        submitInfo.pSignalSemaphoreInfos = &signalInfo;
    }
    VK_CHECK(vkQueueSubmit2(context_.queue(), 1, &submitInfo, slot.fence));
    slot.pending = true;
}

} // namespace floe::gpu
