// Scene loading: every shipped scene loads; bad files fail with a message naming the file,
// the key and what was expected; SPlisHSPlasH keys Floe does not use are warnings.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/SceneLoader.h"
#include "base/Error.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

class SceneFile : public ::testing::Test {
protected:
    fs::path write(const std::string& text)
    {
        const fs::path dir = fs::temp_directory_path() / "floe_scene_tests";
        fs::create_directories(dir);
        const fs::path path = dir / (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".json");
        std::ofstream(path) << text;
        return path;
    }
    // Loads and returns the error message (empty if it loaded).
    std::string errorOf(const std::string& text)
    {
        try {
            loadScene(write(text));
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ExitCode::BadInput);
            return e.what();
        }
        return {};
    }
};

const char* kMinimal = R"({"Configuration": {"particleRadius": 0.05}, "FluidBlocks": [{"start": [0,0,0], "end": [0.5,0.5,0.5]}]})";

TEST_F(SceneFile, ShippedScenesLoad)
{
    int count = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(FLOE_SOURCE_DIR) / "assets" / "scenes")) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        EXPECT_NO_THROW(loadScene(entry.path()));
        ++count;
    }
    EXPECT_GE(count, 1);
}

TEST_F(SceneFile, MinimalSceneUsesDefaultsAndSamplesTheBlock)
{
    const Scene scene = loadScene(write(kMinimal));
    EXPECT_FLOAT_EQ(scene.config.particleRadius, 0.05f);
    EXPECT_FLOAT_EQ(scene.config.timeStepSize, 0.001f);
    EXPECT_EQ(countFluidParticles(scene), 5u * 5u * 5u);
    const std::vector<glm::vec4> p = sampleFluidParticles(scene);
    ASSERT_EQ(p.size(), 125u);
    EXPECT_FLOAT_EQ(p[0].x, 0.05f); // first particle r inside the block
    EXPECT_FLOAT_EQ(p[1].x, 0.15f); // spacing 2r
    // The mass makes the initial lattice exactly rest density (3D cubic lattice sum 0.99997).
    EXPECT_NEAR(p[0].w, 1000.0f * 0.1f * 0.1f * 0.1f / 0.999972f, 1e-5f);
    EXPECT_TRUE(scene.warnings.empty());
}

TEST_F(SceneFile, TwoDimensionalSceneSamplesOneLayer)
{
    const Scene scene = loadScene(write(
        R"({"Configuration": {"particleRadius": 0.05, "sim2D": true}, "FluidBlocks": [{"start": [0,0,0], "end": [0.5,0.3,0]}]})"));
    EXPECT_EQ(countFluidParticles(scene), 5u * 3u);
    for (const glm::vec4& p : sampleFluidParticles(scene)) EXPECT_EQ(p.z, 0.0f);
    EXPECT_NEAR(particleMass(scene), 1000.0f * 0.1f * 0.1f / 1.000862f, 1e-5f);
}

TEST_F(SceneFile, MissingFileNamesThePath)
{
    try {
        loadScene("/nonexistent/scene.json");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/scene.json"), std::string::npos);
        EXPECT_EQ(e.code(), ExitCode::BadInput);
    }
}

TEST_F(SceneFile, MalformedJsonNamesLineAndColumn)
{
    const std::string msg = errorOf("{\n  \"Configuration\": {\n    \"particleRadius\": 0.05,\n  }\n}");
    EXPECT_NE(msg.find("malformed JSON"), std::string::npos) << msg;
    EXPECT_NE(msg.find("line 4"), std::string::npos) << msg;
    EXPECT_NE(msg.find(".json"), std::string::npos) << msg;
}

TEST_F(SceneFile, WrongTypeNamesKeyAndExpectation)
{
    const std::string msg =
        errorOf(R"({"Configuration": {"particleRadius": "big"}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    EXPECT_NE(msg.find("Configuration.particleRadius"), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected a number"), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"big\""), std::string::npos) << msg;
}

TEST_F(SceneFile, OutOfRangeNamesTheRangeAndUnit)
{
    const std::string msg =
        errorOf(R"({"Configuration": {"timeStepSize": -0.1}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    EXPECT_NE(msg.find("Configuration.timeStepSize"), std::string::npos) << msg;
    EXPECT_NE(msg.find(" s"), std::string::npos) << msg;
    EXPECT_NE(msg.find("-0.1"), std::string::npos) << msg;
}

TEST_F(SceneFile, VectorOfWrongLengthIsAnError)
{
    const std::string msg =
        errorOf(R"({"Configuration": {"gravitation": [0, -9.81]}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    EXPECT_NE(msg.find("Configuration.gravitation"), std::string::npos) << msg;
    EXPECT_NE(msg.find("array of 3 numbers"), std::string::npos) << msg;
}

TEST_F(SceneFile, UnknownKeyIsAnErrorWithASuggestion)
{
    const std::string msg =
        errorOf(R"({"Configuration": {"particleRadus": 0.05}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    EXPECT_NE(msg.find("Configuration.particleRadus"), std::string::npos) << msg;
    EXPECT_NE(msg.find("did you mean 'particleRadius'"), std::string::npos) << msg;
}

TEST_F(SceneFile, UnknownKeyInABlockNamesTheBlockIndex)
{
    const std::string msg = errorOf(
        R"({"Configuration": {}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}, {"start": [0,0,0], "ende": [1,1,1]}]})");
    EXPECT_NE(msg.find("FluidBlocks[1].ende"), std::string::npos) << msg;
}

TEST_F(SceneFile, UnknownSectionIsAnError)
{
    const std::string msg =
        errorOf(R"({"Configuration": {}, "FluidBlock": [], "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    EXPECT_NE(msg.find("\"FluidBlock\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("did you mean 'FluidBlocks'"), std::string::npos) << msg;
}

TEST_F(SceneFile, SplishSplashKeysFloeDoesNotUseAreWarnings)
{
    const std::string box = std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj";
    const Scene scene = loadScene(write(R"({
        "Configuration": {"particleRadius": 0.05, "simulationMethod": 4, "cflMethod": 1, "numberOfStepsPerRenderUpdate": 4},
        "Materials": [{"id": "Fluid", "density0": 998, "viscosity": 0.01, "colorMapType": 1}],
        "RigidBodies": [{"geometryFile": ")" +
                                        box + R"(", "isWall": true, "mapInvert": true, "mapThickness": 0.0,
                         "translation": [0.25, 0.5, 0.25], "scale": [2, 2, 2]}],
        "FluidBlocks": [{"denseMode": 0, "start": [0,0,0], "end": [0.5,0.5,0.5], "id": "Fluid"}]})"));
    EXPECT_FLOAT_EQ(scene.config.density0, 998.0f);
    EXPECT_FLOAT_EQ(scene.sph.viscosity, 0.01f);
    EXPECT_EQ(scene.sph.cflMethod, 1);
    ASSERT_EQ(scene.rigidBodies.size(), 1u);
    EXPECT_TRUE(scene.rigidBodies[0].inverted);
    EXPECT_EQ(scene.rigidBodies[0].mesh.triangles.size(), 12u);
    EXPECT_FLOAT_EQ(geometry::boundsOf(scene.rigidBodies[0].mesh).hi.y, 1.5f);
    // Not used yet: numberOfStepsPerRenderUpdate, colorMapType, mapThickness; DFSPH becomes IISPH.
    ASSERT_EQ(scene.warnings.size(), 4u);
    std::string all;
    for (const std::string& w : scene.warnings) all += w + "\n";
    for (const char* key : {"numberOfStepsPerRenderUpdate", "colorMapType", "mapThickness", "simulationMethod 4 (DFSPH)"})
        EXPECT_NE(all.find(key), std::string::npos) << key << " in " << all;
    EXPECT_EQ(scene.sph.pressureSolver(), sim::PressureSolver::Iisph);
}

TEST_F(SceneFile, EmptyOrInvertedBlocksAreErrors)
{
    EXPECT_NE(errorOf(R"({"Configuration": {}, "FluidBlocks": []})").find("at least one block"), std::string::npos);
    EXPECT_NE(errorOf(R"({"Configuration": {}, "FluidBlocks": [{"start": [0,0,0], "end": [1,-1,1]}]})").find("FluidBlocks[0]"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({"Configuration": {"particleRadius": 1}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})")
                  .find("hold no particle"),
              std::string::npos);
}

TEST_F(SceneFile, AbsurdParticleCountsAreRefusedBeforeAllocating)
{
    const std::string msg =
        errorOf(R"({"Configuration": {"particleRadius": 0.00001}, "FluidBlocks": [{"start": [0,0,0], "end": [10,10,10]}]})");
    EXPECT_NE(msg.find("particles"), std::string::npos) << msg;
}

TEST_F(SceneFile, FluidOutsideTheDomainIsAnError)
{
    const std::string msg = errorOf(R"({"Configuration": {"particleRadius": 0.05},
        "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}], "Floe": {"domainMin": [0,0,0], "domainMax": [0.5,2,2]}})");
    EXPECT_NE(msg.find("outside the domain"), std::string::npos) << msg;
}

TEST_F(SceneFile, OverridesUseTheSameChecks)
{
    Scene scene = loadScene(write(kMinimal));
    applyOverride(scene, "Configuration.timeStepSize=0.0005");
    EXPECT_FLOAT_EQ(scene.config.timeStepSize, 0.0005f);
    applyOverride(scene, "gravitation=[0,-1,0]");
    EXPECT_FLOAT_EQ(scene.config.gravitation.y, -1.0f);
    applyOverride(scene, "Floe.restitution=0.5");
    EXPECT_FLOAT_EQ(scene.floe.restitution, 0.5f);
    EXPECT_THROW(applyOverride(scene, "timeStepSize"), Error);
    EXPECT_THROW(applyOverride(scene, "timeStepSize=-1"), Error);
    try {
        applyOverride(scene, "Configuration.timeStepSiz=0.1");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("did you mean 'timeStepSize'"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace floe
