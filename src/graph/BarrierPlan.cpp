#include "graph/BarrierPlan.h"

#include <stdexcept>
#include <string>

namespace floe::graph {

PassBarriers BarrierPlanner::plan(std::span<const ResourceUse> uses)
{
    // Combine the uses of each resource within the pass (a buffer bound twice, read and written).
    std::vector<ResourceUse> combined;
    combined.reserve(uses.size());
    for (const ResourceUse& u : uses) {
        bool merged = false;
        for (ResourceUse& c : combined)
            if (c.resource == u.resource) {
                if (c.image && c.access.layout != u.access.layout)
                    throw std::logic_error("render graph: image " + std::to_string(u.resource) +
                                           " used in two layouts in one pass");
                c.access.stages |= u.access.stages;
                c.access.access |= u.access.access;
                c.access.discard = c.access.discard && u.access.discard;
                merged = true;
                break;
            }
        if (!merged) combined.push_back(u);
    }

    PassBarriers barriers;
    for (const ResourceUse& u : combined) {
        const Transition t = transition(state(u.resource), u.access);
        states_[u.resource] = t.next;
        if (!t.dependency) continue;
        const Dependency& d = *t.dependency;
        if (u.image && d.oldLayout != d.newLayout) {
            barriers.images.push_back({u.resource, d});
            continue;
        }
        if (!barriers.memory) barriers.memory = Dependency{};
        barriers.memory->srcStages |= d.srcStages;
        barriers.memory->srcAccess |= d.srcAccess;
        barriers.memory->dstStages |= d.dstStages;
        barriers.memory->dstAccess |= d.dstAccess;
    }
    return barriers;
}

ResourceState BarrierPlanner::state(uint64_t resource) const
{
    auto it = states_.find(resource);
    return it == states_.end() ? ResourceState{} : it->second;
}

} // namespace floe::graph
