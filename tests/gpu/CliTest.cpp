// The `floe` executable end to end: bad input exits 2 with a message naming the file, key or
// flag; a run writes metrics.csv with DESIGN §5's columns, summary.json and pictures that show
// the particles; info names the device; bench writes its JSON; --capture writes a RenderDoc
// capture whose structured data holds the passes.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stb_image.h>

#include <glm/geometric.hpp>

#include "Shell.h"
#include "gpu/RenderDoc.h"
#include "io/MeshExport.h"
#include "io/ParticleExport.h"

namespace floe::test {
namespace {

namespace fs = std::filesystem;

Result floe(const std::string& args)
{
    Result r = shell(std::string(FLOE_BINARY) + " " + args);
    // tools/test.sh sets FLOE_VALIDATE=1: every invocation runs under validation, and any
    // message it prints fails the test that ran it.
    EXPECT_EQ(r.output.find("[vulkan "), std::string::npos) << "validation message from floe " << args << ":\n" << r.output;
    return r;
}

// tools/plot.py with Debian's interpreter (python3-matplotlib).
Result plot(const std::string& args)
{
    return shell("/usr/bin/python3 " + std::string(FLOE_SOURCE_DIR) + "/tools/plot.py " + args);
}

// A PNG that decodes to at least min_width x min_height pixels with more than one colour.
void expectPlot(const std::filesystem::path& path, int minWidth = 400, int minHeight = 300)
{
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(path.c_str(), &w, &h, &channels, 3);
    ASSERT_NE(pixels, nullptr) << path << " is not a readable PNG";
    bool varied = false;
    for (int i = 3; i < w * h * 3 && !varied; ++i) varied = pixels[i] != pixels[i % 3];
    stbi_image_free(pixels);
    EXPECT_GE(w, minWidth) << path;
    EXPECT_GE(h, minHeight) << path;
    EXPECT_TRUE(varied) << path << " is blank";
}

fs::path tempDir(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("floe_cli_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

fs::path writeScene(const fs::path& dir, const std::string& name, const std::string& text)
{
    const fs::path path = dir / name;
    std::ofstream(path) << text;
    return path;
}

std::string readFile(const fs::path& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every file a run wrote into `dir` but summary.json (which holds its wall time), by name.
std::map<std::string, std::string> runFiles(const fs::path& dir)
{
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().filename() != "summary.json") files[entry.path().filename().string()] = readFile(entry.path());
    return files;
}

const std::string kScene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/falling_block.json";
const char* kSmallScene = R"({"Configuration": {"particleRadius": 0.05, "timeStepSize": 0.005, "stopAt": 0.1},
    "FluidBlocks": [{"start": [-0.2, 0.3, -0.2], "end": [0.2, 0.7, 0.2]}],
    "Floe": {"domainMin": [-1, 0, -1], "domainMax": [1, 1.5, 1]}})";

TEST(Cli, BadInputExitsTwoWithAClearMessage)
{
    const fs::path dir = tempDir("bad");
    const fs::path malformed = writeScene(dir, "malformed.json", "{\"Configuration\": {");
    const fs::path unknown = writeScene(
        dir, "unknown.json", R"({"Configuration": {"timeStep": 0.01}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    const fs::path wrongType =
        writeScene(dir, "type.json", R"({"Configuration": {"sim2D": "no"}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    const fs::path range = writeScene(
        dir, "range.json", R"({"Configuration": {"particleRadius": -1}, "FluidBlocks": [{"start": [0,0,0], "end": [1,1,1]}]})");
    const fs::path good = writeScene(dir, "good.json", kSmallScene);
    // A container 800 km wide sampled at 4 cm: refused in a moment instead of sampling for ever.
    const fs::path huge =
        writeScene(dir, "huge.json",
                   R"({"Configuration": {"sim2D": true, "particleRadius": 0.02}, "RigidBodies": [{"geometryFile": ")" +
                       std::string(FLOE_SOURCE_DIR) +
                       R"(/assets/meshes/UnitBox.obj", "scale": [8e5, 8e5, 1], "isWall": true, "inverted": true}],
                                         "FluidBlocks": [{"start": [0, 0, 0], "end": [1, 1, 0]}]})");
    // A 2D wall that misses the plane z = 0 has no samples: the fluid would fall through it.
    const fs::path missing2D =
        writeScene(dir, "miss.json",
                   R"({"Configuration": {"sim2D": true, "particleRadius": 0.02}, "RigidBodies": [{"geometryFile": ")" +
                       std::string(FLOE_SOURCE_DIR) +
                       R"(/assets/meshes/UnitBox.obj", "translation": [0.5, 0.5, 5], "scale": [2, 2, 1],
                                              "isWall": true, "inverted": true}], "FluidBlocks": [{"start": [0, 0, 0], "end": [1, 1, 0]}]})");
    const struct {
        std::string args;
        std::vector<std::string> mentions;
    } cases[] = {
        {"run " + (dir / "missing.json").string(), {"missing.json", "no such scene file"}},
        {"run " + malformed.string(), {"malformed.json", "malformed JSON"}},
        {"run " + unknown.string(), {"unknown.json", "Configuration.timeStep", "timeStepSize"}},
        {"run " + wrongType.string(), {"type.json", "Configuration.sim2D", "true or false"}},
        {"run " + range.string(), {"range.json", "Configuration.particleRadius", "[1e-05, 10] m"}},
        {"run " + good.string() + " --bogus", {"--bogus"}},
        {"run " + good.string() + " --steps 0", {"--steps"}},
        {"run " + good.string() + " --steps 3 --seconds 1", {"--steps", "--seconds"}},
        {"run " + good.string() + " --frames -1", {"--frames"}},
        {"run " + good.string() + " --solver nonsense", {"--solver nonsense", "eos, iisph, dfsph, pcisph, pbf, none"}},
        {"run " + good.string() + " --export obj", {"--export"}},
        {"run " + good.string() + " --render surface", {"--render"}},
        {"run " + good.string() + " --smoothing 99", {"--smoothing"}},
        {"bench --suite pictures", {"--suite"}},
        {"run " + good.string() + " --load-state " + (dir / "missing.state").string(), {"missing.state"}},
        {"run " + good.string() + " --save-every 5", {"--save-state"}},
        {"run " + good.string() + " --set Configuration.timeStepSize=-3", {"--set", "Configuration.timeStepSize"}},
        {"run " + good.string() + " --set nokey=1", {"--set", "nokey"}},
        {"run " + good.string() + " --set Configuration.timeStepSize=1e999", {"--set", "timeStepSize", "finite"}},
        {"run " + good.string() + " --seconds nan", {"--seconds", "finite"}},
        {"run " + huge.string() + " --steps 2", {"huge.json", "RigidBodies[0]", "particleRadius"}},
        {"run " + missing2D.string() + " --steps 2", {"miss.json", "RigidBodies[0]", "no boundary particles", "z = 0"}},
        {"run " + good.string() + " --seconds inf", {"--seconds", "finite"}},
        {"bench --suite sph --dt-seconds nan", {"--dt-seconds", "finite"}},
        {"run " + good.string() + " --device no-such-device", {"no-such-device", "name does not match"}},
        {"run", {"scene"}},
        {"frobnicate", {"frobnicate"}},
        {"view " + (dir / "missing.json").string(), {"missing.json", "no such scene file"}},
        {"view " + good.string() + " --render surface", {"--render"}},
        {"view " + good.string() + " --screenshot x.png", {"--screenshot", "--quit-after"}},
        {"view " + good.string() + " --quit-after 2 --capture-frame 5", {"--capture-frame", "--quit-after"}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        const Result r = floe(c.args);
        EXPECT_EQ(r.status, 2) << r.output;
        for (const std::string& m : c.mentions)
            EXPECT_NE(r.output.find(m), std::string::npos) << "no '" << m << "' in: " << r.output;
        EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
    }
}

TEST(Cli, SceneThatDoesNotFitTheDeviceIsRefusedUpFront)
{
    const fs::path dir = tempDir("fit");
    // 250^3 = 15.6M particles: within Floe's own cap, over lavapipe's 128 MiB storage range.
    const fs::path big = writeScene(dir, "big.json", R"({"Configuration": {"particleRadius": 0.002},
        "FluidBlocks": [{"start": [0,0,0], "end": [1.001,1.001,1.001]}]})");
    const Result r = floe("run " + big.string() + " --steps 1 --frames 0 --out " + (dir / "out").string());
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("maxStorageBufferRange"), std::string::npos) << r.output;
}

// A box standing in a fluid block: the fluid inside it and within r of its faces is left out
// (scene/Scene.cpp, sampleFluid), so the run starts calm. With only the fluid inside it left out,
// the first step threw the fluid about (670 J against the 247 J the scene can supply); with none,
// SPlisHSPlasH's Sampling_2D diverged in its first step.
TEST(Cli, FluidStartingInsideAnObstacleIsLeftOutAndTheRunStartsCalm)
{
    const fs::path dir = tempDir("left_out");
    const std::string box = std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj";
    const fs::path scene = writeScene(dir, "box_in_block.json", R"({
        "Configuration": {"particleRadius": 0.025, "timeStepSize": 0.002, "cflMethod": 1, "maxError": 0.1},
        "Materials": [{"id": "Fluid", "viscosity": 0.01}],
        "RigidBodies": [{"geometryFile": ")" + box + R"(", "translation": [0, 0.5, 0], "scale": [1.2, 1.0, 0.6]},
                        {"geometryFile": ")" + box + R"(", "translation": [-0.2, 0.2, 0], "scale": [0.2, 0.3, 0.2]}],
        "FluidBlocks": [{"start": [-0.6, 0.0, -0.3], "end": [0.0, 0.5, 0.3]}]})");
    const fs::path out = dir / "out";
    const Result r = floe("run " + scene.string() + " --seconds 0.2 --frames 0 --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("starts inside RigidBodies[1]"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("left out where solids stand"), std::string::npos) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok") << summary.dump();
    EXPECT_GT(summary["fluid_left_out"].get<uint64_t>(), 100u) << summary.dump();
    EXPECT_EQ(summary["particles"].get<uint64_t>() + summary["fluid_left_out"].get<uint64_t>(), 1089u)
        << "the block's lattice is 11 x 9 x 11";
}

// A 2D block of fluid of 0.6 m^2/s thrown down into a box, with the time-step keys given
// (`steps`: the Configuration's keys after particleRadius).
fs::path writeViscousBlock(const fs::path& dir, const std::string& steps)
{
    const std::string box = std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj";
    return writeScene(dir, "viscous.json",
                      R"({
        "Configuration": {"particleRadius": 0.025, )" +
                          steps + R"(, "sim2D": true, "maxError": 0.1},
        "Materials": [{"id": "Fluid", "viscosityMethod": 1, "Standard viscosity": {"viscosity": 0.6, "viscosityBoundary": 0.6}}],
        "RigidBodies": [{"geometryFile": ")" +
                          box + R"(", "translation": [0, 1, 0], "scale": [2, 2, 1]}],
        "FluidBlocks": [{"start": [-0.3, 0.8, -0.5], "end": [0.3, 1.6, 0.5], "initialVelocity": [0, -2, 0]}]})");
}

// A viscous fluid (0.6 m^2/s, as SPlisHSPlasH's Bender 2017 scenes) at a fixed step four times its
// explicit viscosity's stability bound: the viscosity takes 4 substeps per step (sim::Simulation),
// and the run ends ok. In one step per step it was reported diverged at step 252 (energy from
// nowhere), as those two scenes were. The substeps' values: Solvers/StepTest *ViscousSubsteps.
TEST(Cli, AViscousFluidAtAFixedStepAboveItsBoundTakesSubstepsAndRunsStable)
{
    const fs::path dir = tempDir("viscous_substeps");
    const fs::path scene = writeViscousBlock(dir, R"("timeStepSize": 0.001, "cflMethod": 0)");
    const fs::path out = dir / "out";
    const Result r = floe("run " + scene.string() + " --seconds 0.5 --frames 0 --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("the viscosity takes 4 substeps per step"), std::string::npos) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok") << summary.dump();
    EXPECT_EQ(summary["steps"].get<uint64_t>(), 500u) << summary.dump();
    EXPECT_EQ(summary["viscous_substeps"]["recorded"], 4) << summary.dump();
    EXPECT_EQ(summary["viscous_substeps"]["per_step"], "all") << summary.dump();
}

// The same fluid under CFL with steps of at most 1 ms: each step takes the substeps its own step
// needs (up to 4), where the CFL rule used to hold every step at the bound, 0.26 ms (at least
// 1923 steps for 0.5 s).
TEST(Cli, AViscousFluidUnderCflTakesStepsOfSeveralBoundsInSubsteps)
{
    const fs::path dir = tempDir("viscous_cfl");
    const fs::path scene = writeViscousBlock(dir, R"("timeStepSize": 0.001, "cflMethod": 1, "cflMaxTimeStepSize": 0.001)");
    const fs::path out = dir / "out";
    const Result r = floe("run " + scene.string() + " --seconds 0.5 --frames 0 --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok") << summary.dump();
    EXPECT_EQ(summary["viscous_substeps"]["recorded"], 4) << summary.dump();
    EXPECT_EQ(summary["viscous_substeps"]["per_step"], "ceil(dt / bound)") << summary.dump();
    const double bound = 0.0625 * 0.05 * 0.05 / 0.6;
    EXPECT_GT(summary["metrics"]["dt"]["max"].get<double>(), 3.0 * bound) << summary.dump();
    EXPECT_LT(summary["steps"].get<uint64_t>(), 1000u) << summary.dump();
}

// A set-up is never silent (issue 18): from the first second a heartbeat names its stage, for
// fluid, body and fracture scenes alike; FLOE_PROGRESS_AFTER=0 moves that second to the start.
// --quiet silences it.
TEST(Cli, SetUpReportsProgressFromTheFirstSecond)
{
    const fs::path dir = tempDir("setup_progress");
    for (const char* scene : {"dam_break_2d.json", "bodies_drop.json", "fracture_cube.json"}) {
        const std::string run = std::string(FLOE_BINARY) + " run " + FLOE_SOURCE_DIR + "/assets/scenes/" + scene +
                                " --steps 2 --frames 0 --out " + (dir / "out").string();
        const Result r = shell("FLOE_PROGRESS_AFTER=0 " + run);
        ASSERT_EQ(r.status, 0) << scene << ":\n" << r.output;
        EXPECT_NE(r.output.find("floe run: setting up: "), std::string::npos) << scene << ":\n" << r.output;
        EXPECT_EQ(r.output.find("[vulkan "), std::string::npos) << r.output;
        const Result quiet = shell("FLOE_PROGRESS_AFTER=0 " + run + " --quiet");
        ASSERT_EQ(quiet.status, 0) << scene << ":\n" << quiet.output;
        EXPECT_EQ(quiet.output.find("setting up"), std::string::npos) << scene << ":\n" << quiet.output;
    }
}

// A fluid, a deformable body and a dynamic rigid body (a fracture body) in one world, with
// validation on: the fluid coupled with both, the two solids in contact.
TEST(Cli, FluidDeformableAndRigidBodiesShareAWorld)
{
    const fs::path out = tempDir("three_kinds");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_ball_on_raft.json";
    const Result r =
        floe("run " + scene + " --steps 30 --frames 1 --width 320 --height 200 --validate --quiet --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output.find("[vulkan "), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("keeps it static"), std::string::npos) << r.output; // the raft moves
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["kind"], "fluid and deformable and fracture bodies");
    const std::string rows = readFile(out / "bodies.csv");
    EXPECT_NE(rows.find(",deformable,"), std::string::npos);
    EXPECT_NE(rows.find(",fracture,"), std::string::npos);
}

// Deformable and fracture bodies in one scene (coupling/SolidContacts), with validation on: a soft
// ball dropped onto an iron block lands on it and stays on it (without the contacts it fell
// through to the floor), the block feels it (a step with contact), and both kinds write their
// rows of bodies.csv.
TEST(Cli, DeformableAndFractureBodiesShareAScene)
{
    const fs::path out = tempDir("solids");
    const fs::path scene = out / "ball_on_block.json";
    {
        std::ofstream f(scene);
        f << R"({
  "Configuration": {"timeStepSize": 0.005, "gravitation": [0, -9.81, 0]},
  "Floe": {"domainMin": [-0.5, 0, -0.5], "domainMax": [0.5, 1.0, 0.5]},
  "Deformable": {"omega": 2, "stiffness": 0.8, "friction": 0.4},
  "DeformableBodies": [{"shape": "sphere", "radius": 0.1, "resolution": 2, "translation": [0.02, 0.42, 0],
                        "velocity": [0, -1, 0]}],
  "FractureBodies": [{"shape": "cube", "size": [0.3, 0.3, 0.3], "resolution": 3, "material": "iron", "breakable": false,
                      "translation": [0, 0.15, 0]}]
})";
    }
    const Result r = floe("run " + scene.string() + " --steps 80 --frames 1 --width 320 --height 200 --validate --quiet --out " +
                          (out / "run").string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output.find("[vulkan "), std::string::npos) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "run" / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["kind"], "deformable and fracture bodies");
    EXPECT_GT(summary["solid_contacts"]["vertex_face_contacts"].get<int>(), 0) << summary.dump();
    EXPECT_EQ(summary["solid_contacts"]["face_grid_overflows"].get<int>(), 0) << summary.dump();
    EXPECT_EQ(summary["solid_contacts"]["triangle_grid_overflows"].get<int>(), 0) << summary.dump();
    std::istringstream lines(readFile(out / "run" / "bodies.csv"));
    std::string row;
    std::getline(lines, row);
    ASSERT_EQ(row.rfind("step,time,body,kind,fragment,x,y,z", 0), 0u) << row;
    double lowest = 1e30, last = 0.0;
    int fractureRows = 0;
    while (std::getline(lines, row)) {
        std::vector<std::string> cells;
        for (std::istringstream c(row); std::getline(c, row, ',');) cells.push_back(row);
        if (cells.size() < 7) continue;
        if (cells[3] == "fracture") ++fractureRows;
        if (cells[3] != "deformable") continue;
        last = std::stod(cells[6]);
        lowest = std::min(lowest, last);
    }
    EXPECT_EQ(fractureRows, 80);
    // The block's top is at 0.3 m: the ball's centre stays well above it (it squashes on landing).
    EXPECT_GT(lowest, 0.3 + 0.5 * 0.1) << "the ball sank into the block";
    EXPECT_GT(last, 0.3 + 0.7 * 0.1);
    EXPECT_LT(last, 0.3 + 1.2 * 0.1) << "the ball did not land";
}

// A scene of fluid and a deformable body: one run steps both, coupled, with validation on; its
// metrics carry the fluid's columns and the body's; what the coupling cannot do is refused.
TEST(Cli, FluidAndABodyRunCoupledInOneScene)
{
    const fs::path out = tempDir("coupled");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_ball_pool.json";
    const Result r =
        floe("run " + scene + " --steps 40 --frames 1 --width 320 --height 200 --validate --quiet --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["kind"], "fluid and deformable bodies");
    EXPECT_GT(summary["solid_samples"].get<int>(), 0);
    EXPECT_TRUE(summary.contains("solid_corrections")) << summary.dump();
    EXPECT_GT(summary["fluid_particles"].get<int>(), 1000);
    std::istringstream lines(readFile(out / "metrics.csv"));
    std::string header, row;
    std::getline(lines, header);
    std::vector<std::string> names, values;
    for (std::istringstream h(header); std::getline(h, row, ',');) names.push_back(row);
    std::string last;
    while (std::getline(lines, row))
        if (!row.empty()) last = row;
    for (std::istringstream v(last); std::getline(v, row, ',');) values.push_back(row);
    ASSERT_EQ(values.size(), names.size());
    const auto value = [&](const std::string& name) {
        const auto it = std::find(names.begin(), names.end(), name);
        return it == names.end() ? std::string("(missing)") : values[size_t(it - names.begin())];
    };
    EXPECT_EQ(value("step"), "40");
    EXPECT_EQ(std::stoul(value("particles")), summary["fluid_particles"].get<unsigned>() + summary["particles"].get<unsigned>());
    EXPECT_GT(std::stod(value("solver_iterations")), 0.0);
    EXPECT_NE(value("volume_error_max"), "");
    EXPECT_TRUE(fs::exists(out / "frame_0000.png"));

    // --export: the bodies' surfaces and the fluid's particles, each frame.
    const fs::path exported = tempDir("coupled-export");
    const Result e = floe("run " + scene + " --steps 4 --frames 0 --export ply --quiet --out " + exported.string());
    ASSERT_EQ(e.status, 0) << e.output;
    for (const char* file : {"bodies_000004.ply", "particles_000004.ply"}) EXPECT_TRUE(fs::exists(exported / file)) << file;
    EXPECT_EQ(io::readPly(exported / "particles_000004.ply").positions.size(), summary["fluid_particles"].get<size_t>());

    // A blow-up of the coupled system is reported: WCSPH at this scene's step and its default
    // stiffness gains energy within 10 steps (as it does in the pool alone).
    const Result blowUp =
        floe("run " + scene + " --steps 30 --frames 0 --quiet --set Configuration.simulationMethod=0 --out " + out.string());
    EXPECT_EQ(blowUp.status, 1) << blowUp.output;
    EXPECT_NE(blowUp.output.find("energy from nowhere"), std::string::npos) << blowUp.output;

    // --solver switches a coupled scene's fluid solver as a fluid scene's; PCISPH is refused.
    const Result iisph = floe("run " + scene + " --steps 3 --frames 0 --quiet --solver iisph --out " + out.string());
    ASSERT_EQ(iisph.status, 0) << iisph.output;
    EXPECT_EQ(nlohmann::json::parse(readFile(out / "summary.json"))["solver"], "iisph");
    const Result pcisph = floe("run " + scene + " --steps 3 --frames 0 --quiet --solver pcisph --out " + out.string());
    EXPECT_EQ(pcisph.status, 2) << pcisph.output;
    EXPECT_NE(pcisph.output.find("PCISPH"), std::string::npos) << pcisph.output;

    const Result pbf = floe("run " + scene + " --steps 2 --frames 0 --set Configuration.simulationMethod=2 --out " + out.string());
    EXPECT_EQ(pbf.status, 2) << pbf.output;
    EXPECT_NE(pbf.output.find("PBF"), std::string::npos) << pbf.output;
}

// A fluid with fracture bodies (coupling::FluidSolidCoupling with coupling/tet_samples): the
// fluid's and the fracture bodies' columns, both exports, and the refusals of what cannot be
// coupled, each naming its key.
TEST(Cli, FluidAndFractureBodiesRunCoupledInOneScene)
{
    const fs::path out = tempDir("coupled-fracture");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_glass_drop.json";
    const Result r = floe("run " + scene + " --steps 60 --frames 1 --width 320 --height 200 --validate --quiet --export ply " +
                          "--export-every 30 --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["kind"], "fluid and fracture bodies");
    EXPECT_EQ(summary["validation_messages"], 0);
    EXPECT_GT(summary["solid_samples"].get<int>(), 1000);
    EXPECT_GT(summary["fluid_particles"].get<int>(), 1000);
    EXPECT_TRUE(summary["energy"].is_null()) << "the bodies' energy account does not close with a fluid working on them";
    std::istringstream lines(readFile(out / "metrics.csv"));
    std::string header, row, last;
    std::getline(lines, header);
    std::vector<std::string> names, values;
    for (std::istringstream h(header); std::getline(h, row, ',');) names.push_back(row);
    while (std::getline(lines, row))
        if (!row.empty()) last = row;
    for (std::istringstream v(last); std::getline(v, row, ',');) values.push_back(row);
    values.resize(names.size());
    const auto value = [&](const std::string& name) {
        const auto it = std::find(names.begin(), names.end(), name);
        return it == names.end() ? std::string("(missing)") : values[size_t(it - names.begin())];
    };
    EXPECT_EQ(value("step"), "60");
    EXPECT_EQ(std::stoul(value("particles")), summary["fluid_particles"].get<unsigned>() + summary["nodes_final"].get<unsigned>());
    EXPECT_GT(std::stod(value("solver_iterations")), 0.0);
    EXPECT_NE(value("density_error_avg"), "");
    EXPECT_EQ(value("fragments"), "1");
    EXPECT_EQ(value("contact"), "1") << "the cube is in the water at step 60: the fluid's push is a contact";
    EXPECT_EQ(value("solver_loss"), "");
    for (const char* file : {"fracture_000060.ply", "particles_000060.ply", "frame_0000.png"})
        EXPECT_TRUE(fs::exists(out / file)) << file;
    EXPECT_EQ(io::readPly(out / "particles_000060.ply").positions.size(), summary["fluid_particles"].get<size_t>());

    // --solver as for a fluid scene; PCISPH and a 2D fluid are refused. The Constraint method's
    // pieces are coupled too. A scene without the domain's corners runs: the bodies collide with
    // the tank's mesh.
    const Result iisph = floe("run " + scene + " --steps 3 --frames 0 --quiet --solver iisph --out " + out.string());
    ASSERT_EQ(iisph.status, 0) << iisph.output;
    EXPECT_EQ(nlohmann::json::parse(readFile(out / "summary.json"))["solver"], "iisph");
    const std::vector<std::pair<std::string, std::string>> refused = {{"--solver pcisph", "PCISPH"},
                                                                      {"--set Configuration.sim2D=true", "Configuration.sim2D"}};
    for (const auto& [flag, key] : refused) {
        const Result bad = floe("run " + scene + " --steps 2 --frames 0 --quiet " + flag + " --out " + out.string());
        EXPECT_EQ(bad.status, 2) << flag << ": " << bad.output;
        EXPECT_NE(bad.output.find(key), std::string::npos) << flag << ": " << bad.output;
    }
    const Result pieced =
        floe("run " + scene + " --steps 60 --frames 0 --validate --quiet --set Fracture.method=constraint --out " +
             (out / "pieced").string());
    ASSERT_EQ(pieced.status, 0) << pieced.output;
    const nlohmann::json piecedSummary = nlohmann::json::parse(readFile(out / "pieced" / "summary.json"));
    EXPECT_EQ(piecedSummary["status"], "ok");
    EXPECT_EQ(piecedSummary["validation_messages"], 0);
    EXPECT_EQ(piecedSummary["kind"], "fluid and fracture bodies");
    nlohmann::json noDomain = nlohmann::json::parse(readFile(scene));
    noDomain["Floe"].erase("domainMin");
    noDomain["Floe"].erase("domainMax");
    for (nlohmann::json& body : noDomain["RigidBodies"])
        body["geometryFile"] = std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj";
    const fs::path file = writeScene(out, "no-domain.json", noDomain.dump());
    const Result walls = floe("run " + file.string() + " --steps 2 --frames 0 --quiet --out " + (out / "walls").string());
    EXPECT_EQ(walls.status, 0) << walls.output;
    EXPECT_EQ(nlohmann::json::parse(readFile(out / "walls" / "summary.json"))["kind"], "fluid and fracture bodies");
}

// Learning a step's timed passes (FractureBodies::stepPassNames, RunWorld::stepPasses) records a
// step and drops it; it dropped everything pending, the coupling's first clear of the guard's
// impulse sums among it. On fresh pages that memory read as zeros; on reused heap memory (or
// FLOE_POISON=0x3F, garbage that reads as ordinary numbers) the glass cube, falling freely 25 cm
// above the water, took impulses at step 1, counted as a contact, cracked in the air, and the
// run was reported diverged (1330 J from nowhere). FLOE_POISON=1's NaNs hid it.
TEST(Cli, ACoupledRunClearsWhatItsFirstStepReads)
{
    const fs::path out = tempDir("coupled-garbage");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_glass_drop.json";
    const Result r = shell("FLOE_POISON=0x3F " + std::string(FLOE_BINARY) + " run " + scene +
                           " --steps 3 --frames 0 --quiet --timers pass --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(nlohmann::json::parse(readFile(out / "summary.json"))["status"], "ok");
    std::istringstream lines(readFile(out / "metrics.csv"));
    std::string header, row;
    std::getline(lines, header);
    std::vector<std::string> names;
    for (std::istringstream h(header); std::getline(h, row, ',');) names.push_back(row);
    const auto column = [&](const std::string& name) {
        return size_t(std::find(names.begin(), names.end(), name) - names.begin());
    };
    ASSERT_LT(column("contact"), names.size());
    ASSERT_LT(column("cuts"), names.size());
    int rows = 0;
    while (std::getline(lines, row)) {
        if (row.empty()) continue;
        std::vector<std::string> values;
        for (std::istringstream v(row); std::getline(v, header, ',');) values.push_back(header);
        values.resize(names.size());
        EXPECT_EQ(values[column("contact")], "0") << "step " << values[0] << ": the falling cube touches nothing";
        EXPECT_EQ(values[column("cuts")], "0") << "step " << values[0];
        ++rows;
    }
    EXPECT_EQ(rows, 3);
    const Result bad = shell("FLOE_POISON=lots " + std::string(FLOE_BINARY) + " info");
    EXPECT_NE(bad.status, 0);
    EXPECT_NE(bad.output.find("FLOE_POISON=lots"), std::string::npos) << bad.output;
}

// The dam break that breaks a glass pane, past step 391: there a shard's node resting on the
// tank's mesh (fracture/obstacles, with no depth and a denormal slide) once got a NaN position
// from 0 / 0 in the friction, and the run was reported diverged.
TEST(Cli, TheDamBreakBreaksTheGlassPaneAndRunsOn)
{
    const fs::path out = tempDir("dam-break-glass");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_dam_break_glass.json";
    const Result r = floe("run " + scene + " --steps 420 --frames 0 --quiet --timers off --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["validation_messages"], 0);
    EXPECT_GT(summary["fragments"].get<int>(), 20) << "the front breaks the pane";
}

// The heavy jelly ball of solids_ball_through_glass.json breaks the pane and its shards fall
// around it, without energy from nowhere (status ok: the run checks every step's energy against
// what the motion, strain and gravity can supply). When the ball's vertices were tested against
// the faces with the move relative to each face, the shards carried vertices along and the run
// stopped at step 81, reported diverged (coupling/vertex_faces).
TEST(Cli, TheJellyBallBreaksThroughTheGlassWithoutEnergyFromNowhere)
{
    const fs::path out = tempDir("ball-through-glass");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/solids_ball_through_glass.json";
    const Result r = floe("run " + scene + " --steps 120 --frames 0 --quiet --timers off --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["validation_messages"], 0);
    EXPECT_GT(summary["fragments"].get<int>(), 10) << "the ball breaks the pane";
}

TEST(Cli, RunWritesMetricsSummaryAndPictures)
{
    const fs::path out = tempDir("run");
    const Result r = floe("run " + kScene +
                          " --steps 60 --frames 3 --width 320 --height 200 --validate --quiet --timers pass --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;

    const std::string csv = readFile(out / "metrics.csv");
    std::istringstream lines(csv);
    std::string header;
    std::getline(lines, header);
    for (const char* column : {"step", "time", "dt", "particles", "density_error_avg", "density_error_max", "solver_iterations",
                               "kinetic_energy", "escaped", "gpu_ms_total", "gpu_ms:sph/integrate", "gpu_ms:sph/density"})
        EXPECT_NE(header.find(column), std::string::npos) << column << " missing in " << header;
    int rows = 0;
    std::string row, last;
    while (std::getline(lines, row)) {
        ++rows;
        last = row;
    }
    EXPECT_EQ(rows, 60);
    EXPECT_EQ(last.substr(0, 3), "60,");

    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["steps"], 60);
    EXPECT_EQ(summary["particles"], 1000);
    EXPECT_EQ(summary["validation"], true);
    EXPECT_EQ(summary["validation_messages"], 0);
    EXPECT_TRUE(summary["gpu_ms_mean"].contains("sph/integrate"));
    ASSERT_EQ(summary["frames"].size(), 3u);

    // The pictures show the particles: not one flat colour, with the particles' colours present.
    for (int i = 0; i < 3; ++i) {
        const fs::path png = out / ("frame_000" + std::to_string(i) + ".png");
        int w = 0, h = 0, n = 0;
        unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &n, 4);
        ASSERT_NE(pixels, nullptr) << png;
        EXPECT_EQ(w, 320);
        EXPECT_EQ(h, 200);
        double mean = 0, meanSq = 0;
        int saturated = 0; // particle pixels: the colour map is far from grey
        for (int p = 0; p < w * h; ++p) {
            const int r8 = pixels[4 * p], g8 = pixels[4 * p + 1], b8 = pixels[4 * p + 2];
            const double luma = 0.3 * r8 + 0.59 * g8 + 0.11 * b8;
            mean += luma;
            meanSq += luma * luma;
            if (std::max({r8, g8, b8}) - std::min({r8, g8, b8}) > 40) ++saturated;
        }
        stbi_image_free(pixels);
        mean /= w * h;
        const double variance = meanSq / (w * h) - mean * mean;
        EXPECT_GT(variance, 50.0) << png << " looks blank";
        EXPECT_GT(saturated, 100) << png << " shows no particles";
    }
}

TEST(Cli, OverlayAnnotatesThePicturesAndCoversNothingElse)
{
    // The same run with and without --overlay: the pictures differ in the two corner panels (the
    // name, solver and time on the left, the legend on the right), and nowhere else.
    const fs::path out = tempDir("overlay");
    const std::string run = "run " + kScene + " --steps 5 --frames 1 --width 640 --height 360 --quiet --out ";
    Result r = floe(run + (out / "plain").string());
    ASSERT_EQ(r.status, 0) << r.output;
    r = floe(run + (out / "overlay").string() + " --overlay");
    ASSERT_EQ(r.status, 0) << r.output;
    int w = 0, h = 0, n = 0, w2 = 0, h2 = 0;
    unsigned char* plain = stbi_load((out / "plain" / "frame_0000.png").c_str(), &w, &h, &n, 4);
    unsigned char* annotated = stbi_load((out / "overlay" / "frame_0000.png").c_str(), &w2, &h2, &n, 4);
    ASSERT_NE(plain, nullptr);
    ASSERT_NE(annotated, nullptr);
    ASSERT_EQ(w, w2);
    ASSERT_EQ(h, h2);
    int left = 0, right = 0, elsewhere = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int p = 4 * (y * w + x);
            if (!std::equal(plain + p, plain + p + 3, annotated + p)) {
                const bool top = y < h / 3;
                if (top && x < w / 2)
                    ++left;
                else if (top)
                    ++right;
                else
                    ++elsewhere;
            }
        }
    stbi_image_free(plain);
    stbi_image_free(annotated);
    EXPECT_GT(left, 2000) << "the scene's name, solver and time";
    EXPECT_GT(right, 2000) << "the colour legend";
    EXPECT_EQ(elsewhere, 0) << "the overlay covers only its corners";
}

std::string fileBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The metrics without the GPU timings: every column but gpu_ms*.
std::vector<std::string> metricsWithoutTimings(const fs::path& csv)
{
    std::istringstream lines(readFile(csv));
    std::string header;
    std::getline(lines, header);
    std::vector<bool> keep;
    std::istringstream names(header);
    for (std::string name; std::getline(names, name, ',');) keep.push_back(name.rfind("gpu_ms", 0) != 0);
    std::vector<std::string> rows;
    for (std::string row; std::getline(lines, row);) {
        std::istringstream cells(row);
        std::string kept;
        size_t k = 0;
        for (std::string cell; std::getline(cells, cell, ','); ++k)
            if (k < keep.size() && keep[k]) kept += cell + ",";
        rows.push_back(kept);
    }
    return rows;
}

// The numbers of one of metricsWithoutTimings()'s rows ("a,b,...,"), an empty cell as 0.
std::vector<double> csvNumbers(const std::string& row)
{
    std::vector<double> numbers;
    std::istringstream cells(row);
    std::string cell;
    while (std::getline(cells, cell, ',')) numbers.push_back(cell.empty() ? 0.0 : std::stod(cell));
    return numbers;
}

TEST(Cli, IndexCheckedShadersChangeNothing)
{
    // The shaders compiled with index checks (build/shaders-checked/: an out-of-range load gives
    // NaN or 0xFFFFFFFF, a store out of range is dropped) give the same metrics, digit for digit,
    // and the same pictures as the plain ones, for every solver, bodies and fracture (with cuts): no pass of
    // these runs reads or writes outside its arrays. (A read that lavapipe clamps to zero would
    // differ here, and on a GPU it would read other memory.) Digit for digit on lavapipe only: the
    // checks make other programs, and an NVIDIA H200's compiler arranged their float arithmetic
    // differently (the 2D DFSPH run's density error differed by 1e-7 relative from step 3 on, and
    // the dam break's chaos grew that to 1e-3 by step 30). Elsewhere the first three steps agree
    // within 1e-4 relative, no value is NaN, and pictures are not compared.
    const fs::path out = tempDir("checked");
    const std::string scenes = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/";
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"dfsph", "dam_break_2d.json --solver dfsph --steps 30 --frames 1 --render both"},
        {"iisph", "dam_break_2d.json --solver iisph --steps 15"},
        {"pcisph", "dam_break_2d.json --solver pcisph --steps 15"},
        {"pbf", "dam_break_2d.json --solver pbf --steps 15"},
        {"eos3d", "dam_break_3d.json --solver eos --steps 3 --frames 1 --render fluid --width 320 --height 180"},
        {"bodies", "bodies_drop.json --steps 30 --frames 1"},
        // Stronger gravity: the cube lands and breaks (cuts, new fragments) within 30 steps.
        {"fracture", "fracture_cube.json --steps 30 --set 'Configuration.gravitation=[0,-60,0]'"},
        // Deformable and fracture bodies in contact (coupling/face_bins, vertex_faces, node_impulses_apply).
        {"solids", "solids_ball_through_glass.json --steps 40 --frames 1 --set 'Configuration.gravitation=[0,-40,0]'"},
    };
    bool lavapipe = true;
    for (const auto& [name, args] : runs) {
        SCOPED_TRACE(name);
        for (const char* tree : {"plain", "checked"}) {
            const std::string env = std::string(tree) == "checked" ? "FLOE_SHADER_DIR=" FLOE_CHECKED_SHADER_DIR " " : "";
            const Result r = shell(env + FLOE_BINARY + " run " + scenes + args + " --quiet --out " + (out / name / tree).string());
            ASSERT_EQ(r.status, 0) << tree << ":\n" << r.output;
            lavapipe = r.output.find(" on llvmpipe") != std::string::npos;
            EXPECT_EQ(r.output.find("[vulkan "), std::string::npos) << r.output;
        }
        const std::vector<std::string> plain = metricsWithoutTimings(out / name / "plain" / "metrics.csv");
        const std::vector<std::string> checked = metricsWithoutTimings(out / name / "checked" / "metrics.csv");
        ASSERT_FALSE(plain.empty());
        if (!lavapipe) {
            ASSERT_EQ(checked.size(), plain.size());
            for (size_t row = 0; row < plain.size(); ++row) {
                const std::vector<double> a = csvNumbers(plain[row]), b = csvNumbers(checked[row]);
                ASSERT_EQ(a.size(), b.size()) << "row " << row;
                for (size_t k = 0; k < a.size(); ++k) {
                    EXPECT_FALSE(std::isnan(b[k])) << "row " << row << " column " << k;
                    if (row < 3) {
                        EXPECT_NEAR(b[k], a[k], 1e-4 * std::fabs(a[k]) + 1e-9) << "row " << row << " column " << k;
                    }
                }
            }
            continue;
        }
        EXPECT_EQ(checked, plain);
        if (fs::exists(out / name / "plain" / "frame_0000.png")) {
            EXPECT_EQ(fileBytes(out / name / "checked" / "frame_0000.png"), fileBytes(out / name / "plain" / "frame_0000.png"));
        }
    }
}

TEST(Cli, ExportsSavedStatesAndResumedRuns)
{
    const fs::path out = tempDir("state");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/dam_break_2d.json";
    // 30 steps in one go, and 20 + 10 through a saved state: the final states are byte-identical.
    Result r = floe("run " + scene + " --steps 30 --frames 0 --quiet --out " + (out / "straight").string() + " --save-state " +
                    (out / "straight.state").string());
    ASSERT_EQ(r.status, 0) << r.output;
    r = floe("run " + scene + " --steps 20 --frames 0 --quiet --export ply --export-every 10 --out " + (out / "first").string() +
             " --save-state " + (out / "half.state").string());
    ASSERT_EQ(r.status, 0) << r.output;
    r = floe("run " + scene + " --steps 10 --frames 0 --quiet --export vtk --export-every 5 --out " + (out / "second").string() +
             " --load-state " + (out / "half.state").string() + " --save-state " + (out / "resumed.state").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const std::string straight = fileBytes(out / "straight.state"), resumed = fileBytes(out / "resumed.state");
    ASSERT_GT(straight.size(), 1250u * 36u);
    EXPECT_TRUE(straight == resumed) << "the resumed run differs from the uninterrupted one";

    const nlohmann::json second = nlohmann::json::parse(readFile(out / "second" / "summary.json"));
    EXPECT_EQ(second["first_step"], 21);
    EXPECT_EQ(second["loaded_state"], (out / "half.state").string()) << "a resumed run records the state it loaded";
    EXPECT_TRUE(nlohmann::json::parse(readFile(out / "straight" / "summary.json"))["loaded_state"].is_null());
    EXPECT_EQ(second["steps"], 10);
    const std::string metrics = readFile(out / "second" / "metrics.csv");
    EXPECT_NE(metrics.find("\n21,"), std::string::npos) << "step numbers continue after a resume";
    // And the time column continues the saved run's, digit for digit (it printed 0.0840000056624
    // where the uninterrupted run printed 0.084).
    const auto times = [](const std::string& csv) {
        std::map<std::string, std::string> byStep;
        std::istringstream lines(csv);
        std::string line;
        std::getline(lines, line); // header: step,time,...
        while (std::getline(lines, line)) {
            const size_t a = line.find(','), b = line.find(',', a + 1);
            byStep[line.substr(0, a)] = line.substr(a + 1, b - a - 1);
        }
        return byStep;
    };
    const auto straightTimes = times(readFile(out / "straight" / "metrics.csv"));
    const auto resumedTimes = times(metrics);
    ASSERT_EQ(resumedTimes.size(), 10u);
    for (const auto& [step, time] : resumedTimes) EXPECT_EQ(time, straightTimes.at(step)) << "time column at step " << step;

    // Exports: PLY in sampling order with plausible values, VTK with its header.
    for (const char* name : {"particles_000010.ply", "particles_000020.ply"}) {
        const io::ParticleFrame f = io::readPly(out / "first" / name);
        ASSERT_EQ(f.positions.size(), 1250u) << name;
        for (size_t i = 0; i < f.positions.size(); ++i) {
            ASSERT_TRUE(std::isfinite(f.positions[i].x + f.velocities[i].y + f.pressures[i])) << name << " particle " << i;
            ASSERT_GT(f.densities[i], 500.0f) << name << " particle " << i;
            ASSERT_LT(f.densities[i], 1100.0f) << name << " particle " << i;
            ASSERT_GE(f.pressures[i], 0.0f) << name << " particle " << i;
        }
        // Particle 0 was sampled at the block's corner (0.04, 0.04) and is still near it.
        EXPECT_LT(glm::length(f.positions[0] - glm::vec3(0.04f, 0.04f, 0.0f)), 0.05f) << name;
    }
    for (const char* name : {"particles_000025.vtk", "particles_000030.vtk"}) {
        const std::string vtk = fileBytes(out / "second" / name);
        EXPECT_EQ(vtk.rfind("# vtk DataFile Version 3.0", 0), 0u) << name;
        EXPECT_NE(vtk.find("POINTS 1250 float"), std::string::npos) << name;
        EXPECT_NE(vtk.find("SCALARS pressure float 1"), std::string::npos) << name;
    }
    // A shorter run into the same folder removes the earlier run's files (metrics, summary and three
    // exports: the first state, steps 10 and 20) and leaves files that are not Floe's.
    std::ofstream(out / "first" / "notes.txt") << "mine";
    r = floe("run " + scene + " --steps 3 --frames 0 --quiet --out " + (out / "first").string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_FALSE(fs::exists(out / "first" / "particles_000010.ply")) << "a stale export of the earlier run";
    EXPECT_FALSE(fs::exists(out / "first" / "particles_000020.ply")) << "a stale export of the earlier run";
    EXPECT_FALSE(fs::exists(out / "first" / "particles_000000.ply")) << "a stale export of the earlier run";
    EXPECT_TRUE(fs::exists(out / "first" / "notes.txt")) << "a file Floe did not write";
    EXPECT_NE(r.output.find("removed 5 files of an earlier run"), std::string::npos) << r.output;
    // A state does not load into a different scene set-up.
    r = floe("run " + std::string(FLOE_SOURCE_DIR) + "/assets/scenes/rest_2d.json --steps 2 --frames 0 --quiet --out " +
             (out / "wrong").string() + " --load-state " + (out / "half.state").string());
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("different scene"), std::string::npos) << r.output;
}

TEST(Cli, AnInterruptedRunWritesItsSummaryAndExits130)
{
    // Ctrl-C (SIGINT) once the run is under way: the step in flight ends, metrics.csv and
    // summary.json (status "interrupted") are written, the exit status is 130.
    const fs::path out = tempDir("interrupted");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/dam_break_2d.json";
    const std::string script = std::string(FLOE_BINARY) + " run " + scene + " --seconds 1000 --frames 0 --quiet --out " +
                               out.string() + " & pid=$!; for i in $(seq 600); do [ -s " + (out / "metrics.csv").string() +
                               " ] && break; sleep 0.1; done; kill -INT $pid; wait $pid; echo \"exit=$?\"";
    const Result r = shell("bash -c '" + script + "'");
    EXPECT_NE(r.output.find("exit=130"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("interrupted after step"), std::string::npos) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "interrupted");
    EXPECT_GT(summary["steps"].get<int>(), 0);
    EXPECT_LT(summary["end_time"].get<double>(), 1000.0);
    const std::string metrics = readFile(out / "metrics.csv");
    EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), summary["steps"].get<int>() + 1) << "a row per step done";
}

TEST(Cli, ADivergedRunExitsOneAndExportsItsLastGoodState)
{
    const fs::path out = tempDir("diverge");
    // The equation of state far too stiff for a 10 ms step: the fluid explodes within steps.
    const Result r =
        floe("run " + std::string(FLOE_SOURCE_DIR) +
             "/assets/scenes/dam_break_2d.json --solver eos --set Configuration.cflMethod=0 "
             "--set Configuration.timeStepSize=0.01 --set Configuration.stiffness=1e7 --steps 100 --frames 0 --quiet --out " +
             out.string());
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("above the equation of state's acoustic bound"), std::string::npos) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "diverged");
    EXPECT_LT(summary["diverged_at_step"].get<int>(), 100);
    EXPECT_EQ(summary["last_good_state"], "last_good.ply");
    const io::ParticleFrame f = io::readPly(out / "last_good.ply");
    EXPECT_EQ(f.positions.size(), 1250u);
    for (const glm::vec3& p : f.positions) ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
}

// Energy from nowhere is a blow-up (issue 14): a column that reaches r into its walls starts 62 %
// compressed, and IISPH turns that into more kinetic energy than gravity can supply in one step.
// Before the energy criterion the run went on and ended "ok".
TEST(Cli, AnEnergyBlowUpIsDivergedWithItsReason)
{
    // Floe's rest masses: the block overlapping the walls starts 62 % compressed (with
    // SPlisHSPlasH's lighter particles it starts 30 % compressed and settles).
    const fs::path dir = tempDir("energy");
    const fs::path scene = dir / "overlap.json";
    std::ofstream(scene) << R"({"Configuration": {"sim2D": true, "particleRadius": 0.0025, "simulationMethod": 3, "cflMethod": 1,
        "cflMaxTimeStepSize": 0.0005, "maxError": 0.1, "stopAt": 0.05},
        "RigidBodies": [{"geometryFile": ")" +
                                std::string(FLOE_SOURCE_DIR) + R"(/assets/meshes/UnitBox.obj", "translation": [0.2, 0.25, 0],
                         "scale": [0.4, 0.5, 1], "inverted": true}],
        "FluidBlocks": [{"start": [-0.0025, -0.0025, 0], "end": [0.1975, 0.3975, 0]}], "Floe": {"particleMass": "rest"}})";
    const Result r = floe("run " + scene.string() + " --frames 0 --quiet --out " + (dir / "out").string());
    EXPECT_EQ(r.status, 1) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(dir / "out" / "summary.json"));
    EXPECT_EQ(summary["status"], "diverged");
    EXPECT_NE(summary["diverged_reason"].get<std::string>().find("energy from nowhere"), std::string::npos) << summary.dump();
    EXPECT_TRUE(fs::exists(dir / "out" / "last_good.ply"));
    // The same column one spacing from the walls (SPlisHSPlasH's placement of a block that touches
    // them) runs at rest.
    std::ofstream(scene) << R"({"Configuration": {"sim2D": true, "particleRadius": 0.0025, "simulationMethod": 3, "cflMethod": 1,
        "cflMaxTimeStepSize": 0.0005, "maxError": 0.1, "stopAt": 0.02},
        "RigidBodies": [{"geometryFile": ")" +
                                std::string(FLOE_SOURCE_DIR) + R"(/assets/meshes/UnitBox.obj", "translation": [0.2, 0.25, 0],
                         "scale": [0.4, 0.5, 1], "inverted": true}],
        "FluidBlocks": [{"start": [0, 0, 0], "end": [0.2, 0.4, 0]}], "Floe": {"particleMass": "rest"}})";
    const Result ok = floe("run " + scene.string() + " --frames 0 --quiet --out " + (dir / "ok").string());
    EXPECT_EQ(ok.status, 0) << ok.output;
}

// A scene in SPlisHSPlasH's format runs unchanged: its solver (DFSPH with both solves), its
// viscosity, its exports (VTK, and PLY for Partio's BGEO) at its dataExportFPS.
TEST(Cli, SplishSplashSceneRunsWithItsSolverAndExports)
{
    const fs::path dir = tempDir("splish");
    const fs::path scene = dir / "dam.json";
    std::ofstream(scene) << R"({"Configuration": {"sim2D": true, "particleRadius": 0.025, "simulationMethod": 4,
        "cflMethod": 1, "cflFactor": 1, "cflMaxTimeStepSize": 0.005, "boundaryHandlingMethod": 2, "stopAt": 0.2,
        "enableVTKExport": true, "enablePartioExport": true, "dataExportFPS": 10, "numberOfStepsPerRenderUpdate": 4,
        "DFSPH": {"minIterations": 2, "maxIterations": 100, "maxError": 0.05, "maxIterationsV": 100, "maxErrorV": 0.1,
                  "enableDivergenceSolver": true}},
        "Materials": [{"id": "Fluid", "density0": 1000, "viscosityMethod": 1, "Standard viscosity": {"viscosity": 0.01}}],
        "RigidBodies": [{"geometryFile": ")" +
                                std::string(FLOE_SOURCE_DIR) + R"(/assets/meshes/UnitBox.obj", "translation": [0, 2, 0],
                         "scale": [4, 4, 1], "isWall": true, "mapInvert": true, "mapThickness": 0.0, "mapResolution": [30, 30, 20]}],
        "FluidBlocks": [{"denseMode": 0, "start": [-2, 0, -1], "end": [-0.5, 1.5, 1], "translation": [0.025, 0.025, 0]}]})";
    const Result r = floe("run " + scene.string() + " --frames 0 --quiet --timers pass --out " + (dir / "out").string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("boundaryHandlingMethod 2"), std::string::npos) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(dir / "out" / "summary.json"));
    EXPECT_EQ(summary["solver"], "dfsph");
    EXPECT_EQ(summary["particles"], 841);     // SPlisHSPlasH's count for this block (DamBreakModel_2D)
    EXPECT_EQ(summary["exports"].size(), 6u); // t = 0, 0.1, 0.2 in both formats
    for (const char* f : {"particles_000000.vtk", "particles_000000.ply"}) EXPECT_TRUE(fs::exists(dir / "out" / f)) << f;
    EXPECT_GE(summary["metrics"]["divergence_iterations"]["mean"].get<double>(), 1.0);
    EXPECT_GE(summary["metrics"]["solver_iterations"]["mean"].get<double>(), 2.0);
    const std::string csv = readFile(dir / "out" / "metrics.csv");
    EXPECT_NE(csv.find("gpu_ms:sph/dfsph_divergence_solve"), std::string::npos);
    EXPECT_NE(csv.find("gpu_ms:sph/dfsph_density_solve"), std::string::npos);
}

// metrics.csv's time (as written) and dt columns, a row per step.
struct StepClock {
    std::string time;
    double dt = 0;
};
std::vector<StepClock> stepClock(const fs::path& csv)
{
    std::istringstream lines(readFile(csv));
    std::string row;
    std::getline(lines, row); // step,time,dt,...
    std::vector<StepClock> clock;
    while (std::getline(lines, row)) {
        const size_t a = row.find(','), b = row.find(',', a + 1), c = row.find(',', b + 1);
        clock.push_back({row.substr(a + 1, b - a - 1), std::stod(row.substr(b + 1, c - b - 1))});
    }
    return clock;
}

// The GPU sums time in float, the CSV in double: the run still ends at the stop time (it once
// kept submitting empty steps when the two sums disagreed in the last digits). The equation of
// state's CFL step includes the speed of sound (eosSoundSpeed), so the run stays stable at 0.4 h / c.
TEST(Cli, ATimeLimitedRunEndsAtItsStopTimeWithTheAcousticStep)
{
    const fs::path out = tempDir("stop");
    const Result r = floe("run " + std::string(FLOE_SOURCE_DIR) +
                          "/assets/scenes/dam_break_2d.json --solver eos --seconds 0.2 --frames 0 --quiet --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const std::vector<StepClock> clock = stepClock(out / "metrics.csv");
    ASSERT_FALSE(clock.empty());
    double maxDt = 0;
    for (const StepClock& c : clock) maxDt = std::max(maxDt, c.dt);
    const int rows = int(clock.size());
    EXPECT_DOUBLE_EQ(std::stod(clock.back().time), 0.2);
    // h = 0.04 m, c = sqrt(1e6 Pa / 1000 kg/m^3) = 31.6 m/s: dt <= 0.4 h / c = 5.06e-4 s.
    EXPECT_LE(maxDt, 5.06e-4);
    EXPECT_GE(rows, 396); // 0.2 s / 5.06e-4 s
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_DOUBLE_EQ(summary["end_time"].get<double>(), 0.2);
}

// Fixed steps that divide the stop time end on it in as many steps: 0.2 s of 0.5 ms steps are 400
// steps of 0.5 ms, the last within the float clock's rounding. Without the Kahan sum's precise
// arithmetic the compiler dropped its compensation, 399 steps summed to 0.1994992 s, and the run
// ended with two steps of 0.25 ms (401 in all, one more than SPlisHSPlasH takes).
TEST(Cli, FixedStepsThatDivideTheStopTimeEndOnItWithoutASplitStep)
{
    const fs::path out = tempDir("fixed-stop");
    const Result r =
        floe("run " + std::string(FLOE_SOURCE_DIR) +
             "/assets/scenes/dam_break_2d.json --set Configuration.cflMethod=0 --set Configuration.timeStepSize=0.0005 "
             "--seconds 0.2 --frames 0 --quiet --out " +
             out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const std::vector<StepClock> clock = stepClock(out / "metrics.csv");
    ASSERT_EQ(clock.size(), 400u);
    EXPECT_EQ(clock.back().time, "0.2");
    // The float clock's rounding: an ulp of 0.2 s is 1.5e-8 s.
    for (size_t k = 0; k < clock.size(); ++k) EXPECT_NEAR(clock[k].dt, 0.0005, 1e-7) << "step " << k + 1;
}

TEST(Cli, InfoNamesTheChosenDevice)
{
    const Result r = floe("info");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("Chosen device:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("VK_KHR_push_descriptor"), std::string::npos) << r.output;
    if (const char* require = std::getenv("FLOE_EXPECT_LAVAPIPE"); require && std::string(require) == "1") {
        EXPECT_NE(r.output.find("llvmpipe"), std::string::npos) << r.output;
    }
}

TEST(Cli, BenchWritesMachineReadableResults)
{
    const fs::path dir = tempDir("bench");
    const Result r = floe("bench --suite primitives --sizes 1000 5000 --repetitions 1 --out " + (dir / "bench.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json doc = nlohmann::json::parse(readFile(dir / "bench.json"));
    ASSERT_EQ(doc["results"].size(), 8u);
    for (const auto& row : doc["results"]) {
        EXPECT_GT(row["gpu_melem_per_s"].get<double>(), 0.0) << row.dump();
        EXPECT_GT(row["cpu_melem_per_s"].get<double>(), 0.0) << row.dump();
    }
    EXPECT_NE(r.output.find("stable sort"), std::string::npos);
    EXPECT_FALSE(doc.contains("sph"));
    const Result p = plot((dir / "bench.json").string());
    ASSERT_EQ(p.status, 0) << p.output;
    expectPlot(dir / "bench_primitives.png");
    EXPECT_FALSE(fs::exists(dir / "bench_sph.png"));
}

// Plots of a run's metrics (floe run --plots) and clear errors from tools/plot.py.
TEST(Cli, RunWritesPlotsOfItsMetrics)
{
    const fs::path out = tempDir("plots");
    const Result r = floe("run " + kScene + " --steps 12 --frames 0 --quiet --plots --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    for (const char* name : {"density_error.png", "solver_iterations.png", "gpu_ms.png", "energy_dt.png"})
        expectPlot(out / "plots" / name);
    EXPECT_FALSE(fs::exists(out / "plots" / "volume_error.png"));
    EXPECT_FALSE(fs::exists(out / "plots" / "trajectories.png")) << "a fluid run has no bodies.csv";
    // Deformable bodies plot their volume and shape errors and their kinetic energy, not a
    // fluid's empty density error and iterations.
    const fs::path bodyOut = tempDir("plots_bodies");
    const Result b = floe("run " + std::string(FLOE_SOURCE_DIR) +
                          "/assets/scenes/bodies_drop.json --steps 20 --frames 0 --quiet "
                          "--plots --out " +
                          bodyOut.string());
    ASSERT_EQ(b.status, 0) << b.output;
    for (const char* name : {"volume_error.png", "gpu_ms.png", "energy_dt.png", "trajectories.png"})
        expectPlot(bodyOut / "plots" / name);
    for (const char* name : {"density_error.png", "solver_iterations.png"}) EXPECT_FALSE(fs::exists(bodyOut / "plots" / name));
    // Their kinetic energy is in metrics.csv (BodyTest checks its value).
    std::istringstream lines(readFile(bodyOut / "metrics.csv"));
    std::string header, row, cell;
    std::getline(lines, header);
    std::getline(lines, row);
    std::istringstream names(header), cells(row);
    std::map<std::string, std::string> first;
    while (std::getline(names, header, ',') && std::getline(cells, cell, ',')) first[header] = cell;
    ASSERT_TRUE(first.count("kinetic_energy")) << row;
    EXPECT_GT(std::atof(first["kinetic_energy"].c_str()), 0.0) << row;
    const fs::path headerOnly = writeScene(out, "metrics_bad.csv", "step,time\n");
    const Result bad = plot(headerOnly.string());
    EXPECT_EQ(bad.status, 2) << bad.output;
    EXPECT_NE(bad.output.find("metrics_bad.csv"), std::string::npos) << bad.output;
    const Result missing = plot((out / "nothing.json").string());
    EXPECT_EQ(missing.status, 2) << missing.output;
    EXPECT_NE(missing.output.find("nothing.json"), std::string::npos) << missing.output;
}

// The SPH suite on tiny resamplings of the dam breaks: every case measured, the ratios present,
// and the dt search brackets each solver's largest stable step.
// --timers: one timestamp pair per step by default (gpu_ms:step), a pair per pass on request
// (gpu_ms:PASS columns), none with off (an empty gpu_ms_total). The simulation is the same in all
// three; the bench's SPH suite takes the option too.
TEST(Cli, TimerModesWriteTheirColumnsAndChangeNothingElse)
{
    const fs::path dir = tempDir("timers");
    std::map<std::string, std::vector<std::map<std::string, std::string>>> runs;
    for (const std::string mode : {"", "pass", "step", "off"}) {
        const fs::path out = dir / (mode.empty() ? "default" : mode);
        const Result r = floe("run " + kScene + " --steps 8 --frames 0 --quiet" + (mode.empty() ? "" : " --timers " + mode) +
                              " --out " + out.string());
        ASSERT_EQ(r.status, 0) << r.output;
        std::istringstream lines(readFile(out / "metrics.csv"));
        std::string header, row;
        std::getline(lines, header);
        std::vector<std::string> columns;
        for (std::istringstream h(header); std::getline(h, row, ',');) columns.push_back(row);
        const bool perPass = header.find("gpu_ms:sph/density") != std::string::npos;
        const bool perStep = header.find("gpu_ms:step") != std::string::npos;
        EXPECT_EQ(perPass, mode == "pass") << mode << ": " << header;
        EXPECT_EQ(perStep, mode.empty() || mode == "step") << mode << ": " << header;
        if (mode == "off") {
            EXPECT_EQ(header.find("gpu_ms:"), std::string::npos) << header;
        }
        auto& table = runs[mode.empty() ? "default" : mode];
        while (std::getline(lines, row)) {
            std::map<std::string, std::string> values;
            std::istringstream cells(row);
            for (const std::string& c : columns) {
                std::string v;
                std::getline(cells, v, ',');
                values[c] = v;
            }
            if (mode == "off")
                EXPECT_EQ(values["gpu_ms_total"], "") << row;
            else
                EXPECT_GT(std::stod(values["gpu_ms_total"]), 0.0) << mode << ": " << row;
            for (auto it = values.begin(); it != values.end();)
                it = it->first.rfind("gpu_ms", 0) == 0 ? values.erase(it) : std::next(it);
            table.push_back(values);
        }
        ASSERT_EQ(table.size(), 8u) << mode;
    }
    for (const char* mode : {"pass", "step", "off"}) EXPECT_EQ(runs[mode], runs["default"]) << mode;
    EXPECT_EQ(floe("run " + kScene + " --steps 2 --timers sometimes").status, 2);

    const Result b = floe("bench --suite sph --particles-2d 300 --particles-3d 300 --steps 3 --warmup 1 --no-dt-search "
                          "--timers off --out " +
                          (dir / "bench.json").string());
    ASSERT_EQ(b.status, 0) << b.output;
    const nlohmann::json doc = nlohmann::json::parse(readFile(dir / "bench.json"));
    for (const auto& row : doc["sph"]["throughput"]) {
        EXPECT_EQ(row["timers"], "off") << row.dump();
        EXPECT_FALSE(row.contains("gpu_ms_per_step")) << row.dump();
        EXPECT_EQ(row["launch_budget_per_step"]["timestamps"].get<double>(), 0.0) << row.dump();
        EXPECT_GT(row["steps_per_second"].get<double>(), 0.0) << row.dump();
    }
}

// The solver iterations after convergence: by default their dispatches have zeroed group counts;
// with FLOE_CONDITIONAL_RENDERING=1 (VK_EXT_conditional_rendering, which lavapipe has) they sit in
// conditional regions the GPU skips. Both paths must give bit-identical runs for every iterative
// solver.
TEST(Cli, ConditionalSolverIterationsMatchTheZeroedDispatchPath)
{
    const fs::path dir = tempDir("conditional");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/dam_break_2d.json";
    const std::string conditional = "FLOE_CONDITIONAL_RENDERING=1 " + std::string(FLOE_BINARY) + " ";
    const Result info = shell(conditional + "info");
    if (const char* lvp = std::getenv("FLOE_EXPECT_LAVAPIPE"); lvp && std::string(lvp) == "1") {
        EXPECT_NE(info.output.find("VK_EXT_conditional_rendering"), std::string::npos) << info.output;
    }
    const Result plainInfo = floe("info");
    EXPECT_EQ(plainInfo.output.find("VK_EXT_conditional_rendering"), std::string::npos) << plainInfo.output;
    for (const char* solver : {"iisph", "dfsph", "pcisph", "pbf"}) {
        std::string metrics[2], state[2];
        for (int path = 0; path < 2; ++path) {
            const fs::path out = dir / (std::string(solver) + (path ? "_plain" : "_conditional"));
            const std::string args = "run " + scene + " --solver " + solver + " --steps 25 --frames 0 --quiet --timers off" +
                                     " --save-state " + (out / "end.state").string() + " --out " + out.string();
            const Result run = path ? floe(args) : shell(conditional + args);
            ASSERT_EQ(run.status, 0) << run.output;
            EXPECT_EQ(run.output.find("[vulkan "), std::string::npos) << run.output;
            metrics[path] = readFile(out / "metrics.csv");
            state[path] = readFile(out / "end.state");
        }
        EXPECT_EQ(metrics[0], metrics[1]) << solver;
        EXPECT_TRUE(state[0] == state[1]) << solver << ": the saved states differ";
        const nlohmann::json summary = nlohmann::json::parse(readFile(dir / (std::string(solver) + "_plain") / "summary.json"));
        EXPECT_GT(summary["metrics"]["solver_iterations"]["max"].get<double>(), 1.0) << solver << ": not a trivial run";
    }
}

// A fluid alone records as many solver iterations as recent steps needed and replays a step whose
// solve needed more (sim/sph/IterationRecording.h). Forcing 2 recorded iterations makes most
// steps replay: every output must be what recording the solver's cap gives, to the byte.
TEST(Cli, ReplayedStepsGiveTheResultsOfRecordingEveryIteration)
{
    const fs::path dir = tempDir("replay");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/dam_break_2d.json";
    for (const char* solver : {"iisph", "dfsph", "pcisph", "pbf"}) {
        std::map<std::string, std::string> files[3];
        uint64_t replayed[3] = {};
        for (int path = 0; path < 3; ++path) {
            const char* mode[3] = {"all", "2", "adaptive"};
            const fs::path out = dir / (std::string(solver) + "_" + mode[path]);
            const std::string args = std::string("FLOE_RECORD_ITERATIONS=") + mode[path] + " " + FLOE_BINARY + " run " + scene +
                                     " --solver " + solver + " --seconds 0.2 --frames 3 --export ply --export-every 9" +
                                     " --quiet --timers off --save-state " + (out / "end.state").string() + " --out " +
                                     out.string();
            const Result run = shell(args);
            ASSERT_EQ(run.status, 0) << run.output;
            EXPECT_EQ(run.output.find("[vulkan "), std::string::npos) << run.output;
            files[path] = runFiles(out);
            const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
            replayed[path] = summary["replayed_steps"].get<uint64_t>();
            EXPECT_GT(summary["metrics"]["solver_iterations"]["max"].get<double>(), 4.0) << solver << ": not a trivial run";
        }
        EXPECT_EQ(replayed[0], 0u) << solver;
        EXPECT_GT(replayed[1], 10u) << solver << ": the forced count replayed too few steps to test anything";
        EXPECT_GT(files[0].size(), 8u) << solver; // metrics, pictures, exports, the saved state
        for (int path = 1; path < 3; ++path) {
            ASSERT_EQ(files[path].size(), files[0].size()) << solver;
            for (const auto& [name, bytes] : files[0])
                EXPECT_TRUE(files[path][name] == bytes) << solver << " path " << path << ": " << name;
        }
    }
    const Result bad = shell("FLOE_RECORD_ITERATIONS=some " + std::string(FLOE_BINARY) + " run " + scene +
                             " --steps 2 --frames 0 --quiet --out " + (dir / "bad").string());
    EXPECT_EQ(bad.status, 2) << bad.output;
    EXPECT_NE(bad.output.find("FLOE_RECORD_ITERATIONS is 'some'"), std::string::npos) << bad.output;
}

// The same for a fluid coupled with solids (RunWorld's snapshots of the fluid, the solids, their
// samples and the world's clock): a deformable ball entering the pool at about 0.2 s (the guard
// owes it impulses across replayed steps), with fixed steps (two frames in flight) and with the
// steps the world chooses under the CFL rule (one); and a glass cube of tets breaking on the
// floor under the water at about step 95, with a tight tolerance so that most steps are replayed,
// cuts among them (its host rebuilds the fragments after each step's read-back). A world whose
// deformable and fracture bodies meet (the ball on the raft of dynamic rigid bodies) cannot go
// back and records every iteration.
TEST(Cli, CoupledReplaysGiveTheResultsOfRecordingEveryIteration)
{
    const fs::path dir = tempDir("replay_coupled");
    const std::string pool = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_ball_pool.json";
    struct Case {
        const char* name;
        std::string args;
    };
    const std::string glass = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/coupled_glass_drop.json";
    for (const Case& c :
         {Case{"fixed", pool + " --steps 140"}, Case{"cfl", pool + " --seconds 0.25 --set Configuration.cflMethod=1"},
          Case{"glass", glass + " --steps 110 --set Configuration.maxError=0.005 --set Configuration.maxErrorV=0.005"}}) {
        std::map<std::string, std::string> files[2];
        uint64_t replayed[2] = {};
        for (int path = 0; path < 2; ++path) {
            const char* mode[2] = {"all", "2"};
            const fs::path out = dir / (std::string(c.name) + "_" + mode[path]);
            const Result run = shell(std::string("FLOE_RECORD_ITERATIONS=") + mode[path] + " " + FLOE_BINARY + " run " + c.args +
                                     " --frames 2 --export ply --export-every 12 --quiet --timers off --save-state " +
                                     (out / "end.state").string() + " --out " + out.string());
            ASSERT_EQ(run.status, 0) << run.output;
            EXPECT_EQ(run.output.find("[vulkan "), std::string::npos) << run.output;
            files[path] = runFiles(out);
            const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
            replayed[path] = summary["replayed_steps"].get<uint64_t>();
            EXPECT_GT(summary["metrics"]["solver_iterations"]["max"].get<double>(), 2.0) << c.name << ": not a trivial run";
            EXPECT_GT(summary["solid_corrections"].get<uint64_t>(), 0u) << c.name << ": the solid never met the water";
            if (std::string(c.name) == "glass") {
                EXPECT_GT(summary["cuts"].get<uint64_t>(), 0u) << "the glass did not break";
            }
        }
        EXPECT_EQ(replayed[0], 0u) << c.name;
        EXPECT_GT(replayed[1], 10u) << c.name << ": the forced count replayed too few steps to test anything";
        EXPECT_GT(files[0].size(), 8u) << c.name; // metrics, bodies.csv, pictures, exports, the saved state
        ASSERT_EQ(files[1].size(), files[0].size()) << c.name;
        for (const auto& [name, bytes] : files[0]) EXPECT_TRUE(files[1][name] == bytes) << c.name << ": " << name;
    }
    const fs::path raft = dir / "raft";
    const Result run = shell(std::string("FLOE_RECORD_ITERATIONS=2 ") + FLOE_BINARY + " run " + FLOE_SOURCE_DIR +
                             "/assets/scenes/coupled_ball_on_raft.json --steps 3 --frames 0 --quiet --out " + raft.string());
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_FALSE(nlohmann::json::parse(readFile(raft / "summary.json")).contains("replayed_steps"));
}

TEST(Cli, SphBenchMeasuresBothSolversAndTheirStableSteps)
{
    const fs::path dir = tempDir("bench_sph");
    const Result r = floe("bench --suite sph --particles-2d 300 1200 --particles-3d 1000 --steps 4 --warmup 2 "
                          "--dt-seconds 0.1 --dt-refinements 1 --out " +
                          (dir / "bench.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json doc = nlohmann::json::parse(readFile(dir / "bench.json"));
    EXPECT_FALSE(doc.contains("results"));
    const nlohmann::json& sph = doc["sph"];
    // 3 counts x (eos, iisph, dfsph, pcisph, pbf, iisph at the eos step)
    ASSERT_EQ(sph["throughput"].size(), 18u);
    for (const auto& row : sph["throughput"]) {
        EXPECT_EQ(row["steps"], 4) << row.dump();
        EXPECT_GT(row["steps_per_second"].get<double>(), 0.0) << row.dump();
        EXPECT_GT(row["gpu_ms_per_step"].get<double>(), 0.0) << row.dump();
        EXPECT_GT(row["us_per_particle_step"].get<double>(), 0.0) << row.dump();
        EXPECT_TRUE(row["gpu_ms_per_pass"].contains("sph/density")) << row.dump();
        EXPECT_FALSE(row.contains("note")) << row.dump();
        const std::string solver = row["solver"];
        if (solver != "eos") {
            EXPECT_GE(row["iterations_mean"].get<double>(), 1.0) << row.dump();
            EXPECT_GT(row["us_per_particle_iteration"].get<double>(), 0.0) << row.dump();
            const std::string group = solver == "dfsph" ? "sph/dfsph_density_solve" : "sph/" + solver + "_solve";
            EXPECT_TRUE(row["gpu_ms_per_pass"].contains(group)) << row.dump();
        }
        if (solver == "dfsph") {
            EXPECT_GE(row["divergence_iterations_mean"].get<double>(), 1.0) << row.dump();
        }
        // The launch budget: every pass recorded (no conditional regions unless asked for with
        // FLOE_CONDITIONAL_RENDERING=1), a barrier before nearly every pass, a timestamp pair per
        // timed pass or group. A Jacobi iteration is two dispatches (accel, update; the update
        // ends the iteration), PCISPH's two (density, predict) and PBF's three (lambda,
        // correction, apply); all solvers record their maximum of 100.
        const nlohmann::json& budget = row["launch_budget_per_step"];
        const double dispatches = budget["dispatches"].get<double>();
        EXPECT_EQ(budget["conditional_dispatches"].get<double>(), 0.0) << row.dump();
        EXPECT_GE(budget["barriers"].get<double>(), dispatches - 5) << row.dump();
        EXPECT_GE(budget["timestamps"].get<double>(), 2.0 * double(row["gpu_ms_per_pass"].size())) << row.dump();
        const double perIteration = solver == "eos" ? 0 : solver == "pbf" ? 3 : 2;
        const double solves = solver == "dfsph" ? 2 : 1;
        EXPECT_GE(dispatches, 100 * perIteration * solves) << row.dump();
        EXPECT_LE(dispatches, 100 * perIteration * solves + 40) << row.dump();
    }
    // Resampled near the asked counts (a lattice cannot hit them exactly).
    EXPECT_NEAR(sph["throughput"][0]["particles"].get<double>(), 300, 60);
    EXPECT_NEAR(sph["throughput"][12]["particles"].get<double>(), 1000, 250);
    ASSERT_EQ(sph["cost_ratio_equal_dt"].size(), 3u);
    for (const auto& row : sph["cost_ratio_equal_dt"]) EXPECT_GT(row["eos_over_iisph_gpu"].get<double>(), 0.0);
    ASSERT_EQ(sph["stable_dt"].size(), 1u);
    const nlohmann::json& search = sph["stable_dt"][0];
    ASSERT_EQ(search["solvers"].size(), 5u);
    for (const auto& solver : search["solvers"]) {
        ASSERT_FALSE(solver["largest_stable_dt"].is_null()) << solver.dump();
        if (!solver["smallest_unstable_dt"].is_null()) {
            EXPECT_GT(solver["smallest_unstable_dt"].get<double>(), solver["largest_stable_dt"].get<double>());
        }
        bool sawStable = false;
        for (const auto& t : solver["trials"]) sawStable = sawStable || t["stable"].get<bool>();
        EXPECT_TRUE(sawStable);
    }
    EXPECT_GT(search["eos_over_iisph_gpu_per_simulated_second"].get<double>(), 0.0);
    EXPECT_NE(r.output.find("Largest stable fixed dt"), std::string::npos) << r.output;
}

// Pictures of the fluid surface: each mode writes its pictures, and the surface changes them.
TEST(Cli, RunRendersTheFluidSurfaceInEveryMode)
{
    const fs::path dir = tempDir("render");
    std::map<std::string, std::vector<uint8_t>> pictures;
    for (const std::string mode : {"particles", "fluid", "both"}) {
        const fs::path out = dir / mode;
        const Result r = floe("run " + kScene + " --steps 3 --frames 1 --width 320 --height 180 --quiet --render " + mode +
                              " --smoothing 2 --out " + out.string());
        ASSERT_EQ(r.status, 0) << r.output;
        const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
        EXPECT_EQ(summary["render"], mode);
        EXPECT_EQ(summary.contains("smoothing_iterations"), mode != "particles");
        const std::string bytes = readFile(out / "frame_0000.png");
        ASSERT_GT(bytes.size(), 1000u) << mode;
        pictures[mode] = std::vector<uint8_t>(bytes.begin(), bytes.end());
    }
    EXPECT_NE(pictures["particles"], pictures["fluid"]);
    EXPECT_NE(pictures["fluid"], pictures["both"]);
}

// The render suite: every pass timed for particles and the fluid surface at each count.
TEST(Cli, RenderBenchTimesEveryPass)
{
    const fs::path dir = tempDir("bench_render");
    const Result r =
        floe("bench --suite render --render-particles 500 2000 --repetitions 1 --out " + (dir / "bench.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json doc = nlohmann::json::parse(readFile(dir / "bench.json"));
    ASSERT_EQ(doc["render"].size(), 4u); // 2 counts x (particles, fluid)
    for (const auto& row : doc["render"]) {
        EXPECT_EQ(row["width"], 1280);
        EXPECT_EQ(row["height"], 720);
        EXPECT_GT(row["total_ms"].get<double>(), 0.0) << row.dump();
        const auto& passes = row["passes_ms"];
        if (row["mode"] == "particles") {
            EXPECT_TRUE(passes.contains("render/particles")) << row.dump();
        } else {
            for (const char* pass :
                 {"render/fluid_depth", "render/fluid_thickness", "render/fluid_smooth", "render/fluid_composite"})
                EXPECT_TRUE(passes.contains(pass)) << pass << " in " << row.dump();
        }
    }
    EXPECT_FALSE(doc.contains("sph"));
    EXPECT_FALSE(doc.contains("results"));
    const Result p = plot((dir / "bench.json").string());
    ASSERT_EQ(p.status, 0) << p.output;
    expectPlot(dir / "bench_render.png");
}

// The bodies suite: three scenes, the omega sweep, fast and naive, and the coupling's cost, in one run.
TEST(Cli, BodyBenchComparesFastAndNaiveSummation)
{
    const fs::path dir = tempDir("bench_bodies");
    const Result r = floe("bench --suite bodies --steps 2 --warmup 1 --cube-segments 10 --out " + (dir / "bench.json").string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json doc = nlohmann::json::parse(readFile(dir / "bench.json"));
    const nlohmann::json& b = doc["bodies"];
    ASSERT_EQ(b["scenes"].size(), 3u);
    for (const auto& s : b["scenes"]) EXPECT_GT(s["gpu_ms_per_step"].get<double>(), 0.0) << s.dump();
    EXPECT_NEAR(b["scenes"][0]["particles"].get<double>(), 7640, 200);
    EXPECT_NEAR(b["scenes"][2]["particles"].get<double>(), 32442, 1500);
    ASSERT_EQ(b["omega"].size(), 5u);
    EXPECT_EQ(b["omega"][0]["particles"], 6 * 10 * 10 + 2);
    for (const auto& o : b["omega"]) {
        EXPECT_GT(o["fast_gpu_ms_per_step"].get<double>(), 0.0);
        EXPECT_GT(o["naive_gpu_ms_per_step"].get<double>(), 0.0);
        EXPECT_LT(o["intervals_per_region"].get<double>(), o["members_per_region"].get<double>() + 1e-9);
    }
    EXPECT_TRUE(b["growth_omega_1_to_5"].contains("fast"));
    // The coupling's cost: the coupled step, its own passes, and the fluid and the bodies alone.
    const nlohmann::json& c = b["coupling"];
    EXPECT_GT(c["coupled_gpu_ms_per_step"].get<double>(), c["coupling_passes_gpu_ms_per_step"].get<double>()) << c.dump();
    EXPECT_GT(c["coupling_passes_gpu_ms_per_step"].get<double>(), 0.0) << c.dump();
    EXPECT_GT(c["fluid_alone_gpu_ms_per_step"].get<double>(), 0.0) << c.dump();
    EXPECT_GT(c["bodies_alone_gpu_ms_per_step"].get<double>(), 0.0) << c.dump();
    EXPECT_FALSE(doc.contains("sph"));
}

// The deformable bodies' energy account through floe run (docs/bodies.md, *Energy*): a capsule
// spinning as it falls (bodies_drop's) and a ball thrown down, with damping. Nothing is gained
// in any step (the one-step gain of the losses' sum is at most 1 % of the initial energy: with
// the thesis' determinant fix a folded region of the capsule made 697 J of its 723 J in one
// step); the damping's loss is measured; the drop's energy goes to the contacts; the plot draws.
// A body whose every vertex ends up on the floor or under the plate (an 8-vertex box crushed
// flat) has no free vertex to take the volume correction and loses volume: the run says so in a
// warning that names the body, and says nothing of a body without a correction.
TEST(Cli, ACorrectedBodyFarOffItsVolumeIsNamedInAWarning)
{
    const fs::path dir = tempDir("bodies-volume-warning");
    writeScene(dir, "box.obj",
               "v -0.5 -0.5 -0.5\nv 0.5 -0.5 -0.5\nv 0.5 0.5 -0.5\nv -0.5 0.5 -0.5\n"
               "v -0.5 -0.5 0.5\nv 0.5 -0.5 0.5\nv 0.5 0.5 0.5\nv -0.5 0.5 0.5\n"
               "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
               "f 4 8 7\nf 4 7 3\nf 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\n");
    for (const char* mode : {"global", "none"}) {
        const fs::path scene = writeScene(dir, fmt::format("crush_{}.json", mode),
                                          fmt::format(R"({{
            "Configuration": {{"timeStepSize": 0.005, "gravitation": [0, -9.81, 0]}},
            "Floe": {{"domainMin": [-1, 0, -1], "domainMax": [1, 1, 1]}},
            "Deformable": {{"omega": 3, "stiffness": 0.6, "volume": "{}", "plateStart": 0.31, "plateEnd": 0.15, "plateSpeed": 0.25}},
            "DeformableBodies": [{{"shape": "mesh", "geometryFile": "box.obj", "scale": [0.4, 0.3, 0.4], "translation": [0, 0.151, 0]}}]}})",
                                                      mode));
        const fs::path out = dir / mode;
        const Result r = floe("run " + scene.string() + " --steps 200 --frames 0 --timers off --quiet --out " + out.string());
        ASSERT_EQ(r.status, 0) << r.output;
        const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
        EXPECT_GT(summary["volume_error_abs_max"].get<double>(), 0.1) << mode << ": crushed flat, it loses volume";
        const std::string warnings = summary["warnings"].dump();
        if (std::string(mode) == "global")
            EXPECT_NE(warnings.find("DeformableBodies[0]"), std::string::npos) << warnings;
        else
            EXPECT_EQ(warnings.find("DeformableBodies[0]"), std::string::npos) << warnings;
    }
}

TEST(Cli, DeformableBodiesKeepAnEnergyAccountWithNothingGained)
{
    const fs::path dir = tempDir("bodies-energy");
    const fs::path scene = writeScene(dir, "energy.json", R"({
        "Configuration": {"timeStepSize": 0.005, "gravitation": [0, -9.81, 0]},
        "Floe": {"domainMin": [-2.0, 0, -1.0], "domainMax": [2.0, 3.0, 1.0]},
        "Deformable": {"omega": 2, "stiffness": 1.0, "volume": "global", "friction": 0.5, "damping": 0.02},
        "DeformableBodies": [
          {"shape": "capsule", "radius": 0.15, "length": 0.5, "resolution": 3, "translation": [0.4, 1.4, 0],
           "rotationAxis": [0, 0, 1], "rotationAngle": 1.2, "angularVelocity": [0, 0, 4]},
          {"shape": "sphere", "radius": 0.3, "resolution": 3, "translation": [-1.0, 1.2, 0], "velocity": [0, -2, 0]}]})");
    const fs::path out = dir / "run";
    const Result r = floe("run " + scene.string() + " --steps 300 --frames 0 --plots --timers off --quiet --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    const nlohmann::json& energy = summary["energy"];
    const double initial = energy["initial_J"].get<double>();
    EXPECT_GT(initial, 1000.0) << energy.dump(); // both bodies' potential energy above the floor
    EXPECT_LT(energy["final_J"].get<double>(), 0.5 * initial) << energy.dump();
    EXPECT_GT(energy["contact_loss_J"].get<double>(), 0.3 * initial) << energy.dump();
    EXPECT_GT(energy["damping_loss_J"].get<double>(), 0.0) << energy.dump();
    EXPECT_LE(energy["most_gained_J"].get<double>(), 0.01 * initial) << energy.dump();
    // Every step: the mechanical energy and the losses add up to the initial energy, and the
    // losses never fall by more than 1 % of it (energy made in that step).
    std::istringstream lines(readFile(out / "metrics.csv"));
    std::string header, row;
    std::getline(lines, header);
    std::vector<std::string> names;
    for (std::istringstream h(header); std::getline(h, row, ',');) names.push_back(row);
    const auto column = [&](const std::string& name) {
        const auto it = std::find(names.begin(), names.end(), name);
        EXPECT_NE(it, names.end()) << name;
        return size_t(it - names.begin());
    };
    const size_t kinetic = column("kinetic_energy"), potential = column("potential_energy"), elastic = column("elastic_energy"),
                 damping = column("damping_loss"), contact = column("contact_loss"), solver = column("solver_loss");
    double previous = 0, worstGain = 0, worstSum = 0, elasticMax = 0;
    int steps = 0;
    while (std::getline(lines, row)) {
        if (row.empty()) continue;
        std::vector<double> v;
        for (std::istringstream cells(row); std::getline(cells, header, ',');)
            v.push_back(header.empty() ? NAN : std::stod(header));
        ASSERT_EQ(v.size(), names.size());
        const double losses = v[contact] + v[solver];
        worstGain = std::max(worstGain, previous - losses);
        previous = losses;
        worstSum = std::max(worstSum, std::fabs(v[kinetic] + v[potential] + v[elastic] + v[damping] + losses - initial));
        elasticMax = std::max(elasticMax, v[elastic]);
        ++steps;
    }
    EXPECT_EQ(steps, 300);
    EXPECT_LT(worstGain, 0.01 * initial) << "energy made in one step";
    EXPECT_LT(worstSum, 1e-6 * initial) << "the account's terms add up to the initial energy";
    EXPECT_GT(elasticMax, 1.0) << "the impacts deform the bodies";
    expectPlot(out / "plots" / "energy_account.png");
}

// Deformable bodies through floe run: four spheres crushed by a plate, each with its own volume
// mode (digest-002 Fig. 7.12: global, local with joints, local without, none): the three with a
// correction keep their volume within 1 %, the one without loses far more.
TEST(Cli, DeformableBodyScenesRunWithVolumeErrors)
{
    const fs::path dir = tempDir("bodies");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/bodies_spheres_crushed.json";
    const fs::path out = dir / "crushed";
    const Result r =
        floe("run " + scene + " --steps 200 --frames 2 --width 320 --height 180 --quiet --timers pass --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["bodies"], 4);
    EXPECT_EQ(summary["steps"], 200);
    EXPECT_EQ(summary["frames"].size(), 2u);
    const auto& final = summary["volume_error_final"];
    ASSERT_EQ(final.size(), 4u);
    for (int b = 0; b < 3; ++b) EXPECT_LT(std::fabs(final[b].get<double>()), 0.01) << "body " << b << " (with a correction)";
    EXPECT_GT(std::fabs(final[3].get<double>()), 0.1) << "body 3 (no correction)";
    const std::string csv = readFile(out / "metrics.csv");
    for (const char* column : {"volume_error_max", "rigid_error_max", "gpu_ms:body/sm_regions", "gpu_ms:prim/segmented_scan"})
        EXPECT_NE(csv.find(column), std::string::npos) << column;
    EXPECT_TRUE(fs::exists(out / "frame_0001.png"));
    // Bad body input names the file and the key.
    const fs::path bad = writeScene(dir, "bad.json", R"({"Configuration": {}, "DeformableBodies": [{"shape": "torus",
        "majorRadius": 0.1, "minorRadius": 0.2}]})");
    const Result b = floe("run " + bad.string() + " --steps 1");
    EXPECT_EQ(b.status, 2) << b.output;
    EXPECT_NE(b.output.find("DeformableBodies[0].minorRadius"), std::string::npos) << b.output;
    const fs::path open = writeScene(dir, "open.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n");
    const fs::path openScene = writeScene(dir, "open.json", R"({"Configuration": {}, "DeformableBodies": [{"shape": "mesh",
        "geometryFile": "open.obj"}]})");
    const Result o = floe("run " + openScene.string() + " --steps 1");
    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_NE(o.output.find("open"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("DeformableBodies[0]"), std::string::npos) << o.output;
}

// Issue 17 items 1 and 5: every body of the pile keeps its volume. Near step 161 (on lavapipe) a
// sphere is pressed into the hole of the torus on the floor by the bodies above: three rounds of
// volume correction and wall contacts left it 2.5 % short (global; local 1.0 %), the default four
// 0.36 % (0.009 %). The squeeze depends on the pile's path, which differs in the last bits on
// another device (an NVIDIA H200: 0.13 % with three rounds).
TEST(Cli, EveryBodyOfThePileKeepsItsVolume)
{
    const fs::path dir = tempDir("pile");
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/bodies_pile.json";
    const auto worst = [&](const std::string& name, const std::string& set) {
        const fs::path out = dir / name;
        const Result r = floe("run " + scene + " --steps 170 --frames 0 --quiet --timers off " + set + " --out " + out.string());
        EXPECT_EQ(r.status, 0) << r.output;
        return nlohmann::json::parse(readFile(out / "summary.json"))["volume_error_abs_max"].get<double>();
    };
    EXPECT_LT(worst("global", ""), 0.005);
    EXPECT_LT(worst("local", "--set Deformable.volume=local"), 0.005);
}

TEST(Cli, FractureScenesBreakWithFragmentsAndEvents)
{
    const fs::path dir = tempDir("fracture");
    // The cone (424 tets) lands at about step 58: it breaks, and the run reports it.
    const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/fracture_cone.json";
    const fs::path out = dir / "cone";
    const Result r = floe("run " + scene + " --steps 66 --frames 2 --width 320 --height 180 --quiet --timers pass --plots --out " +
                          out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    EXPECT_EQ(summary["kind"], "fracture");
    EXPECT_EQ(summary["steps"], 66);
    EXPECT_GE(summary["fracture_events"].get<int>(), 1) << summary.dump();
    EXPECT_GE(summary["fragments"].get<int>(), 2) << summary.dump();
    EXPECT_GT(summary["nodes_final"].get<int>(), summary["nodes_initial"].get<int>());
    EXPECT_GE(summary["contact_candidate_overflows"].get<int>(), 0) << summary.dump();
    const std::string csv = readFile(out / "metrics.csv");
    for (const char* column : {"fragments", "fracture_events", "max_separation", "max_damage", "gpu_ms:fracture/tet_goals",
                               "gpu_ms:fracture/stress", "gpu_ms:fracture/cut_classify", "potential_energy", "elastic_energy",
                               "damping_loss", "fracture_loss", "contact_loss", "solver_loss"})
        EXPECT_NE(csv.find(column), std::string::npos) << column;
    // The energy account (FractureTest checks its terms): the drop's potential energy at the
    // start, energy lost at the impact, and every term in the summary.
    const nlohmann::json& energy = summary["energy"];
    EXPECT_GT(energy["initial_J"].get<double>(), 0.0) << energy.dump();
    EXPECT_LT(energy["final_J"].get<double>(), energy["initial_J"].get<double>()) << energy.dump();
    EXPECT_GT(energy["contact_loss_J"].get<double>(), 0.0) << energy.dump();
    for (const char* key : {"damping_loss_J", "fracture_loss_J", "solver_loss_J", "most_gained_J"})
        EXPECT_TRUE(energy.contains(key)) << key;
    for (const char* name : {"fracture.png", "energy_account.png", "energy_dt.png", "trajectories.png"})
        expectPlot(out / "plots" / name);
    EXPECT_TRUE(fs::exists(out / "frame_0001.png"));
    // Bad fracture input names the file and the key; --set reaches the Fracture section.
    const fs::path bad = writeScene(dir, "bad.json", R"({"Configuration": {}, "FractureBodies": [{"shape": "cube",
        "material": "custom", "lambda": 1, "mu": 1}]})");
    const Result b = floe("run " + bad.string() + " --steps 1");
    EXPECT_EQ(b.status, 2) << b.output;
    EXPECT_NE(b.output.find("FractureBodies[0]: material custom needs"), std::string::npos) << b.output;
    const fs::path brittle = writeScene(dir, "brittle.json", R"({"Configuration": {}, "FractureBodies": [{"shape": "cube",
        "material": "glass", "yield": 0.5}]})");
    const Result d = floe("run " + brittle.string() + " --steps 1");
    EXPECT_EQ(d.status, 2) << d.output;
    EXPECT_NE(d.output.find("FractureBodies[0].ductility: a ductile material"), std::string::npos) << d.output;
    const fs::path missing = writeScene(dir, "missing.json", R"({"Configuration": {}, "FractureBodies": [{"shape": "mesh",
        "geometryFile": "nothing.msh"}]})");
    const Result m = floe("run " + missing.string() + " --steps 1");
    EXPECT_EQ(m.status, 2) << m.output;
    EXPECT_NE(m.output.find("FractureBodies[0].geometryFile"), std::string::npos) << m.output;
    const Result k = floe("run " + scene + " --steps 1 --set Fracture.method=waves");
    EXPECT_EQ(k.status, 2) << k.output;
    EXPECT_NE(k.output.find("Fracture.method"), std::string::npos) << k.output;
    // The projectile scene: the ball reaches the cube in step 3 and breaks it (Wave); the
    // Voronoi scene runs the Constraint method's passes.
    const fs::path shot = dir / "projectile";
    const Result p =
        floe("run " + std::string(FLOE_SOURCE_DIR) +
             "/assets/scenes/fracture_projectile.json --steps 6 --frames 0 --quiet --timers pass --out " + shot.string());
    ASSERT_EQ(p.status, 0) << p.output;
    const nlohmann::json ps = nlohmann::json::parse(readFile(shot / "summary.json"));
    EXPECT_EQ(ps["method"], "wave");
    EXPECT_GE(ps["fracture_events"].get<int>(), 1) << ps.dump();
    EXPECT_GE(ps["fragments"].get<int>(), 3) << ps.dump(); // the ball and at least two pieces of the cube
    EXPECT_NE(readFile(shot / "metrics.csv").find("gpu_ms:fracture/contacts"), std::string::npos);
    const fs::path voronoi = dir / "voronoi";
    const Result v =
        floe("run " + std::string(FLOE_SOURCE_DIR) +
             "/assets/scenes/fracture_voronoi_cube.json --steps 2 --frames 0 --quiet --timers pass --out " + voronoi.string());
    ASSERT_EQ(v.status, 0) << v.output;
    const std::string vcsv = readFile(voronoi / "metrics.csv");
    for (const char* column : {"gpu_ms:fracture/link_solve", "gpu_ms:fracture/constraint_update"})
        EXPECT_NE(vcsv.find(column), std::string::npos) << column;
    // An imported TetGen mesh runs like a generated one.
    std::ofstream(dir / "tet.node") << "4 3 0 0\n1 0 1 0\n2 1 1 0\n3 0 2 0\n4 0 1 1\n";
    std::ofstream(dir / "tet.ele") << "1 4 0\n1 1 2 3 4\n";
    const fs::path imported = writeScene(dir, "imported.json", R"({"Configuration": {"timeStepSize": 0.0166667},
        "FractureBodies": [{"shape": "mesh", "geometryFile": "tet.ele", "material": "iron"}]})");
    const Result i = floe("run " + imported.string() + " --steps 3 --frames 0 --quiet --out " + (dir / "imported").string());
    EXPECT_EQ(i.status, 0) << i.output;
}

// GPU-assisted validation (FLOE_GPU_ASSISTED=1: the GPU checks every indirect dispatch's and
// draw's arguments as it reads them; a garbage group count, which lavapipe runs, hangs a GPU) on
// one scene of each kind: a fluid with an iterative solver (its iterations are indirect) and the
// fluid surface, deformable bodies, a breaking fracture body. Not one message. (Its buffer-bounds
// checks cannot run with layer 1.3.239 and push descriptors: gpu/Context.cpp.)
// Outputs of solid runs (issue 16 item 3). --export: a fracture run's fragments as closed,
// outward PLY surfaces, one group per fragment, that enclose the body's volume; its tets as a
// VTK grid with every node and tet; deformable bodies' surfaces, one group per body; files at
// step 0, every N steps and the last. bodies.csv: a row per body or fragment per step, the
// fragments' masses adding up to the body's (BodyTest and FractureTest check the values).
TEST(Cli, SolidRunsExportSurfacesAndTetsAndWriteBodiesCsv)
{
    // bodies.csv's rows: per step, the rows and their total mass.
    auto bodyRows = [](const fs::path& csv) {
        std::map<int, std::pair<int, double>> perStep;
        std::ifstream in(csv);
        std::string line;
        std::getline(in, line);
        EXPECT_EQ(line, "step,time,body,kind,fragment,x,y,z,vx,vy,vz,mass,volume_error");
        while (std::getline(in, line)) {
            std::vector<std::string> field;
            std::stringstream row(line);
            for (std::string f; std::getline(row, f, ',');) field.push_back(f);
            if (field.size() < 12) {
                ADD_FAILURE() << line;
                continue;
            }
            auto& [rows, mass] = perStep[std::stoi(field[0])];
            ++rows;
            mass += std::stod(field[11]);
            EXPECT_TRUE(field[3] == "fracture" ? !field[4].empty() : field[3] == "deformable") << line;
        }
        return perStep;
    };
    const fs::path dir = tempDir("solid-export");
    auto surfaceVolumes = [](const io::MeshFrame& f) {
        std::map<uint32_t, double> volume;
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, int> edges; // (from, to, group)
        for (size_t t = 0; t < f.triangles.size(); ++t) {
            const glm::dvec3 a(f.positions[f.triangles[t].x]), b(f.positions[f.triangles[t].y]), c(f.positions[f.triangles[t].z]);
            volume[f.triangleGroup[t]] += glm::dot(a, glm::cross(b, c)) / 6.0;
            for (int k = 0; k < 3; ++k) ++edges[{f.triangles[t][k], f.triangles[t][(k + 1) % 3], f.triangleGroup[t]}];
        }
        int open = 0;
        for (const auto& [e, uses] : edges) {
            const auto reverse = std::make_tuple(std::get<1>(e), std::get<0>(e), std::get<2>(e));
            open += edges.count(reverse) && edges.at(reverse) == uses ? 0 : 1;
        }
        EXPECT_EQ(open, 0) << "every edge of a fragment's surface is used once each way";
        return volume;
    };
    // The glass cube (1 m^3) lands at step 55 and breaks.
    const std::string cube = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/fracture_cube.json";
    const fs::path ply = dir / "ply";
    const Result r = floe("run " + cube + " --steps 62 --frames 0 --export ply --export-every 30 --quiet --out " + ply.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(ply / "summary.json"));
    EXPECT_EQ(summary["exports"],
              nlohmann::json::array({"fracture_000000.ply", "fracture_000030.ply", "fracture_000060.ply", "fracture_000062.ply"}));
    const io::MeshFrame last = io::readMeshPly(ply / "fracture_000062.ply");
    const std::map<uint32_t, double> pieces = surfaceVolumes(last);
    EXPECT_EQ(int(pieces.size()), summary["fragments"].get<int>());
    EXPECT_GE(pieces.size(), 2u);
    double total = 0;
    for (const auto& [label, v] : pieces) {
        EXPECT_GT(v, 0.0) << "fragment " << label << ": its faces point inwards";
        total += v;
    }
    EXPECT_NEAR(total, 1.0, 0.01);
    // One row per fragment in each step (as the step began: before its cuts), the mass kept.
    const std::map<int, std::pair<int, double>> fragments = bodyRows(ply / "bodies.csv");
    ASSERT_EQ(fragments.size(), 62u);
    EXPECT_EQ(fragments.at(1).first, 1);
    {
        std::ifstream metrics(ply / "metrics.csv");
        std::string line, field;
        std::getline(metrics, line);
        std::stringstream header(line);
        int column = 0, fragmentsColumn = -1;
        while (std::getline(header, field, ',')) {
            if (field == "fragments") fragmentsColumn = column;
            ++column;
        }
        ASSERT_GE(fragmentsColumn, 0);
        for (int step = 1; std::getline(metrics, line) && step < 62; ++step) {
            std::stringstream row(line);
            for (int k = 0; k <= fragmentsColumn; ++k) std::getline(row, field, ',');
            EXPECT_EQ(fragments.at(step + 1).first, std::stoi(field))
                << "step " << step + 1 << ": the fragments step " << step << " left";
        }
    }
    for (const auto& [step, rows] : fragments) EXPECT_NEAR(rows.second, fragments.at(1).second, 1e-4 * rows.second) << step;
    const fs::path vtk = dir / "vtk";
    const Result v = floe("run " + cube + " --steps 62 --frames 0 --export vtk --quiet --out " + vtk.string());
    ASSERT_EQ(v.status, 0) << v.output;
    const nlohmann::json vtkSummary = nlohmann::json::parse(readFile(vtk / "summary.json"));
    const std::string grid = fileBytes(vtk / "fracture_000062.vtk");
    EXPECT_NE(grid.find(fmt::format("POINTS {} float", vtkSummary["nodes_final"].get<int>())), std::string::npos);
    EXPECT_NE(grid.find(fmt::format("CELLS {} {}", vtkSummary["tets"].get<int>(), 5 * vtkSummary["tets"].get<int>())),
              std::string::npos);
    for (const char* section : {"SCALARS group int 1", "SCALARS body float 1", "SCALARS damage float 1", "VECTORS velocity float"})
        EXPECT_NE(grid.find(section), std::string::npos) << section;

    // Deformable bodies: one closed surface per body, the volume kept.
    const std::string drop = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/bodies_drop.json";
    const fs::path bodies = dir / "bodies";
    const Result b =
        floe("run " + drop + " --steps 40 --frames 2 --width 160 --height 90 --export ply --quiet --out " + bodies.string());
    ASSERT_EQ(b.status, 0) << b.output;
    const nlohmann::json bodySummary = nlohmann::json::parse(readFile(bodies / "summary.json"));
    EXPECT_EQ(bodySummary["exports"], nlohmann::json::array({"bodies_000000.ply", "bodies_000040.ply"})) << "with the pictures";
    const std::map<uint32_t, double> before = surfaceVolumes(io::readMeshPly(bodies / "bodies_000000.ply"));
    const std::map<uint32_t, double> after = surfaceVolumes(io::readMeshPly(bodies / "bodies_000040.ply"));
    EXPECT_EQ(int(after.size()), bodySummary["bodies"].get<int>());
    for (const auto& [body, volume] : after) EXPECT_NEAR(volume, before.at(body), 0.01 * before.at(body)) << "body " << body;
    const std::map<int, std::pair<int, double>> perBody = bodyRows(bodies / "bodies.csv");
    ASSERT_EQ(perBody.size(), 40u);
    for (const auto& [step, rows] : perBody) EXPECT_EQ(rows.first, bodySummary["bodies"].get<int>()) << step;
    // --export-every without --export is refused.
    const Result e = floe("run " + drop + " --steps 1 --export-every 5 --out " + (dir / "none").string());
    EXPECT_EQ(e.status, 2) << e.output;
    EXPECT_NE(e.output.find("--export-every needs --export"), std::string::npos) << e.output;
}

// --save-state and --load-state for solids (issue 16 item 3): a deformable-body run and a
// fracture run resumed from a saved state (the fracture one in the middle of its breaking, after
// cuts) end byte for byte in the uninterrupted run's state, and their metrics go on from the
// saved step with the same values; a state of another kind of run is refused.
// A fluid with solids under cflMethod 1 (as the reference's scenes with moving bodies step): the
// world chooses each step on the host, one for fluid and solids, from the fluid's CFL rule for the
// fastest point of the last step, a fluid particle or a solid sample the fluid sees; the last two
// steps share what is left of the end time; a resumed run is bit-identical. A deformable ball and
// dynamic rigid blocks (fracture bodies), each thrown into a pool faster than its water moves.
TEST(Cli, FluidAndSolidsUnderCflTakeOneStepTheWorldChooses)
{
    const fs::path dir = tempDir("coupled-cfl");
    const double h = 0.025, factor = 0.5, maxDt = 0.003; // both scenes: particleRadius 0.0125
    const std::string cfl = fmt::format("--set Configuration.cflMethod=1 --set Configuration.cflFactor={} "
                                        "--set Configuration.cflMaxTimeStepSize={} --frames 0 --timers off --quiet",
                                        factor, maxDt);
    for (const char* name : {"coupled_ball_pool", "coupled_blocks_thrown"}) {
        SCOPED_TRACE(name);
        const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/" + name + ".json";
        const fs::path out = dir / name;
        const Result r = floe(fmt::format("run {} {} --seconds 0.3 --validate --out {}", scene, cfl, out.string()));
        ASSERT_EQ(r.status, 0) << r.output;
        EXPECT_EQ(nlohmann::json::parse(readFile(out / "summary.json"))["status"], "ok");
        // metrics.csv's columns by name.
        std::istringstream lines(readFile(out / "metrics.csv"));
        std::string header;
        std::getline(lines, header);
        std::map<std::string, size_t> column;
        {
            std::istringstream names(header);
            size_t k = 0;
            for (std::string c; std::getline(names, c, ','); ++k) column[c] = k;
        }
        for (const char* c : {"time", "dt", "max_speed", "solid_max_speed"}) ASSERT_TRUE(column.count(c)) << c;
        std::vector<std::vector<std::string>> rows;
        for (std::string line; std::getline(lines, line);) {
            if (line.empty()) continue;
            std::vector<std::string> cells;
            std::istringstream l(line);
            for (std::string c; std::getline(l, c, ',');) cells.push_back(c);
            cells.resize(column.size());
            rows.push_back(cells);
        }
        ASSERT_GT(rows.size(), 50u);
        const auto num = [&](size_t row, const char* c) { return std::stod(rows[row][column.at(c)]); };
        EXPECT_EQ(rows.back()[column.at("time")], "0.3") << "the run ends exactly at its end time";
        std::set<std::string> steps;
        int boundBySolid = 0;
        for (size_t k = 1; k < rows.size(); ++k) {
            steps.insert(rows[k][column.at("dt")]);
            const double fluid = num(k - 1, "max_speed"), solid = num(k - 1, "solid_max_speed"), dt = num(k, "dt");
            // dt <= lambda h / |v|max with lambda = 0.4 cflFactor, |v|max the fastest point of the
            // last step, fluid or solid (within float rounding).
            EXPECT_LE(dt, maxDt * (1 + 1e-6)) << "step " << k + 1;
            EXPECT_LE(dt * std::max(fluid, solid), 0.4 * factor * h * (1 + 1e-5)) << "step " << k + 1;
            if (solid > fluid && dt * fluid < 0.9 * 0.4 * factor * h && dt < 0.9 * maxDt) ++boundBySolid;
        }
        EXPECT_GT(steps.size(), 10u) << "the steps follow the motion";
        EXPECT_GT(boundBySolid, 10) << "the thrown solid, faster than the water, limits the step";
        // bodies.csv's rows carry the same times.
        const std::string bodies = readFile(out / "bodies.csv");
        for (size_t k : {size_t(0), rows.size() / 2, rows.size() - 1})
            EXPECT_NE(bodies.find(fmt::format("\n{},{},", k + 1, rows[k][column.at("time")])), std::string::npos)
                << "step " << k + 1;

        // Resumed at step 40 (the first run counts steps, the second ends at 0.3 s as the whole run).
        const fs::path first = dir / (std::string(name) + "-first"), second = dir / (std::string(name) + "-second");
        const std::string half = (dir / "half.state").string(), resumed = (dir / "resumed.state").string();
        const Result a = floe(fmt::format("run {} {} --steps 40 --save-state {} --out {}", scene, cfl, half, first.string()));
        ASSERT_EQ(a.status, 0) << a.output;
        const Result b = floe(fmt::format("run {} {} --seconds 0.3 --load-state {} --save-state {} --out {}", scene, cfl, half,
                                          resumed, second.string()));
        ASSERT_EQ(b.status, 0) << b.output;
        const Result c = floe(fmt::format("run {} {} --seconds 0.3 --save-state {} --out {}", scene, cfl,
                                          (dir / "straight.state").string(), (dir / "straight").string()));
        ASSERT_EQ(c.status, 0) << c.output;
        EXPECT_TRUE(fileBytes(dir / "straight.state") == fileBytes(resumed)) << "the resumed run's state differs";
        const std::vector<std::string> all = metricsWithoutTimings(dir / "straight" / "metrics.csv");
        const std::vector<std::string> later = metricsWithoutTimings(second / "metrics.csv");
        ASSERT_EQ(later.size() + 40, all.size());
        for (size_t k = 0; k < later.size(); ++k) EXPECT_EQ(later[k], all[40 + k]) << "step " << 41 + k;
    }
}

TEST(Cli, SolidRunsResumeBitIdentically)
{
    const fs::path dir = tempDir("solid-state");
    struct Case {
        const char* scene;
        int before, after;
        const char* more = "";
    };
    // The pile's bodies touch each other from about step 100: their contacts sum in fixed point,
    // so the order the GPU's atomics add them in changes nothing.
    // The coupled ball enters the water at about step 60; the fluid's guard owes it impulses
    // across the saved step. The coupled glass cube reaches the floor under the water at about
    // step 95 and breaks there: its state is saved among the cuts. So does the cube in the
    // Constraint method's pieces with weak links (2 fragments at step 100, 6 at step 140, the
    // faces between parted pieces turned on for the fluid). The fracture case comes last: its
    // state is the foreign one below.
    for (const Case& c : {Case{"bodies_drop", 35, 25}, Case{"bodies_pile", 130, 20}, Case{"coupled_ball_pool", 90, 20},
                          Case{"coupled_glass_drop", 100, 15},
                          Case{"coupled_glass_drop", 100, 40, "--set Fracture.method=constraint --set Fracture.linkScale=0.05"},
                          Case{"fracture_cube", 58, 12}}) {
        SCOPED_TRACE(std::string(c.scene) + " " + c.more);
        const std::string scene = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/" + c.scene + ".json";
        const fs::path straight = dir / (std::string(c.scene) + "-straight"), first = dir / (std::string(c.scene) + "-first"),
                       second = dir / (std::string(c.scene) + "-second");
        const auto run = [&](int steps, const fs::path& out, const std::string& more) {
            const Result r =
                floe(fmt::format("run {} --steps {} --frames 0 --quiet --out {} {} {}", scene, steps, out.string(), c.more, more));
            EXPECT_EQ(r.status, 0) << r.output;
        };
        run(c.before + c.after, straight, "--save-state " + (dir / "straight.state").string());
        run(c.before, first, "--save-state " + (dir / "half.state").string() + " --save-every 10");
        run(c.after, second, "--load-state " + (dir / "half.state").string() + " --save-state " + (dir / "resumed.state").string());
        const std::string a = fileBytes(dir / "straight.state"), b = fileBytes(dir / "resumed.state");
        ASSERT_GT(a.size(), 10000u);
        EXPECT_TRUE(a == b) << "the resumed run's state differs from the uninterrupted run's";
        const nlohmann::json summary = nlohmann::json::parse(readFile(second / "summary.json"));
        EXPECT_EQ(summary["first_step"], c.before + 1);
        EXPECT_EQ(summary["steps"], c.after);
        EXPECT_EQ(summary["loaded_state"], (dir / "half.state").string());
        const std::vector<std::string> all = metricsWithoutTimings(straight / "metrics.csv");
        const std::vector<std::string> resumed = metricsWithoutTimings(second / "metrics.csv");
        ASSERT_EQ(resumed.size(), size_t(c.after));
        for (int k = 0; k < c.after; ++k) EXPECT_EQ(resumed[k], all[c.before + k]) << "step " << c.before + k + 1;
        const std::string rows = readFile(second / "bodies.csv");
        EXPECT_NE(rows.find(fmt::format("\n{},", c.before + 1)), std::string::npos) << "bodies.csv goes on from the saved step";
    }
    // A state of another kind of run, or of another scene, is refused naming the file.
    const std::string drop = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/bodies_drop.json";
    const Result wrong = floe("run " + drop + " --steps 2 --frames 0 --quiet --out " + (dir / "wrong").string() + " --load-state " +
                              (dir / "half.state").string());
    EXPECT_EQ(wrong.status, 2) << wrong.output;
    EXPECT_NE(wrong.output.find("saved from a fracture run"), std::string::npos) << wrong.output;
    const std::string cone = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/fracture_cone.json";
    const Result other = floe("run " + cone + " --steps 2 --frames 0 --quiet --out " + (dir / "other").string() + " --load-state " +
                              (dir / "half.state").string());
    EXPECT_EQ(other.status, 2) << other.output;
    EXPECT_NE(other.output.find("different scene set-up"), std::string::npos) << other.output;
}

TEST(Cli, GpuAssistedValidationFindsNothingInOneSceneOfEachKind)
{
    const fs::path dir = tempDir("gpu_assisted");
    for (const std::string scene : {"dam_break_2d", "bodies_drop", "fracture_projectile"}) {
        const fs::path out = dir / scene;
        const Result r =
            shell("FLOE_GPU_ASSISTED=1 " + std::string(FLOE_BINARY) + " run " + std::string(FLOE_SOURCE_DIR) + "/assets/scenes/" +
                  scene + ".json --steps 4 --frames 1 --width 160 --height 90 " +
                  (scene == "fracture_projectile" ? "" : "--render both ") + "--validate --quiet --out " + out.string());
        ASSERT_EQ(r.status, 0) << scene << ":\n" << r.output;
        EXPECT_EQ(r.output.find("[vulkan "), std::string::npos) << scene << ":\n" << r.output;
        const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
        EXPECT_EQ(summary["gpu_assisted_validation"], true) << scene;
        EXPECT_EQ(summary["validation_messages"], 0) << scene;
    }
}

TEST(Cli, CaptureWritesARenderDocFileWithThePasses)
{
    if (gpu::RenderDoc::locate().empty()) {
        const char* require = std::getenv("FLOE_REQUIRE_GPU");
        if (require && std::string(require) == "1") FAIL() << "RenderDoc is not installed (tools/install-deps.sh installs it)";
        GTEST_SKIP() << "RenderDoc is not installed";
    }
    const fs::path out = tempDir("capture");
    const Result r = floe("run " + kScene + " --steps 2 --frames 1 --render both --capture --quiet --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json summary = nlohmann::json::parse(readFile(out / "summary.json"));
    ASSERT_TRUE(summary["capture"].is_string()) << r.output;
    const std::string capture = summary["capture"];
    EXPECT_TRUE(fs::exists(capture)) << capture;
    EXPECT_EQ(fs::path(capture).parent_path(), out);
    EXPECT_EQ(fs::path(capture).filename(), "capture_frame1.rdc") << "the name docs/commands.md gives";
    // Read the capture's structured data with RenderDoc's Python module (no replay needed).
    const std::string script = std::string(FLOE_SOURCE_DIR) + "/tools/capture_summary.py";
    const Result summaryRun = shell("/usr/bin/python3 " + script + " " + capture);
    const std::string& text = summaryRun.output;
    ASSERT_EQ(summaryRun.status, 0) << text;
    const nlohmann::json found = nlohmann::json::parse(text);
    EXPECT_GE(found["dispatches"].get<int>(), 2) << text;
    EXPECT_GE(found["draws"].get<int>(), 2) << text;
    for (const char* marker : {"sph/integrate", "sph/density", "grid/build", "prim/reduce", "render/particles", "render/floor",
                               "render/fluid_depth", "render/fluid_thickness", "render/fluid_smooth", "render/fluid_composite"}) {
        bool present = false;
        for (const auto& m : found["markers"]) present = present || m == marker;
        EXPECT_TRUE(present) << marker << " not among the capture's markers: " << text;
    }
}

} // namespace
} // namespace floe::test
