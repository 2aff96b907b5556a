// Barrier plans of whole pass sequences, as the render graph records them, without a GPU.
#include <stdexcept>

#include <gtest/gtest.h>

#include "graph/BarrierPlan.h"

namespace floe::graph {
namespace {

constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkAccessFlags2 kRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr VkAccessFlags2 kWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
constexpr VkAccessFlags2 kSampled = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;

ResourceUse buffer(uint64_t id, VkAccessFlags2 access, VkPipelineStageFlags2 stages = kCompute)
{
    return {id, false, Access{stages, access}};
}

TEST(BarrierPlan, ReadWriteDispatchesInARowAreSeparated)
{
    // Two relaxed-Jacobi-like iterations updating the same buffer in place.
    BarrierPlanner planner;
    const ResourceUse pressure = buffer(1, kRead | kWrite);
    const ResourceUse input = buffer(2, kSampled);
    EXPECT_TRUE(planner.plan(std::vector{input, pressure}).empty());
    for (int i = 0; i < 3; ++i) {
        const PassBarriers b = planner.plan(std::vector{input, pressure});
        ASSERT_TRUE(b.memory) << "iteration " << i;
        EXPECT_EQ(b.memory->srcStages, kCompute);
        EXPECT_EQ(b.memory->srcAccess, kWrite);
        EXPECT_EQ(b.memory->dstAccess & kWrite, kWrite);
        EXPECT_TRUE(b.images.empty());
    }
}

TEST(BarrierPlan, BufferDependenciesMergeIntoOneMemoryBarrier)
{
    BarrierPlanner planner;
    planner.plan(std::vector{buffer(1, kWrite), buffer(2, kWrite)});
    planner.plan(std::vector{buffer(3, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT)});
    const PassBarriers b = planner.plan(std::vector{buffer(1, kSampled), buffer(2, kSampled, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                                                    buffer(3, kSampled), buffer(4, kWrite)});
    ASSERT_TRUE(b.memory);
    EXPECT_EQ(b.memory->srcStages, kCompute | VK_PIPELINE_STAGE_2_COPY_BIT);
    EXPECT_EQ(b.memory->srcAccess, kWrite | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(b.memory->dstStages, kCompute | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT);
    EXPECT_EQ(b.memory->dstAccess, kSampled);
}

TEST(BarrierPlan, IndependentPassesGetNoBarrier)
{
    BarrierPlanner planner;
    planner.plan(std::vector{buffer(1, kSampled), buffer(2, kWrite)});
    EXPECT_TRUE(planner.plan(std::vector{buffer(1, kSampled), buffer(3, kWrite)}).empty());
}

TEST(BarrierPlan, UsesOfOneResourceInAPassAreCombined)
{
    BarrierPlanner planner;
    planner.plan(std::vector{buffer(1, kWrite)});
    // Bound twice in one pass: read through a texel view and written through an SSBO.
    const PassBarriers b = planner.plan(std::vector{buffer(1, kSampled), buffer(1, kWrite)});
    ASSERT_TRUE(b.memory);
    EXPECT_EQ(b.memory->dstAccess, kSampled | kWrite);
    const ResourceState s = planner.state(1);
    EXPECT_EQ(s.writeStages, kCompute);
    EXPECT_EQ(s.readStages, VK_PIPELINE_STAGE_2_NONE);
}

TEST(BarrierPlan, LayoutChangesGetImageBarriers)
{
    BarrierPlanner planner;
    const ResourceUse color{7, true,
                            Access{VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true}};
    const ResourceUse colorLoad{7, true,
                                Access{VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT,
                                       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}};
    const ResourceUse copy{
        7, true, Access{VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}};
    const ResourceUse positions = buffer(1, kSampled, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT);
    planner.plan(std::vector{buffer(1, kWrite)});

    const PassBarriers first = planner.plan(std::vector{color});
    ASSERT_EQ(first.images.size(), 1u);
    EXPECT_FALSE(first.memory);
    // Draw on top: same layout, a write after write on the attachment goes to the memory barrier.
    const PassBarriers draw = planner.plan(std::vector{colorLoad, positions});
    EXPECT_TRUE(draw.images.empty());
    ASSERT_TRUE(draw.memory);
    EXPECT_EQ(draw.memory->srcStages, kCompute | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
    const PassBarriers readback = planner.plan(std::vector{copy});
    ASSERT_EQ(readback.images.size(), 1u);
    EXPECT_EQ(readback.images[0].dependency.oldLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(readback.images[0].dependency.newLayout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

TEST(BarrierPlan, OneImageInTwoLayoutsInOnePassIsAnError)
{
    BarrierPlanner planner;
    const ResourceUse a{7, true,
                        Access{VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}};
    const ResourceUse b{7, true,
                        Access{VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL}};
    EXPECT_THROW(planner.plan(std::vector{a, b}), std::logic_error);
}

TEST(BarrierPlan, StatesPersistAcrossFramesUntilForgotten)
{
    BarrierPlanner planner;
    planner.plan(std::vector{buffer(1, kWrite)});
    // "Next frame": the first use still depends on the last frame's write.
    EXPECT_TRUE(planner.plan(std::vector{buffer(1, kSampled)}).memory);
    planner.forget(1);
    EXPECT_TRUE(planner.plan(std::vector{buffer(1, kSampled)}).empty());
}

} // namespace
} // namespace floe::graph
