#include "app/FractureBench.h"
#include "app/LaunchBudget.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <tuple>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "app/FracturePart.h"
#include "app/ProjectFiles.h"
#include "app/WorldBench.h"
#include "base/Error.h"
#include "fracture/FractureBodies.h"
#include "fracture/TetShapes.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "scene/Scene.h"
#include "scene/SceneLoader.h"
#include "scene/SceneSetup.h"
#include "sim/Simulation.h"

namespace floe {
namespace {

using Json = nlohmann::ordered_json;
using namespace fracture;

struct Object {
    TetShape shape;
    const char* thesisName;
    int thesisNodes, thesisTets;
};
// digest-004 Table 2 (the continuum methods' meshes).
constexpr Object kObjects[] = {{TetShape::CubeWithHoles, "Cube w.h.", 182, 357},
                               {TetShape::Fichera, "Fichera", 163, 477},
                               {TetShape::Sphere, "Sphere", 136, 345},
                               {TetShape::Cube, "Cube", 400, 1580},
                               {TetShape::Cone, "Cone", 143, 406}};
constexpr FractureMethod kMethods[] = {FractureMethod::Radius, FractureMethod::Wave, FractureMethod::SecondarySplits};

// The generator's mesh of `shape` and `size` (resolution 2..maxResolution) whose node (or tet)
// count is closest to `target`.
TetMesh closestMesh(TetShape shape, const glm::vec3& size, int target, bool countTets, int maxResolution)
{
    TetMesh best;
    auto count = [&](const TetMesh& m) { return int(countTets ? m.tets.size() : m.nodes.size()); };
    for (int r = 2; r <= maxResolution; ++r) {
        TetShapeDesc d;
        d.shape = shape;
        d.resolution = r;
        d.size = size;
        TetMesh m = makeTetShape(d);
        if (best.nodes.empty() || std::abs(count(m) - target) < std::abs(count(best) - target)) best = std::move(m);
    }
    return best;
}

// The continuum objects at the thesis' node counts.
TetMesh objectMesh(const Object& o)
{
    return closestMesh(o.shape, o.shape == TetShape::Cone ? glm::vec3(1.0f, 1.2f, 1.0f) : glm::vec3(1.0f), o.thesisNodes, false,
                       14);
}

// A body as floe run makes it from a scene with the default Fracture settings: glass's Lame and
// damping constants with the self-defined tau = 0.5 the thesis used for all its timing and
// fragment tables (digest-004 §5.1).
FractureBodyInstance instance(TetMesh mesh, const glm::mat3& rotation, const glm::vec3& at)
{
    const FractureSceneSettings defaults;
    FractureBodyInstance b;
    for (glm::vec3& x : mesh.nodes) x = rotation * x + at;
    b.mesh = std::move(mesh);
    b.material = *materialPreset("glass");
    b.material.tau = 0.5f;
    b.material.phi *= defaults.dampingTime;
    b.material.psi *= defaults.dampingTime;
    return b;
}

FractureSettings dropSettings(FractureMethod method, uint32_t iterations)
{
    FractureSettings s; // the scene's defaults: a scene's Fracture section nests these settings
    s.method = method;
    s.maxIterations = iterations;
    s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
    s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
    return s;
}

struct StepTime {
    double step = 0;     // GPU ms of all the step's passes
    double fracture = 0; // of its fracture phase: the candidate sort and the cut passes (after the last fracture/load)
    double rebuild = 0;  // of the rebuild after cuts (incidence, masses, fragments)
};

StepTime timedStep(FractureBodies& bodies, graph::RenderGraph& graph, gpu::FrameResources& frames)
{
    VkCommandBuffer cmd = frames.begin(0);
    bodies.addStep(graph);
    graph.execute(cmd, &frames.timer(0));
    frames.submit(0);
    frames.wait(0);
    StepTime t;
    if (frames.timer(0).dropped()) std::fprintf(stderr, "floe bench: warning: %u passes untimed\n", frames.timer(0).dropped());
    const std::vector<gpu::PassTime> passes = frames.timer(0).results();
    size_t lastLoad = 0;
    for (size_t i = 0; i < passes.size(); ++i) {
        t.step += passes[i].ms;
        if (passes[i].name == "fracture/load") lastLoad = i;
    }
    for (size_t i = lastLoad + 1; i < passes.size(); ++i) t.fracture += passes[i].ms;
    bodies.afterStep(graph, &frames);
    if (bodies.rebuiltLastStep())
        for (const gpu::PassTime& p : frames.timer(0).results()) t.rebuild += p.ms;
    return t;
}

// GPU ms of one fracture event: a body stretched 5 % along an oblique axis in free flight
// breaks in its first step with every cut of the budget; the step's fracture phase (candidate
// sort, cut passes) plus the rebuild after the cuts.
Json eventCost(gpu::Context& context, const gpu::ShaderLibrary& shaders, const TetMesh& mesh, FractureMethod method,
               uint32_t iterations)
{
    graph::RenderGraph graph(context);
    FractureSettings s = dropSettings(method, iterations);
    s.evaluateEveryStep = true;
    s.tauScale = 1e4f;
    s.domainMin = glm::vec3(-100.0f);
    s.domainMax = glm::vec3(100.0f);
    FractureBodyInstance b = instance(mesh, glm::mat3(1.0f), glm::vec3(0.0f, 5.0f, 0.0f));
    const glm::vec3 axis = glm::normalize(glm::vec3(1.0f, 0.4f, 0.2f));
    for (const glm::vec3& x : b.mesh.nodes) b.initial.push_back(x + 0.05f * glm::dot(x - glm::vec3(0, 5, 0), axis) * axis);
    FractureBodies bodies(context, shaders, graph, {b}, s);
    gpu::FrameResources frames(context, 1);
    const StepTime t = timedStep(bodies, graph, frames);
    const FractureReport& report = bodies.report();
    return {{"ms", t.fracture + t.rebuild}, {"cut_passes_ms", t.fracture},  {"rebuild_ms", t.rebuild}, {"step_ms", t.step},
            {"cuts", report.cuts},          {"fragments", report.fragments}};
}

// The Constraint method's objects (digest-004 Table 2, the rigid-piece rows; Table 6).
struct PiecedObject {
    const char* name;
    TetShape shape;
    glm::vec3 size;
    int thesisElements, thesisConstraints;
    uint32_t pieces; // 0: every tet a piece
    int thesisTets;  // the mesh to match for tet pieces (0: the Voronoi objects use Table 2's continuum Cube size)
};
constexpr PiecedObject kPieced[] = {{"Voronoi-Cube", TetShape::Cube, {1.0f, 1.0f, 1.0f}, 76, 346, 76, 0},
                                    {"Voronoi-Cuboid", TetShape::Cuboid, {2.0f, 0.6f, 1.0f}, 143, 652, 143, 0},
                                    {"Cuboid", TetShape::Cuboid, {2.0f, 0.6f, 1.0f}, 513, 6840, 0, 513},
                                    {"Cube w.h. (moderate)", TetShape::CubeWithHoles, {1.0f, 1.0f, 1.0f}, 99, 591, 99, 0},
                                    {"Cube w.h. (fine)", TetShape::CubeWithHoles, {1.0f, 1.0f, 1.0f}, 357, 3567, 0, 357}};

// The Voronoi objects are cut from a mesh of about Table 2's continuum Cube (1580 tets); the
// tet-piece objects match the thesis' tet count.
TetMesh piecedMesh(const PiecedObject& o)
{
    return closestMesh(o.shape, o.size, o.thesisTets > 0 ? o.thesisTets : 1580, true, 16);
}

// Table 6 for the Constraint method: initialisation (host ms to pre-fracture and build),
// GPU ms of a step without breaks and of a step with breaks (its update and the fragments'
// rebuild), and the fragments after seeded drops (tau 2.5, the thesis' "moderate").
Json constraintBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const FractureBenchOptions& o)
{
    Json rows = Json::array();
    for (const PiecedObject& obj : kPieced) {
        const TetMesh mesh = piecedMesh(obj);
        FractureSettings s = dropSettings(FractureMethod::Constraint, 3);
        s.pieces = obj.pieces;
        double initMs = 0, plainMs = 0, breakMs = 0;
        int plainSteps = 0, breakSteps = 0;
        uint32_t constraints = 0, pieces = 0;
        std::vector<double> fragments;
        for (int d = 0; d < o.drops; ++d) {
            graph::RenderGraph graph(context);
            FractureBodyInstance b = instance(mesh, seededRotation(uint32_t(d + 1)), glm::vec3(0.0f, 5.0f, 0.0f));
            b.material.tau = 2.5f;
            const auto start = std::chrono::steady_clock::now();
            FractureBodies bodies(context, shaders, graph, {b}, s);
            initMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            constraints = bodies.constraintCount();
            pieces = bodies.pieceCount();
            gpu::FrameResources frames(context, 1);
            for (int k = 0; k < o.dropSteps; ++k) {
                const uint32_t before = bodies.report().cuts;
                const StepTime t = timedStep(bodies, graph, frames);
                if (bodies.report().cuts > before) {
                    breakMs += t.step + t.rebuild;
                    ++breakSteps;
                } else {
                    plainMs += t.step;
                    ++plainSteps;
                }
            }
            fragments.push_back(double(bodies.report().fragments));
        }
        double mean = 0;
        for (double f : fragments) mean += f / double(fragments.size());
        rows.push_back({{"object", obj.name},
                        {"tets", mesh.tets.size()},
                        {"pieces", pieces},
                        {"constraints", constraints},
                        {"thesis_pieces", obj.thesisElements},
                        {"thesis_constraints", obj.thesisConstraints},
                        {"init_ms", initMs / std::max(o.drops, 1)},
                        {"step_ms", plainSteps ? plainMs / plainSteps : 0.0},
                        {"break_step_ms", breakSteps ? breakMs / breakSteps : 0.0},
                        {"break_steps", breakSteps},
                        {"fragments_mean", mean},
                        {"fragments", fragments}});
        std::fprintf(stderr, "floe bench: constraint, %s: %.1f fragments\n", obj.name, mean);
    }
    return rows;
}

} // namespace

Json fractureBench(gpu::Context& context, const gpu::ShaderLibrary& shaders, const FractureBenchOptions& o)
{
    Json out;
    Json objects = Json::array(), table5 = Json::array(), table4 = Json::array();
    for (const Object& obj : kObjects) {
        const TetMesh mesh = objectMesh(obj);
        objects.push_back({{"object", tetShapeName(obj.shape)},
                           {"thesis", obj.thesisName},
                           {"nodes", mesh.nodes.size()},
                           {"tets", mesh.tets.size()},
                           {"thesis_nodes", obj.thesisNodes},
                           {"thesis_tets", obj.thesisTets}});
        for (FractureMethod m : kMethods) {
            Json row = {{"object", tetShapeName(obj.shape)}, {"method", fractureMethodName(m)}};
            for (uint32_t it : {3u, 8u}) row[fmt::format("iterations_{}", it)] = eventCost(context, shaders, mesh, m, it);
            table5.push_back(row);
            std::fprintf(stderr, "floe bench: fracture events, %s, %s\n", tetShapeName(obj.shape), fractureMethodName(m));
        }
        for (FractureMethod m : kMethods) {
            // Table 4: fragments after drops from height 5 in seeded random orientations (glass).
            std::vector<double> fragments;
            double stepMs = 0;
            int steps = 0;
            graph::RecordStats recorded; // the drops' steps, rebuilds included
            for (int d = 0; d < o.drops; ++d) {
                graph::RenderGraph graph(context);
                FractureBodies bodies(context, shaders, graph,
                                      {instance(mesh, seededRotation(uint32_t(d + 1)), glm::vec3(0.0f, 5.0f, 0.0f))},
                                      dropSettings(m, 3));
                gpu::FrameResources frames(context, 1);
                graph.resetStats();
                for (int k = 0; k < o.dropSteps; ++k) {
                    stepMs += timedStep(bodies, graph, frames).step;
                    ++steps;
                }
                recorded += graph.stats();
                fragments.push_back(double(bodies.report().fragments));
            }
            double mean = 0;
            for (double f : fragments) mean += f / double(fragments.size());
            table4.push_back({{"object", tetShapeName(obj.shape)},
                              {"method", fractureMethodName(m)},
                              {"drops", o.drops},
                              {"fragments_mean", mean},
                              {"fragments", fragments},
                              {"gpu_ms_per_step", steps ? stepMs / steps : 0.0},
                              {"launch_budget_per_step", launchBudgetJson(recorded, double(steps))}});
            std::fprintf(stderr, "floe bench: drops, %s, %s: %.1f fragments\n", tetShapeName(obj.shape), fractureMethodName(m),
                         mean);
        }
    }
    out["objects"] = objects;
    out["event_cost"] = table5;
    out["fragments"] = table4;
    out["constraint"] = constraintBench(context, shaders, o);
    // The coupling's cost with fracture bodies: coupled_glass_drop's first 120 steps (the cube in
    // the air, through the water and onto the floor; it breaks there a few steps later).
    out["coupling"] = couplingCost(context, shaders, "coupled_glass_drop", 0, 120);
    // The contacts between deformable and fracture bodies: solids_ball_through_glass's first 80
    // steps (the pane lands on the blocks, the ball on the pane: it breaks), together and each
    // kind alone.
    out["solid_contacts"] = couplingCost(context, shaders, "solids_ball_through_glass", 0, 80);

    // GPU ms per step against the fragment count: a cube broken a little more every step.
    {
        graph::RenderGraph graph(context);
        TetShapeDesc d;
        d.shape = TetShape::Cube;
        d.resolution = 12;
        FractureSettings s = dropSettings(FractureMethod::SecondarySplits, 8);
        s.evaluateEveryStep = true;
        s.tauScale = 1e4f;
        s.domainMin = glm::vec3(-100.0f);
        s.domainMax = glm::vec3(100.0f);
        FractureBodyInstance b = instance(makeTetShape(d), glm::mat3(1.0f), glm::vec3(0.0f, 5.0f, 0.0f));
        const glm::vec3 axis = glm::normalize(glm::vec3(1.0f, 0.7f, 0.3f));
        for (const glm::vec3& x : b.mesh.nodes) b.initial.push_back(x + 0.05f * glm::dot(x - glm::vec3(0, 5, 0), axis) * axis);
        FractureBodies bodies(context, shaders, graph, {b}, s);
        gpu::FrameResources frames(context, 1);
        Json sweep = Json::array();
        // Break until maxFragments, then time plain steps (no fracture) at that count.
        uint32_t lastRecorded = 0;
        for (int k = 0; k < 400 && bodies.report().fragments < uint32_t(o.maxFragments); ++k) {
            timedStep(bodies, graph, frames);
            const uint32_t f = bodies.report().fragments;
            if (f >= lastRecorded + 50 || lastRecorded == 0) {
                // The cost of simulating this many fragments: steps without fracture.
                FractureSettings plain = s;
                plain.method = FractureMethod::None;
                bodies.setSettings(plain);
                std::vector<double> ms;
                for (int r = 0; r < 3; ++r) ms.push_back(timedStep(bodies, graph, frames).step);
                std::sort(ms.begin(), ms.end());
                sweep.push_back({{"fragments", f}, {"nodes", bodies.nodeCount()}, {"gpu_ms_per_step", ms[1]}});
                std::fprintf(stderr, "floe bench: %u fragments: %.2f GPU ms per step\n", f, ms[1]);
                bodies.setSettings(s);
                lastRecorded = f;
            }
        }
        out["fragment_sweep"] = {{"tets", bodies.tetCount()}, {"points", sweep}};
    }
    return out;
}

void printFractureBench(const Json& r)
{
    fmt::print("\nfracture: objects (digest-004 Table 2 sizes)\n");
    for (const Json& o : r["objects"])
        fmt::print("  {:<16} {:>5} nodes {:>5} tets   (thesis {}: {} nodes, {} tets)\n", o["object"].get<std::string>(),
                   o["nodes"].get<size_t>(), o["tets"].get<size_t>(), o["thesis"].get<std::string>(), o["thesis_nodes"].get<int>(),
                   o["thesis_tets"].get<int>());
    fmt::print("\nGPU ms per fracture event (Table 5 layout: candidate sort, cut passes, rebuild; cuts made)\n");
    fmt::print("  {:<16} {:<17} {:>10} {:>5} {:>10} {:>5}\n", "object", "method", "3 iter.", "cuts", "8 iter.", "cuts");
    for (const Json& row : r["event_cost"])
        fmt::print("  {:<16} {:<17} {:>10.2f} {:>5} {:>10.2f} {:>5}\n", row["object"].get<std::string>(),
                   row["method"].get<std::string>(), row["iterations_3"]["ms"].get<double>(),
                   row["iterations_3"]["cuts"].get<uint32_t>(), row["iterations_8"]["ms"].get<double>(),
                   row["iterations_8"]["cuts"].get<uint32_t>());
    fmt::print("\nfragments after drops from height 5, glass with tau 0.5, 3 iterations (Table 4 layout, mean of seeded drops)\n");
    for (const Json& row : r["fragments"])
        fmt::print("  {:<16} {:<17} {:>8.1f} fragments  {:>7.2f} GPU ms/step  ({} per step)\n", row["object"].get<std::string>(),
                   row["method"].get<std::string>(), row["fragments_mean"].get<double>(), row["gpu_ms_per_step"].get<double>(),
                   launchBudgetText(row["launch_budget_per_step"]));
    fmt::print("\nConstraint method (Table 6 layout; tau 2.5, drops from height 5): init host ms, GPU ms per step without and "
               "with breaks, fragments\n");
    for (const Json& row : r["constraint"])
        fmt::print(
            "  {:<21} {:>5} pieces {:>5} constraints (thesis {} / {})  init {:>8.1f}  step {:>7.2f}  break {:>7.2f}  {:>6.1f} "
            "fragments\n",
            row["object"].get<std::string>(), row["pieces"].get<uint32_t>(), row["constraints"].get<uint32_t>(),
            row["thesis_pieces"].get<int>(), row["thesis_constraints"].get<int>(), row["init_ms"].get<double>(),
            row["step_ms"].get<double>(), row["break_step_ms"].get<double>(), row["fragments_mean"].get<double>());
    const Json& c = r["coupling"];
    fmt::print("\ncoupling with a fluid ({}, {} particles, {} steps; median GPU ms per step)\n", c["scene"].get<std::string>(),
               c["fluid_particles"].get<size_t>(), c["steps"].get<int>());
    fmt::print("  coupled {:.2f} (mean {:.2f}; the coupling's passes {:.2f}), fluid alone {:.2f}, bodies alone {:.2f}, "
               "overhead {:.2f}; {} fragments after\n",
               c["coupled_gpu_ms_per_step"].get<double>(), c["coupled_gpu_ms_per_step_mean"].get<double>(),
               c["coupling_passes_gpu_ms_per_step"].get<double>(), c["fluid_alone_gpu_ms_per_step"].get<double>(),
               c["bodies_alone_gpu_ms_per_step"].get<double>(), c["coupling_overhead_gpu_ms_per_step"].get<double>(),
               c["fragments_after"].get<uint32_t>());
    fmt::print("\nGPU ms per step against fragments ({} tets)\n", r["fragment_sweep"]["tets"].get<uint32_t>());
    for (const Json& p : r["fragment_sweep"]["points"])
        fmt::print("  {:>5} fragments {:>6} nodes {:>8.2f} ms\n", p["fragments"].get<uint32_t>(), p["nodes"].get<uint32_t>(),
                   p["gpu_ms_per_step"].get<double>());
}

} // namespace floe
