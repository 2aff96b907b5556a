// Minimal SPIR-V reflection: the descriptor bindings (kind, read-only, texel format), push
// constant size, stage and workgroup size of one shader module. Pipelines build their push
// descriptor layouts from it, and the render graph checks every pass's bindings against it, so
// C++ and GLSL cannot disagree on what a binding is.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <volk.h>

namespace floe::gpu {

struct ShaderBinding {
    uint32_t binding = 0;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
    bool readOnly = false;                      // NonWritable (GLSL readonly, or a sampled/uniform kind)
    VkFormat texelFormat = VK_FORMAT_UNDEFINED; // storage texel buffers / storage images: the declared format
    std::string name;                           // GLSL variable or block name
    VkShaderStageFlags stages = 0;
};

struct ShaderInterface {
    VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
    std::vector<ShaderBinding> bindings; // set 0 only, sorted by binding
    uint32_t pushConstantBytes = 0;
    std::array<uint32_t, 3> localSize{1, 1, 1};
};

// Throws floe::Error (naming `what`) on malformed SPIR-V or unsupported interfaces
// (descriptor sets other than 0, arrays of descriptors).
ShaderInterface reflectSpirv(std::span<const uint32_t> words, const std::string& what);

} // namespace floe::gpu
