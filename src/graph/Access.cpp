#include "graph/Access.h"

namespace floe::graph {
namespace {

constexpr VkAccessFlags2 kWriteAccess = VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                        VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;

// Host accesses never appear in a barrier's source: the host only touches a resource after a
// fence wait, and vkQueueSubmit makes earlier host writes visible to the device.
constexpr VkPipelineStageFlags2 deviceStages(VkPipelineStageFlags2 stages)
{
    return stages & ~VK_PIPELINE_STAGE_2_HOST_BIT;
}

} // namespace

bool isWriteAccess(VkAccessFlags2 access)
{
    return (access & kWriteAccess) != 0;
}

Transition transition(const ResourceState& state, const Access& use)
{
    Transition t;
    const bool writes = isWriteAccess(use.access);
    const bool layoutChange = use.layout != state.layout;

    if (writes || layoutChange) {
        Dependency d;
        bool needed = layoutChange;
        if (deviceStages(state.readStages)) {
            // Write after read: the readers saw the last write already; only order execution.
            d.srcStages = deviceStages(state.readStages);
            needed = true;
        } else if (deviceStages(state.writeStages)) {
            // Write after write (or after a layout change).
            d.srcStages = deviceStages(state.writeStages);
            d.srcAccess = state.writeAccess;
            needed = true;
        }
        if (needed) {
            d.dstStages = use.stages;
            d.dstAccess = use.access;
            d.oldLayout = use.discard ? VK_IMAGE_LAYOUT_UNDEFINED : state.layout;
            d.newLayout = use.layout;
            t.dependency = d;
        }
        t.next.writeStages = use.stages;
        t.next.writeAccess = use.access & kWriteAccess;
        t.next.readStages = writes ? VK_PIPELINE_STAGE_2_NONE : use.stages;
        t.next.readAccess = writes ? VK_ACCESS_2_NONE : use.access;
        t.next.layout = use.layout;
        return t;
    }

    // Read in the same layout.
    t.next = state;
    t.next.readStages |= use.stages;
    t.next.readAccess |= use.access;
    if (!deviceStages(state.writeStages)) return t; // never written on the device: nothing to wait for
    const bool alreadyVisible = (use.stages & ~state.readStages) == 0 && (use.access & ~state.readAccess) == 0;
    if (alreadyVisible) return t;
    Dependency d;
    d.srcStages = deviceStages(state.writeStages);
    d.srcAccess = state.writeAccess;
    d.dstStages = use.stages;
    d.dstAccess = use.access;
    d.oldLayout = state.layout;
    d.newLayout = use.layout;
    t.dependency = d;
    return t;
}

} // namespace floe::graph
