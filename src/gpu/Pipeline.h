// Compute and graphics pipelines built from the build's SPIR-V, with a push-descriptor set
// layout and push-constant range taken from SPIR-V reflection, and specialization constants.
// A pipeline's name is its pass name: the shader path stem ("prim/scan_blocks").
#pragma once

#include <array>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

#include "gpu/SpirvReflect.h"

namespace floe::gpu {

class Context;
class ShaderLibrary;

struct SpecConstant {
    uint32_t id = 0;
    uint32_t value = 0; // floats as their bits (std::bit_cast)
};

class Pipeline {
public:
    Pipeline() = default;
    ~Pipeline();
    Pipeline(Pipeline&& o) noexcept { swap(o); }
    Pipeline& operator=(Pipeline&& o) noexcept
    {
        Pipeline tmp(std::move(o));
        swap(tmp);
        return *this;
    }
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    VkPipeline handle() const { return pipeline_; }
    VkPipelineLayout layout() const { return layout_; }
    VkPipelineBindPoint bindPoint() const { return bindPoint_; }
    const std::string& name() const { return name_; }
    const std::vector<ShaderBinding>& bindings() const { return bindings_; }
    const ShaderBinding* binding(uint32_t index) const;
    uint32_t pushConstantBytes() const { return pushBytes_; }
    VkShaderStageFlags pushStages() const { return pushStages_; }
    const std::array<uint32_t, 3>& localSize() const { return localSize_; }
    bool valid() const { return pipeline_ != VK_NULL_HANDLE; }

private:
    friend Pipeline createComputePipeline(Context&, const ShaderLibrary&, const std::string&, std::span<const SpecConstant>);
    friend struct GraphicsPipelineBuilder;
    void swap(Pipeline& o) noexcept
    {
        std::swap(device_, o.device_);
        std::swap(pipeline_, o.pipeline_);
        std::swap(layout_, o.layout_);
        std::swap(setLayout_, o.setLayout_);
        std::swap(bindPoint_, o.bindPoint_);
        std::swap(name_, o.name_);
        std::swap(bindings_, o.bindings_);
        std::swap(pushBytes_, o.pushBytes_);
        std::swap(pushStages_, o.pushStages_);
        std::swap(localSize_, o.localSize_);
    }
    void createLayout(Context& context);

    VkDevice device_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineBindPoint bindPoint_ = VK_PIPELINE_BIND_POINT_COMPUTE;
    std::string name_;
    std::vector<ShaderBinding> bindings_;
    uint32_t pushBytes_ = 0;
    VkShaderStageFlags pushStages_ = 0;
    std::array<uint32_t, 3> localSize_{1, 1, 1};
};

// `name` names <name>.comp.spv in the shader library. Throws floe::Error if it is missing.
Pipeline createComputePipeline(Context& context, const ShaderLibrary& shaders, const std::string& name,
                               std::span<const SpecConstant> specialization = {});

struct GraphicsPipelineDesc {
    std::string name;   // <name>.vert.spv and <name>.frag.spv
    std::string vertex; // when set: <vertex>.vert.spv instead (one vertex shader, several fragment shaders)
    std::vector<SpecConstant> specialization;
    VkFormat colorFormat = VK_FORMAT_UNDEFINED; // dynamic rendering formats
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
    bool depthTest = true;
    bool depthWrite = true;
    VkCompareOp depthCompare = VK_COMPARE_OP_LESS;
    enum class Blend { None, Alpha, Additive } blend = Blend::None;
};

Pipeline createGraphicsPipeline(Context& context, const ShaderLibrary& shaders, const GraphicsPipelineDesc& desc);

} // namespace floe::gpu
