// The synchronization policy, rule by rule, without a GPU.
#include <gtest/gtest.h>

#include "graph/Access.h"

namespace floe::graph {
namespace {

constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkPipelineStageFlags2 kVertex = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
constexpr VkPipelineStageFlags2 kCopy = VK_PIPELINE_STAGE_2_COPY_BIT;
constexpr VkAccessFlags2 kRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr VkAccessFlags2 kWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
constexpr VkAccessFlags2 kSampled = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;

ResourceState apply(ResourceState s, const Access& a)
{
    return transition(s, a).next;
}

TEST(Access, FirstUseOfABufferNeedsNoBarrier)
{
    EXPECT_FALSE(transition({}, {kCompute, kRead}).dependency);
    EXPECT_FALSE(transition({}, {kCompute, kWrite}).dependency);
    EXPECT_FALSE(transition({}, {kCompute, kRead | kWrite}).dependency);
}

TEST(Access, ReadAfterWriteWaitsForTheWriteAndMakesItVisible)
{
    const ResourceState written = apply({}, {kCompute, kWrite});
    const Transition t = transition(written, {kVertex, kSampled});
    ASSERT_TRUE(t.dependency);
    EXPECT_EQ(t.dependency->srcStages, kCompute);
    EXPECT_EQ(t.dependency->srcAccess, kWrite);
    EXPECT_EQ(t.dependency->dstStages, kVertex);
    EXPECT_EQ(t.dependency->dstAccess, kSampled);
}

TEST(Access, ReadAfterReadNeedsNoBarrier)
{
    ResourceState s = apply({}, {kCompute, kRead});
    EXPECT_FALSE(transition(s, {kCompute, kRead}).dependency);
    EXPECT_FALSE(transition(s, {kVertex, kSampled}).dependency);
}

TEST(Access, AReadThatAlreadySawTheWriteNeedsNothingMore)
{
    ResourceState s = apply({}, {kCompute, kWrite});
    s = apply(s, {kCompute, kRead});
    EXPECT_FALSE(transition(s, {kCompute, kRead}).dependency);
    // A new stage or a new kind of access was not covered by the first barrier.
    const Transition other = transition(s, {kVertex, kSampled});
    ASSERT_TRUE(other.dependency);
    EXPECT_EQ(other.dependency->srcStages, kCompute);
    EXPECT_EQ(other.dependency->srcAccess, kWrite);
}

TEST(Access, WriteAfterReadIsAnExecutionDependencyOnTheReaders)
{
    ResourceState s = apply({}, {kCompute, kWrite});
    s = apply(s, {kVertex, kSampled});
    s = apply(s, {kCompute, kRead});
    const Transition t = transition(s, {kCopy, VK_ACCESS_2_TRANSFER_WRITE_BIT});
    ASSERT_TRUE(t.dependency);
    EXPECT_EQ(t.dependency->srcStages, kVertex | kCompute);
    EXPECT_EQ(t.dependency->srcAccess, VK_ACCESS_2_NONE);
    EXPECT_EQ(t.dependency->dstStages, kCopy);
}

// The validation layer does not report this case: two dispatches that both bind the same
// buffer read-write must be separated by an execution and memory dependency.
TEST(Access, TwoReadWriteDispatchesInARowNeedABarrier)
{
    const Access readWrite{kCompute, kRead | kWrite};
    const ResourceState first = apply({}, readWrite);
    const Transition second = transition(first, readWrite);
    ASSERT_TRUE(second.dependency);
    EXPECT_EQ(second.dependency->srcStages, kCompute);
    EXPECT_EQ(second.dependency->srcAccess, kWrite);
    EXPECT_EQ(second.dependency->dstStages, kCompute);
    EXPECT_EQ(second.dependency->dstAccess, kRead | kWrite);
    // And again for a third: every read-write use depends on the previous one.
    EXPECT_TRUE(transition(second.next, readWrite).dependency);
}

TEST(Access, WriteAfterWriteOrdersTheWrites)
{
    const ResourceState s = apply({}, {kCopy, VK_ACCESS_2_TRANSFER_WRITE_BIT});
    const Transition t = transition(s, {kCompute, kWrite});
    ASSERT_TRUE(t.dependency);
    EXPECT_EQ(t.dependency->srcStages, kCopy);
    EXPECT_EQ(t.dependency->srcAccess, VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

TEST(Access, HostAccessesAreOrderedBySubmissionNotBarriers)
{
    // Host write, then a device read: vkQueueSubmit makes host writes visible.
    const ResourceState hostWritten = apply({}, {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT});
    EXPECT_FALSE(transition(hostWritten, {kCompute, kRead}).dependency);
    // Device write, then a host read: a dependency to the host stage before the fence.
    const ResourceState deviceWritten = apply({}, {kCopy, VK_ACCESS_2_TRANSFER_WRITE_BIT});
    const Transition toHost = transition(deviceWritten, {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    ASSERT_TRUE(toHost.dependency);
    EXPECT_EQ(toHost.dependency->dstStages, VK_PIPELINE_STAGE_2_HOST_BIT);
    EXPECT_EQ(toHost.dependency->dstAccess, VK_ACCESS_2_HOST_READ_BIT);
    // The host read never becomes the source of a device barrier: the next device write
    // orders itself after the previous device write only.
    const Transition next = transition(toHost.next, {kCopy, VK_ACCESS_2_TRANSFER_WRITE_BIT});
    ASSERT_TRUE(next.dependency);
    EXPECT_EQ(next.dependency->srcStages, kCopy);
}

TEST(Access, ImageLayoutChangesAlwaysGetADependency)
{
    const Access colorClear{VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true};
    const Transition first = transition({}, colorClear);
    ASSERT_TRUE(first.dependency);
    EXPECT_EQ(first.dependency->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(first.dependency->newLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(first.dependency->srcStages, VK_PIPELINE_STAGE_2_NONE);

    const Access copySource{kCopy, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    const Transition toCopy = transition(first.next, copySource);
    ASSERT_TRUE(toCopy.dependency);
    EXPECT_EQ(toCopy.dependency->srcStages, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
    EXPECT_EQ(toCopy.dependency->srcAccess, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    EXPECT_EQ(toCopy.dependency->oldLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(toCopy.dependency->newLayout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);

    // Next frame: cleared again, so the old contents are discarded (oldLayout UNDEFINED), but
    // the clear still waits for the copy that read the image.
    const Transition again = transition(toCopy.next, colorClear);
    ASSERT_TRUE(again.dependency);
    EXPECT_EQ(again.dependency->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(again.dependency->srcStages, kCopy);
    EXPECT_EQ(again.dependency->srcAccess, VK_ACCESS_2_NONE);
}

TEST(Access, ALayoutChangeIsAWriteForLaterReadersInOtherStages)
{
    const Access sampledInFragment{VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, kSampled, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    ResourceState s = apply({}, {kCompute, kWrite, VK_IMAGE_LAYOUT_GENERAL});
    s = apply(s, sampledInFragment);
    EXPECT_FALSE(transition(s, sampledInFragment).dependency);
    const Transition compute = transition(s, {kCompute, kSampled, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    ASSERT_TRUE(compute.dependency);
    EXPECT_EQ(compute.dependency->srcStages, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
}

} // namespace
} // namespace floe::graph
