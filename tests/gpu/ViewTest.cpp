// floe view in a real window under Xvfb on lavapipe: ImGui drawn, no validation message, a
// screenshot of the swapchain image that is not blank, the swapchain surviving resizes and a
// minimise, a RenderDoc capture of a window frame, and a clear error without a display.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "Shell.h"
#include "gpu/RenderDoc.h"

namespace floe::test {
namespace {

namespace fs = std::filesystem;

bool required()
{
    const char* require = std::getenv("FLOE_REQUIRE_GPU");
    return require && std::string(require) == "1";
}

// Runs floe view under a private X server (xvfb-run -a: displays are shared between tests).
Result view(const std::string& args)
{
    const std::string command = "xvfb-run -a -s '-screen 0 1280x720x24' " + std::string(FLOE_BINARY) + " view " + args;
    Result r = shell(command);
    // tools/test.sh sets FLOE_VALIDATE=1: any validation message fails the test.
    EXPECT_EQ(r.output.find("[vulkan "), std::string::npos) << "validation message from floe view " << args << ":\n" << r.output;
    return r;
}

fs::path tempDir(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("floe_view_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

nlohmann::json readJson(const fs::path& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return nlohmann::json::parse(s.str());
}

class ViewTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (shell("command -v xvfb-run").status != 0) {
            if (required()) FAIL() << "xvfb-run is not installed (tools/install-deps.sh installs xvfb and xauth)";
            GTEST_SKIP() << "xvfb-run is not installed";
        }
    }
};

const std::string kScene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/dam_break_2d.json";

TEST_F(ViewTest, WindowDrawsTheUiAndTheFluidSurface)
{
    const fs::path dir = tempDir("window");
    const Result r = view(kScene + " --render fluid --quit-after 10 --screenshot " + (dir / "shot.png").string() + " --report " +
                          (dir / "report.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["frames"], 10);
    EXPECT_EQ(report["steps"], 10);
    EXPECT_GT(report["ui_vertices"].get<int>(), 500) << "ImGui drew next to nothing";
    EXPECT_EQ(report["validation_messages"], 0);
    for (const char* pass :
         {"render/fluid_depth", "render/fluid_smooth", "render/fluid_composite", "view/blit", "ui/imgui", "sph/density"})
        EXPECT_TRUE(report["gpu_ms_mean"].contains(pass)) << pass << " not timed: " << report.dump();
    // The screenshot is the swapchain image: the window's size, neither blank nor uniform.
    const nlohmann::json& shot = report["screenshot"];
    EXPECT_GT(shot["luminance_variance"].get<double>(), 50.0) << shot.dump();
    EXPECT_GT(shot["differing_from_corner"].get<double>(), 0.1) << shot.dump();
    int w = 0, h = 0, n = 0;
    unsigned char* pixels = stbi_load((dir / "shot.png").c_str(), &w, &h, &n, 4);
    ASSERT_NE(pixels, nullptr);
    EXPECT_EQ(w, 1280);
    EXPECT_EQ(h, 720);
    // The fluid (blue-green; the 2D dam stands at the lower left) shows beside the panel, which
    // sits on the right.
    size_t fluid = 0;
    for (int y = h / 2; y < h; ++y)
        for (int x = 0; x < w - 400; ++x) {
            const unsigned char* p = pixels + (size_t(y) * w + x) * 4;
            fluid += (p[1] > p[0] + 10 && p[2] > p[0] + 10) ? 1 : 0;
        }
    stbi_image_free(pixels);
    EXPECT_GT(fluid, 2000u) << "no fluid-coloured pixels in the lower left of the picture";
}

TEST_F(ViewTest, PanelLeavesTheSceneVisibleAndItsLabelsFit)
{
    // At 1280x720 the scene is drawn in the viewport left of the docked panel: the panel covers
    // none of it, every label fits the panel, and (fluid scenes) the scene's bounds project inside
    // the viewport. In the 2D dam break the right wall (its drawn samples) shows beside the panel.
    for (const std::string scene : {"dam_break_2d", "dam_break_3d", "bodies_drop", "fracture_cube"}) {
        SCOPED_TRACE(scene);
        const fs::path dir = tempDir("panel_" + scene);
        const Result r = view(std::string(FLOE_SOURCE_DIR) + "/assets/scenes/" + scene + ".json --quit-after 3 --screenshot " +
                              (dir / "shot.png").string() + " --report " + (dir / "report.json").string());
        ASSERT_EQ(r.status, 0) << r.output;
        const nlohmann::json report = readJson(dir / "report.json");
        const int width = report["scene_viewport"]["width"], height = report["scene_viewport"]["height"];
        const nlohmann::json& panel = report["panel"];
        EXPECT_FALSE(panel["collapsed"].get<bool>());
        EXPECT_LE(width, panel["x0"].get<double>()) << "the panel covers part of the scene: " << report.dump();
        EXPECT_GE(width, 1280 / 2) << "the scene keeps most of the window";
        EXPECT_EQ(height, 720);
        EXPECT_LE(report["panel_overflow_px"].get<double>(), 0.5) << "a label or text runs past the panel";
        if (scene.rfind("dam_", 0) != 0) continue;
        const nlohmann::json& b = report["scene_bounds_px"];
        EXPECT_GE(b["x0"].get<double>(), 0.0);
        EXPECT_GE(b["y0"].get<double>(), 0.0);
        EXPECT_LE(b["x1"].get<double>(), double(width)) << "the scene reaches under the panel";
        EXPECT_LE(b["y1"].get<double>(), double(height));
        if (scene != "dam_break_2d") continue;
        int w = 0, h = 0, n = 0;
        unsigned char* pixels = stbi_load((dir / "shot.png").c_str(), &w, &h, &n, 4);
        ASSERT_NE(pixels, nullptr);
        const int wall = int(std::lround(b["x1"].get<double>()));
        int light = 0; // the wall's grey-white samples in a band around its projection
        for (int y = h / 4; y < 3 * h / 4; ++y)
            for (int x = std::max(wall - 6, 0); x < std::min(wall + 2, w); ++x) {
                const unsigned char* p = pixels + (size_t(y) * w + x) * 4;
                light += (p[0] > 150 && p[1] > 150 && p[2] > 150) ? 1 : 0;
            }
        stbi_image_free(pixels);
        EXPECT_GT(light, 100) << "the right wall at x = " << wall << " is not visible";
    }
}

TEST_F(ViewTest, ResizeAndMinimiseKeepTheSwapchainWorking)
{
    const fs::path dir = tempDir("resize");
    const Result r = view(kScene + " --render both --quit-after 16 --exercise-window --screenshot " + (dir / "shot.png").string() +
                          " --report " + (dir / "report.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["frames"], 16);
    // Resized to 3/4 and back: two recreations at least (a window manager honouring the
    // minimise adds frames without a swapchain; Xvfb alone ignores it).
    EXPECT_GE(report["swapchain_recreations"].get<int>(), 2) << report.dump();
    EXPECT_EQ(report["screenshot"]["width"], 1280);
    EXPECT_EQ(report["screenshot"]["height"], 720);
    EXPECT_GT(report["screenshot"]["luminance_variance"].get<double>(), 50.0);
}

TEST_F(ViewTest, CaptureFrameRecordsTheWindowsPasses)
{
    if (gpu::RenderDoc::locate().empty()) {
        if (required()) FAIL() << "RenderDoc is not installed (tools/install-deps.sh installs it)";
        GTEST_SKIP() << "RenderDoc is not installed";
    }
    const fs::path dir = tempDir("capture");
    const Result r = view(kScene + " --render both --quit-after 4 --capture-frame 2 --screenshot " + (dir / "shot.png").string() +
                          " --report " + (dir / "report.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json report = readJson(dir / "report.json");
    ASSERT_TRUE(report["capture"].is_string()) << report.dump();
    const std::string capture = report["capture"];
    ASSERT_TRUE(fs::exists(capture)) << capture;
    // RenderDoc's Python module in a subprocess (some replay calls crash on lavapipe).
    const Result summary = shell("/usr/bin/python3 " + std::string(FLOE_SOURCE_DIR) + "/tools/capture_summary.py " + capture);
    ASSERT_EQ(summary.status, 0) << summary.output;
    const nlohmann::json found = nlohmann::json::parse(summary.output);
    EXPECT_GE(found["dispatches"].get<int>(), 5) << summary.output;
    EXPECT_GE(found["draws"].get<int>(), 4) << summary.output;
    for (const char* marker :
         {"sph/density", "render/fluid_depth", "render/fluid_smooth", "render/fluid_composite", "view/blit", "ui/imgui"}) {
        bool present = false;
        for (const auto& m : found["markers"]) present = present || m == marker;
        EXPECT_TRUE(present) << marker << " not among the capture's markers: " << summary.output;
    }
}

TEST_F(ViewTest, DeformableBodiesAreShownAndStepped)
{
    const fs::path dir = tempDir("bodies");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/bodies_balls_glass.json";
    const Result r =
        view(scene + " --quit-after 8 --screenshot " + (dir / "shot.png").string() + " --report " + (dir / "report.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["steps"], 8);
    EXPECT_GT(report["ui_vertices"].get<int>(), 500);
    EXPECT_TRUE(report["gpu_ms_mean"].contains("body/sm_regions")) << report.dump();
    EXPECT_TRUE(report["gpu_ms_mean"].contains("render/mesh")) << report.dump();
    EXPECT_GT(report["screenshot"]["luminance_variance"].get<double>(), 50.0);
    EXPECT_EQ(report["diverged"], "");
}

// A scene of fluid and a deformable body: both stepped, coupled, and drawn, with validation on.
TEST_F(ViewTest, CoupledFluidAndBodiesAreShownAndStepped)
{
    const fs::path dir = tempDir("coupled");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_ball_pool.json";
    const Result r =
        view(scene + " --quit-after 6 --screenshot " + (dir / "shot.png").string() + " --report " + (dir / "report.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["steps"], 6);
    for (const char* pass :
         {"coupling/solid_samples", "sph/solid_impulses", "coupling/solid_impulses_apply", "body/sm_regions", "render/mesh"})
        EXPECT_TRUE(report["gpu_ms_mean"].contains(pass)) << pass << ": " << report.dump();
    EXPECT_GT(report["screenshot"]["luminance_variance"].get<double>(), 50.0);
    EXPECT_EQ(report["diverged"], "");
    EXPECT_EQ(report["validation_messages"], 0);
}

// A fluid with fracture bodies: stepped coupled (each step submitted and read back for the
// rebuild after cuts, as fracture steps are), the fluid's metrics read with the frame, the tet
// faces and the fluid's surface drawn.
TEST_F(ViewTest, CoupledFluidAndFractureBodiesAreShownAndStepped)
{
    const fs::path dir = tempDir("coupled-fracture");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_glass_drop.json";
    const Result r =
        view(scene + " --quit-after 6 --screenshot " + (dir / "shot.png").string() + " --report " + (dir / "report.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["steps"], 6);
    EXPECT_GT(report["simulated_seconds"].get<double>(), 0.0055);
    for (const char* pass : {"fracture/surface", "render/mesh", "render/fluid_depth"})
        EXPECT_TRUE(report["gpu_ms_mean"].contains(pass)) << pass << ": " << report.dump();
    EXPECT_GT(report["screenshot"]["luminance_variance"].get<double>(), 50.0);
    EXPECT_EQ(report["diverged"], "");
    EXPECT_EQ(report["validation_messages"], 0);
}

TEST_F(ViewTest, FractureScenesAreShownAndStepped)
{
    const fs::path dir = tempDir("fracture");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/fracture_cone.json";
    const Result r =
        view(scene + " --quit-after 6 --screenshot " + (dir / "shot.png").string() + " --report " + (dir / "report.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["steps"], 6);
    EXPECT_GT(report["simulated_seconds"].get<double>(), 0.09);
    EXPECT_TRUE(report["gpu_ms_mean"].contains("fracture/surface")) << report.dump();
    EXPECT_TRUE(report["gpu_ms_mean"].contains("render/mesh")) << report.dump();
    EXPECT_GT(report["screenshot"]["luminance_variance"].get<double>(), 50.0);
    // The Constraint method's scene (pre-fractured pieces, links) in the window.
    const std::string voronoi = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/fracture_voronoi_cube.json";
    const Result v = view(voronoi + " --quit-after 3 --report " + (dir / "voronoi.json").string());
    ASSERT_EQ(v.status, 0) << v.output;
    const nlohmann::json vr = readJson(dir / "voronoi.json");
    EXPECT_EQ(vr["steps"], 3);
    EXPECT_TRUE(vr["gpu_ms_mean"].contains("fracture/surface")) << vr.dump();
    EXPECT_EQ(vr["validation_messages"], 0);
}

TEST_F(ViewTest, WithoutADisplayItNamesTheHeadlessCommand)
{
    const Result r = shell("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(FLOE_BINARY) + " view " + kScene + " --quit-after 1");
    EXPECT_EQ(r.status, 3) << r.output;
    EXPECT_NE(r.output.find("DISPLAY"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("floe run"), std::string::npos) << r.output;
}

} // namespace
} // namespace floe::test
