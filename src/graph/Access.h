// The one synchronization policy of Floe. A resource's ResourceState records its last write and
// the reads since; transition() turns the next use into the dependency it needs (or none) and
// the new state. Pure: no Vulkan calls, unit-tested without a GPU (tests/cpu/AccessTest.cpp).
//
// Rules (Vulkan spec, "Synchronization and Cache Control"):
//  - read after write: an execution + memory dependency from the write to the read, once per
//    reading stage/access (later reads by stages that already saw the write need nothing);
//  - write after read: an execution dependency from the readers (memory is already available);
//  - write after write (including two read-write dispatches in a row, which the validation
//    layer does not report): execution + memory dependency from the earlier write;
//  - an image layout change is a write: it always needs a dependency;
//  - host accesses are ordered by queue submission and fences, never by barriers; a device write
//    followed by a host read needs a dependency to the HOST stage before the fence.
#pragma once

#include <optional>

#include <vulkan/vulkan_core.h>

namespace floe::graph {

struct Access {
    VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED; // images only
    bool discard = false;                             // images: the previous contents are not needed (cleared or overwritten)
};

struct ResourceState {
    VkPipelineStageFlags2 writeStages = VK_PIPELINE_STAGE_2_NONE; // last write (or layout change)
    VkAccessFlags2 writeAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 readStages = VK_PIPELINE_STAGE_2_NONE; // reads since that write
    VkAccessFlags2 readAccess = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    bool operator==(const ResourceState&) const = default;
};

struct Dependency {
    VkPipelineStageFlags2 srcStages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 srcAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 dstStages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 dstAccess = VK_ACCESS_2_NONE;
    VkImageLayout oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout newLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    bool operator==(const Dependency&) const = default;
};

struct Transition {
    std::optional<Dependency> dependency;
    ResourceState next;
};

bool isWriteAccess(VkAccessFlags2 access);
Transition transition(const ResourceState& state, const Access& use);

} // namespace floe::graph
