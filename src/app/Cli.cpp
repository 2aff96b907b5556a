// Command-line parsing (CLI11). Parse errors exit with status 2 and name the offending flag.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/Commands.h"
#include "base/Error.h"
#include "scene/SceneKeys.h"

namespace floe {
namespace {

void addDeviceOptions(CLI::App* cmd, DeviceOptions& options)
{
    cmd->add_option("--device", options.device, "use the Vulkan device whose name contains NAME (see floe info)");
    cmd->add_flag("--validate", options.validate, "enable the Khronos validation layer with synchronization validation");
}

// CLI11's Range lets NaN through (every comparison with it is false): `--seconds nan` ran forever.
const CLI::Validator kFinite(
    [](std::string& text) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        return end != text.c_str() && !std::isfinite(v) ? std::string("not a finite number: ") + text : std::string();
    },
    "FINITE");

bool envValidate()
{
    const char* v = std::getenv("FLOE_VALIDATE");
    return v && std::string(v) != "0" && std::string(v) != "";
}

} // namespace

int runCli(int argc, char** argv)
{
    CLI::App app{"Floe: a real-time physics lab on Vulkan (SPH fluids, deformable bodies, fracture)", "floe"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "floe 0.1.0");

    RunOptions run;
    CLI::App* runCmd = app.add_subcommand("run", "simulate a scene headless; writes metrics.csv, summary.json, frame_NNNN.png");
    runCmd->add_option("scene", run.scene, "scene file (.json)")->required();
    runCmd->add_option("--solver", run.solver, "pressure solver: dfsph, iisph, pcisph, pbf, eos or none (default: the scene's)");
    auto* steps =
        runCmd->add_option("--steps", run.steps, "number of time steps")->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
    auto* seconds =
        runCmd->add_option("--seconds", run.seconds, "simulated seconds to run")->check(kFinite)->check(CLI::Range(1e-9, 1e9));
    steps->excludes(seconds);
    runCmd->add_option("--out", run.out, "output directory (default: out/<scene name>)");
    runCmd->add_option("--frames", run.frames, "pictures spread over the run (0: none)")->check(CLI::Range(0, 100000));
    runCmd->add_option("--width", run.width, "picture width in pixels")->check(CLI::Range(16u, 16384u));
    runCmd->add_option("--height", run.height, "picture height in pixels")->check(CLI::Range(16u, 16384u));
    runCmd->add_option("--set", run.sets, "override a scene setting, e.g. --set Configuration.timeStepSize=0.0005")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    runCmd
        ->add_option("--render", run.render,
                     "what pictures show: particles (default), fluid (the screen-space surface) or both; for deformable bodies "
                     "fluid (their surfaces, default), particles (their vertices) or both")
        ->check(CLI::IsMember({"particles", "fluid", "both"}));
    runCmd->add_option("--smoothing", run.smoothing, "fluid surface: depth smoothing iterations (default 3)")
        ->check(CLI::Range(0, 64));
    runCmd->add_flag("--overlay", run.overlay,
                     "annotate the pictures: scene name, solver, simulated time and the colour legend with units");
    runCmd->add_flag("--capture", run.capture, "capture the first frame with RenderDoc into the output directory");
    runCmd->add_option("--export", run.exportFormat, "write particles (position, velocity, density, pressure) as ply or vtk")
        ->check(CLI::IsMember({"ply", "vtk"}));
    runCmd->add_option("--export-every", run.exportEvery, "export every N steps (default: with the pictures)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
    runCmd->add_option("--save-state", run.saveState, "save the simulation state to FILE at the end (and with --save-every)");
    runCmd->add_option("--save-every", run.saveEvery, "save the state every N steps")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
    runCmd->add_option("--load-state", run.loadState, "resume from a state saved with --save-state");
    runCmd->add_flag("--quiet", run.quiet, "no progress line");
    runCmd->add_flag("--plots", run.plots, "write PNG plots of metrics.csv into DIR/plots (tools/plot.py, matplotlib)");
    runCmd
        ->add_option("--timers", run.timers,
                     "GPU timestamps: step (one pair per step, default), pass (a pair per pass: the gpu_ms:PASS columns) or off")
        ->check(CLI::IsMember({"pass", "step", "off"}));
    addDeviceOptions(runCmd, run.device);

    DeviceOptions info;
    CLI::App* infoCmd = app.add_subcommand("info", "list Vulkan devices, the chosen one and the features Floe uses");
    addDeviceOptions(infoCmd, info);

    BenchOptions bench;
    CLI::App* benchCmd =
        app.add_subcommand("bench", "benchmark the GPU primitives, the SPH solvers, the renderer and the deformable bodies");
    benchCmd->add_option("--out", bench.out, "write the results as JSON to FILE");
    benchCmd->add_option("--sizes", bench.sizes, "element counts (default: 65536 1048576 2097152)")
        ->check(CLI::Range(1u, 1u << 28));
    benchCmd->add_option("--repetitions", bench.repetitions, "timed repetitions per measurement")->check(CLI::Range(1, 1000));
    benchCmd->add_option("--suite", bench.suite, "what to measure: primitives, sph, render, bodies, fracture or all (default)")
        ->check(CLI::IsMember({"primitives", "sph", "render", "bodies", "fracture", "all"}));
    benchCmd->add_option("--drops", bench.drops, "fracture suite: seeded drops per object and method (default 10)")
        ->check(CLI::Range(1, 1000));
    benchCmd
        ->add_option("--cube-segments", bench.cubeSegments, "bodies suite: cube segments per side (default 71: 30248 particles)")
        ->check(CLI::Range(2, 400));
    benchCmd->add_option("--render-particles", bench.renderCounts, "render suite: particle counts (default: three for the device)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
    benchCmd->add_option("--scene-2d", bench.scene2D, "2D scene of the SPH suite (default assets/scenes/dam_break_2d.json)");
    benchCmd->add_option("--scene-3d", bench.scene3D, "3D scene of the SPH suite (default assets/scenes/dam_break_3d.json)");
    benchCmd->add_option("--particles-2d", bench.particles2D, "particle counts the 2D scene is resampled to")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
    benchCmd->add_option("--particles-3d", bench.particles3D, "particle counts the 3D scene is resampled to")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
    benchCmd->add_option("--steps", bench.steps, "timed SPH steps per case")->check(CLI::Range(uint64_t(1), uint64_t(1) << 30));
    benchCmd->add_option("--warmup", bench.warmup, "untimed SPH steps before them")
        ->check(CLI::Range(uint64_t(0), uint64_t(1) << 30));
    benchCmd->add_option("--dt-scene", bench.dtScenes, "scene of the largest-stable-dt search (repeatable; default: the 2D scene)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    benchCmd->add_flag("--no-dt-search", bench.noDtSearch, "skip the largest-stable-dt search");
    benchCmd->add_flag("--no-throughput", bench.noThroughput, "skip the SPH throughput cases (only the dt search)");
    benchCmd->add_option("--dt-seconds", bench.dtSeconds, "simulated seconds per dt trial")
        ->check(kFinite)
        ->check(CLI::Range(1e-3, 1e3));
    benchCmd->add_option("--dt-refinements", bench.dtRefinements, "bisection steps of the dt search")->check(CLI::Range(0, 20));
    benchCmd
        ->add_option("--timers", bench.timers,
                     "SPH suite's GPU timestamps: pass (per pass, default), step (one pair per step) or off (wall time only)")
        ->check(CLI::IsMember({"pass", "step", "off"}));
    addDeviceOptions(benchCmd, bench.device);

    CLI::App* keysCmd = app.add_subcommand("keys", "print every scene key with its type, unit, default and meaning (Markdown)");

    ViewOptions view;
    CLI::App* viewCmd = app.add_subcommand("view", "interactive window: watch, steer and profile a scene (GLFW + ImGui)");
    viewCmd->add_option("scene", view.scene, "scene file (.json; default assets/scenes/dam_break_2d.json)");
    viewCmd->add_option("--solver", view.solver,
                        "pressure solver at the start: dfsph, iisph, pcisph, pbf, eos or none (default: the scene's)");
    viewCmd->add_option("--set", view.sets, "override a scene setting, e.g. --set Configuration.timeStepSize=0.0005")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    viewCmd->add_option("--width", view.width, "window width in pixels")->check(CLI::Range(64u, 16384u));
    viewCmd->add_option("--height", view.height, "window height in pixels")->check(CLI::Range(64u, 16384u));
    viewCmd->add_option("--render", view.render, "what to draw: particles, fluid (default) or both")
        ->check(CLI::IsMember({"particles", "fluid", "both"}));
    viewCmd->add_option("--smoothing", view.smoothing, "fluid surface: depth smoothing iterations (default 3)")
        ->check(CLI::Range(0, 64));
    viewCmd->add_option("--steps-per-frame", view.stepsPerFrame, "simulation steps per drawn frame (default 1)")
        ->check(CLI::Range(1, 1000));
    viewCmd->add_flag("--paused", view.paused, "start paused (Space runs, S steps)");
    viewCmd->add_option("--quit-after", view.quitAfter, "close after N frames")->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
    viewCmd->add_option("--screenshot", view.screenshot, "with --quit-after: write the last frame's window image as PNG");
    viewCmd->add_option("--capture-frame", view.captureFrame, "capture frame N with RenderDoc (next to --screenshot, or out/)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
    viewCmd->add_option("--report", view.report, "write frame statistics as JSON to FILE at the end");
    viewCmd->add_flag("--exercise-window", view.exerciseWindow, "resize, minimise and restore the window while running (tests)")
        ->group("");
    addDeviceOptions(viewCmd, view.device);

    // CLI11 reports an unknown command as a missing one; name it instead.
    if (argc > 1 && argv[1][0] != '-') {
        const std::string command = argv[1];
        if (command != "run" && command != "info" && command != "bench" && command != "view" && command != "keys")
            throw Error(fmt::format("unknown command '{}'; commands: run, view, bench, info, keys (see floe --help)", command));
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        throw Error(fmt::format("{} (see floe {}--help)", what,
                                app.get_subcommands().empty() ? "" : app.get_subcommands()[0]->get_name() + " "));
    }

    if (*runCmd) {
        run.device.validate = run.device.validate || envValidate();
        return runCommand(run);
    }
    if (*infoCmd) {
        info.validate = info.validate || envValidate();
        return infoCommand(info);
    }
    if (*benchCmd) {
        bench.device.validate = bench.device.validate || envValidate();
        return benchCommand(bench);
    }
    if (*keysCmd) {
        std::fputs(sceneKeysMarkdown().c_str(), stdout);
        return 0;
    }
    if (*viewCmd) {
        view.device.validate = view.device.validate || envValidate();
        if (!view.screenshot.empty() && view.quitAfter == 0) throw Error("--screenshot needs --quit-after N (the frame to write)");
        if (view.captureFrame && view.quitAfter && view.captureFrame > view.quitAfter)
            throw Error(fmt::format("--capture-frame {} comes after --quit-after {}", view.captureFrame, view.quitAfter));
        return viewCommand(view);
    }
    return 0;
}

} // namespace floe
