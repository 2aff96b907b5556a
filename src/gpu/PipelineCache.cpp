#include "gpu/PipelineCache.h"

namespace floe::gpu {

const Pipeline& PipelineCache::compute(const std::string& name, const std::vector<SpecConstant>& specialization)
{
    std::vector<std::pair<uint32_t, uint32_t>> key;
    for (const SpecConstant& c : specialization) key.emplace_back(c.id, c.value);
    auto it = pipelines_.find({name, key});
    if (it != pipelines_.end()) return it->second;
    return pipelines_.emplace(std::make_pair(name, key), createComputePipeline(context_, shaders_, name, specialization))
        .first->second;
}

} // namespace floe::gpu
