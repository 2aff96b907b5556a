#include "gpu/SpirvReflect.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "base/Error.h"

namespace floe::gpu {
namespace {

// Opcodes, decorations and enums from the SPIR-V specification (unified 1.6).
enum : uint32_t {
    OpName = 5,
    OpEntryPoint = 15,
    OpExecutionMode = 16,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeVector = 23,
    OpTypeMatrix = 24,
    OpTypeImage = 25,
    OpTypeSampler = 26,
    OpTypeSampledImage = 27,
    OpTypeArray = 28,
    OpTypeRuntimeArray = 29,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpConstantComposite = 44,
    OpSpecConstant = 50,
    OpSpecConstantComposite = 51,
    OpVariable = 59,
    OpDecorate = 71,
    OpMemberDecorate = 72,
    OpExecutionModeId = 331,
};
enum : uint32_t {
    DecBlock = 2,
    DecBufferBlock = 3,
    DecArrayStride = 6,
    DecMatrixStride = 7,
    DecNonWritable = 24,
    DecBinding = 33,
    DecDescriptorSet = 34,
    DecOffset = 35,
    DecBuiltIn = 11,
};
enum : uint32_t { BuiltInWorkgroupSize = 25 };
enum : uint32_t { ScUniformConstant = 0, ScUniform = 2, ScPushConstant = 9, ScStorageBuffer = 12 };
enum : uint32_t { ExecLocalSize = 17, ExecLocalSizeId = 38 };
enum : uint32_t { DimBuffer = 5 };

VkFormat imageFormat(uint32_t f)
{
    switch (f) {
    case 1: return VK_FORMAT_R32G32B32A32_SFLOAT; // Rgba32f
    case 3: return VK_FORMAT_R32_SFLOAT;          // R32f
    case 4: return VK_FORMAT_R8G8B8A8_UNORM;      // Rgba8
    case 6: return VK_FORMAT_R32G32_SFLOAT;       // Rg32f
    case 21: return VK_FORMAT_R32G32B32A32_SINT;  // Rgba32i
    case 24: return VK_FORMAT_R32_SINT;           // R32i
    case 30: return VK_FORMAT_R32G32B32A32_UINT;  // Rgba32ui
    case 33: return VK_FORMAT_R32_UINT;           // R32ui
    case 35: return VK_FORMAT_R32G32_UINT;        // Rg32ui
    default: return VK_FORMAT_UNDEFINED;
    }
}

VkShaderStageFlagBits stageOf(uint32_t model)
{
    switch (model) {
    case 0: return VK_SHADER_STAGE_VERTEX_BIT;
    case 4: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case 5: return VK_SHADER_STAGE_COMPUTE_BIT;
    default: return VK_SHADER_STAGE_ALL;
    }
}

struct Module {
    struct Type {
        uint32_t op = 0;
        std::vector<uint32_t> operands; // words after the result id
    };
    std::unordered_map<uint32_t, Type> types;
    std::unordered_map<uint32_t, uint32_t> constants;               // id -> first word (default for spec constants)
    std::unordered_map<uint32_t, std::vector<uint32_t>> composites; // id -> constituent ids
    std::unordered_map<uint32_t, std::string> names;
    std::unordered_map<uint32_t, std::map<uint32_t, uint32_t>> decorations; // id -> decoration -> value
    std::unordered_map<uint32_t, std::map<uint32_t, std::map<uint32_t, uint32_t>>> memberDecorations;
    struct Variable {
        uint32_t id, pointerType, storageClass;
    };
    std::vector<Variable> variables;
    std::string what;

    bool has(uint32_t id, uint32_t dec) const
    {
        auto it = decorations.find(id);
        return it != decorations.end() && it->second.count(dec);
    }
    uint32_t get(uint32_t id, uint32_t dec) const { return decorations.at(id).at(dec); }

    const Type& type(uint32_t id) const
    {
        auto it = types.find(id);
        if (it == types.end()) throw Error(fmt::format("{}: SPIR-V references unknown type %{}", what, id));
        return it->second;
    }

    // Size in bytes of a type as laid out by explicit Offset/ArrayStride/MatrixStride decorations.
    uint32_t sizeOf(uint32_t id) const
    {
        const Type& t = type(id);
        switch (t.op) {
        case OpTypeInt:
        case OpTypeFloat: return t.operands.at(0) / 8;
        case OpTypeVector: return t.operands.at(1) * sizeOf(t.operands.at(0));
        case OpTypeMatrix: return t.operands.at(1) * sizeOf(t.operands.at(0)); // column-major, tight columns
        case OpTypeArray: {
            const uint32_t stride = has(id, DecArrayStride) ? get(id, DecArrayStride) : sizeOf(t.operands.at(0));
            return stride * constants.at(t.operands.at(1));
        }
        case OpTypeStruct: {
            uint32_t size = 0;
            const auto members = memberDecorations.find(id);
            for (uint32_t m = 0; m < t.operands.size(); ++m) {
                uint32_t offset = 0;
                if (members != memberDecorations.end()) {
                    auto md = members->second.find(m);
                    if (md != members->second.end() && md->second.count(DecOffset)) offset = md->second.at(DecOffset);
                }
                uint32_t memberSize = sizeOf(t.operands[m]);
                const Type& mt = type(t.operands[m]);
                if (mt.op == OpTypeMatrix && members != memberDecorations.end()) {
                    auto md = members->second.find(m);
                    if (md != members->second.end() && md->second.count(DecMatrixStride))
                        memberSize = mt.operands.at(1) * md->second.at(DecMatrixStride);
                }
                size = std::max(size, offset + memberSize);
            }
            return size;
        }
        default: throw Error(fmt::format("{}: cannot size SPIR-V type op {}", what, t.op));
        }
    }

    bool allMembersNonWritable(uint32_t structId) const
    {
        const Type& t = type(structId);
        auto it = memberDecorations.find(structId);
        if (it == memberDecorations.end()) return false;
        for (uint32_t m = 0; m < t.operands.size(); ++m) {
            auto md = it->second.find(m);
            if (md == it->second.end() || !md->second.count(DecNonWritable)) return false;
        }
        return true;
    }
};

std::string literalString(std::span<const uint32_t> words)
{
    std::string s;
    for (uint32_t w : words)
        for (int b = 0; b < 4; ++b) {
            const char c = static_cast<char>((w >> (8 * b)) & 0xff);
            if (!c) return s;
            s.push_back(c);
        }
    return s;
}

} // namespace

ShaderInterface reflectSpirv(std::span<const uint32_t> words, const std::string& what)
{
    if (words.size() < 5 || words[0] != 0x07230203u) throw Error(fmt::format("{}: not a SPIR-V module", what));
    Module mod;
    mod.what = what;
    ShaderInterface result;
    bool haveEntry = false;
    std::array<uint32_t, 3> localSizeIds{0, 0, 0};

    for (size_t i = 5; i < words.size();) {
        const uint32_t count = words[i] >> 16;
        const uint32_t op = words[i] & 0xffffu;
        if (count == 0 || i + count > words.size()) throw Error(fmt::format("{}: truncated SPIR-V", what));
        const std::span<const uint32_t> ins = words.subspan(i + 1, count - 1);
        switch (op) {
        case OpName: mod.names[ins[0]] = literalString(ins.subspan(1)); break;
        case OpEntryPoint:
            if (!haveEntry) result.stage = stageOf(ins[0]);
            haveEntry = true;
            break;
        case OpExecutionMode:
            if (ins[1] == ExecLocalSize && ins.size() >= 5) result.localSize = {ins[2], ins[3], ins[4]};
            break;
        case OpExecutionModeId:
            if (ins[1] == ExecLocalSizeId && ins.size() >= 5) localSizeIds = {ins[2], ins[3], ins[4]};
            break;
        case OpTypeInt:
        case OpTypeFloat:
        case OpTypeVector:
        case OpTypeMatrix:
        case OpTypeImage:
        case OpTypeSampler:
        case OpTypeSampledImage:
        case OpTypeArray:
        case OpTypeRuntimeArray:
        case OpTypeStruct:
        case OpTypePointer: mod.types[ins[0]] = {op, std::vector<uint32_t>(ins.begin() + 1, ins.end())}; break;
        case OpConstant:
        case OpSpecConstant:
            if (ins.size() >= 3) mod.constants[ins[1]] = ins[2];
            break;
        case OpConstantComposite:
        case OpSpecConstantComposite:
            if (ins.size() >= 2) mod.composites[ins[1]] = std::vector<uint32_t>(ins.begin() + 2, ins.end());
            break;
        case OpVariable: mod.variables.push_back({ins[1], ins[0], ins[2]}); break;
        case OpDecorate: mod.decorations[ins[0]][ins[1]] = ins.size() > 2 ? ins[2] : 1; break;
        case OpMemberDecorate: mod.memberDecorations[ins[0]][ins[1]][ins[2]] = ins.size() > 3 ? ins[3] : 1; break;
        default: break;
        }
        i += count;
    }
    if (!haveEntry) throw Error(fmt::format("{}: SPIR-V has no entry point", what));

    // Workgroup size: LocalSize literals, LocalSizeId constants, or (taking precedence, as the
    // SPIR-V specification says) a composite decorated BuiltIn WorkgroupSize.
    const auto constantValue = [&](uint32_t id) {
        auto it = mod.constants.find(id);
        if (it == mod.constants.end()) throw Error(fmt::format("{}: workgroup size refers to a non-constant %{}", what, id));
        return it->second;
    };
    if (localSizeIds[0])
        result.localSize = {constantValue(localSizeIds[0]), constantValue(localSizeIds[1]), constantValue(localSizeIds[2])};
    for (const auto& [id, parts] : mod.composites)
        if (mod.has(id, DecBuiltIn) && mod.get(id, DecBuiltIn) == BuiltInWorkgroupSize && parts.size() == 3)
            result.localSize = {constantValue(parts[0]), constantValue(parts[1]), constantValue(parts[2])};

    for (const Module::Variable& var : mod.variables) {
        if (var.storageClass != ScUniformConstant && var.storageClass != ScUniform && var.storageClass != ScStorageBuffer &&
            var.storageClass != ScPushConstant)
            continue;
        const Module::Type& ptr = mod.type(var.pointerType);
        uint32_t pointee = ptr.operands.at(1);
        if (var.storageClass == ScPushConstant) {
            result.pushConstantBytes = std::max(result.pushConstantBytes, mod.sizeOf(pointee));
            continue;
        }
        if (!mod.has(var.id, DecBinding)) continue;
        if (mod.has(var.id, DecDescriptorSet) && mod.get(var.id, DecDescriptorSet) != 0)
            throw Error(fmt::format("{}: binding {} is in descriptor set {}; Floe uses push descriptors in set 0 only", what,
                                    mod.get(var.id, DecBinding), mod.get(var.id, DecDescriptorSet)));
        const Module::Type* t = &mod.type(pointee);
        if (t->op == OpTypeArray || t->op == OpTypeRuntimeArray)
            throw Error(fmt::format("{}: arrays of descriptors are not supported (binding {})", what, mod.get(var.id, DecBinding)));

        ShaderBinding b;
        b.binding = mod.get(var.id, DecBinding);
        b.stages = result.stage;
        b.name = mod.names.count(var.id) && !mod.names[var.id].empty() ? mod.names[var.id] : mod.names[pointee];
        if (var.storageClass == ScStorageBuffer || (var.storageClass == ScUniform && mod.has(pointee, DecBufferBlock))) {
            b.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            b.readOnly = mod.has(var.id, DecNonWritable) || mod.allMembersNonWritable(pointee);
        } else if (var.storageClass == ScUniform) {
            b.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
            b.readOnly = true;
        } else {
            if (t->op == OpTypeSampledImage) {
                const Module::Type& image = mod.type(t->operands.at(0));
                b.type = image.operands.at(1) == DimBuffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                                           : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
                b.readOnly = true;
            } else if (t->op == OpTypeImage) {
                const bool buffer = t->operands.at(1) == DimBuffer;
                const bool storage = t->operands.at(5) == 2;
                b.type = storage ? (buffer ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
                                 : (buffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
                b.readOnly = !storage || mod.has(var.id, DecNonWritable);
                if (storage) b.texelFormat = imageFormat(t->operands.at(6));
            } else if (t->op == OpTypeSampler) {
                b.type = VK_DESCRIPTOR_TYPE_SAMPLER;
                b.readOnly = true;
            } else {
                continue;
            }
        }
        result.bindings.push_back(b);
    }
    std::sort(result.bindings.begin(), result.bindings.end(),
              [](const ShaderBinding& a, const ShaderBinding& b) { return a.binding < b.binding; });
    return result;
}

} // namespace floe::gpu
