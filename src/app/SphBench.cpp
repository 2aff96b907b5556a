// floe bench's SPH suite (issue 3 item 10, issue 14): per pressure solver (EOS, IISPH, DFSPH,
// PCISPH, PBF), steps per second, GPU ms per pass, microseconds per particle-step and
// per particle-iteration at three particle counts of a 2D and a 3D dam break; iterations and
// compression; the EOS/IISPH cost ratio at equal dt; and every solver's cost per simulated second
// at its largest stable dt, found by a search over fixed time steps (the comparison digest-001 §6
// left unwritten).
#include "app/SphBench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>

#include <fmt/format.h>

#include "app/LaunchBudget.h"
#include "app/Stat.h"
#include "base/Error.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "scene/SceneLoader.h"
#include "scene/SceneSetup.h"
#include "shared/sph.h"
#include "sim/Simulation.h"

namespace floe {
namespace {

using Json = nlohmann::ordered_json;

// What one run of a scene measured.
struct Measured {
    uint32_t particles = 0, boundary = 0;
    uint64_t steps = 0;
    double simulated = 0;                 // s
    double wallSeconds = 0;               // of the measured steps
    double gpuMs = 0;                     // sum over the measured steps
    std::map<std::string, double> passMs; // sums per pass
    RunningStat iterations, divergenceIterations, densityAvg, densityMax, dt;
    uint64_t capped = 0;         // steps whose pressure solve stopped at its iteration cap without converging
    uint64_t neighbourBytes = 0; // per particle: the fluid neighbour entries, their count and the boundary terms
    graph::RecordStats recorded; // what the timed steps recorded
    uint64_t recordedSteps = 0;
    gpu::TimerMode timers = gpu::TimerMode::Pass;
    bool stable = true;
    std::string reason; // why the run was not stable
};

// Sets the particle radius so that the scene's fluid blocks hold about `target` particles. The
// blocks keep their extents: SPlisHSPlasH's sampling puts the first layer 2r inside a block's
// faces, so a block that touches a wall stays one spacing from it at any radius.
void scaleToCount(Scene& scene, uint64_t target)
{
    const double dims = scene.config.sim2D ? 2.0 : 3.0;
    for (int pass = 0; pass < 4; ++pass) {
        const uint64_t now = countFluidParticles(scene);
        if (now == 0) throw Error(fmt::format("{}: the scene has no fluid particles to benchmark", scene.file.string()));
        scene.config.particleRadius *= static_cast<float>(std::pow(double(now) / double(target), 1.0 / dims));
    }
}

// Runs `scene` from its initial state: `warmup` steps untimed, then `steps` steps or, with
// steps = 0, until `seconds` of simulated time (a fixed or CFL step as the scene says). Stops
// at the first sign of instability: Floe's divergence checks (non-finite values, escaped
// particles, compression above 100 %) or a total kinetic energy above `energyLimit` (J).
Measured measure(gpu::Context& context, const gpu::ShaderLibrary& shaders, const Scene& scene, uint64_t warmup, uint64_t steps,
                 double seconds, double energyLimit, gpu::TimerMode timers)
{
    constexpr uint32_t kInFlight = 2;
    graph::RenderGraph graph(context);
    graph.setTimerMode(timers);
    const sim::WorldSettings world = makeWorld(scene, steps ? 0.0f : static_cast<float>(seconds));
    sim::Simulation simulation(context, shaders, graph, world, scene.sph, sampleFluidParticles(scene), initialVelocities(scene));
    gpu::FrameResources frames(context, kInFlight);
    std::vector<gpu::Buffer> readbacks;
    for (uint32_t i = 0; i < kInFlight; ++i)
        readbacks.emplace_back(
            context, gpu::BufferDesc{fmt::format("bench read-back {}", i), sizeof(sim::StepReadback), gpu::MemoryKind::Readback});

    Measured m;
    m.particles = simulation.count();
    m.boundary = simulation.boundaryCount();
    m.neighbourBytes = 16ull * shared::sphNeighbourCapacity(scene.config.sim2D ? 2 : 3) + 4 + 16;
    bool reachedEnd = false;
    uint64_t collected = 0;
    std::deque<std::pair<uint32_t, bool>> pending; // slot, timed
    const auto collect = [&](uint32_t slot, bool timed) {
        frames.wait(slot);
        sim::StepReadback r;
        readbacks[slot].read(&r, sizeof(r));
        const sim::StepMetrics s = simulation.decode(r);
        if (s.dt <= 0.0f || (!steps && s.time >= world.stopTime)) reachedEnd = true;
        if (s.dt <= 0.0f) return;
        ++collected;
        if (m.stable) {
            m.reason = fluidDivergence(s, energyLimit, scene.sph.pressureSolver() == sim::PressureSolver::Eos);
            m.stable = m.reason.empty();
        }
        if (!timed) return;
        ++m.steps;
        m.simulated += s.dt;
        m.dt.add(s.dt);
        m.densityAvg.add(s.densityErrorAvg);
        m.densityMax.add(s.densityErrorMax);
        const sim::PressureSolver solver = scene.sph.pressureSolver();
        if (sim::isIterative(solver)) {
            m.iterations.add(s.iterations);
            if (s.iterations >= uint32_t(scene.sph.limits(solver).maxIterations)) ++m.capped;
        }
        if (solver == sim::PressureSolver::Dfsph && scene.sph.divergenceSolver) m.divergenceIterations.add(s.divergenceIterations);
        for (const gpu::PassTime& t : frames.timer(slot).results()) {
            m.passMs[t.name] += t.ms;
            m.gpuMs += t.ms;
        }
    };
    const auto drain = [&] {
        while (!pending.empty()) {
            collect(pending.front().first, pending.front().second);
            pending.pop_front();
        }
    };

    std::chrono::steady_clock::time_point start;
    uint64_t submitted = 0;
    const uint64_t stepCap = 2'000'000;
    while (m.stable && !reachedEnd && submitted < stepCap) {
        if (steps && submitted >= warmup + steps) break;
        if (submitted == warmup) {
            drain(); // the timed steps start on an idle queue
            start = std::chrono::steady_clock::now();
            graph.resetStats();
        }
        const uint32_t slot = static_cast<uint32_t>(submitted % kInFlight);
        while (!pending.empty() && pending.front().first == slot) {
            collect(pending.front().first, pending.front().second);
            pending.pop_front();
        }
        VkCommandBuffer cmd = frames.begin(slot);
        simulation.addStep(graph);
        simulation.addReadback(graph, readbacks[slot], 0);
        graph.addHostRead(readbacks[slot]);
        graph.execute(cmd, &frames.timer(slot));
        frames.submit(slot);
        pending.emplace_back(slot, submitted >= warmup);
        ++submitted;
    }
    drain();
    m.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.recorded = graph.stats();
    m.recordedSteps = submitted > warmup ? submitted - warmup : 0;
    m.timers = timers;
    if (submitted >= stepCap && !reachedEnd && m.stable) {
        m.stable = false;
        m.reason = fmt::format("did not reach t = {} s within {} steps", seconds, stepCap);
    }
    return m;
}

Json passJson(const Measured& m)
{
    Json j = Json::object();
    for (const auto& [name, ms] : m.passMs) j[name] = ms / double(std::max<uint64_t>(m.steps, 1));
    return j;
}

Json measuredJson(const Measured& m)
{
    const double steps = double(std::max<uint64_t>(m.steps, 1));
    Json j = {{"particles", m.particles},
              {"boundary_particles", m.boundary},
              {"steps", m.steps},
              {"steps_per_second", m.wallSeconds > 0 ? double(m.steps) / m.wallSeconds : 0.0},
              {"gpu_ms_per_step", m.gpuMs / steps},
              {"neighbour_bytes_per_particle", m.neighbourBytes},
              {"dt_mean", m.dt.mean()},
              {"density_error_avg_mean", m.densityAvg.mean()},
              {"density_error_max", m.densityMax.max}};
    // Cost per particle and step, and per particle and solver iteration (DFSPH: both solves'
    // iterations), so that solvers and changes can be compared whatever the scene size.
    const double particleSteps = double(m.particles) * steps;
    j["us_per_particle_step"] = particleSteps > 0 ? 1e3 * m.gpuMs / particleSteps : 0.0;
    if (m.iterations.n) {
        j["iterations_mean"] = m.iterations.mean();
        j["iterations_max"] = m.iterations.max;
        j["capped_steps"] = m.capped;
        const double iterations = m.iterations.sum + m.divergenceIterations.sum;
        double solveMs = 0;
        for (const auto& [name, ms] : m.passMs)
            if (name.find("_solve") != std::string::npos) solveMs += ms;
        j["us_per_particle_iteration"] = iterations > 0 ? 1e3 * solveMs / (double(m.particles) * iterations) : 0.0;
    }
    if (m.divergenceIterations.n) j["divergence_iterations_mean"] = m.divergenceIterations.mean();
    j["gpu_ms_per_pass"] = passJson(m);
    j["timers"] = gpu::timerModeName(m.timers);
    if (m.timers == gpu::TimerMode::Off) {
        // No timestamps: only the wall clock measures.
        for (const char* key : {"gpu_ms_per_step", "us_per_particle_step", "us_per_particle_iteration", "gpu_ms_per_pass"})
            j.erase(key);
    } else if (m.timers == gpu::TimerMode::Step) {
        j.erase("us_per_particle_iteration"); // needs the solve passes' own times
    }
    j["launch_budget_per_step"] = launchBudgetJson(m.recorded, double(m.recordedSteps));
    return j;
}

Scene withSolver(const Scene& base, const std::string& solver)
{
    Scene s = base;
    s.sph.solver = solver;
    return s;
}

Scene withFixedStep(const Scene& base, double dt)
{
    Scene s = base;
    s.sph.cflMethod = 0;
    s.config.timeStepSize = static_cast<float>(dt);
    return s;
}

} // namespace

std::vector<uint64_t> defaultSphCounts(const gpu::Context& context, bool sim2D)
{
    if (context.caps().properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        return sim2D ? std::vector<uint64_t>{1250, 5000, 20000} : std::vector<uint64_t>{8000, 25000, 64000};
    return sim2D ? std::vector<uint64_t>{20000, 80000, 320000} : std::vector<uint64_t>{64000, 250000, 1000000};
}

Json sphBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const SphBenchOptions& o)
{
    Json out = Json::object();
    Json throughput = Json::array(), equalDt = Json::array(), stableDt = Json::array();
    const uint64_t maxParticles2D = sim::ParticleBuffers::maxFluidParticles(context, 2);
    const uint64_t maxParticles3D = sim::ParticleBuffers::maxFluidParticles(context, 3);

    // 1. Throughput from the scene's initial state (the dam starts to collapse): EOS with its
    //    CFL step (which includes the speed of sound), IISPH with the scene's step and, for the
    //    cost ratio at equal dt, IISPH with the EOS's step.
    for (const auto& [path, counts] : {std::pair{o.scene2D, o.counts2D}, std::pair{o.scene3D, o.counts3D}}) {
        if (path.empty()) continue;
        Scene base = loadScene(path);
        for (const uint64_t target : counts) {
            Scene scene = base;
            scaleToCount(scene, target);
            const uint64_t n = countFluidParticles(scene);
            const std::string dims = scene.config.sim2D ? "2D" : "3D";
            const uint64_t maxParticles = scene.config.sim2D ? maxParticles2D : maxParticles3D;
            if (n > maxParticles) {
                throughput.push_back({{"scene", scene.name},
                                      {"dimensions", dims},
                                      {"particles", n},
                                      {"note", fmt::format("skipped: over the device's {} particles", maxParticles)}});
                continue;
            }
            const float acoustic =
                withSolver(scene, "eos").sph.acousticTimeStep(2.0f * scene.config.particleRadius, scene.config.density0);
            struct Case {
                std::string label, solver;
                Scene scene;
            };
            Scene eosScene = withSolver(scene, "eos");
            eosScene.sph.cflMethod = 1;
            eosScene.sph.cflMaxTimeStepSize = std::max(eosScene.sph.cflMaxTimeStepSize, eosScene.config.timeStepSize);
            std::vector<Case> cases = {{"eos", "eos", eosScene}};
            for (const char* solver : {"iisph", "dfsph", "pcisph", "pbf"})
                cases.push_back({solver, solver, withSolver(scene, solver)});
            cases.push_back({"iisph at the eos step", "iisph", withFixedStep(withSolver(scene, "iisph"), acoustic)});
            std::map<std::string, Measured> results;
            for (const Case& c : cases) {
                std::fprintf(stderr, "floe bench: sph %s %s, %llu particles: %s ...\n", dims.c_str(), scene.name.c_str(),
                             static_cast<unsigned long long>(n), c.label.c_str());
                const Measured m = measure(context, shaders, c.scene, o.warmupSteps, o.steps, 0.0, 1e30, o.timers);
                Json j = {{"scene", scene.name}, {"dimensions", dims}, {"solver", c.solver}, {"case", c.label}};
                j.update(measuredJson(m));
                if (!m.stable) j["note"] = "unstable: " + m.reason;
                throughput.push_back(j);
                results[c.label] = m;
            }
            const Measured& eos = results["eos"];
            const Measured& iisphSame = results["iisph at the eos step"];
            if (eos.steps && iisphSame.steps) {
                const double eosMs = eos.gpuMs / double(eos.steps), iisphMs = iisphSame.gpuMs / double(iisphSame.steps);
                const double eosWall = eos.wallSeconds / double(eos.steps),
                             iisphWall = iisphSame.wallSeconds / double(iisphSame.steps);
                Json row = {{"scene", scene.name},
                            {"dimensions", dims},
                            {"particles", n},
                            {"dt", acoustic},
                            {"eos_gpu_ms_per_step", eosMs},
                            {"iisph_gpu_ms_per_step", iisphMs},
                            {"eos_over_iisph_gpu", eosMs / iisphMs},
                            {"eos_over_iisph_wall", eosWall / iisphWall}};
                if (o.timers == gpu::TimerMode::Off)
                    for (const char* key : {"eos_gpu_ms_per_step", "iisph_gpu_ms_per_step", "eos_over_iisph_gpu"}) row.erase(key);
                equalDt.push_back(row);
            }
        }
    }

    // 2. Each solver's largest stable fixed step on the dt-search scenes: doubling from a stable
    //    start (halving from an unstable one), then geometric bisection. A trial runs the scene
    //    for `dtSeconds` of simulated time.
    for (const std::filesystem::path& path : o.dtScenes) {
        Scene scene = loadScene(path);
        const sim::WorldSettings world = makeWorld(scene, 0.0f);
        const double energyLimit = energyBound(scene, world);
        const std::string dims = scene.config.sim2D ? "2D" : "3D";
        std::map<std::string, std::pair<double, Measured>> best;
        Json solvers = Json::array();
        for (const std::string solver : {"eos", "iisph", "dfsph", "pcisph", "pbf"}) {
            const Scene s = withSolver(scene, solver);
            Json trials = Json::array();
            std::map<double, Measured> tried;
            const auto trial = [&](double dt) -> const Measured& {
                std::fprintf(stderr, "floe bench: stable dt, %s %s, %s, dt = %.4g s ...", dims.c_str(), scene.name.c_str(),
                             solver.c_str(), dt);
                std::fflush(stderr);
                // Whole steps timed (the search needs no pass times), whatever --timers says.
                Measured m = measure(context, shaders, withFixedStep(s, dt), 0, 0, o.dtSeconds, energyLimit, gpu::TimerMode::Step);
                std::fprintf(stderr, " %s\n", m.stable ? "stable" : ("unstable: " + m.reason).c_str());
                Json t = {{"dt", dt}, {"stable", m.stable}, {"steps", m.steps}};
                if (!m.stable) t["reason"] = m.reason;
                trials.push_back(t);
                return tried[dt] = std::move(m);
            };
            double start = s.sph.cflMethod ? s.sph.cflMaxTimeStepSize : s.config.timeStepSize;
            if (solver == "eos")
                start = std::min(start, double(s.sph.acousticTimeStep(2.0f * s.config.particleRadius, s.config.density0)));
            double lo = 0, hi = 0; // largest stable, smallest unstable
            if (trial(start).stable) {
                lo = start;
                for (double dt = 2 * start; dt <= o.dtMax; dt *= 2) {
                    if (!trial(dt).stable) {
                        hi = dt;
                        break;
                    }
                    lo = dt;
                }
            } else {
                hi = start;
                // At most 6 halvings: a solver unstable at 1/64 of the scene's step is reported as such.
                for (double dt = start / 2; dt >= start / 64.5; dt /= 2) {
                    if (trial(dt).stable) {
                        lo = dt;
                        break;
                    }
                    hi = dt;
                }
            }
            for (int r = 0; r < o.dtRefinements && lo > 0 && hi > 0; ++r) {
                const double mid = std::sqrt(lo * hi);
                if (trial(mid).stable)
                    lo = mid;
                else
                    hi = mid;
            }
            Json j = {{"solver", solver},
                      {"largest_stable_dt", lo > 0 ? Json(lo) : Json(nullptr)},
                      {"smallest_unstable_dt", hi > 0 ? Json(hi) : Json(nullptr)}};
            if (lo > 0) {
                const Measured& m = tried[lo];
                j["at_largest_stable_dt"] = measuredJson(m);
                j["at_largest_stable_dt"]["wall_seconds_per_simulated_second"] = m.wallSeconds / m.simulated;
                j["at_largest_stable_dt"]["gpu_ms_per_simulated_second"] = m.gpuMs / m.simulated;
                best[solver] = {lo, m};
            }
            j["trials"] = trials;
            solvers.push_back(j);
        }
        Json entry = {{"scene", scene.name},
                      {"dimensions", dims},
                      {"particles", countFluidParticles(scene)},
                      {"seconds", o.dtSeconds},
                      {"energy_bound_joules", std::isfinite(energyLimit) ? Json(energyLimit) : Json(nullptr)},
                      {"solvers", solvers}};
        if (best.count("eos") && best.count("iisph")) {
            const Measured &e = best["eos"].second, &i = best["iisph"].second;
            entry["eos_over_iisph_gpu_per_simulated_second"] = (e.gpuMs / e.simulated) / (i.gpuMs / i.simulated);
            entry["eos_over_iisph_wall_per_simulated_second"] = (e.wallSeconds / e.simulated) / (i.wallSeconds / i.simulated);
        }
        stableDt.push_back(entry);
    }
    out["throughput"] = throughput;
    out["cost_ratio_equal_dt"] = equalDt;
    out["stable_dt"] = stableDt;
    return out;
}

void printSphBench(const Json& results)
{
    if (!results["throughput"].empty())
        fmt::print("\nSPH steps from the dam breaks' initial state (GPU ms and iterations are means per step)\n\n");
    if (!results["throughput"].empty())
        fmt::print("{:<4} {:<24} {:>9} {:>10} {:>9} {:>11} {:>9} {:>16} {:>9} {:>10} {:>10}\n", "dim", "case", "particles",
                   "dt (s)", "steps/s", "GPU ms/step", "us/p-step", "iters", "us/p-iter", "comp avg", "comp max");
    for (const Json& r : results["throughput"]) {
        if (r.contains("note") && !r.contains("steps")) {
            fmt::print("{:<4} {:<24} {:>9} {}\n", r["dimensions"].get<std::string>(), "", r["particles"].get<uint64_t>(),
                       r["note"].get<std::string>());
            continue;
        }
        const auto number = [&](const char* key, const char* format) {
            return r.contains(key) ? fmt::format(fmt::runtime(format), r[key].get<double>()) : std::string("-");
        };
        fmt::print("{:<4} {:<24} {:>9} {:>10.3g} {:>9.1f} {:>11} {:>9} {:>16} {:>9} {:>9.3f}% {:>9.2f}%{}\n",
                   r["dimensions"].get<std::string>(), r["case"].get<std::string>(), r["particles"].get<uint64_t>(),
                   r["dt_mean"].get<double>(), r["steps_per_second"].get<double>(), number("gpu_ms_per_step", "{:.3f}"),
                   number("us_per_particle_step", "{:.3f}"),
                   r.contains("iterations_mean")
                       ? fmt::format("{:.1f}{}{}", r["iterations_mean"].get<double>(),
                                     r.contains("divergence_iterations_mean")
                                         ? fmt::format("+{:.1f}v", r["divergence_iterations_mean"].get<double>())
                                         : "",
                                     r["capped_steps"].get<uint64_t>()
                                         ? fmt::format(" ({} capped)", r["capped_steps"].get<uint64_t>())
                                         : "")
                       : "-",
                   number("us_per_particle_iteration", "{:.3f}"), 100 * r["density_error_avg_mean"].get<double>(),
                   100 * r["density_error_max"].get<double>(), r.contains("note") ? "  " + r["note"].get<std::string>() : "");
    }
    if (!results["throughput"].empty()) {
        std::map<std::string, uint64_t> bytes;
        for (const Json& r : results["throughput"])
            if (r.contains("neighbour_bytes_per_particle")) bytes[r["dimensions"]] = r["neighbour_bytes_per_particle"];
        for (const auto& [dims, n] : bytes)
            fmt::print("\nNeighbour data in {} (fluid neighbour entries with gradients, their counts, boundary terms): {} bytes "
                       "per particle\n",
                       dims, n);
        fmt::print("\nLaunch budget per step (recorded: dispatches, of them in conditional regions, which a device with\n"
                   "conditional rendering skips after the solver stops; barriers; transfers; timestamps)\n");
        for (const Json& r : results["throughput"]) {
            if (!r.contains("launch_budget_per_step")) continue;
            const Json& b = r["launch_budget_per_step"];
            fmt::print("{} {:>8} {:<24} dispatches {:7.1f} (conditional {:7.1f})  barriers {:7.1f}  transfers {:5.1f}  "
                       "timestamps {:6.1f}  [timers {}]\n",
                       r["dimensions"].get<std::string>(), r["particles"].get<uint64_t>(), r["case"].get<std::string>(),
                       b["dispatches"].get<double>() + b["conditional_dispatches"].get<double>(),
                       b["conditional_dispatches"].get<double>(), b["barriers"].get<double>(), b["transfers"].get<double>(),
                       b["timestamps"].get<double>(), r["timers"].get<std::string>());
        }
        fmt::print("\nGPU ms per pass (mean per step)\n");
        for (const Json& r : results["throughput"]) {
            if (!r.contains("gpu_ms_per_pass")) continue;
            std::string line;
            for (const auto& [name, ms] : r["gpu_ms_per_pass"].items()) line += fmt::format(" {}={:.3f}", name, ms.get<double>());
            fmt::print("{} {} {}:{}\n", r["dimensions"].get<std::string>(), r["particles"].get<uint64_t>(),
                       r["case"].get<std::string>(), line);
        }
    }
    if (!results["cost_ratio_equal_dt"].empty()) {
        fmt::print("\nEOS/IISPH cost per step at equal dt (the EOS's acoustic CFL step)\n");
        for (const Json& r : results["cost_ratio_equal_dt"]) {
            if (!r.contains("eos_over_iisph_gpu")) {
                fmt::print("{} {:>9} particles  dt {:.3g} s  ratio (wall) {:.2f}\n", r["dimensions"].get<std::string>(),
                           r["particles"].get<uint64_t>(), r["dt"].get<double>(), r["eos_over_iisph_wall"].get<double>());
                continue;
            }
            fmt::print("{} {:>9} particles  dt {:.3g} s  EOS {:.3f} ms  IISPH {:.3f} ms  ratio {:.2f} (wall {:.2f})\n",
                       r["dimensions"].get<std::string>(), r["particles"].get<uint64_t>(), r["dt"].get<double>(),
                       r["eos_gpu_ms_per_step"].get<double>(), r["iisph_gpu_ms_per_step"].get<double>(),
                       r["eos_over_iisph_gpu"].get<double>(), r["eos_over_iisph_wall"].get<double>());
        }
    }
    for (const Json& e : results["stable_dt"]) {
        fmt::print("\nLargest stable fixed dt, {} {} ({} particles, {} s simulated per trial)\n",
                   e["dimensions"].get<std::string>(), e["scene"].get<std::string>(), e["particles"].get<uint64_t>(),
                   e["seconds"].get<double>());
        for (const Json& s : e["solvers"]) {
            const Json& lo = s["largest_stable_dt"];
            fmt::print("  {:<6} largest stable {}  smallest unstable {}\n        ", s["solver"].get<std::string>(),
                       lo.is_null() ? "none" : fmt::format("{:.4g} s", lo.get<double>()),
                       s["smallest_unstable_dt"].is_null() ? "none found"
                                                           : fmt::format("{:.4g} s", s["smallest_unstable_dt"].get<double>()));
            if (s.contains("at_largest_stable_dt")) {
                const Json& m = s["at_largest_stable_dt"];
                fmt::print("  GPU {:.1f} ms and wall {:.2f} s per simulated s, compression avg {:.3f}% max {:.2f}%",
                           m["gpu_ms_per_simulated_second"].get<double>(), m["wall_seconds_per_simulated_second"].get<double>(),
                           100 * m["density_error_avg_mean"].get<double>(), 100 * m["density_error_max"].get<double>());
                if (m.contains("iterations_mean")) fmt::print(", {:.1f} iterations", m["iterations_mean"].get<double>());
            }
            fmt::print("\n");
        }
        if (e.contains("eos_over_iisph_gpu_per_simulated_second"))
            fmt::print("  EOS/IISPH cost per simulated second at each one's largest stable dt: {:.2f} (GPU), {:.2f} (wall)\n",
                       e["eos_over_iisph_gpu_per_simulated_second"].get<double>(),
                       e["eos_over_iisph_wall_per_simulated_second"].get<double>());
    }
}

} // namespace floe
