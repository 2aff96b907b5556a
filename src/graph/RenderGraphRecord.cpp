// Recording: execute() turns the pending passes into commands, with the barriers the planner
// derives, the timer scopes the timer mode asks for, conditional regions and the launch counts.
// Building passes is in RenderGraph.cpp.
#include "graph/RenderGraph.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "gpu/Context.h"
#include "gpu/GpuTimer.h"
#include "gpu/Pipeline.h"

namespace floe::graph {

void RenderGraph::recordBarriers(VkCommandBuffer cmd, const Pass& pass, const PassBarriers& barriers) const
{
    if (barriers.empty()) return;
    VkMemoryBarrier2 memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    std::vector<VkImageMemoryBarrier2> images;
    if (barriers.memory) {
        memory.srcStageMask = barriers.memory->srcStages;
        memory.srcAccessMask = barriers.memory->srcAccess;
        memory.dstStageMask = barriers.memory->dstStages;
        memory.dstAccessMask = barriers.memory->dstAccess;
    }
    for (const ImageBarrier& ib : barriers.images) {
        auto ref = std::find_if(pass.images.begin(), pass.images.end(),
                                [&](const Pass::ImageRef& r) { return r.resource == ib.resource; });
        VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        b.srcStageMask = ib.dependency.srcStages;
        b.srcAccessMask = ib.dependency.srcAccess;
        b.dstStageMask = ib.dependency.dstStages;
        b.dstAccessMask = ib.dependency.dstAccess;
        b.oldLayout = ib.dependency.oldLayout;
        b.newLayout = ib.dependency.newLayout;
        b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = ref->image;
        b.subresourceRange = {ref->aspect, 0, 1, 0, 1};
        images.push_back(b);
    }
    VkDependencyInfo info{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    info.memoryBarrierCount = barriers.memory ? 1 : 0;
    info.pMemoryBarriers = &memory;
    info.imageMemoryBarrierCount = static_cast<uint32_t>(images.size());
    info.pImageMemoryBarriers = images.data();
    vkCmdPipelineBarrier2(cmd, &info);
}

void RenderGraph::recordPass(VkCommandBuffer cmd, const Pass& pass)
{
    switch (pass.kind) {
    case Kind::Compute:
    case Kind::Graphics: {
        const gpu::Pipeline& p = *pass.pipeline;
        std::vector<VkDescriptorBufferInfo> bufferInfos(pass.descriptors.size());
        std::vector<VkWriteDescriptorSet> writes(pass.descriptors.size());
        for (size_t i = 0; i < pass.descriptors.size(); ++i) {
            const Descriptor& d = pass.descriptors[i];
            VkWriteDescriptorSet& w = writes[i];
            w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            w.dstBinding = d.binding;
            w.descriptorCount = 1;
            w.descriptorType = d.type;
            if (d.view) {
                w.pTexelBufferView = &d.view;
            } else {
                bufferInfos[i] = {d.buffer, 0, d.range};
                w.pBufferInfo = &bufferInfos[i];
            }
        }
        if (pass.kind == Kind::Graphics) {
            VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
            VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
            VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
            rendering.layerCount = 1;
            const Attachment& size = pass.color ? *pass.color : *pass.depth;
            rendering.renderArea = {{0, 0}, {size.width, size.height}};
            if (pass.color) {
                color.imageView = pass.color->view;
                color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
                color.loadOp = pass.color->clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
                color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
                color.clearValue = pass.color->clearValue;
                rendering.colorAttachmentCount = 1;
                rendering.pColorAttachments = &color;
            }
            if (pass.depth) {
                depth.imageView = pass.depth->view;
                depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
                depth.loadOp = pass.depth->clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
                depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
                depth.clearValue = pass.depth->clearValue;
                rendering.pDepthAttachment = &depth;
            }
            vkCmdBeginRendering(cmd, &rendering);
            const VkViewport viewport{0, 0, float(size.width), float(size.height), 0, 1};
            const VkRect2D scissor{{0, 0}, {size.width, size.height}};
            vkCmdSetViewport(cmd, 0, 1, &viewport);
            vkCmdSetScissor(cmd, 0, 1, &scissor);
        }
        vkCmdBindPipeline(cmd, p.bindPoint(), p.handle());
        if (!writes.empty())
            vkCmdPushDescriptorSetKHR(cmd, p.bindPoint(), p.layout(), 0, static_cast<uint32_t>(writes.size()), writes.data());
        if (pass.pushSize) vkCmdPushConstants(cmd, p.layout(), p.pushStages(), 0, pass.pushSize, pass.push.data());
        if (pass.kind == Kind::Compute) {
            if (pass.indirect)
                vkCmdDispatchIndirect(cmd, pass.indirect, pass.indirectOffset);
            else if (pass.groups[0] && pass.groups[1] && pass.groups[2])
                vkCmdDispatch(cmd, pass.groups[0], pass.groups[1], pass.groups[2]);
        } else {
            if (pass.vertexCount && pass.instanceCount) vkCmdDraw(cmd, pass.vertexCount, pass.instanceCount, 0, 0);
            vkCmdEndRendering(cmd);
        }
        break;
    }
    case Kind::Fill:
        if (pass.bytes) vkCmdFillBuffer(cmd, pass.dst, 0, pass.bytes, pass.fillValue);
        break;
    case Kind::Copy:
        if (pass.bytes) {
            const VkBufferCopy region{pass.srcOffset, pass.dstOffset, pass.bytes};
            vkCmdCopyBuffer(cmd, pass.src, pass.dst, 1, &region);
        }
        break;
    case Kind::Blit: {
        if (pass.clearDst) {
            const VkClearColorValue value{{pass.clearDst->r, pass.clearDst->g, pass.clearDst->b, pass.clearDst->a}};
            const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdClearColorImage(cmd, pass.dstImage, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
            // The blit writes part of what the clear wrote.
            VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
            barrier.srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
            barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
            barrier.dstStageMask = VK_PIPELINE_STAGE_2_BLIT_BIT;
            barrier.dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
            barrier.oldLayout = barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            barrier.image = pass.dstImage;
            barrier.subresourceRange = range;
            VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
            dependency.imageMemoryBarrierCount = 1;
            dependency.pImageMemoryBarriers = &barrier;
            vkCmdPipelineBarrier2(cmd, &dependency);
        }
        VkImageBlit region{};
        region.srcSubresource = {pass.srcAspect, 0, 0, 1};
        region.srcOffsets[1] = {int32_t(pass.width), int32_t(pass.height), 1};
        region.dstSubresource = {pass.srcAspect, 0, 0, 1};
        region.dstOffsets[1] = {int32_t(pass.dstWidth), int32_t(pass.dstHeight), 1};
        const bool sameSize = pass.width == pass.dstWidth && pass.height == pass.dstHeight;
        vkCmdBlitImage(cmd, pass.srcImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pass.dstImage,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, sameSize ? VK_FILTER_NEAREST : VK_FILTER_LINEAR);
        break;
    }
    case Kind::CopyImage: {
        VkBufferImageCopy region{};
        region.imageSubresource = {pass.srcAspect, 0, 0, 1};
        region.imageExtent = {pass.width, pass.height, 1};
        vkCmdCopyImageToBuffer(cmd, pass.srcImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pass.dst, 1, &region);
        break;
    }
    case Kind::Custom: pass.record(cmd); break;
    case Kind::HostRead:
    case Kind::Present:
    case Kind::BeginConditional: {
        VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
        info.buffer = pass.src;
        info.offset = pass.srcOffset;
        vkCmdBeginConditionalRenderingEXT(cmd, &info);
        break;
    }
    case Kind::EndConditional: vkCmdEndConditionalRenderingEXT(cmd); break;
    case Kind::BeginGroup:
    case Kind::EndGroup: break;
    }
}

namespace {
// A timestamp names one stage: the one that covers `stages` (compute, transfer or graphics work),
// ALL_COMMANDS for a mix.
VkPipelineStageFlags2 timestampStage(VkPipelineStageFlags2 stages)
{
    constexpr VkPipelineStageFlags2 compute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;
    constexpr VkPipelineStageFlags2 transfer = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT |
                                               VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT |
                                               VK_PIPELINE_STAGE_2_RESOLVE_BIT;
    constexpr VkPipelineStageFlags2 graphics =
        VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
        VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
        VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
        VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT;
    if (!stages) return VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    if (!(stages & ~compute)) return VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    if (!(stages & ~transfer)) return VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    if (!(stages & ~graphics)) return VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT;
    return VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
}
} // namespace

VkPipelineStageFlags2 RenderGraph::passStages(const Pass& pass)
{
    VkPipelineStageFlags2 stages = 0;
    for (const ResourceUse& u : pass.uses) stages |= u.access.stages;
    stages &= ~VK_PIPELINE_STAGE_2_HOST_BIT;
    if (pass.kind == Kind::Compute) stages |= VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    return stages;
}

void RenderGraph::execute(VkCommandBuffer cmd, gpu::GpuTimer* timerIn)
{
    checkOpenBuilder();
    if (groupDepth_ != 0) throw std::logic_error("RenderGraph::execute with an open group");
    if (conditionalOpen_) throw std::logic_error("RenderGraph::execute with an open conditional region");
    gpu::GpuTimer* timer = timerMode_ == gpu::TimerMode::Off ? nullptr : timerIn;
    const bool perPass = timerMode_ == gpu::TimerMode::Pass;
    const bool labels = context_.caps().debugUtils;
    const auto begin = [&](const std::string& name, VkPipelineStageFlags2 stages) {
        const int scope = timer ? timer->begin(cmd, name, stages) : -1;
        if (scope >= 0) ++stats_.timestamps;
        return scope;
    };
    const auto end = [&](int scope, VkPipelineStageFlags2 stages) {
        if (scope < 0) return;
        timer->end(cmd, scope, stages);
        ++stats_.timestamps;
    };
    const auto barriers = [&](const Pass& pass, const PassBarriers& b) {
        if (b.empty()) return;
        recordBarriers(cmd, pass, b);
        ++stats_.barriers;
    };
    // Step mode: one scope around everything this command buffer records, at ALL_COMMANDS (the
    // step starts once the work before it is done and ends when all of it is).
    const int stepScope = !perPass && !passes_.empty() ? begin("step", VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) : -1;
    if (!timer && timerIn && !passes_.empty()) timerIn->stamp(cmd, true);
    struct GroupScope {
        int scope;
        VkPipelineStageFlags2 stages;
    };
    std::vector<GroupScope> groupScopes;
    bool conditional = false;
    size_t barrierDone = SIZE_MAX; // a pass whose barrier was recorded with its conditional region's
    for (size_t i = 0; i < passes_.size(); ++i) {
        const Pass& pass = passes_[i];
        if (pass.kind == Kind::BeginGroup) {
            if (labels) {
                VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
                label.pLabelName = pass.name.c_str();
                vkCmdBeginDebugUtilsLabelEXT(cmd, &label);
            }
            GroupScope g{-1, 0};
            if (groupScopes.empty() && perPass) {
                // The group's own stages: those of its passes.
                int depth = 0;
                for (size_t k = i + 1; k < passes_.size() && depth >= 0; ++k) {
                    const Kind kind = passes_[k].kind;
                    if (kind == Kind::BeginGroup)
                        ++depth;
                    else if (kind == Kind::EndGroup)
                        --depth;
                    else if (kind != Kind::BeginConditional && kind != Kind::EndConditional && !passes_[k].uses.empty())
                        g.stages |= passStages(passes_[k]);
                }
                g.stages = timestampStage(g.stages);
                g.scope = begin(pass.name, g.stages);
            }
            groupScopes.push_back(g);
            continue;
        }
        if (pass.kind == Kind::EndGroup) {
            end(groupScopes.back().scope, groupScopes.back().stages);
            groupScopes.pop_back();
            if (labels) vkCmdEndDebugUtilsLabelEXT(cmd);
            continue;
        }
        if (pass.kind == Kind::BeginConditional) {
            // The predicate's barrier and the next pass's are one: barriers are not conditional,
            // so the next pass's may be recorded before the region begins.
            PassBarriers b = planner_.plan(pass.uses);
            const Pass* next = i + 1 < passes_.size() ? &passes_[i + 1] : nullptr;
            if (next && next->kind != Kind::BeginGroup && next->kind != Kind::EndGroup && next->kind != Kind::EndConditional) {
                const PassBarriers nb = planner_.plan(next->uses);
                if (nb.memory) {
                    if (!b.memory) b.memory = Dependency{};
                    b.memory->srcStages |= nb.memory->srcStages;
                    b.memory->srcAccess |= nb.memory->srcAccess;
                    b.memory->dstStages |= nb.memory->dstStages;
                    b.memory->dstAccess |= nb.memory->dstAccess;
                }
                b.images.insert(b.images.end(), nb.images.begin(), nb.images.end());
                barrierDone = i + 1;
                barriers(*next, b);
            } else {
                barriers(pass, b);
            }
            recordPass(cmd, pass);
            conditional = true;
            continue;
        }
        if (pass.kind == Kind::EndConditional) {
            recordPass(cmd, pass);
            conditional = false;
            continue;
        }
        const PassBarriers incoming = barrierDone != i ? planner_.plan(pass.uses) : PassBarriers{};
        barriers(pass, incoming);
        if (pass.kind == Kind::HostRead || pass.kind == Kind::Present) continue;
        if (labels) {
            VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
            label.pLabelName = pass.name.c_str();
            vkCmdBeginDebugUtilsLabelEXT(cmd, &label);
        }
        // The pass starts once the work it waits for is done: its opening timestamp waits for
        // its own stages and those its barrier waited for.
        const VkPipelineStageFlags2 own = passStages(pass);
        VkPipelineStageFlags2 opening = own;
        if (incoming.memory) opening |= incoming.memory->srcStages;
        for (const ImageBarrier& ib : incoming.images) opening |= ib.dependency.srcStages;
        opening &= ~(VK_PIPELINE_STAGE_2_HOST_BIT | VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT);
        const VkPipelineStageFlags2 stages = timestampStage(own);
        const int scope = groupScopes.empty() && perPass ? begin(pass.name, timestampStage(opening)) : -1;
        recordPass(cmd, pass);
        switch (pass.kind) {
        case Kind::Compute:
            if (pass.indirect || (pass.groups[0] && pass.groups[1] && pass.groups[2]))
                ++(conditional ? stats_.conditionalDispatches : stats_.dispatches);
            break;
        case Kind::Graphics: stats_.draws += pass.vertexCount && pass.instanceCount ? 1 : 0; break;
        case Kind::Fill:
        case Kind::Copy:
        case Kind::CopyImage:
        case Kind::Blit: stats_.transfers += 1; break;
        default: break;
        }
        end(scope, stages);
        if (labels) vkCmdEndDebugUtilsLabelEXT(cmd);
    }
    end(stepScope, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    // Timers off: the frame's timer still stamps the work, unreported (GpuTimer::stamp).
    if (!timer && timerIn && !passes_.empty()) timerIn->stamp(cmd, false);
    passes_.clear();
}

} // namespace floe::graph
