// Scene loading: every shipped scene loads; bad files fail with a message naming the file,
// the key and what was expected; SPlisHSPlasH keys Floe does not use are warnings.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "base/Error.h"
#include "fracture/TetShapes.h"
#include "scene/SceneLoader.h"
#include "scene/SceneSetup.h"
#include "shared/sph.h"

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
    // SPlisHSPlasH's sampling: round(0.5 / 0.1) - 1 = 4 per axis, the first 2r inside the corner.
    EXPECT_EQ(countFluidParticles(scene), 4u * 4u * 4u);
    const std::vector<glm::vec4> p = sampleFluidParticles(scene);
    ASSERT_EQ(p.size(), 64u);
    EXPECT_FLOAT_EQ(p[0].x, 0.1f);
    EXPECT_FLOAT_EQ(p.back().x, 0.4f); // 2r inside the far face too
    // Without a Floe section the scene is SPlisHSPlasH's, with its particle volume 0.8 (2r)^3.
    EXPECT_NEAR(p[0].w, 0.8f * 1000.0f * 0.1f * 0.1f * 0.1f, 1e-5f);
    EXPECT_TRUE(scene.warnings.empty());
    // With one (or Floe.particleMass rest) the mass makes the initial lattice exactly rest density
    // (3D cubic lattice sum 0.99997); splishsplash asks for SPlisHSPlasH's anywhere.
    const std::string withFloe =
        R"({"Configuration": {"particleRadius": 0.05}, "Floe": {}, "FluidBlocks": [{"start": [0,0,0], "end": [0.5,0.5,0.5]}]})";
    EXPECT_NEAR(particleMass(loadScene(write(withFloe))), 1000.0f * 0.1f * 0.1f * 0.1f / 0.999972f, 1e-5f);
    Scene rest = loadScene(write(kMinimal));
    applyOverride(rest, "Floe.particleMass=rest");
    EXPECT_NEAR(particleMass(rest), 1000.0f * 0.1f * 0.1f * 0.1f / 0.999972f, 1e-5f);
    Scene splish = loadScene(write(withFloe));
    applyOverride(splish, "Floe.particleMass=splishsplash");
    EXPECT_NEAR(particleMass(splish), 0.8f * 1000.0f * 0.1f * 0.1f * 0.1f, 1e-5f);
    EXPECT_EQ(scene.sph.pressureSolver(), sim::PressureSolver::Dfsph); // SPlisHSPlasH's default
}

TEST_F(SceneFile, TwoDimensionalSceneSamplesOneLayer)
{
    const Scene scene = loadScene(write(
        R"({"Configuration": {"particleRadius": 0.05, "sim2D": true}, "Floe": {}, "FluidBlocks": [{"start": [0,0,0], "end": [0.5,0.4,0]}]})"));
    EXPECT_EQ(countFluidParticles(scene), 4u * 3u);
    for (const glm::vec4& p : sampleFluidParticles(scene)) EXPECT_EQ(p.z, 0.0f);
    EXPECT_NEAR(particleMass(scene), 1000.0f * 0.1f * 0.1f / 1.000862f, 1e-5f);
}

TEST_F(SceneFile, BlocksGiveSplishSplashsParticleCounts)
{
    // PEERS.md's dam: a 1 m cube at r = 1/46 m is 10648 = 22^3 particles in SPlisHSPlasH (23^3
    // with Floe's sampling before issue 14).
    Scene scene = loadScene(write(R"({"Configuration": {"particleRadius": 0.0217391304},
        "FluidBlocks": [{"start": [-0.5, 0, -0.5], "end": [0.5, 1, 0.5], "translation": [-1.45, 0.05, 0]}]})"));
    EXPECT_EQ(countFluidParticles(scene), 10648u);
    // SPlisHSPlasH's scenes, counted by its SPHSimulator 2.16: DamBreakModel 6859, DoubleDamBreak 4732.
    scene = loadScene(write(R"({"Configuration": {"particleRadius": 0.025},
        "FluidBlocks": [{"start": [-0.5, 0.0, -0.5], "end": [0.5, 1.0, 0.5], "translation": [-1.45, 0.05, 0.0]}]})"));
    EXPECT_EQ(countFluidParticles(scene), 6859u);
    scene = loadScene(write(R"({"Configuration": {"particleRadius": 0.025},
        "FluidBlocks": [{"start": [-1.5, 0.0, -1.5], "end": [-0.8, 0.75, -0.8]}, {"start": [0.8, 0.0, 0.8], "end": [1.5, 0.75, 1.5]}]})"));
    EXPECT_EQ(countFluidParticles(scene), 4732u);
    // The staggered and dense modes: counts of SPlisHSPlasH's formulas, and the lattice at rest
    // density (each mode's mass from its own lattice sum).
    for (int mode : {1, 2}) {
        SCOPED_TRACE(mode);
        scene = loadScene(write(fmt::format(R"({{"Configuration": {{"particleRadius": 0.05}}, "Floe": {{"particleMass": "rest"}},
            "FluidBlocks": [{{"denseMode": {}, "start": [0, 0, 0], "end": [1, 1, 1]}}]}})",
                                            mode)));
        const double r = 0.05, d = 0.1;
        const double xs = mode == 2 ? std::sqrt(6.0) * d / 3.0 + 1e-9 : d, ys = std::sqrt(3.0) * r + 1e-9;
        const uint64_t expected = uint64_t(std::round((1.0 - (mode == 2 ? xs : d)) / xs) - 1) * uint64_t(std::round(1.0 / ys) - 1) *
                                  uint64_t(std::round((1.0 - d) / d) - 1);
        EXPECT_EQ(countFluidParticles(scene), expected);
        const std::vector<glm::vec4> p = sampleFluidParticles(scene);
        ASSERT_EQ(p.size(), expected);
        // An interior particle's density from its neighbours is rho0.
        glm::vec3 centre(0.5f);
        size_t best = 0;
        for (size_t i = 0; i < p.size(); ++i)
            if (glm::length(glm::vec3(p[i]) - centre) < glm::length(glm::vec3(p[best]) - centre)) best = i;
        double rho = 0;
        for (const glm::vec4& q : p)
            rho += q.w * shared::kernelW(SPH_KERNEL_CUBIC, glm::length(glm::vec3(q) - glm::vec3(p[best])), 0.1f, 3);
        EXPECT_NEAR(rho, 1000.0, 0.5);
    }
}

TEST_F(SceneFile, BlocksTouchingAWallStartOneSpacingFromIt)
{
    // A block flush with a wall: its particles 2r inside (where Floe's walls hold rest density);
    // two touching blocks leave 2 x 2r between their layers.
    const Scene scene = loadScene(write(R"({"Configuration": {"particleRadius": 0.02, "sim2D": true},
        "FluidBlocks": [{"start": [0, 0, 0], "end": [0.4, 0.4, 0]}, {"start": [0.4, 0, 0], "end": [0.8, 0.4, 0]}]})"));
    const std::vector<glm::vec4> p = sampleFluidParticles(scene);
    float lo = 1e9f, gapLo = 1e9f, gapHi = -1e9f;
    for (const glm::vec4& q : p) {
        lo = std::min(lo, q.x);
        if (q.x > 0.4f) gapLo = std::min(gapLo, q.x);
        if (q.x < 0.4f) gapHi = std::max(gapHi, q.x);
    }
    EXPECT_FLOAT_EQ(lo, 0.04f);
    EXPECT_NEAR(gapLo - gapHi, 0.08f, 1e-6f);
}

TEST_F(SceneFile, InitialAngularVelocityTurnsTheBlockAboutItsCentre)
{
    const Scene scene = loadScene(write(R"({"Configuration": {"particleRadius": 0.05},
        "FluidBlocks": [{"start": [0, 0, 0], "end": [0.6, 0.6, 0.6], "initialVelocity": [1, 0, 0],
                         "initialAngularVelocity": [0, 0, 2]}]})"));
    const FluidSampling s = sampleFluid(scene);
    glm::dvec3 momentum(0);
    for (size_t i = 0; i < s.positions.size(); ++i) {
        const glm::vec3 expected = glm::vec3(1, 0, 0) + glm::cross(glm::vec3(0, 0, 2), glm::vec3(s.positions[i]) - glm::vec3(0.3f));
        EXPECT_NEAR(glm::length(glm::vec3(s.velocities[i]) - expected), 0.0f, 1e-5f);
        momentum += glm::dvec3(glm::vec3(s.velocities[i]));
    }
    EXPECT_NEAR(momentum.x / double(s.positions.size()), 1.0, 1e-6);
    EXPECT_NEAR(momentum.y, 0.0, 1e-4);
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

TEST_F(SceneFile, NumberTooLargeForADoubleNamesItsKey)
{
    // nlohmann refuses 1e999 (it overflows a double) with an exception of its own, which used to
    // end the run as an internal error naming nothing.
    for (const char* text :
         {R"({"Configuration": {"particleRadius": 1e999}})", R"({"Configuration": {"gravitation": [0, -1e999, 0]}})"}) {
        SCOPED_TRACE(text);
        const std::string msg = errorOf(text);
        EXPECT_NE(msg.find(".json"), std::string::npos) << msg;
        EXPECT_TRUE(msg.find("\"particleRadius\"") != std::string::npos || msg.find("\"gravitation\"") != std::string::npos) << msg;
        EXPECT_NE(msg.find("finite"), std::string::npos) << msg;
    }
}

// The "Deformable" section nests the bodies' own settings table (body::BodySettings::table()):
// its keys land in the settings the bodies run with, from the file and from --set, with the
// bodies' defaults where the scene says nothing, and out-of-range values name the key.
TEST_F(SceneFile, DeformableSectionSetsTheBodiesOwnSettings)
{
    const std::string scene =
        R"({"Configuration": {"timeStepSize": 0.005}, "Floe": {"domainMin": [-2, 0, -2], "domainMax": [2, 3, 2]},
        "Deformable": {"omega": 3, "volumeIterations": 7, "friction": 0.25, "glassRadius": 0.9, "glassHeight": 0.5,
                       "glassCentre": [0.1, 0, 0.2], "volume": "local", "plateStart": 2.5},
        "DeformableBodies": [{"shape": "sphere", "radius": 0.3, "translation": [0, 1, 0]}]})";
    Scene s = loadScene(write(scene));
    const body::BodySettings defaults;
    EXPECT_EQ(s.deformable.body.omega, 3);
    EXPECT_EQ(s.deformable.body.volumeIterations, 7);
    EXPECT_FLOAT_EQ(s.deformable.body.friction, 0.25f);
    EXPECT_FLOAT_EQ(s.deformable.body.glassRadius, 0.9f);
    EXPECT_FLOAT_EQ(s.deformable.body.glassCentre.z, 0.2f);
    EXPECT_EQ(s.deformable.volume, "local");
    EXPECT_FLOAT_EQ(s.deformable.plateStart, 2.5f);
    EXPECT_FLOAT_EQ(s.deformable.body.stiffness, defaults.stiffness);
    EXPECT_EQ(s.deformable.body.jacobiSweeps, defaults.jacobiSweeps);
    applyOverride(s, "Deformable.stiffness=0.5");
    applyOverride(s, "Deformable.omega=4");
    EXPECT_FLOAT_EQ(s.deformable.body.stiffness, 0.5f);
    EXPECT_EQ(s.deformable.body.omega, 4);
    try {
        applyOverride(s, "Deformable.volumeIterations=40");
        ADD_FAILURE() << "volumeIterations 40 was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("Deformable.volumeIterations"), std::string::npos) << e.what();
    }
}

// The "Fracture" section nests the fracture bodies' own settings table
// (fracture::FractureSettings::table(), unsigned counts among them) beside the choices by name.
TEST_F(SceneFile, FractureSectionSetsTheFractureBodiesOwnSettings)
{
    Scene s = loadScene(write(R"({"Configuration": {"timeStepSize": 0.01},
        "Fracture": {"method": "wave", "substeps": 12, "pieces": 0, "weakEvery": 7, "contacts": false, "friction": 0.3},
        "FractureBodies": [{"shape": "cube", "size": [0.5, 0.5, 0.5], "resolution": 3, "translation": [0, 1, 0]}]})"));
    const fracture::FractureSettings defaults;
    EXPECT_EQ(s.fracture.method, "wave");
    EXPECT_EQ(s.fracture.fracture.substeps, 12u);
    EXPECT_EQ(s.fracture.fracture.pieces, 0u);
    EXPECT_EQ(s.fracture.fracture.weakEvery, 7u);
    EXPECT_FALSE(s.fracture.fracture.contacts);
    EXPECT_FLOAT_EQ(s.fracture.fracture.friction, 0.3f);
    EXPECT_EQ(s.fracture.fracture.iterations, defaults.iterations);
    EXPECT_FLOAT_EQ(s.fracture.fracture.tauScale, defaults.tauScale);
    applyOverride(s, "Fracture.iterations=5");
    EXPECT_EQ(s.fracture.fracture.iterations, 5u);
    for (const char* bad : {"Fracture.substeps=-3", "Fracture.substeps=2.5", "Fracture.pieces=2000000"}) {
        try {
            applyOverride(s, bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("expected an integer in"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(s.fracture.fracture.substeps, 12u);
}

// RigidBodies with isDynamic (SPlisHSPlasH's moving bodies) become unbreakable fracture bodies:
// their closed mesh, where the scene put it, filled with tets, with their density and velocity.
// They collide with the domain's walls and the static meshes (the tank), with a fluid at its
// fixed step or under its CFL rule (the world chooses one step for both). Where Floe cannot step
// them (2D, beside deformable bodies) they stay static, and a warning says why; an inverted
// dynamic body is refused, and so is one cutting a static mesh.
TEST_F(SceneFile, DynamicRigidBodiesMoveAsUnbreakableFractureBodiesOrStayStaticSayingWhy)
{
    const std::string box = (fs::path(FLOE_SOURCE_DIR) / "assets" / "meshes" / "UnitBox.obj").string();
    const auto scene = [&](const std::string& configuration, const std::string& floe, const std::string& dynamic) {
        return fmt::format(R"({{"Configuration": {{"particleRadius": 0.025{}}},
          "FluidBlocks": [{{"start": [-0.5, 0, -0.5], "end": [0.5, 0.3, 0.5]}}], {}
          "RigidBodies": [{{"geometryFile": "{}", "translation": [0, 0.5, 0], "scale": [1, 1, 1], "mapInvert": true}},
                          {{"geometryFile": "{}", "translation": [0.1, 0.6, 0], "scale": [0.2, 0.1, 0.3], "isDynamic": 1,
                            "density": 400, "velocity": [1, -2, 0]{}}}]}})",
                           configuration, floe, box, box, dynamic);
    };
    const std::string walls = R"("Floe": {"domainMin": [-0.5, 0, -0.5], "domainMax": [0.5, 1, 0.5]},)";
    const Scene moving = loadScene(write(scene(", \"cflMethod\": 0", walls, "")));
    ASSERT_EQ(moving.fractureBodies.size(), 1u);
    ASSERT_EQ(moving.rigidBodies.size(), 1u) << "the container stays a static wall";
    const FractureBody& f = moving.fractureBodies[0];
    EXPECT_FALSE(f.breakable);
    EXPECT_FLOAT_EQ(f.density, 400.0f);
    EXPECT_EQ(f.velocity, glm::vec3(1, -2, 0));
    double volume = 0.0;
    geometry::Bounds b;
    for (size_t t = 0; t < f.mesh.tets.size(); ++t) volume += fracture::signedVolume(f.mesh, t);
    for (const glm::vec3& x : f.mesh.nodes) b.add(x);
    EXPECT_NEAR(volume, 0.2 * 0.1 * 0.3, 1e-6);
    EXPECT_NEAR(b.lo.x, 0.0f, 1e-5f);
    EXPECT_NEAR(b.hi.y, 0.65f, 1e-5f);
    for (const std::string& w : moving.warnings) EXPECT_EQ(w.find("dynamic"), std::string::npos) << w;

    const auto staticWhy = [&](const std::string& text, const char* reason) {
        const Scene kept = loadScene(write(text));
        EXPECT_TRUE(kept.fractureBodies.empty()) << reason;
        EXPECT_EQ(kept.rigidBodies.size(), 2u) << reason;
        bool said = false;
        for (const std::string& w : kept.warnings)
            said = said || (w.find("RigidBodies[1] is dynamic") != std::string::npos && w.find(reason) != std::string::npos);
        EXPECT_TRUE(said) << reason << ": " << fmt::format("{}", fmt::join(kept.warnings, " | "));
    };
    staticWhy(scene(", \"sim2D\": true", walls, ""), "Configuration.sim2D");
    EXPECT_EQ(loadScene(write(scene(", \"cflMethod\": 1", walls, ""))).fractureBodies.size(), 1u) << "CFL steps";
    // Without the domain's corners they move too: they collide with the tank's mesh (fracture/obstacles).
    EXPECT_EQ(loadScene(write(scene(", \"cflMethod\": 0", "", ""))).fractureBodies.size(), 1u);
    // One that starts cutting the tank's wall is refused, naming both.
    std::string crossing = scene(", \"cflMethod\": 0", "", "");
    crossing.replace(crossing.find("[0.1, 0.6, 0]"), 13, "[0.45, 0.6, 0]");
    const std::string why = errorOf(crossing);
    EXPECT_NE(why.find("FractureBodies[0]"), std::string::npos) << why;
    EXPECT_NE(why.find("RigidBodies[0]"), std::string::npos) << why;
    EXPECT_NE(why.find("intersect"), std::string::npos) << why;
    EXPECT_NE(errorOf(scene(", \"cflMethod\": 0", walls, ", \"mapInvert\": true")).find("cannot be inverted"), std::string::npos);
}

// Fluid sampled where a solid stands, or closer than the particle radius to its surface (a
// block's lattice meets a box's faces), is left out: a particle on the surface started 79 %
// compressed against the solid's samples. The next lattice layer, a spacing away, stays.
TEST_F(SceneFile, FluidIsSampledClearOfTheSolidsInIt)
{
    const std::string box = (fs::path(FLOE_SOURCE_DIR) / "assets" / "meshes" / "UnitBox.obj").string();
    const Scene scene = loadScene(write(fmt::format(R"({{"Configuration": {{"particleRadius": 0.0125, "cflMethod": 0}},
      "FluidBlocks": [{{"start": [-0.25, 0, -0.25], "end": [0.25, 0.3, 0.25]}}],
      "Floe": {{"domainMin": [-0.25, 0, -0.25], "domainMax": [0.25, 0.7, 0.25]}},
      "RigidBodies": [{{"geometryFile": "{}", "translation": [0, 0.35, 0], "scale": [0.5, 0.7, 0.5], "mapInvert": true}},
                      {{"geometryFile": "{}", "translation": [0, 0.13, 0], "scale": [0.14, 0.14, 0.14], "isDynamic": true}}]}})",
                                                    box, box)));
    ASSERT_EQ(scene.fractureBodies.size(), 1u);
    const FluidSampling fluid = sampleFluid(scene);
    geometry::TriangleMesh surface;
    surface.vertices = scene.fractureBodies[0].mesh.nodes;
    surface.triangles = fracture::boundaryFaces(scene.fractureBodies[0].mesh);
    float nearest = 1e30f;
    for (const glm::vec4& p : fluid.positions) nearest = std::min(nearest, fracture::surfaceDistance(surface, glm::vec3(p)));
    EXPECT_GE(nearest, 0.0125f) << "fluid within the particle radius of the solid's surface";
    EXPECT_NEAR(nearest, 0.025f, 1e-4f) << "the lattice layer a spacing from the surface was left out too";
    EXPECT_EQ(fluid.positions.size(), fluid.velocities.size());
}

// Several --set are applied in order and the scene checked after the last: settings that only
// hold together (the domain's two corners) can be given one by one; a result that does not hold
// names every --set.
TEST_F(SceneFile, OverridesAreCheckedTogetherAfterTheLast)
{
    const char* text =
        R"({"Configuration": {"particleRadius": 0.05}, "FluidBlocks": [{"start": [-0.5, 0, -0.5], "end": [0.5, 0.5, 0.5]}]})";
    Scene one = loadScene(write(text));
    EXPECT_THROW(applyOverride(one, "Floe.domainMax=[1, 1, 1]"), Error) << "the fluid reaches x < 0, below domainMin's default";
    Scene both = loadScene(write(text));
    applyOverrides(both, {"Floe.domainMax=[1, 1, 1]", "Floe.domainMin=[-1, 0, -1]"});
    EXPECT_TRUE(both.domainGiven());
    EXPECT_EQ(both.floe.domainMin, glm::vec3(-1, 0, -1));
    try {
        Scene bad = loadScene(write(text));
        applyOverrides(bad, {"Floe.domainMax=[1, 1, 1]", "Floe.domainMin=[0, 0, 0]"});
        ADD_FAILURE() << "a domain the fluid reaches outside was accepted";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("--set Floe.domainMax=[1, 1, 1] --set Floe.domainMin=[0, 0, 0]"), std::string::npos) << msg;
    }
}

TEST_F(SceneFile, DeformableBodiesOutsideTheDomainOrInsideEachOtherAreRefused)
{
    const std::string domain =
        R"("Configuration": {"timeStepSize": 0.005}, "Floe": {"domainMin": [-2, 0, -1], "domainMax": [2, 3, 1]}, )";
    std::string msg =
        errorOf("{" + domain + R"("DeformableBodies": [{"shape": "sphere", "radius": 0.3, "translation": [5, 1, 0]}]})");
    EXPECT_NE(msg.find("DeformableBodies[0]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("outside the domain on axis x"), std::string::npos) << msg;
    msg = errorOf("{" + domain + R"("DeformableBodies": [{"shape": "sphere", "radius": 0.3, "translation": [0, 1, 0]},
        {"shape": "box", "size": [0.4, 0.4, 0.4], "translation": [0.4, 1, 0]}]})");
    EXPECT_NE(msg.find("DeformableBodies[0] (sphere) and [1] (box) overlap"), std::string::npos) << msg;
    // Apart (0.05 m between the sphere and the box), and a torus around a sphere that passes
    // through its hole: both load.
    EXPECT_EQ(errorOf("{" + domain + R"("DeformableBodies": [{"shape": "sphere", "radius": 0.3, "translation": [0, 1, 0]},
        {"shape": "box", "size": [0.4, 0.4, 0.4], "translation": [0.55, 1, 0]}]})"),
              "");
    EXPECT_EQ(errorOf("{" + domain + R"("DeformableBodies": [{"shape": "sphere", "radius": 0.1, "translation": [0, 1, 0]},
        {"shape": "torus", "majorRadius": 0.4, "minorRadius": 0.1, "translation": [0, 1, 0], "rotationAxis": [1, 0, 0],
         "rotationAngle": 1.5707963}]})"),
              "");
}

// Solids starting through the plate or the glass's wall, fracture bodies inside each other or
// below the floor: refused, naming the bodies (issue 18).
TEST_F(SceneFile, SolidsThroughWallsOrEachOtherAreRefused)
{
    const std::string domain =
        R"("Configuration": {"timeStepSize": 0.005}, "Floe": {"domainMin": [-2, 0, -1], "domainMax": [2, 3, 1]}, )";
    std::string msg = errorOf("{" + domain + R"("Deformable": {"plateStart": 1.0, "plateEnd": 0.5, "plateSpeed": 0.2},
        "DeformableBodies": [{"shape": "sphere", "radius": 0.3, "translation": [0, 0.9, 0]}]})");
    EXPECT_NE(msg.find("DeformableBodies[0] (sphere) reaches y = 1.2 m, above Deformable.plateStart 1 m"), std::string::npos)
        << msg;
    EXPECT_EQ(errorOf("{" + domain + R"("Deformable": {"plateStart": 1.0, "plateEnd": 0.5, "plateSpeed": 0.2},
        "DeformableBodies": [{"shape": "sphere", "radius": 0.3, "translation": [0, 0.5, 0]}]})"),
              "");
    const std::string glass = R"("Deformable": {"glassRadius": 0.5, "glassHeight": 1.0, "glassCentre": [0, 0, 0]}, )";
    msg = errorOf("{" + domain + glass +
                  R"("DeformableBodies": [{"shape": "sphere", "radius": 0.2, "translation": [0.5, 0.5, 0]}]})");
    EXPECT_NE(msg.find("DeformableBodies[0] (sphere) crosses the glass's wall"), std::string::npos) << msg;
    // Inside the glass, outside it, and above its rim: all load.
    for (const char* at : {"[0, 0.5, 0]", "[1.2, 0.5, 0]", "[0.5, 1.5, 0]"})
        EXPECT_EQ(errorOf("{" + domain + glass + R"("DeformableBodies": [{"shape": "sphere", "radius": 0.2, "translation": )" + at +
                          "}]}"),
                  "")
            << at;

    // Static meshes: a body cut by one, or inside a closed one, is refused; one resting on it loads.
    const std::string box = std::string(R"({"geometryFile": ")") + FLOE_SOURCE_DIR + "/assets/meshes/UnitBox.obj";
    const auto withTable = [&](const std::string& table, const char* sphereAt) {
        return errorOf("{" + domain + R"("RigidBodies": [)" + box + table +
                       R"(], "DeformableBodies": [{"shape": "sphere", "radius": 0.3, "resolution": 2, "translation": )" + sphereAt +
                       "}]}");
    };
    const std::string slab = R"(", "scale": [1, 0.2, 1], "translation": [0, 0.5, 0]})";
    msg = withTable(slab, "[0, 0.5, 0]");
    EXPECT_NE(msg.find("DeformableBodies[0] (sphere) and RigidBodies[0] (UnitBox.obj) intersect"), std::string::npos) << msg;
    EXPECT_EQ(withTable(slab, "[0.2, 0.95, 0]"), "");                                              // on the slab (top at 0.6 m)
    msg = withTable(R"(", "scale": [1.5, 1.5, 1.5], "translation": [0, 1.2, 0]})", "[0, 1.2, 0]"); // wholly inside
    EXPECT_NE(msg.find("intersect"), std::string::npos) << msg;

    const std::string fracture = R"("Configuration": {"timeStepSize": 0.01}, "FractureBodies": [
        {"shape": "cube", "size": [1, 1, 1], "resolution": 4, "translation": [0, 3, 0]},
        {"shape": "sphere", "size": [0.3, 0.3, 0.3], "resolution": 4, "translation": )";
    msg = errorOf("{" + fracture + "[0.3, 3.2, 0.1]}]}");
    EXPECT_NE(msg.find("FractureBodies[0] (cube) and [1] (sphere) overlap"), std::string::npos) << msg;
    msg = errorOf("{" + fracture + "[0.6, 3.2, 0.1]}]}"); // the sphere's side pokes into the cube
    EXPECT_NE(msg.find("overlap"), std::string::npos) << msg;
    EXPECT_EQ(errorOf("{" + fracture + "[0, 4.0, 0]}]}"), ""); // resting apart, 0.35 m above
    // 5 cm above: apart, but within the node spheres' reach (0.4 mean edges each), so the two
    // would start in contact and be thrown apart in the first step.
    msg = errorOf("{" + fracture + "[0, 3.7, 0]}]}");
    EXPECT_NE(msg.find("FractureBodies[0] (cube) and [1] (sphere) have nodes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("within their contact spheres' reach"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Fracture.contactRadius 0.4"), std::string::npos) << msg;
    // Deformable and fracture bodies share a scene (they collide), apart at the start.
    const std::string mixed = R"("Configuration": {"timeStepSize": 0.01}, "FractureBodies": [
        {"shape": "cube", "size": [1, 1, 1], "resolution": 4, "translation": [0, 3, 0]}],
        "DeformableBodies": [{"shape": "sphere", "radius": 0.2, "resolution": 2, "translation": )";
    EXPECT_EQ(errorOf("{" + mixed + "[0, 3.8, 0]}]}"), "");
    msg = errorOf("{" + mixed + "[0, 3.72, 0]}]}"); // 2 cm above: within the kinds' contact distance
    EXPECT_NE(msg.find("DeformableBodies[0] (sphere) comes within"), std::string::npos) << msg;
    EXPECT_NE(msg.find("of FractureBodies[0] (cube) at the start"), std::string::npos) << msg;
    msg = errorOf("{" + mixed + "[0, 3.6, 0]}]}");
    EXPECT_NE(msg.find("DeformableBodies[0] (sphere) and FractureBodies[0] (cube) overlap"), std::string::npos) << msg;
    // The Constraint method's pieces meet deformable bodies as their body's surface.
    EXPECT_EQ(errorOf("{" + mixed + R"([0, 3.8, 0]}], "Fracture": {"method": "constraint"}})"), "");
    msg = errorOf(R"({"Configuration": {"timeStepSize": 0.01}, "Floe": {"domainMin": [-3, 0, -3], "domainMax": [3, 6, 3]},
        "FractureBodies": [{"shape": "cube", "size": [1, 1, 1], "resolution": 4, "translation": [0, 0.2, 0]}]})");
    EXPECT_NE(msg.find("FractureBodies[0] (cube) reaches outside the domain on axis y"), std::string::npos) << msg;
}

// Energy from nowhere for solids without a fluid (app/RunWorld): their kinetic energy is bounded
// by their start's and what gravity gives them down to the lowest point of the domain or of the
// bodies; a plate pressing deformable bodies, or a twisted start, lifts the bound.
TEST_F(SceneFile, SolidsAloneHaveAnEnergyBound)
{
    const Scene cube = loadScene(write(R"({"Configuration": {"timeStepSize": 0.01},
        "Floe": {"domainMin": [-3, 0, -3], "domainMax": [3, 6, 3]},
        "FractureBodies": [{"shape": "cube", "size": [1, 1, 1], "resolution": 4, "density": 1000, "translation": [0, 3, 0],
                            "velocity": [0, -2, 0]}]})"));
    sim::WorldSettings walls;
    cube.domain(walls.domainMin, walls.domainMax);
    // 1000 kg: 0.5 m v^2 = 2000 J, m g h = 1000 x 9.81 x 3 m.
    EXPECT_NEAR(energyBound(cube, walls, FluidSampling{}), 2000.0 + 29430.0, 0.5);
    const Scene twisted = loadScene(write(R"({"Configuration": {"timeStepSize": 0.005},
        "Floe": {"domainMin": [-3, 0, -3], "domainMax": [3, 6, 3]},
        "DeformableBodies": [{"shape": "box", "size": [1, 0.2, 0.2], "resolution": 3, "translation": [0, 1, 0], "twist": 1.0}]})"));
    twisted.domain(walls.domainMin, walls.domainMax);
    EXPECT_EQ(energyBound(twisted, walls, FluidSampling{}), HUGE_VAL);
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
        "Configuration": {"particleRadius": 0.05, "simulationMethod": 4, "cflMethod": 1, "numberOfStepsPerRenderUpdate": 4,
                          "enableStateExport": true, "enableRigidBodyExport": false},
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
    // Only what runs differently warns (state exports); the GUI's numberOfStepsPerRenderUpdate and
    // colorMapType, volume maps' mapThickness and a switched-off export do not.
    ASSERT_EQ(scene.warnings.size(), 1u);
    EXPECT_NE(scene.warnings[0].find("enableStateExport"), std::string::npos) << scene.warnings[0];
    EXPECT_EQ(scene.sph.pressureSolver(), sim::PressureSolver::Dfsph);
}

TEST_F(SceneFile, SplishSplashsCurrentFormatIsReadAsWritten)
{
    // SPlisHSPlasH 2.16's format: per-method solver objects and per-method viscosity objects.
    Scene scene = loadScene(write(R"({
        "Configuration": {"particleRadius": 0.05, "simulationMethod": 4, "boundaryHandlingMethod": 0,
            "DFSPH": {"minIterations": 3, "maxIterations": 50, "maxError": 0.05, "maxIterationsV": 40, "maxErrorV": 0.2,
                      "enableDivergenceSolver": false},
            "IISPH": {"maxError": 0.02}},
        "Materials": [{"id": "Fluid", "density0": 1200, "viscosityMethod": 1,
                       "Standard viscosity": {"viscosity": 0.02, "viscosityBoundary": 0.005}}],
        "FluidBlocks": [{"start": [0,0,0], "end": [0.5,0.5,0.5]}]})"));
    EXPECT_TRUE(scene.warnings.empty()) << scene.warnings.front();
    EXPECT_EQ(scene.sph.pressureSolver(), sim::PressureSolver::Dfsph);
    const sim::IterationLimits dfsph = scene.sph.limits(sim::PressureSolver::Dfsph);
    EXPECT_EQ(dfsph.minIterations, 3);
    EXPECT_EQ(dfsph.maxIterations, 50);
    EXPECT_FLOAT_EQ(dfsph.tolerance, 0.0005f);
    EXPECT_EQ(scene.sph.divergenceLimits().maxIterations, 40);
    EXPECT_FLOAT_EQ(scene.sph.divergenceLimits().tolerance, 0.002f);
    EXPECT_FALSE(scene.sph.divergenceSolver);
    // IISPH keeps its own tolerance; solvers without an object use the common keys.
    EXPECT_FLOAT_EQ(scene.sph.limits(sim::PressureSolver::Iisph).tolerance, 0.0002f);
    EXPECT_FLOAT_EQ(scene.sph.limits(sim::PressureSolver::Pbf).tolerance, 0.001f);
    EXPECT_FLOAT_EQ(scene.config.density0, 1200.0f);
    EXPECT_FLOAT_EQ(scene.sph.viscosity, 0.02f);
    EXPECT_FLOAT_EQ(scene.sph.wallViscosity(), 0.005f);
    applyOverride(scene, "DFSPH.maxError=0.2");
    EXPECT_FLOAT_EQ(scene.sph.limits(sim::PressureSolver::Dfsph).tolerance, 0.002f);
    applyOverride(scene, "Configuration.DFSPH.maxIterations=7");
    EXPECT_EQ(scene.sph.limits(sim::PressureSolver::Dfsph).maxIterations, 7);
    // A bad value names the --set as it was written, then the setting with its section.
    for (const std::string set : {"Configuration.DFSPH.maxErrorV=1e-9", "DFSPH.maxErrorV=1e-9"}) {
        try {
            applyOverride(scene, set);
            ADD_FAILURE() << set << " was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()).rfind("--set " + set + ": Configuration.DFSPH.maxErrorV: expected a number in", 0), 0u)
                << e.what();
        }
    }
    EXPECT_NE(errorOf(R"({"Configuration": {"DFSPH": {"maxEror": 0.1}}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})")
                  .find("did you mean 'maxError'"),
              std::string::npos);

    // Each solver number runs its own method; WCSPH's object selects SPlisHSPlasH's Tait EOS.
    const std::pair<int, sim::PressureSolver> methods[] = {{0, sim::PressureSolver::Eos},
                                                           {1, sim::PressureSolver::Pcisph},
                                                           {2, sim::PressureSolver::Pbf},
                                                           {3, sim::PressureSolver::Iisph},
                                                           {4, sim::PressureSolver::Dfsph}};
    for (const auto& [number, solver] : methods) {
        scene = loadScene(write(fmt::format(R"({{"Configuration": {{"particleRadius": 0.05, "simulationMethod": {},
            "WCSPH": {{"stiffness": 25000, "exponent": 1}}}}, "FluidBlocks": [{{"start": [0,0,0], "end": [0.5,0.5,0.5]}}]}})",
                                            number)));
        EXPECT_EQ(scene.sph.pressureSolver(), solver) << number;
        EXPECT_EQ(scene.sph.eos, "tait");
        EXPECT_FLOAT_EQ(scene.sph.stiffness, 25000.0f);
        EXPECT_FLOAT_EQ(scene.sph.exponent, 1.0f);
    }
}

TEST_F(SceneFile, FeaturesFloeLacksAreNamedInWarningsOrRefused)
{
    const std::string block = R"("FluidBlocks": [{"start": [0,0,0], "end": [0.5,0.5,0.5]}])";
    const auto warningsOf = [&](const std::string& text) {
        std::string all;
        for (const std::string& w : loadScene(write(text)).warnings) all += w + "\n";
        return all;
    };
    std::string w = warningsOf(R"({"Configuration": {"particleRadius": 0.05, "boundaryHandlingMethod": 2, "simulationMethod": 6,
        "ICSPH": {"lambda": 1}, "scriptFile": "x.py", "enablePartioExport": true, "particleAttributes": "density;vorticity"},
        "Materials": [{"id": "Fluid", "viscosityMethod": 6, "Weiler et al. 2018": {"viscosity": 5, "viscosityBoundary": 2},
                       "vorticityMethod": 1, "Bender et al. 2017": {"vorticity": 0.1}, "dragMethod": 2, "surfaceTensionMethod": 5}],
        "Emitters": [{"width": 5}], "AnimationFields": [], )" +
                               block + "}");
    for (const char* expected :
         {"boundaryHandlingMethod 2", "Akinci", "simulationMethod 6 (ICSPH)", "DFSPH runs instead", "Configuration.ICSPH",
          "scriptFile", "in place of Partio", "not vorticity", "viscosityMethod 6 (Weiler et al. 2018)", "explicit viscosity",
          "vorticityMethod 1", "dragMethod 2", "surfaceTensionMethod 5", "Emitters", "AnimationFields"})
        EXPECT_NE(w.find(expected), std::string::npos) << expected << " in\n" << w;
    const Scene weiler = loadScene(write(R"({"Configuration": {"particleRadius": 0.05},
        "Materials": [{"viscosityMethod": 6, "Weiler et al. 2018": {"viscosity": 5, "viscosityBoundary": 2}}], )" +
                                         block + "}"));
    EXPECT_FLOAT_EQ(weiler.sph.viscosity, 5.0f);
    EXPECT_FLOAT_EQ(weiler.sph.wallViscosity(), 2.0f);
    // Elastic fluids are refused before anything else, naming the method.
    std::string e = errorOf(R"({"Configuration": {"imteStepSize": 0.001}, "Materials": [{"elasticityMethod": 2}], )" + block + "}");
    EXPECT_NE(e.find("Materials[0].elasticityMethod 2 (Peer et al. 2018)"), std::string::npos) << e;
    // A scene whose only fluid comes from emitters says so.
    e = errorOf(R"({"Configuration": {}, "Emitters": [{"width": 5}]})");
    EXPECT_NE(e.find("Emitters, which Floe does not have"), std::string::npos) << e;
    // Unknown method numbers and material keys are errors naming them.
    e = errorOf(R"({"Configuration": {}, "Materials": [{"viscosityMethod": 9}], )" + block + "}");
    EXPECT_NE(e.find("Materials[0].viscosityMethod: expected an integer in [0, 6]"), std::string::npos) << e;
    e = errorOf(R"({"Configuration": {}, "Materials": [{"densty0": 1000}], )" + block + "}");
    EXPECT_NE(e.find("did you mean 'density0'"), std::string::npos) << e;
    // Only the fluid's material applies; others are checked and named.
    const Scene two = loadScene(write(R"({"Configuration": {"particleRadius": 0.05},
        "Materials": [{"id": "Other", "density0": 500}, {"id": "Water", "density0": 998}],
        "FluidBlocks": [{"start": [0,0,0], "end": [0.5,0.5,0.5], "id": "Water"}]})"));
    EXPECT_FLOAT_EQ(two.config.density0, 998.0f);
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

TEST_F(SceneFile, RigidBodiesWithoutAnOrientationFaceTheFluid)
{
    // SPlisHSPlasH's Akinci scenes do not say which side of a wall the fluid is on (its samples
    // are one surface layer); Floe's extra layers must grow away from the fluid.
    const std::string box = std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj";
    const Scene scene = loadScene(write(R"({"Configuration": {"particleRadius": 0.05},
        "RigidBodies": [{"geometryFile": ")" +
                                        box + R"(", "translation": [0, 1, 0], "scale": [4, 2, 4]},
                        {"geometryFile": ")" +
                                        box + R"(", "translation": [1.5, 0.2, 0], "scale": [0.4, 0.4, 0.4]},
                        {"geometryFile": ")" +
                                        box + R"(", "translation": [0, 1, 0], "scale": [4, 2, 4], "mapInvert": false}],
        "FluidBlocks": [{"start": [-1.9, 0, -1.9], "end": [1, 1, 1.9]}]})"));
    ASSERT_EQ(scene.rigidBodies.size(), 3u);
    EXPECT_TRUE(scene.rigidBodies[0].inverted);  // the container
    EXPECT_FALSE(scene.rigidBodies[1].inverted); // an obstacle in the fluid
    EXPECT_FALSE(scene.rigidBodies[2].inverted); // as the file says
    EXPECT_TRUE(geometry::contains(scene.rigidBodies[1].mesh, glm::vec3(1.5f, 0.2f, 0.0f)));
    EXPECT_FALSE(geometry::contains(scene.rigidBodies[1].mesh, glm::vec3(1.5f, 0.5f, 0.0f)));
}

// Fluid that starts on a static body's solid side (inside an obstacle, outside a container) is
// left out, with a warning: left in, the first step threw it out at distance / dt (SPlisHSPlasH's
// Sampling_2D diverged in its first step). So is fluid within r of such a body's surface, which
// lies on its samples. Checked against the block's lattice filtered by the boxes (their faces off
// the lattice); fluid elsewhere is kept.
TEST_F(SceneFile, FluidOnASolidsSideIsLeftOutWithAWarning)
{
    const std::string box = std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj";
    const std::string text = R"({"Configuration": {"particleRadius": 0.05},
        "RigidBodies": [{"geometryFile": ")" +
                             box + R"(", "translation": [0, 1, 0], "scale": [2, 2, 2]},
                        {"geometryFile": ")" +
                             box + R"(", "translation": [0.52, 0.33, 0.04], "scale": [0.4, 0.4, 0.4]}],
        "FluidBlocks": [{"start": [-0.9, 0, -0.9], "end": [0.9, 0.8, 0.9]},
                        {"start": [0.61, 1.5, -0.2], "end": [1.41, 1.8, 0.2]}]})";
    const Scene scene = loadScene(write(text));
    ASSERT_EQ(scene.rigidBodies.size(), 2u);
    EXPECT_TRUE(scene.rigidBodies[0].inverted);
    EXPECT_TRUE(scene.rigidBodies[0].fluidOnSolidSide);
    EXPECT_TRUE(scene.rigidBodies[1].fluidOnSolidSide);
    const auto warned = [&](const std::string& what) {
        for (const std::string& w : scene.warnings)
            if (w.find(what) != std::string::npos && w.find("left out") != std::string::npos) return true;
        return false;
    };
    EXPECT_TRUE(warned("outside the container RigidBodies[0]"));
    EXPECT_TRUE(warned("inside RigidBodies[1]"));

    Scene all = scene; // the same lattice with nothing left out
    for (RigidBody& b : all.rigidBodies) b.fluidOnSolidSide = false;
    const FluidSampling lattice = sampleFluid(all);
    std::vector<glm::vec4> expected;
    int inObstacle = 0, outsideContainer = 0;
    int nearObstacle = 0;
    for (const glm::vec4& p : lattice.positions) {
        const bool obstacle = p.x > 0.32f && p.x < 0.72f && p.y > 0.13f && p.y < 0.53f && p.z > -0.16f && p.z < 0.24f;
        const bool container = std::fabs(p.x) < 1.0f && p.y > 0.0f && p.y < 2.0f && std::fabs(p.z) < 1.0f;
        // Within r (0.05 m) of a surface on the fluid side: left out too.
        const glm::vec3 gap = glm::max(glm::abs(glm::vec3(p) - glm::vec3(0.52f, 0.33f, 0.04f)) - glm::vec3(0.2f), glm::vec3(0.0f));
        const bool nearOutside = !obstacle && glm::length(gap) < 0.05f;
        const float wall = std::min({1.0f - std::fabs(p.x), p.y, 2.0f - p.y, 1.0f - std::fabs(p.z)});
        const bool nearWall = container && wall < 0.05f;
        inObstacle += obstacle;
        outsideContainer += !container;
        nearObstacle += nearOutside;
        if (!obstacle && container && !nearOutside && !nearWall) expected.push_back(p);
    }
    ASSERT_GT(nearObstacle, 0);
    ASSERT_GT(inObstacle, 0);
    ASSERT_GT(outsideContainer, 0);
    const FluidSampling kept = sampleFluid(scene);
    EXPECT_EQ(lattice.leftOut, 0u);
    EXPECT_EQ(kept.leftOut, lattice.positions.size() - expected.size()) << "the count summary.json reports";
    ASSERT_EQ(kept.positions.size(), expected.size());
    ASSERT_EQ(kept.velocities.size(), expected.size());
    for (size_t k = 0; k < expected.size(); ++k) EXPECT_EQ(kept.positions[k], expected[k]) << k;

    // Nothing left (a body said to be an obstacle around all of the fluid): said, naming the body.
    Scene none = loadScene(write(R"({"Configuration": {"particleRadius": 0.05},
        "RigidBodies": [{"geometryFile": ")" +
                                 box + R"(", "translation": [0, 1, 0], "scale": [4, 2, 4]},
                        {"geometryFile": ")" +
                                 box + R"(", "translation": [0, 0.5, 0], "scale": [1, 1, 1],
                         "inverted": false}],
        "FluidBlocks": [{"start": [-0.45, 0.05, -0.45], "end": [0.45, 0.95, 0.45]}]})"));
    ASSERT_TRUE(none.rigidBodies[1].fluidOnSolidSide);
    try {
        sampleFluid(none);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("RigidBodies[1]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("all of the fluid starts inside"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("inverted or mapInvert"), std::string::npos) << e.what();
    }
}

// SPlisHSPlasH's own 52 scenes (../shared/peers/splishsplash/data/Scenes beside the project, or
// FLOE_SPLISHSPLASH_SCENES): every one loads, or is refused naming the feature it needs; no key of
// them is "unknown". Skipped where the reference is not installed.
TEST_F(SceneFile, SplishSplashsOwnScenesLoadOrNameWhatTheyNeed)
{
    const char* env = std::getenv("FLOE_SPLISHSPLASH_SCENES");
    const fs::path dir =
        env ? fs::path(env) : fs::path(FLOE_SOURCE_DIR) / ".." / "shared" / "peers" / "splishsplash" / "data" / "Scenes";
    if (!fs::is_directory(dir)) GTEST_SKIP() << "SPlisHSPlasH's scenes are not at " << dir;
    int loaded = 0, clean = 0, refused = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().filename().string());
        try {
            const Scene scene = loadScene(entry.path());
            ++loaded;
            clean += scene.warnings.empty();
        } catch (const Error& e) {
            ++refused;
            const std::string msg = e.what();
            EXPECT_EQ(msg.find("unknown key"), std::string::npos) << msg;
            EXPECT_EQ(msg.find("unknown section"), std::string::npos) << msg;
            // Refused only for what Floe does not have: elastic solids, or no fluid but emitters.
            EXPECT_TRUE(msg.find("elasticityMethod") != std::string::npos ||
                        msg.find("expected at least one block") != std::string::npos)
                << msg;
        }
    }
    EXPECT_GE(loaded + refused, 52);
    EXPECT_GE(loaded, 44) << "scenes that load (with or without warnings)";
    RecordProperty("loaded", loaded);
    RecordProperty("without_warnings", clean);
    RecordProperty("refused", refused);
}

} // namespace
} // namespace floe
