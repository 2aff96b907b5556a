// Compute pipelines created on first use per (shader, specialization constants), so that a
// solver can switch kernels, dimensions or variants while it runs.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpu/Pipeline.h"

namespace floe::gpu {

class PipelineCache {
public:
    PipelineCache(Context& context, const ShaderLibrary& shaders) : context_(context), shaders_(shaders) {}
    const Pipeline& compute(const std::string& name, const std::vector<SpecConstant>& specialization = {});
    const ShaderLibrary& shaders() const { return shaders_; }

private:
    Context& context_;
    const ShaderLibrary& shaders_;
    std::map<std::pair<std::string, std::vector<std::pair<uint32_t, uint32_t>>>, Pipeline> pipelines_;
};

} // namespace floe::gpu
