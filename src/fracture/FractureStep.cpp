// The passes of one fracture step (FractureBodies.h has the order): the substeps' dynamics,
// contacts and stress, then the fracture method's cut passes or the Constraint method's update.
#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>

#include "fracture/FractureBodies.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/fracture.h"

namespace floe::fracture {

namespace {
constexpr uint32_t kReachRounds = 24; // radius_connected: tets a crack may cross from its node (stops early)
constexpr uint32_t kWaveLevels = 48;  // Wave: breadth-first levels per wave (stops early: energy, no more tets)
} // namespace

std::vector<ColourRun> colourRuns(const std::vector<uint32_t>& colourStart, uint32_t groupSize, bool fuse)
{
    std::vector<ColourRun> runs;
    for (uint32_t c = 0; c + 1 < colourStart.size(); ++c) {
        const uint32_t tets = colourStart[c + 1] - colourStart[c];
        const bool small = fuse && tets <= groupSize;
        if (small && !runs.empty() && runs.back().colours > 0) {
            ++runs.back().colours;
            runs.back().tets += tets;
        } else {
            runs.push_back({colourStart[c], tets, c, small ? 1u : 0u});
        }
    }
    return runs;
}

void FractureBodies::addStep(graph::RenderGraph& graph)
{
    writeParams();
    graph.addCompute(pipelines_.compute("fracture/step_begin"))
        .readWrite(FRACTURE_BIND_STATE, state_)
        .read(FRACTURE_BIND_EXTERNAL_CONTACT, externalContact_)
        .dispatch(1);
    // Each fragment's origin moves to its root node, so positions stay small (fracture/recentre).
    for (uint32_t stage : {0u, 1u})
        graph.addCompute(pipelines_.compute("fracture/recentre"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .readWrite(FRACTURE_BIND_POSITIONS, positions_)
            .readWrite(FRACTURE_BIND_NODE_ORIGIN, origins_)
            .read(FRACTURE_BIND_LABELS, labels_)
            .readWrite(FRACTURE_BIND_SHIFT, shifts_)
            .push(stage)
            .dispatchThreads(nodes_);
    graph.addCopy("fracture/step_velocities", velocities_, stepVelocities_, uint64_t(nodes_) * 16);
    if (obstacles_.triangles > 0) graph.addFill("fracture/obstacle_pushes_clear", pushedBy_, 0u);
    roundLaunches_.clear();
    for (uint32_t s = 0; s < std::max(settings_.substeps, 1u); ++s) addSubstep(graph, s);
    if (!roundLaunches_.empty()) {
        std::vector<glm::uvec4> groups(roundTemplate_.size() / 16, glm::uvec4(0u, 1u, 1u, 0u));
        std::copy(roundLaunches_.begin(), roundLaunches_.end(), groups.begin());
        roundTemplate_.write(groups.data(), groups.size() * 16);
    }
    addBounce(graph);
    if (roundsGoOn()) {
        // The tolerance per substep as a speed: slower nodes cannot go that deep by their own motion.
        const float substep = settings_.timeStep / float(std::max(settings_.substeps, 1u));
        const shared::FractureApproachPush push{
            obstacles_.origin, obstacles_.dims,
            glm::vec4(settings_.timeStep, maxMeanEdge_, settings_.wallTolerance * minMeanEdge_ / substep, 0.0f)};
        // With static meshes, the variant that also looks at their faces near each node.
        auto pass = graph.addCompute(
            pipelines_.compute(obstacles_.triangles > 0 ? "fracture/obstacle_approach" : "fracture/wall_approach"));
        pass.read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_POSITIONS, positions_)
            .read(FRACTURE_BIND_VELOCITIES, velocities_)
            .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
            .read(FRACTURE_BIND_EXTERNAL_CONTACT, externalContact_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .push(push);
        if (obstacles_.triangles > 0)
            pass.read(FRACTURE_BIND_OBSTACLE_TRIANGLES, obstacles_.corners)
                .read(FRACTURE_BIND_OBSTACLE_CELLS, obstacles_.cells)
                .read(FRACTURE_BIND_OBSTACLE_ENTRIES, obstacles_.entries);
        pass.dispatchThreads(nodes_);
    }
    if (settings_.method == FractureMethod::Constraint) {
        addConstraintUpdate(graph);
    } else if (settings_.method != FractureMethod::None) {
        // The elastic energy before the cuts, for a caller that keeps the energy account
        // (addMetrics() measures it after them); benches and the window skip it.
        if (accounting_ || allPasses_) {
            addElasticEnergy(graph, 0);
            energyBeforeCuts_ = !allPasses_;
        }
        addCuts(graph);
    }
    graph.addCopy("fracture state read-back", state_, stateReadback_, sizeof(shared::FractureState));
    graph.addHostRead(stateReadback_);
}

void FractureBodies::addSubstep(graph::RenderGraph& graph, uint32_t substep)
{
    graph.addCompute(pipelines_.compute("fracture/predict"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .readWrite(FRACTURE_BIND_VELOCITIES, velocities_)
        .write(FRACTURE_BIND_PREDICTED, predicted_)
        .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
        .write(FRACTURE_BIND_PEAK, peak_)
        .readWrite(FRACTURE_BIND_LEDGER, ledger_)
        .push(substep)
        .dispatchThreads(nodes_);
    // Each iteration projects the contacts between fragments and the walls, then sweeps the tets,
    // so that the tets answer them within the substep. With the walls after one sweep, the walls
    // pushed the nodes the sweep had pressed into the floor back out, their tets stayed
    // compressed by that push, and impacts made energy from nothing: a glass cube dropped flat
    // from 1.5 m held 7.4 times its initial energy in the step it landed (20 substeps; 2.4 times
    // at 40). Walls first with one iteration: a glass cube landing on an edge from 5 m still
    // gains 23 %, iron 64 %; with three (the default), none
    // (FractureTest.DropsGainNoEnergyAndLoseItAtTheImpact; docs/fracture.md, *Energy*). The
    // contacts between fragments did the same after the sweep (fracture_cube_600 held 2.8 times
    // its initial energy while it shattered; 1.4 times now); once before the iterations they were
    // soft, and the projectile's iron ball stopped in the ceramic cube without breaking it. The
    // Constraint method's rigid pieces move as a whole with a push (after their links and shape
    // match it left a piece bent until the next substep, where the links took the bend for load).
    // Past Fracture.iterations, rounds go on while the walls and static meshes still find a node
    // deeper than Fracture.wallTolerance (fracture/round_check), up to Fracture.iterationLimit:
    // three rounds left the stiff tets of landing bodies compressed by the walls' depenetration,
    // and drops gained up to 110 % of their energy (docs/fracture.md, *Energy*).
    const uint32_t always = std::max(settings_.iterations, 1u);
    // Recorded where the walls may be met hard: after a step that ran them or that ended with a node
    // approaching a wall or a static mesh's face fast (fracture/wall_approach, obstacle_approach),
    // or when nothing is known yet.
    const bool near = wallsNear_ || allPasses_;
    const uint32_t rounds = near && roundsGoOn() ? std::max(always, settings_.iterationLimit) : always;
    for (uint32_t k = 0; k < rounds; ++k) {
        gatedRound_ = k >= always;
        addContacts(graph, k == 0);
        addFaceContacts(graph, k == 0);
        addCollide(graph);
        addObstacles(graph);
        for (const ColourRun& run : colourRuns_) {
            const bool fused = run.colours > 0;
            const glm::uvec4 push(fused ? run.firstColour : run.firstTet, run.tets, k, run.colours);
            auto pass = graph.addCompute(pipelines_.compute("fracture/tet_goals", {{0, fused ? 1u : 0u}}));
            pass.read(FRACTURE_BIND_PARAMS, params_)
                .readWrite(FRACTURE_BIND_PREDICTED, predicted_)
                .read(FRACTURE_BIND_POSITIONS, positions_)
                .read(FRACTURE_BIND_REST_NODES, restNodes_)
                .read(FRACTURE_BIND_TETS, tetBuffer_)
                .read(FRACTURE_BIND_TET_INFO, tetInfo_)
                .readWrite(FRACTURE_BIND_LAMBDAS, lambdas_)
                .read(FRACTURE_BIND_COLOUR_START, colourStartBuffer_)
                .push(push);
            if (fused)
                launchGroups(pass, 1);
            else
                launch(pass, run.tets);
        }
        if (settings_.method == FractureMethod::Constraint && links_ > 0) {
            // The Constraint method runs no rounds past the iterations (roundsGoOn): direct launches.
            graph.addCompute(pipelines_.compute("fracture/link_solve"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_PREDICTED, predicted_)
                .read(FRACTURE_BIND_POSITIONS, positions_)
                .write(FRACTURE_BIND_CONTACT_OUT, contactOut_)
                .read(FRACTURE_BIND_LINKS, linkBuffer_)
                .read(FRACTURE_BIND_NODE_LINK_START, nodeLinkStart_)
                .read(FRACTURE_BIND_NODE_LINKS, nodeLinks_)
                .read(FRACTURE_BIND_CONSTRAINT_STATE, constraintState_)
                .readWrite(FRACTURE_BIND_LINK_IMPULSE, linkImpulse_)
                .dispatchThreads(nodes_);
            graph.addCopy("fracture/link_positions", contactOut_, predicted_, uint64_t(nodes_) * 16);
        }
        addPieceMatch(graph); // the pieces rigid again after the links moved their nodes
        if (rounds > always && k + 2 >= always) addRoundCheck(graph, k, rounds);
    }
    gatedRound_ = false;
    graph.addCompute(pipelines_.compute("fracture/finish"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .readWrite(FRACTURE_BIND_POSITIONS, positions_)
        .readWrite(FRACTURE_BIND_VELOCITIES, velocities_)
        .read(FRACTURE_BIND_PREDICTED, predicted_)
        .dispatchThreads(nodes_);
    addPieceVelocity(graph); // rigid pieces move with rigid velocities
    // Stress and loads after every substep; each node keeps its peak of the step.
    stress_->addPasses(graph, stressInputs());
    graph.addCompute(pipelines_.compute("fracture/load"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_NODE_SEPARATION, stress_->nodeSeparation())
        .read(FRACTURE_BIND_REST_NODES, restNodes_)
        .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
        .read(FRACTURE_BIND_NODE_START, nodeStart_)
        .read(FRACTURE_BIND_CORNERS, corners_)
        .read(FRACTURE_BIND_TET_INFO, tetInfo_)
        .read(FRACTURE_BIND_TET_DAMAGE, tetDamage_)
        .readWrite(FRACTURE_BIND_NODE_DATA, nodeData_)
        .readWrite(FRACTURE_BIND_PEAK, peak_)
        .write(FRACTURE_BIND_KEYS, keys_)
        .write(FRACTURE_BIND_VALUES, values_)
        .readWrite(FRACTURE_BIND_STATE, state_)
        .dispatchThreads(nodes_);
}

void FractureBodies::addFragmentMotionReadback(graph::RenderGraph& graph, const gpu::Buffer& target) const
{
    graph.addCopy("fracture/fragment_rows_readback", fragmentRows_, target, uint64_t(fragmentRowsAtStep_) * 48);
}

void FractureBodies::addBounce(graph::RenderGraph& graph)
{
    auto pass = [&](uint32_t stage) {
        graph.addCompute(pipelines_.compute("fracture/bounce"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_LABELS, labels_)
            .readWrite(FRACTURE_BIND_KEYS, bounceKeys_)
            .readWrite(FRACTURE_BIND_VALUES, bounceValues_)
            .read(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
            .read(FRACTURE_BIND_NODE_DATA, nodeData_)
            .read(FRACTURE_BIND_POSITIONS, positions_)
            .readWrite(FRACTURE_BIND_VELOCITIES, velocities_)
            .read(FRACTURE_BIND_STEP_VELOCITIES, stepVelocities_)
            .readWrite(FRACTURE_BIND_RECORDS, bounceRecords_)
            .readWrite(FRACTURE_BIND_HEADS, bounceHeads_)
            .read(FRACTURE_BIND_SCANNED, bounceScanned_)
            .readWrite(FRACTURE_BIND_APPROACH, approach_)
            .readWrite(FRACTURE_BIND_BOUNCE_OUT, bounceOut_)
            .read(FRACTURE_BIND_REST_NODES, restNodes_)
            .read(FRACTURE_BIND_BODY_CONTACT, bodyContact_)
            .readWrite(FRACTURE_BIND_WALL_MASK, wallMask_)
            .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
            .write(FRACTURE_BIND_FRAGMENT_ROWS, fragmentRows_)
            .read(FRACTURE_BIND_OBSTACLE_NORMALS, pushedBy_)
            .readWrite(FRACTURE_BIND_NORMAL_RECORDS, normalRecords_)
            .read(FRACTURE_BIND_NORMAL_SCANNED, normalSums_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .push(stage)
            .dispatchThreads(nodes_);
    };
    pass(0);
    sort_->sort(graph, bounceKeys_, bounceValues_, nodes_, bitsFor(capacity_));
    pass(1);
    bounceScan_->inclusive(graph, bounceRecords_, bounceHeads_, bounceScanned_, nodes_, 3);
    bounceScan_->inclusive(graph, normalRecords_, bounceHeads_, normalSums_, nodes_, 1);
    fragmentRowsAtStep_ = report_.fragments; // the fragments the labels hold now (rows of this step)
    pass(2);
    pass(3);
}

std::vector<std::string> FractureBodies::stepPassNames(graph::RenderGraph& graph)
{
    // Only the step recorded here is dropped: what was pending before it (the coupling's first
    // clears, recorded at construction) must still run.
    const size_t first = graph.pendingPasses();
    allPasses_ = true;
    addStep(graph);
    allPasses_ = false;
    std::vector<std::string> names = graph.pendingTimerNames(first);
    graph.discard(first);
    return names;
}

bool FractureBodies::roundsGoOn() const
{
    // Not for the Constraint method: its pieces are matched rigidly after every round, and the
    // walls' depth did not fall below the tolerance within 64 rounds (fracture_voronoi_cube's
    // landing ran every substep to the limit, and one step made 4.5 % of its energy instead of 0.9 %).
    return settings_.iterationLimit > settings_.iterations && settings_.method != FractureMethod::Constraint;
}

uint32_t FractureBodies::roundLaunch(uint64_t groups)
{
    const uint64_t maxX = context_.limits().maxComputeWorkGroupCount[0];
    if (groups > maxX * context_.limits().maxComputeWorkGroupCount[1])
        throw std::logic_error(fmt::format("fracture: a round's launch of {} workgroups exceeds the device's limits", groups));
    const glm::uvec4 entry(uint32_t(std::min(groups, maxX)), uint32_t((groups + maxX - 1) / maxX), 1u, 0u);
    auto found = std::find(roundLaunches_.begin(), roundLaunches_.end(), entry);
    if (found == roundLaunches_.end()) {
        if (roundLaunches_.size() >= roundTemplate_.size() / 16)
            throw std::logic_error("fracture: more launches in a round than fracture round launches holds");
        found = roundLaunches_.insert(roundLaunches_.end(), entry);
    }
    return uint32_t(found - roundLaunches_.begin());
}

void FractureBodies::launchGroups(graph::PassBuilder& pass, uint32_t groups)
{
    if (gatedRound_)
        pass.dispatchIndirect(roundArgs_, VkDeviceSize(roundLaunch(groups)) * 16);
    else
        pass.dispatch(groups);
}

void FractureBodies::launch(graph::PassBuilder& pass, uint64_t threads)
{
    if (gatedRound_)
        pass.dispatchIndirect(roundArgs_,
                              VkDeviceSize(roundLaunch((threads + FRACTURE_GROUP_SIZE - 1) / FRACTURE_GROUP_SIZE)) * 16);
    else
        pass.dispatchThreads(threads);
}

void FractureBodies::addRoundCheck(graph::RenderGraph& graph, uint32_t round, uint32_t rounds)
{
    const uint32_t always = std::max(settings_.iterations, 1u);
    const uint32_t mode = round + 1 >= always ? 1u : 0u; // the round before the first check only clears the depth
    // A gated round's check tells from the nodes' launch (fracture/collide's) whether the round ran.
    const uint32_t self =
        round >= always ? roundLaunch((uint64_t(nodes_) + FRACTURE_GROUP_SIZE - 1) / FRACTURE_GROUP_SIZE) : FRACTURE_NONE;
    const glm::uvec4 push(mode, uint32_t(roundTemplate_.size() / 16), round + 1 < rounds ? 1u : 0u, self);
    graph.addCompute(pipelines_.compute("fracture/round_check"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .readWrite(FRACTURE_BIND_STATE, state_)
        .readWrite(FRACTURE_BIND_ROUND_ARGS, roundArgs_)
        .read(FRACTURE_BIND_ROUND_TEMPLATE, roundTemplate_)
        .push(push)
        .dispatch(1);
}

void FractureBodies::addContactResults(graph::RenderGraph& graph)
{
    if (!gatedRound_) {
        graph.addCopy("fracture/contact_positions", contactOut_, predicted_, uint64_t(nodes_) * 16);
        graph.addCopy("fracture/contact_starts", contactStart_, positions_, uint64_t(nodes_) * 16);
        return;
    }
    // A transfer would run in a skipped round too: the results go through a launch that is skipped with it.
    launch(graph.addCompute(pipelines_.compute("fracture/contact_apply"))
               .read(FRACTURE_BIND_PARAMS, params_)
               .read(FRACTURE_BIND_CONTACT_OUT, contactOut_)
               .read(FRACTURE_BIND_CONTACT_START, contactStart_)
               .write(FRACTURE_BIND_PREDICTED, predicted_)
               .write(FRACTURE_BIND_POSITIONS, positions_),
           nodes_);
}

void FractureBodies::addCollide(graph::RenderGraph& graph)
{
    launch(graph.addCompute(pipelines_.compute("fracture/collide"))
               .read(FRACTURE_BIND_PARAMS, params_)
               .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
               .readWrite(FRACTURE_BIND_POSITIONS, positions_)
               .readWrite(FRACTURE_BIND_PREDICTED, predicted_)
               .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
               .readWrite(FRACTURE_BIND_STATE, state_),
           nodes_);
}

void FractureBodies::addObstacles(graph::RenderGraph& graph)
{
    if (obstacles_.triangles == 0) return;
    const shared::FractureObstaclePush push{obstacles_.origin, obstacles_.dims};
    auto pass = graph.addCompute(pipelines_.compute("fracture/obstacles"));
    pass.read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
        .read(FRACTURE_BIND_OBSTACLE_TRIANGLES, obstacles_.corners)
        .read(FRACTURE_BIND_OBSTACLE_CELLS, obstacles_.cells)
        .read(FRACTURE_BIND_OBSTACLE_ENTRIES, obstacles_.entries)
        .readWrite(FRACTURE_BIND_POSITIONS, positions_)
        .readWrite(FRACTURE_BIND_PREDICTED, predicted_)
        .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
        .readWrite(FRACTURE_BIND_OBSTACLE_NORMALS, pushedBy_)
        .readWrite(FRACTURE_BIND_STATE, state_)
        .push(push);
    launch(pass, nodes_);
}

void FractureBodies::addContacts(graph::RenderGraph& graph, bool detect)
{
    // Contacts between fragments and bodies: only once there are several.
    if (!settings_.contacts || (report_.fragments < 2 && !allPasses_)) return; // as of the last afterStep()
    if (detect) {
        graph.addCompute(pipelines_.compute("fracture/contact_cells"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
            .read(FRACTURE_BIND_PREDICTED, predicted_)
            .read(FRACTURE_BIND_POSITIONS, positions_)
            .write(FRACTURE_BIND_CONTACT_START, contactStart_)
            .dispatchThreads(nodes_);
        grid_->addBuild(graph, contactStart_, nodes_);
    }
    auto contacts = graph.addCompute(pipelines_.compute("fracture/contacts"));
    contacts.read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .read(FRACTURE_BIND_PREDICTED, predicted_)
        .read(FRACTURE_BIND_REST_NODES, restNodes_)
        .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
        .read(FRACTURE_BIND_LABELS, labels_)
        .read(FRACTURE_BIND_SORTED, grid_->sortedIndex())
        .read(FRACTURE_BIND_CELL_START, grid_->cellStart())
        .write(FRACTURE_BIND_CONTACT_OUT, contactOut_)
        .write(FRACTURE_BIND_CONTACT_START, contactStart_)
        .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
        .readWrite(FRACTURE_BIND_CONTACT_CANDIDATES, contactCandidates_)
        .readWrite(FRACTURE_BIND_STATE, state_)
        .push(glm::uvec2(detect ? 1u : 0u, contactStride_));
    launch(contacts, nodes_);
    addContactResults(graph);
}

void FractureBodies::addFaceContacts(graph::RenderGraph& graph, bool detect)
{
    if (!faceScan_ || !settings_.contacts || !settings_.faceContacts || (report_.fragments < 2 && !allPasses_)) return;
    if (detect) {
        graph.beginGroup("fracture/face_bins");
        graph.addFill("fracture/face_sums_clear", faceSums_, 0);
        graph.addFill("fracture/face_grid_clear", faceCounts_, 0);
        const auto bins = [&](uint32_t stage) {
            graph.addCompute(pipelines_.compute("fracture/face_bins"))
                .read(FRACTURE_BIND_PARAMS, params_)
                .read(FRACTURE_BIND_TETS, tetBuffer_)
                .read(FRACTURE_BIND_FACE_NEIGHBOURS, faceNeighbours_)
                .read(FRACTURE_BIND_POSITIONS, positions_)
                .read(FRACTURE_BIND_PREDICTED, predicted_)
                .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
                .read(FRACTURE_BIND_FACE_START, faceStart_)
                .readWrite(FRACTURE_BIND_FACE_COUNTS, faceCounts_)
                .readWrite(FRACTURE_BIND_FACE_ENTRIES, faceEntries_)
                .readWrite(FRACTURE_BIND_FACE_STATE, faceState_)
                .push(glm::uvec2(stage, faceCapacity_))
                .dispatchThreads(4 * tets_);
        };
        bins(0);
        faceScan_->exclusive(graph, faceCounts_, faceStart_, faceCells_ + 1);
        bins(1);
        graph.endGroup();
        graph.addCompute(pipelines_.compute("fracture/face_contacts"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_TETS, tetBuffer_)
            .read(FRACTURE_BIND_POSITIONS, positions_)
            .read(FRACTURE_BIND_PREDICTED, predicted_)
            .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
            .read(FRACTURE_BIND_REST_NODES, restNodes_)
            .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
            .read(FRACTURE_BIND_LABELS, labels_)
            .read(FRACTURE_BIND_FACE_START, faceStart_)
            .read(FRACTURE_BIND_FACE_ENTRIES, faceEntries_)
            .write(FRACTURE_BIND_FACE_CONTACTS, faceContacts_)
            .readWrite(FRACTURE_BIND_FACE_SUMS, faceSums_)
            .dispatchThreads(nodes_);
    }
    launch(graph.addCompute(pipelines_.compute("fracture/face_resolve"))
               .read(FRACTURE_BIND_PARAMS, params_)
               .read(FRACTURE_BIND_TETS, tetBuffer_)
               .read(FRACTURE_BIND_POSITIONS, positions_)
               .read(FRACTURE_BIND_PREDICTED, predicted_)
               .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
               .read(FRACTURE_BIND_FACE_CONTACTS, faceContacts_)
               .readWrite(FRACTURE_BIND_FACE_SUMS, faceSums_),
           nodes_);
    launch(graph.addCompute(pipelines_.compute("fracture/face_apply"))
               .read(FRACTURE_BIND_PARAMS, params_)
               .readWrite(FRACTURE_BIND_POSITIONS, positions_)
               .readWrite(FRACTURE_BIND_PREDICTED, predicted_)
               .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
               .readWrite(FRACTURE_BIND_FACE_SUMS, faceSums_)
               .readWrite(FRACTURE_BIND_STATE, state_),
           nodes_);
}

uint32_t FractureBodies::faceGridOverflows(graph::RenderGraph& graph) const
{
    if (!faceScan_) return 0;
    glm::uvec4 state(0);
    sim::downloadNow(context_, graph, faceState_, &state, 16);
    return state.x;
}

void FractureBodies::addPieceMatch(graph::RenderGraph& graph)
{
    if (settings_.method != FractureMethod::Constraint || pieces_ == 0) return;
    graph.addCompute(pipelines_.compute("fracture/piece_match"))
        .readWrite(FRACTURE_BIND_PREDICTED, predicted_)
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .read(FRACTURE_BIND_REST_NODES, restNodes_)
        .read(FRACTURE_BIND_PIECE_NODE_START, pieceNodeStart_)
        .read(FRACTURE_BIND_PIECE_NODES, pieceNodes_)
        .push(pieces_)
        .dispatch(std::min(pieces_, 65535u));
}

void FractureBodies::addPieceVelocity(graph::RenderGraph& graph)
{
    if (settings_.method != FractureMethod::Constraint || pieces_ == 0) return;
    graph.addCompute(pipelines_.compute("fracture/piece_velocity"))
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .readWrite(FRACTURE_BIND_VELOCITIES, velocities_)
        .read(FRACTURE_BIND_PIECE_NODE_START, pieceNodeStart_)
        .read(FRACTURE_BIND_PIECE_NODES, pieceNodes_)
        .push(pieces_)
        .dispatch(std::min(pieces_, 65535u));
}

void FractureBodies::addConstraintUpdate(graph::RenderGraph& graph)
{
    if (constraints_ == 0) return;
    graph.addFill("fracture/piece_breaks_clear", pieceBreaks_, 0u);
    auto stage = [&](uint32_t s) {
        return graph.addCompute(pipelines_.compute("fracture/constraint_update"))
            .read(FRACTURE_BIND_PARAMS, params_)
            .read(FRACTURE_BIND_CONSTRAINTS, constraintInfo_)
            .readWrite(FRACTURE_BIND_CONSTRAINT_STATE, constraintState_)
            .readWrite(FRACTURE_BIND_LINK_IMPULSE, linkImpulse_)
            .readWrite(FRACTURE_BIND_PIECE_BREAKS, pieceBreaks_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .push(s);
    };
    stage(0).dispatchThreads(constraints_);
    stage(1).dispatchThreads(constraints_);
}

void FractureBodies::addCuts(graph::RenderGraph& graph)
{
    sort_->sort(graph, keys_, values_, nodes_, 32);
    const uint32_t cuts =
        settings_.method == FractureMethod::SecondarySplits ? settings_.maxIterations + 1 : settings_.maxIterations;
    // cut_select(c) also finishes cut c - 1; cut_select(cuts) finishes the last one.
    const auto select = [&](uint32_t c) {
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
            .read(FRACTURE_BIND_SPLIT, split_)
            .read(FRACTURE_BIND_OFFSETS, offsets_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .push(glm::uvec2(c, cuts))
            .dispatch(1);
    };
    for (uint32_t c = 0; c < cuts; ++c) {
        select(c);
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
            for (uint32_t round = 0; round < kReachRounds; ++round)
                reach(1).dispatchIndirect(state_, offsetof(shared::FractureState, reachArgs));
        }
        if (settings_.method == FractureMethod::Wave) {
            // The crack grown level by level from its start tet (cut_wave).
            graph.addFill("fracture/node_reach_clear", nodeReach_, FRACTURE_NONE);
            auto wave = [&](uint32_t stage) {
                return graph.addCompute(pipelines_.compute("fracture/cut_wave"))
                    .read(FRACTURE_BIND_PARAMS, params_)
                    .read(FRACTURE_BIND_POSITIONS, positions_)
                    .read(FRACTURE_BIND_TETS, tetBuffer_)
                    .read(FRACTURE_BIND_LABELS, labels_)
                    .read(FRACTURE_BIND_TET_REST, tetRest_)
                    .read(FRACTURE_BIND_NODE_DATA, nodeData_)
                    .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
                    .read(FRACTURE_BIND_REST_NODES, restNodes_)
                    .readWrite(FRACTURE_BIND_TET_REACH, tetReach_)
                    .readWrite(FRACTURE_BIND_NODE_REACH, nodeReach_)
                    .readWrite(FRACTURE_BIND_STATE, state_)
                    .push(stage);
            };
            wave(0).dispatchIndirect(state_, offsetof(shared::FractureState, reachArgs));
            for (uint32_t level = 0; level < kWaveLevels; ++level)
                wave(2).dispatchIndirect(state_, offsetof(shared::FractureState, reachArgs));
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
            .readWrite(FRACTURE_BIND_NODE_ORIGIN, origins_)
            .read(FRACTURE_BIND_SPLIT, split_)
            .read(FRACTURE_BIND_OFFSETS, offsets_)
            .readWrite(FRACTURE_BIND_POSITIONS, positions_)
            .readWrite(FRACTURE_BIND_VELOCITIES, velocities_)
            .readWrite(FRACTURE_BIND_REST_NODES, restNodes_)
            .readWrite(FRACTURE_BIND_NODE_DATA, nodeData_)
            .readWrite(FRACTURE_BIND_PEAK, peak_)
            .readWrite(FRACTURE_BIND_LABELS, labels_)
            .readWrite(FRACTURE_BIND_NODE_FLAGS, nodeFlags_)
            .write(FRACTURE_BIND_LEDGER, ledger_)
            .readWrite(FRACTURE_BIND_APPROACH, approach_)
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
    }
    select(cuts);
}

} // namespace floe::fracture
