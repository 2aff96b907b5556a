// The `floe` commands. Each returns the process exit status (0 ok, 1 diverged, 2 bad input);
// floe::Error thrown inside is turned into a message and its status by main.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace floe {

struct DeviceOptions {
    std::string device;    // --device NAME
    bool validate = false; // --validate or FLOE_VALIDATE=1
};

struct RunOptions {
    std::filesystem::path scene;
    std::string solver;                  // --solver; empty: the scene's
    std::optional<uint64_t> steps;       // --steps
    std::optional<double> seconds;       // --seconds (simulated)
    std::filesystem::path out;           // --out; default out/<scene name>
    std::optional<int> frames;           // --frames
    uint32_t width = 1280, height = 720; // --width/--height
    std::vector<std::string> sets;       // --set key=value
    bool capture = false;                // --capture (RenderDoc, first frame)
    std::string render;                  // --render particles|fluid|both (empty: particles; bodies: their surfaces)
    std::optional<int> smoothing;        // --smoothing: fluid depth smoothing iterations
    bool overlay = false;                // --overlay: scene, solver, time and colour legend on the pictures
    std::string exportFormat;            // --export ply|vtk
    uint64_t exportEvery = 0;            // --export-every N steps (0: with the pictures)
    std::filesystem::path saveState;     // --save-state FILE
    uint64_t saveEvery = 0;              // --save-every N steps (0: at the end only)
    std::filesystem::path loadState;     // --load-state FILE
    bool quiet = false;                  // --quiet: no progress line
    bool plots = false;                  // --plots: PNG plots of metrics.csv (tools/plot.py)
    std::string timers = "step";         // --timers pass|step|off
    DeviceOptions device;
};

struct BenchOptions {
    std::filesystem::path out;   // --out FILE.json
    std::string suite = "all";   // --suite primitives|sph|render|bodies|fracture|all
    std::vector<uint32_t> sizes; // --sizes; default 65536, 1048576, 2097152
    int repetitions = 5;         // --repetitions
    // SPH suite (see SphBench.h); empty paths and counts: the defaults.
    std::filesystem::path scene2D, scene3D;         // --scene-2d, --scene-3d
    std::vector<uint64_t> particles2D, particles3D; // --particles-2d, --particles-3d
    uint64_t steps = 40, warmup = 10;               // --steps, --warmup
    std::vector<std::filesystem::path> dtScenes;    // --dt-scene (repeatable)
    bool noDtSearch = false;                        // --no-dt-search
    bool noThroughput = false;                      // --no-throughput
    std::vector<uint64_t> renderCounts;             // --render-particles (render suite)
    int cubeSegments = 0;                           // --cube-segments (bodies suite; 0: 71, about 30k particles)
    int drops = 10;                                 // --drops (fracture suite: seeded drops per object and method)
    double dtSeconds = 1.0;                         // --dt-seconds
    int dtRefinements = 3;                          // --dt-refinements
    std::string timers = "pass";                    // --timers pass|step|off (SPH suite)
    DeviceOptions device;
};

struct ViewOptions {
    std::filesystem::path scene;         // empty: assets/scenes/dam_break_2d.json
    std::string solver;                  // --solver
    std::vector<std::string> sets;       // --set key=value
    uint32_t width = 1280, height = 720; // --width/--height of the window
    std::string render = "fluid";        // --render particles|fluid|both
    std::optional<int> smoothing;        // --smoothing
    int stepsPerFrame = 1;               // --steps-per-frame
    bool paused = false;                 // --paused: start paused
    uint64_t quitAfter = 0;              // --quit-after N frames (0: until the window closes)
    std::filesystem::path screenshot;    // --screenshot FILE.png: the swapchain image of the last frame
    uint64_t captureFrame = 0;           // --capture-frame N: RenderDoc capture of frame N
    std::filesystem::path report;        // --report FILE.json: frame statistics (tests, scripts)
    bool exerciseWindow = false;         // --exercise-window: resize and minimise itself (tests)
    DeviceOptions device;
};

int runCommand(const RunOptions& options);
int viewCommand(const ViewOptions& options);
int infoCommand(const DeviceOptions& options);
int benchCommand(const BenchOptions& options);
int runCli(int argc, char** argv);

} // namespace floe
