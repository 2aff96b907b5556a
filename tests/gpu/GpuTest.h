// Fixture of the GPU tests: one Vulkan context per test program (lavapipe in CI) with the
// validation layer and synchronization validation always on. A test fails if it caused any
// validation message. Without a device the tests are skipped, unless FLOE_REQUIRE_GPU=1 (set by
// tools/test.sh), where a missing device is a failure.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "base/Error.h"
#include "gpu/Context.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "sim/ParticleBuffers.h"

namespace floe::test {

struct GpuEnvironment {
    std::unique_ptr<gpu::Context> context;
    std::unique_ptr<gpu::ShaderLibrary> shaders;
    std::unique_ptr<graph::RenderGraph> graph;
    std::string error;

    static GpuEnvironment& get()
    {
        static GpuEnvironment env = [] {
            GpuEnvironment e;
            try {
                gpu::ContextOptions options;
                options.validation = true;
                if (const char* d = std::getenv("FLOE_TEST_DEVICE")) options.deviceName = d;
                e.context = std::make_unique<gpu::Context>(options);
                e.shaders = std::make_unique<gpu::ShaderLibrary>();
                e.graph = std::make_unique<graph::RenderGraph>(*e.context);
            } catch (const Error& err) {
                e.error = err.what();
                e.context.reset();
            }
            return e;
        }();
        return env;
    }
};

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        GpuEnvironment& env = GpuEnvironment::get();
        if (!env.context) {
            const char* require = std::getenv("FLOE_REQUIRE_GPU");
            if (require && std::string(require) == "1") FAIL() << "no usable Vulkan device: " << env.error;
            GTEST_SKIP() << "no usable Vulkan device: " << env.error;
        }
        messagesBefore_ = env.context->validationMessageCount();
    }
    void TearDown() override
    {
        GpuEnvironment& env = GpuEnvironment::get();
        if (!env.context) return;
        const uint32_t after = env.context->validationMessageCount();
        if (after != messagesBefore_) {
            std::string all;
            for (const std::string& m : env.context->validationMessages()) all += m + "\n";
            ADD_FAILURE() << (after - messagesBefore_) << " validation message(s) during this test:\n" << all;
        }
    }

    gpu::Context& context() { return *GpuEnvironment::get().context; }
    const gpu::ShaderLibrary& shaders() { return *GpuEnvironment::get().shaders; }
    graph::RenderGraph& graph() { return *GpuEnvironment::get().graph; }

    // Submits the graph's pending passes and waits.
    void submit()
    {
        graph::RenderGraph& g = graph();
        context().submitAndWait([&](VkCommandBuffer cmd) { g.execute(cmd); });
    }
    template <class T> void upload(const gpu::Buffer& dst, const std::vector<T>& data)
    {
        sim::uploadNow(context(), graph(), dst, data.data(), data.size() * sizeof(T));
    }
    template <class T> std::vector<T> download(const gpu::Buffer& src, size_t count)
    {
        std::vector<T> out(count);
        sim::downloadNow(context(), graph(), src, out.data(), count * sizeof(T));
        return out;
    }
    gpu::Buffer deviceBuffer(const std::string& name, VkDeviceSize bytes, VkFormat format = VK_FORMAT_R32_UINT)
    {
        return gpu::Buffer(context(), {name, bytes, gpu::MemoryKind::DeviceLocal, format});
    }

private:
    uint32_t messagesBefore_ = 0;
};

} // namespace floe::test
