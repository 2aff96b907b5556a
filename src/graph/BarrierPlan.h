// Turns the resource uses a pass declares into the barriers recorded before it, keeping every
// resource's state between passes and between frames. Buffer dependencies (and image ones
// without a layout change) merge into one global memory barrier per pass; layout changes get
// one image barrier each. Pure bookkeeping: no Vulkan calls, tested without a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "graph/Access.h"

namespace floe::graph {

struct ResourceUse {
    uint64_t resource = 0; // Buffer::id() / Image::id()
    bool image = false;
    Access access;
};

struct ImageBarrier {
    uint64_t resource = 0;
    Dependency dependency;
};

struct PassBarriers {
    std::optional<Dependency> memory; // one VkMemoryBarrier2 for all buffers
    std::vector<ImageBarrier> images; // one VkImageMemoryBarrier2 per layout change
    bool empty() const { return !memory && images.empty(); }
};

class BarrierPlanner {
public:
    // Plans the barriers for one pass and advances the states. Uses of the same resource within
    // a pass are combined (their layouts must agree; std::logic_error otherwise).
    PassBarriers plan(std::span<const ResourceUse> uses);
    ResourceState state(uint64_t resource) const;
    // Forget a resource (destroyed, or its contents and layout are to be treated as new).
    void forget(uint64_t resource) { states_.erase(resource); }
    // Sets a resource's state from outside the graph (a swapchain image just acquired: its
    // contents are undefined and the acquire semaphore's wait at `stages` stands for the write).
    void reset(uint64_t resource, const ResourceState& state) { states_[resource] = state; }

private:
    std::unordered_map<uint64_t, ResourceState> states_;
};

} // namespace floe::graph
