#include "fracture/FractureBodies.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "base/Error.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/fracture.h"
#include "sim/ParticleBuffers.h"

namespace floe::fracture {

namespace {

constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kUint = VK_FORMAT_R32_UINT;
constexpr VkFormat kUvec4 = VK_FORMAT_R32G32B32A32_UINT;
constexpr uint32_t kComponentRounds = 32; // hooking + jumping rounds; stops early when nothing changes
constexpr uint32_t kReachRounds = 24;     // radius_connected: tets a crack may cross from its node (stops early)

struct NamedMethod {
    const char* name;
    FractureMethod method;
};
constexpr NamedMethod kMethods[] = {{"none", FractureMethod::None},
                                    {"radius", FractureMethod::Radius},
                                    {"radius_connected", FractureMethod::RadiusConnected},
                                    {"secondary_splits", FractureMethod::SecondarySplits}};

uint32_t bitsFor(uint32_t n)
{
    uint32_t bits = 1;
    while (bits < 32 && (uint64_t(1) << bits) <= n) ++bits;
    return bits;
}

} // namespace

std::optional<FractureMethod> fractureMethodFromName(const std::string& name)
{
    for (const NamedMethod& m : kMethods)
        if (name == m.name) return m.method;
    return std::nullopt;
}

const char* fractureMethodName(FractureMethod method)
{
    for (const NamedMethod& m : kMethods)
        if (m.method == method) return m.name;
    return "?";
}

FractureBodies::FractureBodies(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                               const std::vector<FractureBodyInstance>& bodies, const FractureSettings& settings)
    : context_(context), pipelines_(context, shaders), settings_(settings), bodies_(uint32_t(bodies.size()))
{
    using sim::uploaded;
    if (bodies.empty()) throw Error("a fracture scene needs at least one body");
    std::vector<glm::vec4> positions, velocities, restNodes, tetRows, lame, tetInfo, bodyInfo;
    std::vector<glm::uvec4> tets;
    for (uint32_t b = 0; b < bodies_; ++b) {
        const FractureBodyInstance& body = bodies[b];
        const uint32_t base = uint32_t(positions.size());
        glm::dvec3 centre(0.0);
        for (const glm::vec3& x : body.mesh.nodes) centre += glm::dvec3(x);
        centre /= double(std::max<size_t>(body.mesh.nodes.size(), 1));
        if (!body.initial.empty() && body.initial.size() != body.mesh.nodes.size())
            throw Error(
                fmt::format("{}: {} initial positions for {} nodes", body.mesh.name, body.initial.size(), body.mesh.nodes.size()));
        for (size_t n = 0; n < body.mesh.nodes.size(); ++n) {
            const glm::vec3 x = body.initial.empty() ? body.mesh.nodes[n] : body.initial[n];
            positions.emplace_back(x, 0.0f); // inverse masses from node_mass
            const glm::vec3 v = body.velocity + glm::cross(body.angularVelocity, x - glm::vec3(centre));
            velocities.emplace_back(v, 0.0f);
            restNodes.emplace_back(body.mesh.nodes[n], float(b));
        }
        std::vector<glm::vec4> rows;
        packRest(restData(body.mesh), rows);
        tetRows.insert(tetRows.end(), rows.begin(), rows.end());
        double edges = 0;
        for (const glm::uvec4& t : body.mesh.tets) {
            tets.push_back(t + glm::uvec4(base));
            double e = 0;
            for (int i = 0; i < 4; ++i)
                for (int j = i + 1; j < 4; ++j) e += glm::length(body.mesh.nodes[t[j]] - body.mesh.nodes[t[i]]);
            edges += e / 6.0;
            lame.emplace_back(body.material.lambda, body.material.mu, body.material.phi, body.material.psi);
            // Stiffness of the tet's corner springs: E times its size (N/m).
            const float size = float(std::cbrt(6.0 * signedVolume(body.mesh, size_t(&t - body.mesh.tets.data()))));
            tetInfo.emplace_back(float(b), body.density, body.youngsModulus * size, 0.0f);
        }
        const float meanEdge = float(edges / double(std::max<size_t>(body.mesh.tets.size(), 1)));
        bodyInfo.emplace_back(body.material.tau, body.breakable ? 1.0f : 0.0f, 0.0f, meanEdge);
    }
    // Colour the tets so that no two of a colour share a node (greedy, in order), and store
    // them colour by colour: tet_goals then runs Gauss-Seidel over colours. Cuts only split
    // nodes, so the colouring stays valid for the whole run.
    {
        std::vector<std::vector<uint32_t>> usedBy(positions.size());
        std::vector<uint32_t> colour(tets.size());
        uint32_t colours = 0;
        for (size_t t = 0; t < tets.size(); ++t) {
            std::vector<char> taken(colours + 1, 0);
            for (int i = 0; i < 4; ++i)
                for (uint32_t c : usedBy[tets[t][i]]) taken[c] = 1;
            uint32_t c = 0;
            while (taken[c]) ++c;
            colour[t] = c;
            colours = std::max(colours, c + 1);
            for (int i = 0; i < 4; ++i) usedBy[tets[t][i]].push_back(c);
        }
        std::vector<uint32_t> order(tets.size());
        for (size_t t = 0; t < order.size(); ++t) order[t] = uint32_t(t);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return colour[a] < colour[b]; });
        auto permuted = [&](auto& v, size_t per) {
            auto copy = v;
            for (size_t k = 0; k < order.size(); ++k)
                for (size_t j = 0; j < per; ++j) v[per * k + j] = copy[per * order[k] + j];
        };
        permuted(tets, 1);
        permuted(tetRows, 4);
        permuted(lame, 1);
        permuted(tetInfo, 1);
        colourStart_.assign(colours + 1, 0);
        for (uint32_t c : colour) ++colourStart_[c + 1];
        for (uint32_t c = 0; c < colours; ++c) colourStart_[c + 1] += colourStart_[c];
    }
    tets_ = uint32_t(tets.size());
    nodes_ = uint32_t(positions.size());
    capacity_ = 4 * tets_; // every node holds at least one distinct tet corner
    const uint32_t corners = 4 * tets_;
    auto sized = [&](const char* name, VkDeviceSize elements, VkDeviceSize bytes, VkFormat format) {
        return gpu::Buffer(context, {name, std::max<VkDeviceSize>(elements, 1) * bytes, gpu::MemoryKind::DeviceLocal, format});
    };
    positions.resize(capacity_, glm::vec4(0.0f));
    velocities.resize(capacity_, glm::vec4(0.0f));
    restNodes.resize(capacity_, glm::vec4(0.0f));
    params_ = gpu::Buffer(context, {"fracture params", sizeof(shared::FractureParams), gpu::MemoryKind::Upload});
    state_ = sized("fracture state", 1, sizeof(shared::FractureState), kUint);
    stateReadback_ = gpu::Buffer(context, {"fracture state read-back", sizeof(shared::FractureState), gpu::MemoryKind::Readback});
    positions_ = uploaded(context, graph, "fracture positions", positions, kVec4);
    velocities_ = uploaded(context, graph, "fracture velocities", velocities, kVec4);
    restNodes_ = uploaded(context, graph, "fracture rest nodes", restNodes, kVec4);
    predicted_ = sized("fracture predicted", capacity_, 16, kVec4);
    peak_ = sized("fracture peak loads", capacity_, 16, kVec4);
    nodeFlags_ = uploaded(context, graph, "fracture node flags", std::vector<uint32_t>(capacity_, 0u), kUint);
    nodeData_ = uploaded(context, graph, "fracture node data", std::vector<glm::vec4>(capacity_, glm::vec4(0.0f)), kVec4);
    labels_ = sized("fracture labels", capacity_, 4, kUint);
    nodeSides_ = sized("fracture node sides", capacity_, 4, kUint);
    split_ = sized("fracture split flags", capacity_, 4, kUint);
    offsets_ = sized("fracture split offsets", capacity_, 4, kUint);
    keys_ = sized("fracture sort keys", corners, 4, kUint);
    values_ = sized("fracture sort values", corners, 4, kUint);
    tetBuffer_ = uploaded(context, graph, "fracture tets", tets, kUvec4);
    tetRest_ = uploaded(context, graph, "fracture tet rest", tetRows, kVec4);
    tetMaterial_ = uploaded(context, graph, "fracture tet material", lame, kVec4);
    tetInfo_ = uploaded(context, graph, "fracture tet info", tetInfo, kVec4);
    tetRotation_ = uploaded(context, graph, "fracture tet rotations", std::vector<glm::vec4>(tets_, glm::vec4(0, 0, 0, 1)), kVec4);
    tetSide_ = sized("fracture tet sides", tets_, 4, kUint);
    tetReach_ = sized("fracture tet reach", tets_, 4, kUint);
    nodeReach_ = sized("fracture node reach", capacity_, 4, kUint);
    lambdas_ = sized("fracture multipliers", corners, 16, kVec4);
    corners_ = sized("fracture incidence corners", corners, 4, kUint);
    slots_ = sized("fracture incidence slots", corners, 4, kUint);
    nodeStart_ = sized("fracture node start", VkDeviceSize(capacity_) + 1, 4, kUint);
    heads_ = sized("fracture incidence heads", corners, 4, kUint);
    bodyInfo_ = uploaded(context, graph, "fracture body info", bodyInfo, kVec4);
    surface_ = sized("fracture surface", 12 * VkDeviceSize(tets_), 16, kVec4);
    surfaceNormals_ = sized("fracture surface normals", 12 * VkDeviceSize(tets_), 16, kVec4);
    surfaceTriangles_ = sized("fracture surface triangles", 4 * VkDeviceSize(tets_), 16, kUvec4);
    sort_.emplace(context, shaders, corners);
    scan_.emplace(context, shaders, capacity_);
    stress_.emplace(context, shaders, tets_, capacity_);

    shared::FractureState initial{};
    initial.counts.x = nodes_;
    initial.cutInfo.x = FRACTURE_NONE;
    sim::uploadNow(context, graph, state_, &initial, sizeof(initial));
    writeParams();
    addRebuild(graph);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
    report_ = afterStep(graph);
}

void FractureBodies::setSettings(const FractureSettings& settings)
{
    settings_ = settings;
}

void FractureBodies::writeParams()
{
    shared::FractureParams p{};
    p.tets = tets_;
    p.nodes = nodes_;
    p.separation = uint32_t(settings_.separation);
    p.nodeCapacity = capacity_;
    const float dt = settings_.timeStep / float(std::max(settings_.substeps, 1u));
    p.gravity = glm::vec4(settings_.gravity, dt);
    p.domainMin = glm::vec4(settings_.domainMin, settings_.friction);
    p.domainMax = glm::vec4(settings_.domainMax, settings_.damping);
    p.fracture = glm::vec4(settings_.tauScale, 0.0f, settings_.fragility, settings_.radiusFactor);
    p.control = glm::uvec4(uint32_t(settings_.method), settings_.maxIterations, settings_.evaluateEveryStep ? 1u : 0u,
                           settings_.colourMode);
    params_.write(&p, sizeof(p));
}

StressInputs FractureBodies::stressInputs() const
{
    StressInputs in;
    in.params = &params_;
    in.positions = &positions_;
    in.velocities = &velocities_;
    in.tets = &tetBuffer_;
    in.rest = &tetRest_;
    in.material = &tetMaterial_;
    in.slots = &slots_;
    in.nodeStart = &nodeStart_;
    in.heads = &heads_;
    in.tetCount = tets_;
    in.nodeCount = nodes_;
    return in;
}

void FractureBodies::addRebuild(graph::RenderGraph& graph)
{
    const uint32_t corners = 4 * tets_;
    graph.addCompute(pipelines_.compute("fracture/incidence_keys"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_TETS, tetBuffer_)
        .write(FRACTURE_BIND_KEYS, keys_)
        .write(FRACTURE_BIND_VALUES, values_)
        .dispatchThreads(corners);
    sort_->sort(graph, keys_, values_, corners, bitsFor(capacity_));
    graph.addCompute(pipelines_.compute("fracture/incidence_start"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_KEYS, keys_)
        .read(FRACTURE_BIND_VALUES, values_)
        .write(FRACTURE_BIND_NODE_START, nodeStart_)
        .write(FRACTURE_BIND_CORNERS, corners_)
        .write(FRACTURE_BIND_SLOTS, slots_)
        .write(FRACTURE_BIND_SPLIT, heads_)
        .dispatchThreads(corners);
    graph.addCompute(pipelines_.compute("fracture/node_mass"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_NODE_START, nodeStart_)
        .read(FRACTURE_BIND_CORNERS, corners_)
        .read(FRACTURE_BIND_TET_REST, tetRest_)
        .read(FRACTURE_BIND_TET_INFO, tetInfo_)
        .readWrite(FRACTURE_BIND_POSITIONS, positions_)
        .readWrite(FRACTURE_BIND_NODE_DATA, nodeData_)
        .dispatchThreads(nodes_);
    // Fragments: labels by hooking and pointer jumping until nothing changes.
    auto stage = [&](uint32_t s) {
        return graph.addCompute(pipelines_.compute("fracture/components"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_TETS, tetBuffer_)
            .readWrite(FRACTURE_BIND_LABELS, labels_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .push(s);
    };
    stage(0).dispatchThreads(capacity_);
    for (uint32_t round = 0; round < kComponentRounds; ++round) {
        stage(1).dispatchIndirect(state_, offsetof(shared::FractureState, tetArgs));
        stage(2).dispatchIndirect(state_, offsetof(shared::FractureState, nodeArgs));
        stage(3).dispatch(1);
    }
    stage(4).dispatchThreads(nodes_);
    graph.addCopy("fracture state read-back", state_, stateReadback_, sizeof(shared::FractureState));
    graph.addHostRead(stateReadback_);
}

void FractureBodies::addStep(graph::RenderGraph& graph)
{
    writeParams();
    graph.addCompute(pipelines_.compute("fracture/step_begin")).readWrite(FRACTURE_BIND_STATE, state_).dispatch(1);
    for (uint32_t s = 0; s < std::max(settings_.substeps, 1u); ++s) {
        graph.addCompute(pipelines_.compute("fracture/predict"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_POSITIONS, positions_)
            .readWrite(FRACTURE_BIND_VELOCITIES, velocities_)
            .write(FRACTURE_BIND_PREDICTED, predicted_)
            .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
            .write(FRACTURE_BIND_PEAK, peak_)
            .push(s)
            .dispatchThreads(nodes_);
        for (uint32_t k = 0; k < std::max(settings_.iterations, 1u); ++k)
            for (size_t c = 0; c + 1 < colourStart_.size(); ++c) {
                const glm::uvec4 range(colourStart_[c], colourStart_[c + 1] - colourStart_[c], k, 0u);
                graph.addCompute(pipelines_.compute("fracture/tet_goals"))
                    .read(FRACTURE_BIND_PARAMS, params_)
                    .readWrite(FRACTURE_BIND_PREDICTED, predicted_)
                    .read(FRACTURE_BIND_REST_NODES, restNodes_)
                    .read(FRACTURE_BIND_TETS, tetBuffer_)
                    .read(FRACTURE_BIND_TET_REST, tetRest_)
                    .read(FRACTURE_BIND_TET_INFO, tetInfo_)
                    .readWrite(FRACTURE_BIND_TET_ROTATION, tetRotation_)
                    .readWrite(FRACTURE_BIND_LAMBDAS, lambdas_)
                    .push(range)
                    .dispatchThreads(range.y);
            }
        graph.addCompute(pipelines_.compute("fracture/collide"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .readWrite(FRACTURE_BIND_POSITIONS, positions_)
            .readWrite(FRACTURE_BIND_PREDICTED, predicted_)
            .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .dispatchThreads(nodes_);
        graph.addCompute(pipelines_.compute("fracture/finish"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .readWrite(FRACTURE_BIND_POSITIONS, positions_)
            .write(FRACTURE_BIND_VELOCITIES, velocities_)
            .read(FRACTURE_BIND_PREDICTED, predicted_)
            .dispatchThreads(nodes_);
        // Stress and loads after every substep; each node keeps its peak of the step.
        stress_->addPasses(graph, stressInputs());
        graph.addCompute(pipelines_.compute("fracture/load"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_NODE_SEPARATION, stress_->nodeSeparation())
            .read(FRACTURE_BIND_REST_NODES, restNodes_)
            .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
            .readWrite(FRACTURE_BIND_NODE_DATA, nodeData_)
            .readWrite(FRACTURE_BIND_PEAK, peak_)
            .write(FRACTURE_BIND_KEYS, keys_)
            .write(FRACTURE_BIND_VALUES, values_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .dispatchThreads(nodes_);
    }

    if (settings_.method != FractureMethod::None) {
        sort_->sort(graph, keys_, values_, nodes_, 32);
        const uint32_t cuts =
            settings_.method == FractureMethod::SecondarySplits ? settings_.maxIterations + 1 : settings_.maxIterations;
        for (uint32_t c = 0; c < cuts; ++c) {
            graph.addCompute(pipelines_.compute("fracture/cut_select"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_VALUES, values_)
                .read(FRACTURE_BIND_NODE_DATA, nodeData_)
                .read(FRACTURE_BIND_PEAK, peak_)
                .read(FRACTURE_BIND_POSITIONS, positions_)
                .read(FRACTURE_BIND_REST_NODES, restNodes_)
                .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
                .read(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
                .read(FRACTURE_BIND_LABELS, labels_)
                .readWrite(FRACTURE_BIND_STATE, state_)
                .push(c)
                .dispatch(1);
            if (settings_.method == FractureMethod::RadiusConnected) {
                // The tets reached from the cut node through tets within the radius.
                graph.addFill("fracture/node_reach_clear", nodeReach_, 0u);
                auto reach = [&](uint32_t stage) {
                    return graph.addCompute(pipelines_.compute("fracture/cut_reach"))
                        .read(FRACTURE_BIND_PARAMS, params_)
                        .read(FRACTURE_BIND_POSITIONS, positions_)
                        .read(FRACTURE_BIND_TETS, tetBuffer_)
                        .read(FRACTURE_BIND_LABELS, labels_)
                        .readWrite(FRACTURE_BIND_TET_REACH, tetReach_)
                        .readWrite(FRACTURE_BIND_NODE_REACH, nodeReach_)
                        .readWrite(FRACTURE_BIND_STATE, state_)
                        .push(stage);
                };
                reach(0).dispatchThreads(tets_);
                for (uint32_t round = 0; round < kReachRounds; ++round) {
                    reach(1).dispatchIndirect(state_, offsetof(shared::FractureState, reachArgs));
                    reach(2).dispatch(1);
                }
            }
            graph.addFill("fracture/node_sides_clear", nodeSides_, 0u);
            graph.addCompute(pipelines_.compute("fracture/cut_classify"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_POSITIONS, positions_)
                .read(FRACTURE_BIND_TETS, tetBuffer_)
                .read(FRACTURE_BIND_LABELS, labels_)
                .read(FRACTURE_BIND_TET_REACH, tetReach_)
                .write(FRACTURE_BIND_TET_SIDE, tetSide_)
                .readWrite(FRACTURE_BIND_NODE_SIDES, nodeSides_)
                .readWrite(FRACTURE_BIND_STATE, state_)
                .dispatchIndirect(state_, offsetof(shared::FractureState, tetArgs));
            graph.addCompute(pipelines_.compute("fracture/cut_split"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_NODE_SIDES, nodeSides_)
                .write(FRACTURE_BIND_SPLIT, split_)
                .readWrite(FRACTURE_BIND_STATE, state_)
                .dispatchIndirect(state_, offsetof(shared::FractureState, nodeArgs));
            scan_->exclusive(graph, split_, offsets_, capacity_);
            graph.addCompute(pipelines_.compute("fracture/cut_duplicate"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_SPLIT, split_)
                .read(FRACTURE_BIND_OFFSETS, offsets_)
                .readWrite(FRACTURE_BIND_POSITIONS, positions_)
                .readWrite(FRACTURE_BIND_VELOCITIES, velocities_)
                .readWrite(FRACTURE_BIND_REST_NODES, restNodes_)
                .readWrite(FRACTURE_BIND_NODE_DATA, nodeData_)
                .readWrite(FRACTURE_BIND_LABELS, labels_)
                .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
                .readWrite(FRACTURE_BIND_STATE, state_)
                .dispatchIndirect(state_, offsetof(shared::FractureState, nodeArgs));
            graph.addCompute(pipelines_.compute("fracture/cut_rewrite"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_TET_SIDE, tetSide_)
                .read(FRACTURE_BIND_SPLIT, split_)
                .read(FRACTURE_BIND_OFFSETS, offsets_)
                .readWrite(FRACTURE_BIND_TETS, tetBuffer_)
                .readWrite(FRACTURE_BIND_STATE, state_)
                .dispatchIndirect(state_, offsetof(shared::FractureState, tetArgs));
            graph.addCompute(pipelines_.compute("fracture/cut_finish"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_SPLIT, split_)
                .read(FRACTURE_BIND_OFFSETS, offsets_)
                .readWrite(FRACTURE_BIND_STATE, state_)
                .dispatch(1);
        }
    }
    graph.addCopy("fracture state read-back", state_, stateReadback_, sizeof(shared::FractureState));
    graph.addHostRead(stateReadback_);
}

FractureReport FractureBodies::afterStep(graph::RenderGraph& graph, gpu::FrameResources* frames)
{
    shared::FractureState s = stateReadback_.readVector<shared::FractureState>(1)[0];
    rebuilt_ = s.counts.x != nodes_;
    if (rebuilt_) {
        // Cuts added nodes: rebuild the incidence, masses and fragments before the next step.
        nodes_ = s.counts.x;
        writeParams();
        addRebuild(graph);
        if (frames) {
            VkCommandBuffer cmd = frames->begin(0);
            graph.execute(cmd, &frames->timer(0));
            frames->submit(0);
            frames->wait(0);
        } else {
            context_.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
        }
        s = stateReadback_.readVector<shared::FractureState>(1)[0];
    }
    if (s.extra.z == 0)
        throw Error(fmt::format("fracture: the fragments' labels did not converge in {} rounds ({} nodes); this is a bug",
                                kComponentRounds, nodes_),
                    ExitCode::Failure);
    report_.nodes = nodes_;
    report_.fragments = s.counts2.x;
    report_.events = s.counts.z;
    report_.cuts = s.counts.w;
    report_.contact = s.counts.y != 0;
    float load;
    std::memcpy(&load, &s.extra.x, sizeof(load));
    report_.maxLoad = load;
    return report_;
}

void FractureBodies::addSurface(graph::RenderGraph& graph)
{
    writeParams();
    graph.addCompute(pipelines_.compute("fracture/surface"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .read(FRACTURE_BIND_TETS, tetBuffer_)
        .read(FRACTURE_BIND_LABELS, labels_)
        .read(FRACTURE_BIND_NODE_DATA, nodeData_)
        .read(FRACTURE_BIND_REST_NODES, restNodes_)
        .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
        .write(FRACTURE_BIND_SURFACE, surface_)
        .write(FRACTURE_BIND_SURFACE_NORMALS, surfaceNormals_)
        .write(FRACTURE_BIND_SURFACE_TRIS, surfaceTriangles_)
        .dispatchThreads(tets_);
}

std::vector<glm::vec4> FractureBodies::download(graph::RenderGraph& graph, const gpu::Buffer& buffer, size_t count)
{
    std::vector<glm::vec4> out(count);
    sim::downloadNow(context_, graph, buffer, out.data(), count * sizeof(glm::vec4));
    return out;
}

} // namespace floe::fracture
