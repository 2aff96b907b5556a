// Every struct of shaders/shared/ round-trips through the GPU: the CPU writes a distinct value
// into every 4-byte word, the shader (shaders/tests/round_trip.glsl) copies the struct as GLSL
// lays it out into a poisoned buffer, and the CPU must read back exactly what it wrote.
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "GpuTest.h"
#include "gpu/Image.h"
#include "gpu/Pipeline.h"
#include "gpu/ShaderLibrary.h"
#include "shared/body.h"
#include "shared/fluid.h"
#include "shared/fracture.h"
#include "shared/grid.h"
#include "shared/prim.h"
#include "shared/render.h"
#include "shared/sph.h"

namespace floe::test {
namespace {

template <class T>
void roundTrip(GpuTest& t, gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const char* name)
{
    static_assert(sizeof(T) % 4 == 0);
    std::vector<uint32_t> words(sizeof(T) / 4);
    for (size_t i = 0; i < words.size(); ++i) words[i] = std::bit_cast<uint32_t>(1000.0f + float(i)); // finite, distinct
    gpu::Buffer source(context, {"round trip source", sizeof(T), gpu::MemoryKind::DeviceLocal});
    gpu::Buffer destination(context, {"round trip destination", sizeof(T), gpu::MemoryKind::DeviceLocal});
    sim::uploadNow(context, graph, source, words.data(), sizeof(T));
    const gpu::Pipeline pipeline = gpu::createComputePipeline(context, shaders, std::string("tests/round_trip_") + name);
    graph.addFill("poison", destination, 0xDEADBEEFu);
    graph.addCompute(pipeline).read(0, source).write(1, destination).dispatch(1);
    std::vector<uint32_t> back(words.size());
    sim::downloadNow(context, graph, destination, back.data(), sizeof(T));
    for (size_t i = 0; i < words.size(); ++i)
        EXPECT_EQ(back[i], words[i]) << name << ": word " << i << " (byte offset " << 4 * i << ")";
    (void)t;
}

TEST_F(GpuTest, SharedStructsRoundTrip)
{
    roundTrip<shared::ScanParams>(*this, context(), shaders(), graph(), "ScanParams");
    roundTrip<shared::SegScanParams>(*this, context(), shaders(), graph(), "SegScanParams");
    roundTrip<shared::SortParams>(*this, context(), shaders(), graph(), "SortParams");
    roundTrip<shared::ReduceParams>(*this, context(), shaders(), graph(), "ReduceParams");
    roundTrip<shared::GridParams>(*this, context(), shaders(), graph(), "GridParams");
    roundTrip<shared::SphParams>(*this, context(), shaders(), graph(), "SphParams");
    roundTrip<shared::SphState>(*this, context(), shaders(), graph(), "SphState");
    roundTrip<shared::WallParams>(*this, context(), shaders(), graph(), "WallParams");
    roundTrip<shared::RenderParams>(*this, context(), shaders(), graph(), "RenderParams");
    roundTrip<shared::FluidParams>(*this, context(), shaders(), graph(), "FluidParams");
    roundTrip<shared::FluidSmoothPush>(*this, context(), shaders(), graph(), "FluidSmoothPush");
    roundTrip<shared::BodyParams>(*this, context(), shaders(), graph(), "BodyParams");
    roundTrip<shared::BodyPush>(*this, context(), shaders(), graph(), "BodyPush");
    roundTrip<shared::FractureParams>(*this, context(), shaders(), graph(), "FractureParams");
    roundTrip<shared::FractureState>(*this, context(), shaders(), graph(), "FractureState");
    roundTrip<shared::FractureObstaclePush>(*this, context(), shaders(), graph(), "FractureObstaclePush");
    roundTrip<shared::FractureApproachPush>(*this, context(), shaders(), graph(), "FractureApproachPush");
}

// Reflection reads what the shaders declare: workgroup sizes from the shared header, push
// constant sizes equal to the shared structs, and binding kinds.
TEST_F(GpuTest, PipelinesReflectTheSharedContract)
{
    const gpu::Pipeline scan = gpu::createComputePipeline(context(), shaders(), "prim/scan_blocks");
    EXPECT_EQ(scan.localSize()[0], uint32_t(PRIM_GROUP_SIZE));
    EXPECT_EQ(scan.pushConstantBytes(), sizeof(shared::ScanParams));
    ASSERT_NE(scan.binding(PRIM_BIND_INPUT), nullptr);
    EXPECT_EQ(scan.binding(PRIM_BIND_INPUT)->type, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
    EXPECT_EQ(scan.binding(PRIM_BIND_OUTPUT)->type, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    EXPECT_FALSE(scan.binding(PRIM_BIND_OUTPUT)->readOnly);
    const gpu::Pipeline segscan = gpu::createComputePipeline(context(), shaders(), "prim/segscan_blocks_scalar");
    ASSERT_NE(segscan.binding(PRIM_BIND_OUTPUT), nullptr);
    EXPECT_EQ(segscan.binding(PRIM_BIND_OUTPUT)->type, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER);
    EXPECT_EQ(segscan.binding(PRIM_BIND_OUTPUT)->texelFormat, VK_FORMAT_R32G32B32A32_SFLOAT);
    EXPECT_FALSE(segscan.binding(PRIM_BIND_OUTPUT)->readOnly);

    const gpu::Pipeline integrate = gpu::createComputePipeline(context(), shaders(), "sph/integrate");
    EXPECT_EQ(integrate.localSize()[0], uint32_t(SPH_GROUP_SIZE));
    EXPECT_EQ(integrate.pushConstantBytes(), sizeof(shared::SphParams));
    EXPECT_EQ(integrate.binding(SPH_BIND_STATE)->type, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
    EXPECT_EQ(gpu::createComputePipeline(context(), shaders(), "sph/step_begin").binding(SPH_BIND_STATE)->type,
              VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    for (const char* name : {"prim/scan_reduce", "prim/segscan_reduce", "prim/segscan_blocks_scalar", "prim/sort_count",
                             "prim/sort_scatter", "prim/reduce_scalar"})
        EXPECT_EQ(gpu::createComputePipeline(context(), shaders(), name).localSize()[0], uint32_t(PRIM_GROUP_SIZE)) << name;
}

// Mistakes in declaring a pass are caught when the pass is declared, with its name.
TEST_F(GpuTest, GraphRejectsBindingMistakes)
{
    const gpu::Pipeline scan = gpu::createComputePipeline(context(), shaders(), "prim/scan_blocks");
    gpu::Buffer a = deviceBuffer("a", 64), b = deviceBuffer("b", 64);
    const shared::ScanParams params{1, 1, 0, 0};
    // Writing through a read-only (uniform texel) binding.
    EXPECT_THROW(graph().addCompute(scan).write(PRIM_BIND_INPUT, a), std::logic_error);
    graph().discard();
    // A binding the shader does not have.
    EXPECT_THROW(graph().addCompute(scan).read(9, a), std::logic_error);
    graph().discard();
    // An unbound shader binding.
    EXPECT_THROW(graph().addCompute(scan).read(PRIM_BIND_INPUT, a).push(params).dispatch(1), std::logic_error);
    graph().discard();
    // Push constants of the wrong size.
    EXPECT_THROW(graph().addCompute(scan).pushBytes(&params, 8), std::logic_error);
    graph().discard();
    // Complete: fine.
    graph()
        .addCompute(scan)
        .read(PRIM_BIND_INPUT, a)
        .read(PRIM_BIND_BLOCK_SUMS, a)
        .readWrite(PRIM_BIND_OUTPUT, b)
        .push(params)
        .dispatch(1);
    EXPECT_EQ(graph().pendingPassNames(), std::vector<std::string>{"prim/scan_blocks"});
    submit();
}

// The graph's plan for a read-write dispatch followed by another on the same buffer holds a
// barrier from the first write: the case the validation layer does not report.
TEST_F(GpuTest, GraphPlansWriteAfterWriteBetweenReadWriteDispatches)
{
    const gpu::Pipeline scan = gpu::createComputePipeline(context(), shaders(), "prim/scan_blocks");
    gpu::Buffer in = deviceBuffer("in", 64), carries = deviceBuffer("carries", 64), out = deviceBuffer("out", 64);
    const shared::ScanParams params{4, 1, 0, 0};
    graph().addFill("clear", carries, 0);
    for (int i = 0; i < 2; ++i)
        graph()
            .addCompute(scan)
            .read(PRIM_BIND_INPUT, in)
            .read(PRIM_BIND_BLOCK_SUMS, carries)
            .readWrite(PRIM_BIND_OUTPUT, out)
            .push(params)
            .dispatch(1);
    const std::vector<graph::PassBarriers> plan = graph().plan();
    ASSERT_EQ(plan.size(), 3u);
    ASSERT_TRUE(plan[2].memory);
    EXPECT_EQ(plan[2].memory->srcStages, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(plan[2].memory->srcAccess, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    submit();
}

// A window frame's image: acquired (the semaphore's wait at the blit stands in for the last
// write), blitted into, drawn over by a custom pass, presented. Each step changes the layout
// with a dependency from the previous user. (Executed for real, with a swapchain, in
// tests/gpu/ViewTest.cpp under the validation layer.)
TEST_F(GpuTest, GraphPlansAWindowFrame)
{
    gpu::Image source(context(), {"frame source", VK_FORMAT_R8G8B8A8_SRGB, 64, 32,
                                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT});
    gpu::Image target(context(), {"frame target", VK_FORMAT_B8G8R8A8_SRGB, 64, 32,
                                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT});
    graph().addCustom("clear source",
                      {{source.id(), true,
                        graph::Access{VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, true}}},
                      [&](VkCommandBuffer cmd) {
                          const VkClearColorValue color{{0.2f, 0.4f, 0.6f, 1.0f}};
                          const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
                          vkCmdClearColorImage(cmd, source.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
                      },
                      {&source});
    graph().acquired(target, VK_PIPELINE_STAGE_2_BLIT_BIT);
    graph().addBlit("blit", source, target);
    graph().addCustom("overlay",
                      {{target.id(), true,
                        graph::Access{VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                      VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}}},
                      [](VkCommandBuffer) {}, {&target});
    graph().addPresent(target);
    const std::vector<graph::PassBarriers> plan = graph().plan();
    ASSERT_EQ(plan.size(), 4u);
    // Blit: the target from UNDEFINED after the acquire's wait at the blit stage.
    const auto imageBarrier = [&](size_t pass, const gpu::Image& image) -> const graph::Dependency* {
        for (const graph::ImageBarrier& b : plan[pass].images)
            if (b.resource == image.id()) return &b.dependency;
        return nullptr;
    };
    const graph::Dependency* acquire = imageBarrier(1, target);
    ASSERT_NE(acquire, nullptr);
    EXPECT_EQ(acquire->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(acquire->newLayout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    EXPECT_EQ(acquire->srcStages, VK_PIPELINE_STAGE_2_BLIT_BIT);
    const graph::Dependency* overlay = imageBarrier(2, target);
    ASSERT_NE(overlay, nullptr);
    EXPECT_EQ(overlay->newLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(overlay->srcAccess, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const graph::Dependency* present = imageBarrier(3, target);
    ASSERT_NE(present, nullptr);
    EXPECT_EQ(present->oldLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(present->newLayout, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
    EXPECT_EQ(present->srcStages, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
    // An image a custom pass uses must be listed with it.
    EXPECT_THROW(graph().addCustom("unlisted", {{target.id(), true, graph::Access{}}}, [](VkCommandBuffer) {}), std::logic_error);
    graph().discard(); // PRESENT_SRC_KHR needs a swapchain device
}

// tools/test.sh runs the GPU tests twice, with lavapipe's subgroups of 8 and of 4
// (LP_NATIVE_VECTOR_WIDTH=128); FLOE_EXPECT_SUBGROUP says which, so that the second pass cannot
// silently run at the default size.
TEST_F(GpuTest, DeviceHasTheSubgroupSizeTheRunExpects)
{
    const char* expected = std::getenv("FLOE_EXPECT_SUBGROUP");
    if (!expected) GTEST_SKIP() << "FLOE_EXPECT_SUBGROUP is not set";
    EXPECT_EQ(context().caps().subgroupSize, uint32_t(std::stoul(expected)));
}

// The same second pass treats mapped memory as non-coherent (FLOE_NONCOHERENT=1): every upload
// and read-back then flushes or invalidates, as on a GPU whose host-visible memory is not
// coherent, and the whole suite runs through those calls under validation.
// FLOE_ROBUST=1 (tools/test.sh): robustBufferAccess is on where the device has it, and a read far
// past a buffer's end returns zero or a value of the buffer (Vulkan's robustBufferAccess rule),
// never memory of something else. (Lavapipe bounds-checks every storage access anyway; on a GPU
// without the feature the read would return whatever lies there.)
TEST_F(GpuTest, RobustBufferAccessReadsOutOfRangeAsZeroOrInRange)
{
    const char* robust = std::getenv("FLOE_ROBUST");
    if (!robust || std::string(robust) != "1") GTEST_SKIP() << "FLOE_ROBUST is not 1";
    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(context().physicalDevice(), &features);
    ASSERT_EQ(context().caps().robustBufferAccess, features.robustBufferAccess == VK_TRUE);
    if (!features.robustBufferAccess) GTEST_SKIP() << "the device has no robustBufferAccess";
    std::vector<uint32_t> values(16);
    for (uint32_t i = 0; i < 16; ++i) values[i] = 100 + i;
    const gpu::Buffer in = deviceBuffer("robust read input", 64);
    const gpu::Buffer out = deviceBuffer("robust read result", 16);
    sim::uploadNow(context(), graph(), in, values.data(), 64);
    const gpu::Pipeline pass = gpu::createComputePipeline(context(), shaders(), "tests/robust_read");
    for (const uint32_t index : {3u, 16u, 4096u, 1u << 20}) {
        graph().addCompute(pass).read(0, in).write(1, out).push(glm::uvec4(index, 0, 0, 0)).dispatch(1);
        submit();
        const uint32_t got = download<uint32_t>(out, 1)[0];
        if (index < 16)
            EXPECT_EQ(got, 100 + index);
        else
            EXPECT_TRUE(got == 0 || (got >= 100 && got < 116)) << "index " << index << " read " << got;
    }
}

// The index checks of debug builds (common/texel.glsl, FLOE_INDEX_CHECKS; build/shaders-checked/):
// in range the accessors read and write as the plain ones; out of range a load gives poison
// (0xFFFFFFFF, NaN) and a store is dropped, on every device.
TEST_F(GpuTest, IndexChecksGivePoisonOutOfRange)
{
    const gpu::ShaderLibrary checked{std::filesystem::path(FLOE_CHECKED_SHADER_DIR)};
    std::vector<uint32_t> values(16);
    std::vector<glm::vec4> vectors(16);
    for (uint32_t i = 0; i < 16; ++i) {
        values[i] = 100 + i;
        vectors[i] = glm::vec4(0.0f, 0.5f * float(i), 0.0f, 0.0f);
    }
    const gpu::Buffer in(context(), {"checked read values", 64, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    const gpu::Buffer vec(context(), {"checked read vectors", 256, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
    const gpu::Buffer out(context(), {"checked read result", 32, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
    sim::uploadNow(context(), graph(), in, values.data(), 64);
    sim::uploadNow(context(), graph(), vec, vectors.data(), 256);
    const gpu::Pipeline pass = gpu::createComputePipeline(context(), checked, "tests/checked_read");
    const std::vector<uint32_t> initial = {1, 2, 3, 4, 50, 51, 52, 53};
    for (const uint32_t index : {3u, 16u, 4096u, 1u << 20}) {
        SCOPED_TRACE(index);
        sim::uploadNow(context(), graph(), out, initial.data(), 32);
        graph().addCompute(pass).read(0, in).read(1, vec).readWrite(2, out).push(glm::uvec4(index, 0, 0, 0)).dispatch(1);
        submit();
        const std::vector<uint32_t> got = download<uint32_t>(out, 8);
        if (index < 16) {
            EXPECT_EQ(got[0], 100 + index);
            EXPECT_EQ(got[1], std::bit_cast<uint32_t>(0.5f * float(index)));
            EXPECT_EQ(got[2], index + 4 < 8 ? initial[index + 4] : 0xFFFFFFFFu);
            if (index + 4 < 8) {
                EXPECT_EQ(got[index + 4], 7u) << "the store in range";
            }
        } else {
            EXPECT_EQ(got[0], 0xFFFFFFFFu);
            EXPECT_TRUE(std::isnan(std::bit_cast<float>(got[1]))) << got[1];
            EXPECT_EQ(got[2], 0xFFFFFFFFu);
            for (int k = 3; k < 8; ++k) EXPECT_EQ(got[k], initial[k]) << "a store out of range landed at " << k;
        }
    }
}

TEST_F(GpuTest, ForcedNonCoherentMemoryFlushesAndInvalidates)
{
    const char* forced = std::getenv("FLOE_NONCOHERENT");
    if (!forced || std::string(forced) != "1") GTEST_SKIP() << "FLOE_NONCOHERENT is not 1";
    gpu::Buffer upload(context(), {"non-coherent upload", 64, gpu::MemoryKind::Upload});
    gpu::Buffer readback(context(), {"non-coherent read-back", 64, gpu::MemoryKind::Readback});
    EXPECT_FALSE(upload.hostCoherent());
    EXPECT_FALSE(readback.hostCoherent());
    std::vector<uint32_t> words(16);
    for (uint32_t i = 0; i < 16; ++i) words[i] = 7u * i + 1u;
    upload.write(words.data(), 64);
    graph().addCopy("non-coherent copy", upload, readback, 64);
    graph().addHostRead(readback);
    submit();
    EXPECT_EQ(readback.readVector<uint32_t>(16), words);
}

} // namespace
} // namespace floe::test
