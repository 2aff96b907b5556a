#include "graph/RenderGraph.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "gpu/Buffer.h"
#include "gpu/Context.h"
#include "gpu/GpuTimer.h"
#include "gpu/Image.h"
#include "gpu/Pipeline.h"

namespace floe::graph {
namespace {

VkAccessFlags2 readAccessOf(VkDescriptorType type)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return VK_ACCESS_2_UNIFORM_READ_BIT;
    default: return VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    }
}

VkPipelineStageFlags2 shaderStages(VkShaderStageFlags stages)
{
    VkPipelineStageFlags2 out = 0;
    if (stages & VK_SHADER_STAGE_COMPUTE_BIT) out |= VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    if (stages & VK_SHADER_STAGE_VERTEX_BIT) out |= VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
    if (stages & VK_SHADER_STAGE_FRAGMENT_BIT) out |= VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    return out;
}

const char* typeName(VkDescriptorType type)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "storage buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "uniform buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "uniform texel buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "storage texel buffer";
    default: return "unsupported descriptor";
    }
}

} // namespace

// ---- PassBuilder --------------------------------------------------------------------------------

PassBuilder& PassBuilder::read(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat)
{
    return bind(binding, buffer, viewFormat, true, false);
}

PassBuilder& PassBuilder::write(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat)
{
    return bind(binding, buffer, viewFormat, false, true);
}

PassBuilder& PassBuilder::readWrite(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat)
{
    return bind(binding, buffer, viewFormat, true, true);
}

PassBuilder& PassBuilder::bind(uint32_t binding, const gpu::Buffer& buffer, VkFormat viewFormat, bool reads, bool writes)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    const gpu::ShaderBinding* b = pass.pipeline->binding(binding);
    if (!b)
        throw std::logic_error(
            fmt::format("pass {}: the shader has no binding {} (for buffer '{}')", pass.name, binding, buffer.name()));
    if (writes && b->readOnly)
        throw std::logic_error(fmt::format("pass {}: binding {} ('{}', {}) is read-only but buffer '{}' is bound for writing",
                                           pass.name, binding, b->name, typeName(b->type), buffer.name()));
    if (!buffer.valid()) throw std::logic_error(fmt::format("pass {}: binding {} gets an empty buffer", pass.name, binding));
    for (const auto& d : pass.descriptors)
        if (d.binding == binding) throw std::logic_error(fmt::format("pass {}: binding {} bound twice", pass.name, binding));

    RenderGraph::Descriptor d;
    d.binding = binding;
    d.type = b->type;
    switch (b->type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: {
        // Owners of user-sized data check these limits up front with a clear message; here a
        // violation is a programming error.
        const VkPhysicalDeviceLimits& limits = graph_.context_.limits();
        const VkDeviceSize limit =
            b->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ? limits.maxStorageBufferRange : limits.maxUniformBufferRange;
        if (buffer.size() > limit)
            throw std::logic_error(fmt::format("pass {}: buffer '{}' of {} bytes exceeds the binding range limit {}", pass.name,
                                               buffer.name(), buffer.size(), limit));
        d.buffer = buffer.handle();
        d.range = VK_WHOLE_SIZE;
        break;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        d.view = buffer.view(viewFormat != VK_FORMAT_UNDEFINED ? viewFormat : buffer.elementFormat());
        break;
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
        VkFormat format = b->texelFormat != VK_FORMAT_UNDEFINED ? b->texelFormat : buffer.elementFormat();
        if (viewFormat != VK_FORMAT_UNDEFINED) format = viewFormat;
        d.view = buffer.view(format);
        break;
    }
    default:
        throw std::logic_error(fmt::format("pass {}: binding {} is a {}, not a buffer", pass.name, binding, typeName(b->type)));
    }
    pass.descriptors.push_back(d);

    VkAccessFlags2 access = 0;
    if (reads || !writes) access |= readAccessOf(b->type);
    if (writes) access |= VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    pass.uses.push_back({buffer.id(), false, Access{shaderStages(b->stages), access}});
    return *this;
}

PassBuilder& PassBuilder::pushBytes(const void* data, uint32_t bytes)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    if (bytes != pass.pipeline->pushConstantBytes())
        throw std::logic_error(fmt::format("pass {}: {} bytes of push constants, the shader declares {}", pass.name, bytes,
                                           pass.pipeline->pushConstantBytes()));
    std::memcpy(pass.push.data(), data, bytes);
    pass.pushSize = bytes;
    return *this;
}

void PassBuilder::finish()
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    for (const gpu::ShaderBinding& b : pass.pipeline->bindings()) {
        const bool bound = std::any_of(pass.descriptors.begin(), pass.descriptors.end(),
                                       [&](const RenderGraph::Descriptor& d) { return d.binding == b.binding; });
        if (!bound)
            throw std::logic_error(fmt::format("pass {}: shader binding {} ('{}') is not bound", pass.name, b.binding, b.name));
    }
    if (pass.pipeline->pushConstantBytes() && pass.pushSize == 0)
        throw std::logic_error(fmt::format("pass {}: the shader declares push constants but none were given", pass.name));
    pass.finished = true;
}

void PassBuilder::dispatch(uint32_t groupsX, uint32_t groupsY, uint32_t groupsZ)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    pass.groups = {groupsX, groupsY, groupsZ};
    finish();
}

void PassBuilder::dispatchThreads(uint64_t threads)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    const uint64_t local = pass.pipeline->localSize()[0];
    const uint64_t groups = (threads + local - 1) / local;
    const uint64_t maxX = graph_.context_.limits().maxComputeWorkGroupCount[0];
    const uint64_t maxY = graph_.context_.limits().maxComputeWorkGroupCount[1];
    if (groups <= maxX) {
        dispatch(static_cast<uint32_t>(groups));
        return;
    }
    const uint64_t y = (groups + maxX - 1) / maxX;
    if (y > maxY)
        throw std::logic_error(fmt::format("pass {}: {} threads exceed the device's dispatch limits", pass.name, threads));
    dispatch(static_cast<uint32_t>(maxX), static_cast<uint32_t>(y));
}

void PassBuilder::dispatchIndirect(const gpu::Buffer& arguments, VkDeviceSize offset)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    if (offset + sizeof(VkDispatchIndirectCommand) > arguments.size())
        throw std::logic_error(fmt::format("pass {}: indirect arguments past the end of '{}'", pass.name, arguments.name()));
    pass.indirect = arguments.handle();
    pass.indirectOffset = offset;
    pass.uses.push_back(
        {arguments.id(), false, Access{VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT}});
    finish();
}

PassBuilder& PassBuilder::color(const gpu::Image& image, std::optional<glm::vec4> clear)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    RenderGraph::Attachment a;
    a.image = image.handle();
    a.view = image.view();
    a.aspect = image.aspect();
    a.width = image.width();
    a.height = image.height();
    a.clear = clear.has_value();
    if (clear) a.clearValue.color = {{clear->x, clear->y, clear->z, clear->w}};
    pass.color = a;
    VkAccessFlags2 access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    if (!a.clear) access |= VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT;
    pass.uses.push_back(
        {image.id(), true,
         Access{VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, access, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, a.clear}});
    pass.images.push_back({image.id(), image.handle(), image.aspect()});
    return *this;
}

PassBuilder& PassBuilder::depth(const gpu::Image& image, std::optional<float> clear)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    RenderGraph::Attachment a;
    a.image = image.handle();
    a.view = image.view();
    a.aspect = image.aspect();
    a.width = image.width();
    a.height = image.height();
    a.clear = clear.has_value();
    if (clear) a.clearValue.depthStencil = {*clear, 0};
    pass.depth = a;
    pass.uses.push_back({image.id(), true,
                         Access{VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, a.clear}});
    pass.images.push_back({image.id(), image.handle(), image.aspect()});
    return *this;
}

void PassBuilder::draw(uint32_t vertexCount, uint32_t instanceCount)
{
    RenderGraph::Pass& pass = graph_.passes_[pass_];
    if (!pass.color && !pass.depth)
        throw std::logic_error(fmt::format("pass {}: a draw needs a colour or depth target", pass.name));
    pass.vertexCount = vertexCount;
    pass.instanceCount = instanceCount;
    finish();
}

// ---- RenderGraph ----------------------------------------------------------------------------

RenderGraph::RenderGraph(gpu::Context& context) : context_(context) {}

void RenderGraph::checkOpenBuilder() const
{
    if (!passes_.empty()) {
        const Pass& last = passes_.back();
        if ((last.kind == Kind::Compute || last.kind == Kind::Graphics) && !last.finished)
            throw std::logic_error(fmt::format("pass {}: added without dispatch()/draw()", last.name));
    }
}

PassBuilder RenderGraph::addCompute(const gpu::Pipeline& pipeline)
{
    checkOpenBuilder();
    if (pipeline.bindPoint() != VK_PIPELINE_BIND_POINT_COMPUTE)
        throw std::logic_error(fmt::format("addCompute: {} is not a compute pipeline", pipeline.name()));
    Pass pass;
    pass.kind = Kind::Compute;
    pass.name = pipeline.name();
    pass.pipeline = &pipeline;
    passes_.push_back(std::move(pass));
    return PassBuilder(*this, passes_.size() - 1);
}

PassBuilder RenderGraph::addGraphics(const gpu::Pipeline& pipeline)
{
    checkOpenBuilder();
    if (pipeline.bindPoint() != VK_PIPELINE_BIND_POINT_GRAPHICS)
        throw std::logic_error(fmt::format("addGraphics: {} is not a graphics pipeline", pipeline.name()));
    Pass pass;
    pass.kind = Kind::Graphics;
    pass.name = pipeline.name();
    pass.pipeline = &pipeline;
    passes_.push_back(std::move(pass));
    return PassBuilder(*this, passes_.size() - 1);
}

void RenderGraph::addFill(const std::string& name, const gpu::Buffer& buffer, uint32_t value)
{
    checkOpenBuilder();
    Pass pass;
    pass.kind = Kind::Fill;
    pass.name = name;
    pass.dst = buffer.handle();
    pass.bytes = buffer.size() & ~VkDeviceSize(3);
    pass.fillValue = value;
    pass.uses.push_back({buffer.id(), false, Access{VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT}});
    passes_.push_back(std::move(pass));
}

void RenderGraph::addCopy(const std::string& name, const gpu::Buffer& src, const gpu::Buffer& dst, VkDeviceSize bytes,
                          VkDeviceSize srcOffset, VkDeviceSize dstOffset)
{
    checkOpenBuilder();
    if (srcOffset + bytes > src.size() || dstOffset + bytes > dst.size())
        throw std::logic_error(fmt::format("copy {}: {} bytes out of range ({} -> {})", name, bytes, src.name(), dst.name()));
    Pass pass;
    pass.kind = Kind::Copy;
    pass.name = name;
    pass.src = src.handle();
    pass.dst = dst.handle();
    pass.bytes = bytes;
    pass.srcOffset = srcOffset;
    pass.dstOffset = dstOffset;
    pass.uses.push_back({src.id(), false, Access{VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT}});
    pass.uses.push_back({dst.id(), false, Access{VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT}});
    passes_.push_back(std::move(pass));
}

void RenderGraph::addCopyImageToBuffer(const std::string& name, const gpu::Image& src, const gpu::Buffer& dst)
{
    checkOpenBuilder();
    Pass pass;
    pass.kind = Kind::CopyImage;
    pass.name = name;
    pass.srcImage = src.handle();
    pass.srcAspect = src.aspect();
    pass.width = src.width();
    pass.height = src.height();
    pass.dst = dst.handle();
    pass.uses.push_back(
        {src.id(), true,
         Access{VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}});
    pass.uses.push_back({dst.id(), false, Access{VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT}});
    pass.images.push_back({src.id(), src.handle(), src.aspect()});
    passes_.push_back(std::move(pass));
}

void RenderGraph::addBlit(const std::string& name, const gpu::Image& src, const gpu::Image& dst)
{
    addBlitPass(name, src, dst, dst.width(), dst.height(), std::nullopt);
}

void RenderGraph::addBlitBeside(const std::string& name, const gpu::Image& src, const gpu::Image& dst, const glm::vec4& clear)
{
    if (src.width() > dst.width() || src.height() > dst.height())
        throw std::logic_error("addBlitBeside: " + name + ": the source is larger than the destination");
    addBlitPass(name, src, dst, src.width(), src.height(), clear);
}

void RenderGraph::addBlitPass(const std::string& name, const gpu::Image& src, const gpu::Image& dst, uint32_t dstWidth,
                              uint32_t dstHeight, const std::optional<glm::vec4>& clear)
{
    checkOpenBuilder();
    Pass pass;
    pass.kind = Kind::Blit;
    pass.name = name;
    pass.srcImage = src.handle();
    pass.srcAspect = src.aspect();
    pass.width = src.width();
    pass.height = src.height();
    pass.dstImage = dst.handle();
    pass.dstWidth = dstWidth;
    pass.dstHeight = dstHeight;
    pass.clearDst = clear;
    pass.uses.push_back(
        {src.id(), true,
         Access{VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}});
    // dst's earlier contents are not needed after a clear, or under a same-size copy.
    const bool whole = clear || (src.width() == dst.width() && src.height() == dst.height());
    const VkPipelineStageFlags2 stages =
        clear ? VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT : VK_PIPELINE_STAGE_2_BLIT_BIT;
    pass.uses.push_back(
        {dst.id(), true, Access{stages, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, whole}});
    pass.images.push_back({src.id(), src.handle(), src.aspect()});
    pass.images.push_back({dst.id(), dst.handle(), dst.aspect()});
    passes_.push_back(std::move(pass));
}

void RenderGraph::acquired(const gpu::Image& image, VkPipelineStageFlags2 waitStages)
{
    ResourceState state;
    state.writeStages = waitStages;
    state.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    planner_.reset(image.id(), state);
}

void RenderGraph::addPresent(const gpu::Image& image)
{
    checkOpenBuilder();
    Pass pass;
    pass.kind = Kind::Present;
    pass.name = "present " + image.name();
    // Presentation waits on a semaphore signalled after all commands: no stage or access here,
    // only the layout change (VK_KHR_synchronization2 allows dstStageMask NONE).
    pass.uses.push_back({image.id(), true, Access{VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR}});
    pass.images.push_back({image.id(), image.handle(), image.aspect()});
    passes_.push_back(std::move(pass));
}

void RenderGraph::addHostRead(const gpu::Buffer& buffer)
{
    checkOpenBuilder();
    Pass pass;
    pass.kind = Kind::HostRead;
    pass.name = "host_read " + buffer.name();
    pass.uses.push_back({buffer.id(), false, Access{VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT}});
    passes_.push_back(std::move(pass));
}

void RenderGraph::addCustom(const std::string& name, std::vector<ResourceUse> uses, std::function<void(VkCommandBuffer)> record,
                            std::vector<const gpu::Image*> images)
{
    checkOpenBuilder();
    Pass pass;
    pass.kind = Kind::Custom;
    pass.name = name;
    pass.uses = std::move(uses);
    pass.record = std::move(record);
    for (const gpu::Image* image : images) pass.images.push_back({image->id(), image->handle(), image->aspect()});
    for (const ResourceUse& u : pass.uses)
        if (u.image &&
            std::none_of(pass.images.begin(), pass.images.end(), [&](const Pass::ImageRef& r) { return r.resource == u.resource; }))
            throw std::logic_error(fmt::format("pass {}: image {} used but not listed", name, u.resource));
    passes_.push_back(std::move(pass));
}

void RenderGraph::beginGroup(const std::string& name)
{
    checkOpenBuilder();
    Pass pass;
    pass.kind = Kind::BeginGroup;
    pass.name = name;
    passes_.push_back(std::move(pass));
    ++groupDepth_;
}

void RenderGraph::endGroup()
{
    checkOpenBuilder();
    if (groupDepth_ == 0) throw std::logic_error("RenderGraph::endGroup without beginGroup");
    Pass pass;
    pass.kind = Kind::EndGroup;
    passes_.push_back(std::move(pass));
    --groupDepth_;
}

bool RenderGraph::conditionalRendering() const
{
    return context_.caps().conditionalRendering;
}

void RenderGraph::beginConditional(const gpu::Buffer& predicate, VkDeviceSize offset)
{
    checkOpenBuilder();
    if (conditionalOpen_) throw std::logic_error("RenderGraph::beginConditional inside a conditional region");
    if (offset % 4 || offset + 4 > predicate.size())
        throw std::logic_error(fmt::format("conditional region: offset {} outside '{}' or unaligned", offset, predicate.name()));
    conditionalOpen_ = true;
    if (!conditionalRendering()) return;
    Pass pass;
    pass.kind = Kind::BeginConditional;
    pass.name = "conditional " + predicate.name();
    pass.src = predicate.handle();
    pass.srcOffset = offset;
    pass.uses.push_back(
        {predicate.id(), false,
         Access{VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT, VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT}});
    passes_.push_back(std::move(pass));
}

void RenderGraph::endConditional()
{
    checkOpenBuilder();
    if (!conditionalOpen_) throw std::logic_error("RenderGraph::endConditional without beginConditional");
    conditionalOpen_ = false;
    if (!conditionalRendering()) return;
    Pass pass;
    pass.kind = Kind::EndConditional;
    passes_.push_back(std::move(pass));
}

std::vector<std::string> RenderGraph::pendingPassNames() const
{
    std::vector<std::string> names;
    for (const Pass& p : passes_)
        if (p.kind != Kind::BeginGroup && p.kind != Kind::EndGroup && p.kind != Kind::BeginConditional &&
            p.kind != Kind::EndConditional)
            names.push_back(p.name);
    return names;
}

std::vector<std::string> RenderGraph::pendingTimerNames(size_t first) const
{
    std::vector<std::string> names;
    if (timerMode_ == gpu::TimerMode::Off || passes_.size() <= first) return names;
    if (timerMode_ == gpu::TimerMode::Step) return {"step"};
    int depth = 0;
    for (size_t k = first; k < passes_.size(); ++k) {
        const Pass& p = passes_[k];
        if (p.kind == Kind::BeginConditional || p.kind == Kind::EndConditional) continue;
        if (p.kind == Kind::EndGroup) {
            --depth;
            continue;
        }
        const bool top = depth == 0;
        if (p.kind == Kind::BeginGroup) ++depth;
        if (top && p.kind != Kind::HostRead && p.kind != Kind::Present &&
            std::find(names.begin(), names.end(), p.name) == names.end())
            names.push_back(p.name);
    }
    return names;
}

void RenderGraph::discard(size_t first)
{
    if (first == 0) {
        passes_.clear();
        groupDepth_ = 0;
        conditionalOpen_ = false;
        return;
    }
    // What was recorded since `first` must have closed its groups and conditional regions.
    if (groupDepth_ != 0 || conditionalOpen_)
        throw std::logic_error(
            fmt::format("RenderGraph::discard from pass {}: a group or conditional region is still open", first));
    if (first < passes_.size()) passes_.resize(first);
}

std::vector<PassBarriers> RenderGraph::plan() const
{
    BarrierPlanner copy = planner_;
    std::vector<PassBarriers> out;
    for (const Pass& p : passes_)
        if (p.kind != Kind::BeginGroup && p.kind != Kind::EndGroup && p.kind != Kind::EndConditional)
            out.push_back(copy.plan(p.uses));
    return out;
}

} // namespace floe::graph
