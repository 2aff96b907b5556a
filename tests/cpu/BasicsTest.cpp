// Small pure pieces: level sizes of the multi-level primitives, the camera, the CSV writer,
// the settings tables and the shared struct layouts on the C++ side.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/Error.h"
#include "base/Settings.h"
#include "gpu/TimestampMath.h"
#include "io/Csv.h"
#include "render/Camera.h"
#include "shared/grid.h"
#include "shared/prim.h"
#include "shared/render.h"
#include "shared/sph.h"
#include "sim/prim/Levels.h"

namespace floe {
namespace {

TEST(Levels, CountsPerLevel)
{
    EXPECT_TRUE(sim::levelCounts(0, 1024).empty());
    EXPECT_EQ(sim::levelCounts(1, 1024), (std::vector<uint32_t>{1}));
    EXPECT_EQ(sim::levelCounts(1024, 1024), (std::vector<uint32_t>{1024}));
    EXPECT_EQ(sim::levelCounts(1025, 1024), (std::vector<uint32_t>{1025, 2}));
    EXPECT_EQ(sim::levelCounts(1u << 21, 1024), (std::vector<uint32_t>{1u << 21, 2048, 2}));
    EXPECT_EQ(sim::blocksOf(0, 256), 0u);
    EXPECT_EQ(sim::blocksOf(257, 256), 2u);
}

TEST(Camera, FitKeepsTheBoxInView)
{
    const glm::vec3 lo(-1, 0, -0.5f), hi(2, 1.5f, 0.5f);
    for (const bool flat : {false, true}) {
        const render::Camera c = render::Camera::fit(lo, hi, 40.0f, flat);
        const glm::mat4 viewProj = c.projection(16.0f / 9.0f) * c.view();
        for (int corner = 0; corner < 8; ++corner) {
            const glm::vec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
            const glm::vec4 clip = viewProj * glm::vec4(p, 1.0f);
            ASSERT_GT(clip.w, 0.0f);
            const glm::vec3 ndc = glm::vec3(clip) / clip.w;
            EXPECT_LE(std::abs(ndc.x), 1.0f) << "corner " << corner;
            EXPECT_LE(std::abs(ndc.y), 1.0f) << "corner " << corner;
            EXPECT_GE(ndc.z, 0.0f) << "corner " << corner;
            EXPECT_LE(ndc.z, 1.0f) << "corner " << corner;
        }
    }
}

TEST(Camera, VulkanClipSpaceHasYDown)
{
    render::Camera c;
    c.position = {0, 0, 5};
    c.target = {0, 0, 0};
    const glm::vec4 up = c.projection(1.0f) * c.view() * glm::vec4(0, 1, 0, 1);
    EXPECT_LT(up.y / up.w, 0.0f);
}

TEST(Csv, HeaderRowsAndEmptyFields)
{
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "floe_csv_test.csv";
    {
        io::CsvWriter csv(path, {"step", "time", "density_error_avg", "gpu_ms:sim/integrate"});
        csv.set("step", uint64_t(1));
        csv.set("time", 0.002);
        csv.set("gpu_ms:sim/integrate", 0.1f);
        csv.endRow();
        csv.set(0, uint64_t(2));
        csv.endRow();
        EXPECT_THROW(csv.column("nope"), std::out_of_range);
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "step,time,density_error_avg,gpu_ms:sim/integrate\n1,0.002,,0.1\n2,,,\n");
}

struct Example {
    float length = 1.0f;
    int count = 3;
    bool on = false;
    glm::vec3 direction{0, 0, 0};
    std::string mode = "a";
};

TEST(Settings, TableAppliesWithChecks)
{
    SettingsTable t("Example");
    t.number("length", &Example::length, "m", 0, 10, "a length")
        .integer("count", &Example::count, 1, 5, "a count")
        .flag("on", &Example::on, "a switch")
        .vector("direction", &Example::direction, "", -1, 1, "a direction")
        .choice("mode", &Example::mode, {"a", "b"}, "a mode");
    Example e;
    t.apply(&e, "length", 2.5, "test");
    t.apply(&e, "count", 4, "test");
    t.apply(&e, "on", 1, "test");
    t.apply(&e, "direction", nlohmann::json::array({0, 1, 0}), "test");
    t.apply(&e, "mode", "b", "test");
    EXPECT_FLOAT_EQ(e.length, 2.5f);
    EXPECT_EQ(e.count, 4);
    EXPECT_TRUE(e.on);
    EXPECT_EQ(e.direction, glm::vec3(0, 1, 0));
    EXPECT_EQ(e.mode, "b");
    EXPECT_THROW(t.apply(&e, "count", 2.5, "test"), Error);
    EXPECT_THROW(t.apply(&e, "count", 9, "test"), Error);
    EXPECT_THROW(t.apply(&e, "length", nlohmann::json(std::numeric_limits<double>::infinity()), "test"), Error);
    EXPECT_THROW(t.apply(&e, "mode", "c", "test"), Error);
    EXPECT_THROW(t.apply(&e, "on", "yes", "test"), Error);
    EXPECT_THROW(t.apply(&e, "missing", 1, "test"), Error);
    EXPECT_EQ(closestKey("lenght", {"length", "count"}), "length");
    EXPECT_EQ(closestKey("zzzzzzzz", {"length", "count"}), "");
}

// The C++ side of the shared layouts: every vec4/mat4 on a 16-byte boundary, as std430 puts
// it (tests/gpu/SharedLayoutTest.cpp checks the GPU side).
TEST(SharedLayout, VectorsStartOn16ByteBoundaries)
{
    EXPECT_EQ(offsetof(shared::ReduceParams, identity) % 16, 0u);
    EXPECT_EQ(offsetof(shared::SphParams, gridDims), 32u);
    EXPECT_EQ(offsetof(shared::SphParams, iisph), 80u);
    EXPECT_EQ(offsetof(shared::SphParams, domainMax), 112u);
    EXPECT_EQ(offsetof(shared::SphState, solver), 32u);
    EXPECT_EQ(offsetof(shared::WallParams, domain), 32u);
    EXPECT_EQ(offsetof(shared::GridParams, dims), 16u);
    EXPECT_EQ(offsetof(shared::RenderParams, projection), 64u);
    EXPECT_EQ(offsetof(shared::RenderParams, lightDirection), 128u);
    EXPECT_EQ(offsetof(shared::RenderParams, viewport), 176u);
    EXPECT_EQ(PRIM_BLOCK_SIZE, PRIM_GROUP_SIZE * PRIM_ITEMS_PER_THREAD);
}

} // namespace
} // namespace floe

namespace floe::test {

// GPUs differ in the timestamp period and the counter's width; lavapipe (period 1, 64 bits)
// exercises neither, so the arithmetic is checked here: periods other than 1 and a counter that
// wrapped between the two stamps.
TEST(Timestamps, IntervalsHonourThePeriodAndTheCountersWidth)
{
    EXPECT_DOUBLE_EQ(gpu::timestampIntervalMs(1000, 3000, 1.0, 64), 0.002);
    EXPECT_DOUBLE_EQ(gpu::timestampIntervalMs(1000, 13000, 83.333, 64), 12000 * 83.333e-6);
    // 36 valid bits: the counter wraps at 2^36; garbage in the high bits is ignored.
    const uint64_t wrap = 1ull << 36;
    EXPECT_DOUBLE_EQ(gpu::timestampIntervalMs(wrap - 100, 50, 40.0, 36), 150 * 40e-6);
    EXPECT_DOUBLE_EQ(gpu::timestampIntervalMs((0xABCull << 40) | (wrap - 100), (0x123ull << 40) | 50, 40.0, 36), 150 * 40e-6);
    // 64 bits wrap too.
    EXPECT_DOUBLE_EQ(gpu::timestampIntervalMs(~0ull - 9, 10, 1.0, 64), 20e-6);
    EXPECT_DOUBLE_EQ(gpu::timestampIntervalMs(5, 5, 10.0, 48), 0.0);
}

} // namespace floe::test
