// floe bench: elements per second of the GPU primitives (timestamp queries around each call)
// against the C++ standard library on the CPU, measured in the same run, the SPH suite
// (SphBench.h), the render suite (RenderBench.h), the deformable bodies (BodyBench.h) and
// fracture (FractureBench.h). Machine-readable results with --out
// FILE.json; tables on stdout.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/BodyBench.h"
#include "app/Commands.h"
#include "app/FractureBench.h"
#include "app/ProjectFiles.h"
#include "app/RenderBench.h"
#include "app/SphBench.h"
#include "app/Stat.h"
#include "base/Error.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "gpu/ShaderLibrary.h"
#include "graph/RenderGraph.h"
#include "io/TextFile.h"
#include "sim/ParticleBuffers.h"
#include "sim/prim/RadixSort.h"
#include "sim/prim/Reduce.h"
#include "sim/prim/Scan.h"
#include "sim/prim/SegmentedScan.h"

namespace floe {
namespace {

template <class F> double cpuMs(int repetitions, F&& f)
{
    std::vector<double> times;
    for (int r = 0; r < repetitions; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return median(times);
}

struct Row {
    std::string primitive;
    uint32_t size = 0;
    double gpuMs = 0, cpuMs = 0;
    std::string note;
};

// A file under assets/: from the working directory, else next to the build directory.
std::filesystem::path findAsset(const std::string& relative)
{
    if (std::filesystem::path found = findProjectFile("assets/" + relative); !found.empty()) return found;
    throw Error(fmt::format("cannot find assets/{} from the working directory or the floe executable; give the scene "
                            "with --scene-2d/--scene-3d/--dt-scene",
                            relative));
}

nlohmann::ordered_json primitivesBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const BenchOptions& o)
{
    std::vector<uint32_t> sizes = o.sizes.empty() ? std::vector<uint32_t>{65536, 1048576, 2097152} : o.sizes;
    graph::RenderGraph graph(context);
    gpu::FrameResources frames(context, 1);
    const uint32_t maxSize = *std::max_element(sizes.begin(), sizes.end());
    const uint64_t maxBytes = context.limits().maxStorageBufferRange;

    // Times `record` on the GPU: one warm-up, then the median of the repetitions' timer rows;
    // `setup` (untimed) runs before each.
    const auto gpuMs = [&](const std::function<void()>& record, const std::function<void()>& setup = {}) {
        std::vector<double> times;
        for (int r = 0; r <= o.repetitions; ++r) {
            if (setup) setup();
            VkCommandBuffer cmd = frames.begin(0);
            record();
            graph.execute(cmd, &frames.timer(0));
            frames.submit(0);
            frames.wait(0);
            double ms = 0;
            for (const gpu::PassTime& t : frames.timer(0).results()) ms += t.ms;
            if (r > 0) times.push_back(ms);
        }
        return median(times);
    };

    std::mt19937 rng(12345);
    std::vector<Row> rows;
    sim::Scan scan(context, shaders, maxSize);
    sim::RadixSort sort(context, shaders, maxSize);
    sim::Reduce reduce(context, shaders, maxSize);
    const uint32_t segMax = static_cast<uint32_t>(std::min<uint64_t>(maxSize, maxBytes / 48));
    sim::SegmentedScan segscan(context, shaders, segMax);

    for (const uint32_t n : sizes) {
        fmt::print(stderr, "floe bench: {} elements ...\n", n);
        // Exclusive scan of uint32.
        {
            std::vector<uint32_t> values(n);
            for (auto& v : values) v = rng() & 0xff;
            gpu::Buffer in(context, {"bench scan in", n * 4ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
            gpu::Buffer out(context, {"bench scan out", n * 4ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
            sim::uploadNow(context, graph, in, values.data(), n * 4ull);
            Row row{"exclusive scan (uint32)", n};
            row.gpuMs = gpuMs([&] { scan.exclusive(graph, in, out, n); });
            std::vector<uint32_t> result(n);
            row.cpuMs = cpuMs(o.repetitions, [&] { std::exclusive_scan(values.begin(), values.end(), result.begin(), 0u); });
            rows.push_back(row);
        }
        // Segmented inclusive scan of 12-float records (3 vec4), segments of 1..128 records.
        {
            Row row{"segmented scan (12 floats)", n};
            if (n > segMax) {
                row.note = "skipped: over maxStorageBufferRange";
            } else {
                std::vector<glm::vec4> records(size_t(n) * 3);
                for (auto& r : records) r = glm::vec4(float(rng() % 1000) * 1e-3f);
                std::vector<uint32_t> heads(n, 0);
                for (uint32_t i = 0; i < n; i += 1 + rng() % 128) heads[i] = 1;
                gpu::Buffer in(context,
                               {"bench segscan in", n * 48ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
                gpu::Buffer headBuf(context, {"bench segscan heads", n * 4ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
                gpu::Buffer out(context,
                                {"bench segscan out", n * 48ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
                sim::uploadNow(context, graph, in, records.data(), n * 48ull);
                sim::uploadNow(context, graph, headBuf, heads.data(), n * 4ull);
                row.gpuMs = gpuMs([&] { segscan.inclusive(graph, in, headBuf, out, n, 3); });
                std::vector<glm::vec4> result(records.size());
                row.cpuMs = cpuMs(o.repetitions, [&] {
                    glm::vec4 a(0), b(0), c(0);
                    for (uint32_t i = 0; i < n; ++i) {
                        if (heads[i] || i == 0) a = b = c = glm::vec4(0);
                        a += records[3 * i];
                        b += records[3 * i + 1];
                        c += records[3 * i + 2];
                        result[3 * i] = a;
                        result[3 * i + 1] = b;
                        result[3 * i + 2] = c;
                    }
                });
            }
            rows.push_back(row);
        }
        // Stable sort of (key, value) pairs, 32-bit keys.
        {
            std::vector<uint32_t> keys(n), values(n);
            for (uint32_t i = 0; i < n; ++i) {
                keys[i] = rng();
                values[i] = i;
            }
            gpu::Buffer k(context, {"bench sort keys", n * 4ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
            gpu::Buffer v(context, {"bench sort values", n * 4ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_UINT});
            Row row{"stable sort (32-bit keys)", n};
            // Every repetition sorts the same unsorted input again.
            row.gpuMs = gpuMs([&] { sort.sort(graph, k, v, n, 32); },
                              [&] {
                                  sim::uploadNow(context, graph, k, keys.data(), n * 4ull);
                                  sim::uploadNow(context, graph, v, values.data(), n * 4ull);
                              });
            std::vector<std::pair<uint32_t, uint32_t>> pairs(n);
            row.cpuMs = cpuMs(o.repetitions, [&] {
                for (uint32_t i = 0; i < n; ++i) pairs[i] = {keys[i], values[i]};
                std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            });
            rows.push_back(row);
        }
        // Sum of floats.
        {
            std::vector<float> values(n);
            for (auto& x : values) x = float(rng() % 1000) * 1e-3f;
            gpu::Buffer in(context, {"bench reduce in", n * 4ull, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_SFLOAT});
            gpu::Buffer out(context, {"bench reduce out", 16, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32_SFLOAT});
            sim::uploadNow(context, graph, in, values.data(), n * 4ull);
            Row row{"reduce sum (float)", n};
            row.gpuMs = gpuMs([&] { reduce.scalar(graph, in, out, n, sim::ReduceOp::Sum); });
            volatile float sink = 0;
            row.cpuMs = cpuMs(o.repetitions, [&] { sink = std::reduce(values.begin(), values.end(), 0.0f); });
            (void)sink;
            rows.push_back(row);
        }
    }

    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    fmt::print("\nGPU primitives on {} (median of {} repetitions; CPU: one thread, C++ standard library)\n\n", context.deviceName(),
               o.repetitions);
    fmt::print("{:<28} {:>9} {:>10} {:>12} {:>10} {:>12} {:>9}\n", "primitive", "elements", "GPU ms", "GPU Melem/s", "CPU ms",
               "CPU Melem/s", "GPU/CPU");
    for (const Row& r : rows) {
        nlohmann::ordered_json j = {{"primitive", r.primitive}, {"elements", r.size}};
        if (!r.note.empty()) {
            j["note"] = r.note;
            fmt::print("{:<28} {:>9} {}\n", r.primitive, r.size, r.note);
        } else {
            const double gpuRate = r.size / (r.gpuMs * 1e3);
            const double cpuRate = r.size / (r.cpuMs * 1e3);
            j["gpu_ms"] = r.gpuMs;
            j["gpu_melem_per_s"] = gpuRate;
            j["cpu_ms"] = r.cpuMs;
            j["cpu_melem_per_s"] = cpuRate;
            j["gpu_over_cpu"] = gpuRate / cpuRate;
            fmt::print("{:<28} {:>9} {:>10.3f} {:>12.1f} {:>10.3f} {:>12.1f} {:>8.2f}x\n", r.primitive, r.size, r.gpuMs, gpuRate,
                       r.cpuMs, cpuRate, gpuRate / cpuRate);
        }
        results.push_back(j);
    }
    return results;
}

} // namespace

int benchCommand(const BenchOptions& o)
{
    if (o.noDtSearch && !o.dtScenes.empty()) throw Error("--no-dt-search and --dt-scene exclude each other");
    // A long run must not fail at its end for want of a directory.
    if (const auto dir = o.out.parent_path(); !o.out.empty() && !dir.empty() && !std::filesystem::is_directory(dir))
        throw Error(fmt::format("--out {}: the directory {} does not exist", o.out.string(), dir.string()));
    const bool primitives = o.suite == "primitives" || o.suite == "all";
    const bool sph = o.suite == "sph" || o.suite == "all";
    const bool render = o.suite == "render" || o.suite == "all";
    const bool bodies = o.suite == "bodies" || o.suite == "all";
    const bool fracture = o.suite == "fracture" || o.suite == "all";
    // Scenes first: a missing file is bad input, reported before the device starts.
    SphBenchOptions so;
    if (sph) {
        if (o.noThroughput && o.noDtSearch) throw Error("--no-throughput and --no-dt-search leave nothing to measure");
        const std::filesystem::path scene2D = o.scene2D.empty() ? findAsset("scenes/dam_break_2d.json") : o.scene2D;
        const std::filesystem::path scene3D = o.scene3D.empty() ? findAsset("scenes/dam_break_3d.json") : o.scene3D;
        for (const auto& [flag, path] : {std::pair{"--scene-2d", scene2D}, std::pair{"--scene-3d", scene3D}})
            if (!std::filesystem::exists(path)) throw Error(fmt::format("{} {}: no such scene file", flag, path.string()));
        if (!o.noThroughput) {
            so.scene2D = scene2D;
            so.scene3D = scene3D;
        }
        so.dtScenes = o.noDtSearch ? std::vector<std::filesystem::path>{} : o.dtScenes.empty() ? std::vector{scene2D} : o.dtScenes;
        for (const auto& path : so.dtScenes)
            if (!std::filesystem::exists(path)) throw Error(fmt::format("--dt-scene {}: no such scene file", path.string()));
        so.steps = o.steps;
        so.warmupSteps = o.warmup;
        so.dtSeconds = o.dtSeconds;
        so.dtRefinements = o.dtRefinements;
        so.timers = *gpu::parseTimerMode(o.timers);
    }
    gpu::ContextOptions contextOptions;
    contextOptions.validation = o.device.validate;
    contextOptions.deviceName = o.device.device;
    gpu::Context context(contextOptions);
    if (!context.caps().timestamps)
        throw Error(context.deviceName() + " has no timestamp queries; floe bench needs them", ExitCode::Failure);
    gpu::ShaderLibrary shaders;
    nlohmann::ordered_json doc = {{"device", context.deviceName()}, {"repetitions", o.repetitions}};
    if (primitives) doc["results"] = primitivesBench(context, shaders, o);
    if (sph) {
        so.counts2D = o.particles2D.empty() ? defaultSphCounts(context, true) : o.particles2D;
        so.counts3D = o.particles3D.empty() ? defaultSphCounts(context, false) : o.particles3D;
        doc["sph"] = sphBench(context, shaders, so);
        printSphBench(doc["sph"]);
    }
    if (render) {
        RenderBenchOptions ro;
        ro.counts = o.renderCounts;
        ro.repetitions = o.repetitions;
        doc["render"] = renderBench(context, shaders, ro);
        printRenderBench(doc["render"]);
    }
    if (bodies) {
        BodyBenchOptions bo;
        bo.steps = int(std::min<uint64_t>(o.steps, 1000));
        bo.warmup = int(std::min<uint64_t>(o.warmup, 1000));
        if (o.cubeSegments) bo.cubeSegments = o.cubeSegments;
        doc["bodies"] = bodyBench(context, shaders, bo);
        printBodyBench(doc["bodies"]);
    }
    if (fracture) {
        FractureBenchOptions fo;
        fo.drops = o.drops;
        doc["fracture"] = fractureBench(context, shaders, fo);
        printFractureBench(doc["fracture"]);
    }
    if (!o.out.empty()) {
        if (!io::writeTextFile(o.out, doc.dump(2) + "\n")) throw Error(fmt::format("--out {}: cannot write", o.out.string()));
        fmt::print("\nwrote {}\n", o.out.string());
    }
    return 0;
}

} // namespace floe
