#include "gpu/Pipeline.h"

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Check.h"
#include "gpu/Context.h"
#include "gpu/ShaderLibrary.h"

namespace floe::gpu {
namespace {

struct Module {
    VkDevice device;
    VkShaderModule module = VK_NULL_HANDLE;
    ShaderInterface iface;
    Module(Context& context, const ShaderLibrary& shaders, const std::string& file) : device(context.device())
    {
        const std::vector<uint32_t> words = shaders.load(file);
        iface = reflectSpirv(words, file);
        VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        info.codeSize = words.size() * sizeof(uint32_t);
        info.pCode = words.data();
        VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
    }
    ~Module() { vkDestroyShaderModule(device, module, nullptr); }
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
};

struct Specialization {
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> data;
    VkSpecializationInfo info{};
    explicit Specialization(std::span<const SpecConstant> constants)
    {
        for (const SpecConstant& c : constants) {
            entries.push_back({c.id, static_cast<uint32_t>(data.size() * sizeof(uint32_t)), sizeof(uint32_t)});
            data.push_back(c.value);
        }
        info.mapEntryCount = static_cast<uint32_t>(entries.size());
        info.pMapEntries = entries.data();
        info.dataSize = data.size() * sizeof(uint32_t);
        info.pData = data.data();
    }
};

void mergeBindings(std::vector<ShaderBinding>& into, const ShaderInterface& iface, const std::string& name)
{
    for (const ShaderBinding& b : iface.bindings) {
        bool merged = false;
        for (ShaderBinding& existing : into)
            if (existing.binding == b.binding) {
                if (existing.type != b.type)
                    throw Error(fmt::format("{}: binding {} has different descriptor types in its stages", name, b.binding),
                                ExitCode::Failure);
                existing.stages |= b.stages;
                existing.readOnly = existing.readOnly && b.readOnly;
                merged = true;
            }
        if (!merged) into.push_back(b);
    }
}

} // namespace

const ShaderBinding* Pipeline::binding(uint32_t index) const
{
    for (const ShaderBinding& b : bindings_)
        if (b.binding == index) return &b;
    return nullptr;
}

Pipeline::~Pipeline()
{
    if (!device_) return;
    vkDestroyPipeline(device_, pipeline_, nullptr);
    vkDestroyPipelineLayout(device_, layout_, nullptr);
    vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
}

void Pipeline::createLayout(Context& context)
{
    device_ = context.device();
    if (bindings_.size() > 32)
        throw Error(fmt::format("{}: {} bindings, over the 32 push descriptors Floe relies on", name_, bindings_.size()),
                    ExitCode::Failure);
    std::vector<VkDescriptorSetLayoutBinding> layoutBindings;
    for (const ShaderBinding& b : bindings_) layoutBindings.push_back({b.binding, b.type, 1, b.stages, nullptr});
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = static_cast<uint32_t>(layoutBindings.size());
    setInfo.pBindings = layoutBindings.data();
    VK_CHECK(vkCreateDescriptorSetLayout(device_, &setInfo, nullptr, &setLayout_));

    if (pushBytes_ > context.limits().maxPushConstantsSize)
        throw Error(fmt::format("{}: {} bytes of push constants, over this device's {}", name_, pushBytes_,
                                context.limits().maxPushConstantsSize),
                    ExitCode::Failure);
    VkPushConstantRange range{pushStages_, 0, pushBytes_};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout_;
    layoutInfo.pushConstantRangeCount = pushBytes_ ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    VK_CHECK(vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout_));
    context.setObjectName(VK_OBJECT_TYPE_PIPELINE_LAYOUT, reinterpret_cast<uint64_t>(layout_), name_);
}

Pipeline createComputePipeline(Context& context, const ShaderLibrary& shaders, const std::string& name,
                               std::span<const SpecConstant> specialization)
{
    Module module(context, shaders, name + ".comp");
    Pipeline p;
    p.name_ = name;
    p.bindPoint_ = VK_PIPELINE_BIND_POINT_COMPUTE;
    p.bindings_ = module.iface.bindings;
    p.pushBytes_ = module.iface.pushConstantBytes;
    p.pushStages_ = VK_SHADER_STAGE_COMPUTE_BIT;
    p.localSize_ = module.iface.localSize;
    const uint64_t invocations = uint64_t(p.localSize_[0]) * p.localSize_[1] * p.localSize_[2];
    if (invocations == 0 || invocations > context.limits().maxComputeWorkGroupInvocations)
        throw Error(fmt::format("{}: workgroup of {}x{}x{} invocations; this device allows 1..{}", name, p.localSize_[0],
                                p.localSize_[1], p.localSize_[2], context.limits().maxComputeWorkGroupInvocations),
                    ExitCode::Failure);
    p.createLayout(context);

    Specialization spec(specialization);
    VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    // Workgroups made of whole subgroups: the primitives index their data by subgroup so that
    // the result does not depend on how invocations are mapped to subgroups.
    const uint32_t maxSubgroup = context.caps().maxSubgroupSize;
    if (maxSubgroup && p.localSize_[0] % maxSubgroup == 0) stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    stage.module = module.module;
    stage.pName = "main";
    stage.pSpecializationInfo = specialization.empty() ? nullptr : &spec.info;
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = stage;
    info.layout = p.layout_;
    VK_CHECK(vkCreateComputePipelines(context.device(), VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline_));
    context.setObjectName(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<uint64_t>(p.pipeline_), name);
    return p;
}

struct GraphicsPipelineBuilder {
    static Pipeline build(Context& context, const ShaderLibrary& shaders, const GraphicsPipelineDesc& desc)
    {
        Module vert(context, shaders, (desc.vertex.empty() ? desc.name : desc.vertex) + ".vert");
        Module frag(context, shaders, desc.name + ".frag");
        Pipeline p;
        p.name_ = desc.name;
        p.bindPoint_ = VK_PIPELINE_BIND_POINT_GRAPHICS;
        mergeBindings(p.bindings_, vert.iface, desc.name);
        mergeBindings(p.bindings_, frag.iface, desc.name);
        p.pushBytes_ = std::max(vert.iface.pushConstantBytes, frag.iface.pushConstantBytes);
        p.pushStages_ = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
        p.createLayout(context);

        Specialization spec(desc.specialization);
        VkPipelineShaderStageCreateInfo stages[2]{};
        for (int i = 0; i < 2; ++i) {
            stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
            stages[i].stage = i == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
            stages[i].module = i == 0 ? vert.module : frag.module;
            stages[i].pName = "main";
            stages[i].pSpecializationInfo = desc.specialization.empty() ? nullptr : &spec.info;
        }
        VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
        VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
        assembly.topology = desc.topology;
        VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
        viewport.viewportCount = 1;
        viewport.scissorCount = 1;
        VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
        raster.polygonMode = VK_POLYGON_MODE_FILL;
        raster.cullMode = desc.cullMode;
        raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
        raster.lineWidth = 1.0f;
        VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
        multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
        VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
        depth.depthTestEnable = desc.depthTest && desc.depthFormat != VK_FORMAT_UNDEFINED;
        depth.depthWriteEnable = desc.depthWrite && desc.depthFormat != VK_FORMAT_UNDEFINED;
        depth.depthCompareOp = desc.depthCompare;
        VkPipelineColorBlendAttachmentState blend{};
        blend.colorWriteMask =
            VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
        if (desc.blend != GraphicsPipelineDesc::Blend::None) {
            blend.blendEnable = VK_TRUE;
            const bool additive = desc.blend == GraphicsPipelineDesc::Blend::Additive;
            blend.srcColorBlendFactor = additive ? VK_BLEND_FACTOR_ONE : VK_BLEND_FACTOR_SRC_ALPHA;
            blend.dstColorBlendFactor = additive ? VK_BLEND_FACTOR_ONE : VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
            blend.colorBlendOp = VK_BLEND_OP_ADD;
            blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
            blend.dstAlphaBlendFactor = additive ? VK_BLEND_FACTOR_ONE : VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
            blend.alphaBlendOp = VK_BLEND_OP_ADD;
        }
        VkPipelineColorBlendStateCreateInfo colorBlend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
        colorBlend.attachmentCount = desc.colorFormat != VK_FORMAT_UNDEFINED ? 1 : 0;
        colorBlend.pAttachments = &blend;
        const VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
        VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
        dynamic.dynamicStateCount = 2;
        dynamic.pDynamicStates = dynamicStates;
        VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
        rendering.colorAttachmentCount = colorBlend.attachmentCount;
        rendering.pColorAttachmentFormats = &desc.colorFormat;
        rendering.depthAttachmentFormat = desc.depthFormat;

        VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
        info.pNext = &rendering;
        info.stageCount = 2;
        info.pStages = stages;
        info.pVertexInputState = &vertexInput;
        info.pInputAssemblyState = &assembly;
        info.pViewportState = &viewport;
        info.pRasterizationState = &raster;
        info.pMultisampleState = &multisample;
        info.pDepthStencilState = &depth;
        info.pColorBlendState = &colorBlend;
        info.pDynamicState = &dynamic;
        info.layout = p.layout_;
        VK_CHECK(vkCreateGraphicsPipelines(context.device(), VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline_));
        context.setObjectName(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<uint64_t>(p.pipeline_), desc.name);
        return p;
    }
};

Pipeline createGraphicsPipeline(Context& context, const ShaderLibrary& shaders, const GraphicsPipelineDesc& desc)
{
    return GraphicsPipelineBuilder::build(context, shaders, desc);
}

} // namespace floe::gpu
