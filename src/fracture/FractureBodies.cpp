#include "fracture/FractureBodies.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <map>
#include <stdexcept>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "base/Error.h"
#include "fracture/Pieces.h"
#include "geometry/ObstacleGrid.h"
#include "gpu/Commands.h"
#include "gpu/Context.h"
#include "graph/RenderGraph.h"
#include "shared/fracture.h"
#include "sim/ParticleBuffers.h"

namespace floe::fracture {

namespace {

constexpr VkFormat kVec4 = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr VkFormat kUint = VK_FORMAT_R32_UINT;
constexpr VkFormat kFloat = VK_FORMAT_R32_SFLOAT;
constexpr VkFormat kUvec4 = VK_FORMAT_R32G32B32A32_UINT;
constexpr uint32_t kComponentRounds = 32; // hooking + jumping rounds; stops early when nothing changes

} // namespace

uint32_t bitsFor(uint32_t n)
{
    uint32_t bits = 1;
    while (bits < 32 && (uint64_t(1) << bits) <= n) ++bits;
    return bits;
}

FractureBodies::FractureBodies(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                               const std::vector<FractureBodyInstance>& bodies, const FractureSettings& settings,
                               const std::vector<geometry::TriangleMesh>& obstacles)
    : context_(context), pipelines_(context, shaders), settings_(settings), bodies_(uint32_t(bodies.size()))
{
    using sim::uploaded;
    if (bodies.empty()) throw Error("a fracture scene needs at least one body");
    std::vector<glm::vec4> positions, velocities, restNodes, tetRows, lame, tetInfo, tetDamage, bodyInfo, bodyContact;
    std::vector<glm::uvec4> tets;
    // Constraint method: pieces, their links (global nodes), pieces' masses and tau.
    pieced_ = settings.method == FractureMethod::Constraint;
    std::vector<glm::uvec2> links, between;
    std::vector<double> pieceMass;
    std::vector<float> pieceTau;
    std::vector<uint32_t> nodePiece; // per node: its piece, or FRACTURE_NONE outside pieced bodies
    for (uint32_t b = 0; b < bodies_; ++b) {
        const FractureBodyInstance& body = bodies[b];
        if (!body.initial.empty() && body.initial.size() != body.mesh.nodes.size())
            throw Error(
                fmt::format("{}: {} initial positions for {} nodes", body.mesh.name, body.initial.size(), body.mesh.nodes.size()));
        std::optional<PiecedMesh> pieced;
        // Fixed bodies (density 0) have no mass for a threshold: they stay whole, like unbreakable ones.
        if (pieced_ && body.breakable && body.density > 0.0f)
            pieced = preFracture(body.mesh, settings.pieces, settings.pieceSeed + b);
        const TetMesh& mesh = pieced ? pieced->mesh : body.mesh;
        const uint32_t base = uint32_t(positions.size());
        nodePiece.resize(base + mesh.nodes.size(), FRACTURE_NONE);
        const uint32_t pieceBase = uint32_t(pieceMass.size());
        // The spin is about the centre of mass (of the tets, at one density): about the nodes' mean
        // it gave a body momentum, and a spinning lattice sphere drifted 4 mm off its fall in 0.5 s.
        glm::dvec3 centre(0.0);
        double bodyVolume = 0;
        for (size_t t = 0; t < body.mesh.tets.size(); ++t) {
            const double v = signedVolume(body.mesh, t);
            glm::dvec3 c(0.0);
            for (int k = 0; k < 4; ++k) c += 0.25 * glm::dvec3(body.mesh.nodes[body.mesh.tets[t][k]]);
            centre += v * c;
            bodyVolume += v;
        }
        if (bodyVolume > 0.0) {
            centre /= bodyVolume;
        } else {
            for (const glm::vec3& x : body.mesh.nodes) centre += glm::dvec3(x);
            centre /= double(std::max<size_t>(body.mesh.nodes.size(), 1));
        }
        // Each node's first copy (the node itself outside pieced bodies): a face between two pieces
        // is one face of the input mesh.
        std::vector<uint32_t> firstCopy(body.mesh.nodes.size(), FRACTURE_NONE);
        for (size_t n = 0; n < mesh.nodes.size(); ++n) {
            const size_t from = pieced ? pieced->origin[n] : n;
            if (firstCopy[from] == FRACTURE_NONE) firstCopy[from] = base + uint32_t(n);
            canonicalNodes_.push_back(firstCopy[from]);
            const glm::vec3 x = body.initial.empty() ? mesh.nodes[n] : body.initial[from];
            positions.emplace_back(x, 0.0f); // inverse masses from node_mass
            const glm::vec3 v = body.velocity + glm::cross(body.angularVelocity, x - glm::vec3(centre));
            velocities.emplace_back(v, 0.0f);
            restNodes.emplace_back(mesh.nodes[n], float(b));
        }
        if (pieced) {
            pieceMass.resize(pieceBase + pieced->pieces, 0.0);
            pieceTau.resize(pieceBase + pieced->pieces, body.material.tau);
            for (size_t l = 0; l < pieced->links.size(); ++l) {
                links.push_back(pieced->links[l] + glm::uvec2(base));
                between.push_back(pieced->between[l] + glm::uvec2(pieceBase));
            }
        }
        std::vector<glm::vec4> rows;
        packRest(restData(mesh), rows);
        tetRows.insert(tetRows.end(), rows.begin(), rows.end());
        double edges = 0, volume = 0;
        for (size_t t = 0; t < mesh.tets.size(); ++t) {
            const glm::uvec4& tet = mesh.tets[t];
            tets.push_back(tet + glm::uvec4(base));
            double e = 0;
            for (int i = 0; i < 4; ++i)
                for (int j = i + 1; j < 4; ++j) e += glm::length(mesh.nodes[tet[j]] - mesh.nodes[tet[i]]);
            edges += e / 6.0;
            lame.emplace_back(body.material.lambda, body.material.mu, body.material.phi, body.material.psi);
            // Stiffness of the tet's corner springs: E times its size (N/m).
            const double v = signedVolume(mesh, t);
            volume += v;
            if (pieced) {
                pieceMass[pieceBase + pieced->tetPiece[t]] += v * body.density;
                for (int i = 0; i < 4; ++i) nodePiece[base + tet[i]] = pieceBase + pieced->tetPiece[t];
            }
            const float size = float(std::cbrt(6.0 * v));
            tetInfo.emplace_back(float(b), body.density, body.youngsModulus * size, body.material.yield);
            tetDamage.emplace_back(0.0f, inverseDuctility(body.material), 0.0f, 0.0f);
        }
        const double count = double(std::max<size_t>(mesh.tets.size(), 1));
        const float meanEdge = float(edges / count);
        maxMeanEdge_ = std::max(maxMeanEdge_, meanEdge);
        minMeanEdge_ = b == 0 ? meanEdge : std::min(minMeanEdge_, meanEdge);
        bodyInfo.emplace_back(body.material.tau, body.breakable ? 1.0f : 0.0f, float(volume / count), meanEdge);
        bodyContact.emplace_back(std::clamp(body.material.restitution, 0.0f, 1.0f), 0.0f, 0.0f, 0.0f);
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
        permuted(tetDamage, 1);
        colourStart_.assign(colours + 1, 0);
        for (uint32_t c : colour) ++colourStart_[c + 1];
        for (uint32_t c = 0; c < colours; ++c) colourStart_[c + 1] += colourStart_[c];
    }
    colourRuns_ = colourRuns(colourStart_, FRACTURE_GROUP_SIZE, settings_.fuseColours);
    tets_ = uint32_t(tets.size());
    nodes_ = uint32_t(positions.size());
    capacity_ = 4 * tets_; // every node holds at least one distinct tet corner
    const uint32_t corners = 4 * tets_;
    auto sized = [&](const char* name, VkDeviceSize elements, VkDeviceSize bytes, VkFormat format) {
        return gpu::Buffer(context, {name, std::max<VkDeviceSize>(elements, 1) * bytes, gpu::MemoryKind::DeviceLocal, format});
    };
    {
        io::Fingerprint f;
        f.add(uint64_t(tets_)).add(uint64_t(nodes_)).add(uint64_t(bodies_)).add(uint64_t(pieced_ ? 1 : 0));
        for (const glm::vec4& r : restNodes) f.add(r.x).add(r.y).add(r.z).add(r.w);
        for (const glm::uvec4& t : tets) f.add(uint64_t(t.x) | uint64_t(t.y) << 32).add(uint64_t(t.z) | uint64_t(t.w) << 32);
        for (const glm::vec4& i : tetInfo) f.add(i.y).add(i.z).add(i.w);
        fingerprint_ = f.value();
    }
    positions.resize(capacity_, glm::vec4(0.0f));
    velocities.resize(capacity_, glm::vec4(0.0f));
    restNodes.resize(capacity_, glm::vec4(0.0f));
    params_ = gpu::Buffer(context, {"fracture params", sizeof(shared::FractureParams), gpu::MemoryKind::Upload});
    state_ = sized("fracture state", 1, sizeof(shared::FractureState), kUint);
    stateReadback_ = gpu::Buffer(context, {"fracture state read-back", sizeof(shared::FractureState), gpu::MemoryKind::Readback});
    // A round's launches: one per distinct group count (the nodes, each colour run, the pieces).
    const VkDeviceSize launches = colourStart_.size() + 8;
    roundArgs_ = sized("fracture round launches", launches, 16, kUvec4);
    roundTemplate_ = gpu::Buffer(context, {"fracture round group counts", launches * 16, gpu::MemoryKind::Upload, kUvec4});
    positions_ = uploaded(context, graph, "fracture positions", positions, kVec4);
    velocities_ = uploaded(context, graph, "fracture velocities", velocities, kVec4);
    restNodes_ = uploaded(context, graph, "fracture rest nodes", restNodes, kVec4);
    predicted_ = sized("fracture predicted", capacity_, 16, kVec4);
    peak_ = uploaded(context, graph, "fracture peak loads", std::vector<glm::vec4>(capacity_, glm::vec4(0.0f)), kVec4);
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
    tetDamage_ = uploaded(context, graph, "fracture tet damage", tetDamage, kVec4);
    colourStartBuffer_ = uploaded(context, graph, "fracture colour starts", colourStart_, kUint);
    tetSide_ = sized("fracture tet sides", tets_, 4, kUint);
    tetReach_ = sized("fracture tet reach", tets_, 4, kUint);
    nodeReach_ = sized("fracture node reach", capacity_, 4, kUint);
    lambdas_ = sized("fracture multipliers", corners, 16, kVec4);
    corners_ = sized("fracture incidence corners", corners, 4, kUint);
    slots_ = sized("fracture incidence slots", corners, 4, kUint);
    nodeStart_ = sized("fracture node start", VkDeviceSize(capacity_) + 1, 4, kUint);
    heads_ = sized("fracture incidence heads", corners, 4, kUint);
    bodyInfo_ = uploaded(context, graph, "fracture body info", bodyInfo, kVec4);
    // The static meshes, listed in every grid cell within two contact radii of the largest (a
    // node finds each face it may have passed in its own cell).
    float largestEdge = 0.0f;
    for (const glm::vec4& info : bodyInfo) largestEdge = std::max(largestEdge, info.w);
    obstacles_ = sim::ObstacleBuffers(
        context, graph, geometry::buildObstacleGrid(obstacles, 2.0f * std::max(settings.contactRadius * largestEdge, 1e-4f)),
        "fracture obstacle");
    bodyContact_ = uploaded(context, graph, "fracture body contact", bodyContact, kVec4);
    surface_ = sized("fracture surface", 12 * VkDeviceSize(tets_), 16, kVec4);
    surfaceNormals_ = sized("fracture surface normals", 12 * VkDeviceSize(tets_), 16, kVec4);
    surfaceTriangles_ = sized("fracture surface triangles", 4 * VkDeviceSize(tets_), 16, kUvec4);
    sort_.emplace(context, shaders, corners);
    scan_.emplace(context, shaders, capacity_);
    reduce_.emplace(context, shaders, capacity_);
    metricTerms_ = sized("fracture metric terms", capacity_, 16, kVec4);
    metricTotal_ = sized("fracture metrics", 1, 16, kVec4);
    ledgerTotal_ = sized("fracture energy ledger sum", 1, 4, kFloat);
    elasticTotal_ = sized("fracture elastic energy sum", 1, 16, kVec4);
    ledger_ = sized("fracture energy ledger", capacity_, 4, kFloat);
    tetEnergy_ = sized("fracture tet energy", tets_, 16, kVec4);
    origins_ = sized("fracture node origins", capacity_, 16, kVec4); // 0: positions start in world coordinates
    shifts_ = sized("fracture recentre shifts", capacity_, 16, kVec4);
    externalContact_ = uploaded(context, graph, "fracture external contact", std::vector<uint32_t>{0u}, kUint);
    stepVelocities_ = sized("fracture step start velocities", capacity_, 16, kVec4);
    approach_ = sized("fracture wall approach", capacity_, 16, kVec4);
    bounceOut_ = sized("fracture bounce", 2 * VkDeviceSize(capacity_), 16, kVec4);
    wallMask_ = sized("fracture wall masks", capacity_, 4, kUint);
    bounceKeys_ = sized("fracture bounce keys", capacity_, 4, kUint);
    bounceValues_ = sized("fracture bounce nodes", capacity_, 4, kUint);
    bounceHeads_ = sized("fracture bounce heads", capacity_, 4, kUint);
    bounceRecords_ = sized("fracture bounce records", 3 * VkDeviceSize(capacity_), 16, kVec4);
    bounceScanned_ = sized("fracture bounce sums", 3 * VkDeviceSize(capacity_), 16, kVec4);
    fragmentRows_ = sized("fracture fragment rows", 3 * VkDeviceSize(capacity_), 16, kVec4);
    pushedBy_ = sized("fracture obstacle pushes", capacity_, 16, kVec4);
    normalRecords_ = sized("fracture bounce normal records", capacity_, 16, kVec4);
    normalSums_ = sized("fracture bounce normal sums", capacity_, 16, kVec4);
    bounceScan_.emplace(context, shaders, capacity_);
    stress_.emplace(context, shaders, tets_, capacity_);

    // Constraint method: one constraint per pair of touching pieces, its links contiguous.
    {
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> index;
        std::vector<uint32_t> constraintOf(links.size());
        std::vector<glm::uvec2> pairs;
        for (size_t l = 0; l < links.size(); ++l) {
            const auto key = std::make_pair(between[l].x, between[l].y);
            auto [it, added] = index.emplace(key, uint32_t(pairs.size()));
            if (added) pairs.push_back(between[l]);
            constraintOf[l] = it->second;
        }
        std::vector<uint32_t> order(links.size());
        for (size_t l = 0; l < order.size(); ++l) order[l] = uint32_t(l);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return constraintOf[a] < constraintOf[b]; });
        std::vector<glm::uvec4> linkData, info(pairs.size(), glm::uvec4(0u));
        std::vector<glm::vec4> state;
        for (size_t c = 0; c < pairs.size(); ++c) {
            info[c] = glm::uvec4(pairs[c], 0u, 0u);
            const double mass = pieceMass[pairs[c].x] + pieceMass[pairs[c].y];
            state.emplace_back(1.0f, float(pieceTau[pairs[c].x] * mass), 0.0f, 1.0f);
        }
        for (uint32_t k = 0; k < order.size(); ++k) {
            const uint32_t l = order[k], c = constraintOf[l];
            if (info[c].w == 0) info[c].z = k;
            ++info[c].w;
            linkData.emplace_back(links[l], c, 0u);
        }
        std::vector<uint32_t> start(size_t(capacity_) + 1, 0), list(2 * linkData.size());
        for (const glm::uvec4& l : linkData) {
            ++start[l.x + 1];
            ++start[l.y + 1];
        }
        for (size_t n = 0; n < capacity_; ++n) start[n + 1] += start[n];
        std::vector<uint32_t> fill(start.begin(), start.end() - 1);
        for (uint32_t l = 0; l < linkData.size(); ++l) {
            list[fill[linkData[l].x]++] = l;
            list[fill[linkData[l].y]++] = l;
        }
        constraints_ = uint32_t(pairs.size());
        links_ = uint32_t(linkData.size());
        pieces_ = uint32_t(pieceMass.size());
        auto atLeastOne = [](auto v) {
            if (v.empty()) v.resize(1);
            return v;
        };
        linkBuffer_ = uploaded(context, graph, "fracture links", atLeastOne(linkData), kUvec4);
        nodeLinkStart_ = uploaded(context, graph, "fracture node link start", start, kUint);
        nodeLinks_ = uploaded(context, graph, "fracture node links", atLeastOne(list), kUint);
        constraintInfo_ = uploaded(context, graph, "fracture constraints", atLeastOne(info), kUvec4);
        constraintState_ = uploaded(context, graph, "fracture constraint state", atLeastOne(state), kVec4);
        linkImpulse_ = uploaded(context, graph, "fracture link impulses",
                                std::vector<glm::vec4>(std::max(links_, 1u), glm::vec4(0.0f)), kVec4);
        pieceBreaks_ = sized("fracture piece breaks", pieces_, 4, kUint);
        // The nodes of each piece (piece_match makes every piece rigid).
        std::vector<uint32_t> pieceStart(size_t(pieces_) + 1, 0), pieceNodes;
        for (uint32_t p : nodePiece)
            if (p != FRACTURE_NONE) ++pieceStart[p + 1];
        for (size_t p = 0; p < pieces_; ++p) pieceStart[p + 1] += pieceStart[p];
        pieceNodes.resize(pieceStart[pieces_]);
        std::vector<uint32_t> next(pieceStart.begin(), pieceStart.end() - 1);
        for (uint32_t n = 0; n < nodePiece.size(); ++n)
            if (nodePiece[n] != FRACTURE_NONE) pieceNodes[next[nodePiece[n]]++] = n;
        pieceNodeStart_ = uploaded(context, graph, "fracture piece node start", pieceStart, kUint);
        pieceNodes_ = uploaded(context, graph, "fracture piece nodes", atLeastOne(pieceNodes), kUint);
    }
    // Contacts between fragments: node spheres on a grid of cells of 2 r_max that wraps around
    // (at most 64 cells per axis, at least 3: fracture/contact_cells), so any domain size costs
    // the same and the nodes' neighbour search stays local (a grid sized to a large domain put a
    // whole body in a few cells: every node tested every other).
    {
        const glm::vec3 extent = glm::max(settings.domainMax - settings.domainMin, glm::vec3(1e-3f));
        sim::GridSpec spec;
        spec.cellSize = std::max(2.0f * settings.contactRadius * maxMeanEdge_, 1e-6f);
        spec.origin = settings.domainMin;
        for (int k = 0; k < 3; ++k) spec.dims[k] = uint32_t(std::clamp(std::ceil(extent[k] / spec.cellSize), 3.0f, 64.0f));
        grid_.emplace(context, shaders, spec, capacity_, "fracture contact grid");
        contactOut_ = sized("fracture contact positions", capacity_, 16, kVec4);
        contactStart_ = sized("fracture contact starts", capacity_, 16, kVec4);
        // Up to FRACTURE_CONTACT_CANDIDATES per node (128 bytes), fewer where a body is so large
        // that the table would pass the device's maxTexelBufferElements (about a million tets at
        // 2^27): a node with more candidates than its room walks the grid again, counted in
        // FractureReport::contactOverflows, so a smaller table costs time, never contacts.
        const uint64_t texels = context.limits().maxTexelBufferElements;
        contactStride_ =
            uint32_t(std::clamp<uint64_t>(texels / std::max<uint64_t>(capacity_, 1), 1, FRACTURE_CONTACT_CANDIDATES + 1));
        contactCandidates_ = sized("fracture contact candidates", capacity_, 4 * contactStride_, kUint);
    }
    // Each tet's neighbour across each face at rest (face c opposite corner c, as
    // fracture/face_common.glsl numbers them), found by the faces' sorted node triples (of the
    // nodes' first copies: a pieced body's tets meet across the faces between pieces too): the
    // face contacts (Fracture.faceContacts) and the couplings' boundary faces (a face bounds a
    // fragment when its neighbour no longer holds its three nodes, or, between pieces, belongs to
    // another fragment) read it.
    {
        static const int kFaceCorners[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
        std::map<std::array<uint32_t, 3>, uint32_t> open; // a face seen once: 4 tet + corner
        std::vector<glm::uvec4> across(std::max<size_t>(tets_, 1), glm::uvec4(FRACTURE_NONE));
        for (uint32_t t = 0; t < tets_; ++t)
            for (uint32_t c = 0; c < 4; ++c) {
                std::array<uint32_t, 3> key{canonicalNodes_[tets[t][kFaceCorners[c][0]]],
                                            canonicalNodes_[tets[t][kFaceCorners[c][1]]],
                                            canonicalNodes_[tets[t][kFaceCorners[c][2]]]};
                std::sort(key.begin(), key.end());
                const auto [it, inserted] = open.emplace(key, 4 * t + c);
                if (inserted) continue;
                across[t][c] = it->second / 4;
                across[it->second / 4][it->second % 4] = t;
                open.erase(it);
            }
        faceNeighbours_ = uploaded(context, graph, "fracture face neighbours", across, kUvec4);
    }
    // Face contacts (Fracture.faceContacts, fixed when the bodies are built).
    if (settings.contacts && settings.faceContacts) {
        const sim::GridSpec& spec = grid_->spec();
        const uint64_t texels = context.limits().maxTexelBufferElements;
        // Room for every face in every cell its tet's rest box touches (twice over, for moving
        // and stretched tets), as if all of them were on a boundary; fracture/face_bins counts
        // what does not fit.
        uint64_t entries = 0;
        for (const glm::uvec4& t : tets) {
            glm::vec3 lo(1e30f), hi(-1e30f);
            for (int k = 0; k < 4; ++k) {
                const glm::vec3 x(positions[t[k]]);
                lo = glm::min(lo, x);
                hi = glm::max(hi, x);
            }
            const glm::vec3 n = glm::min(glm::floor((hi - lo) / spec.cellSize) + 2.0f, glm::vec3(spec.dims));
            entries += 4 * 2 * uint64_t(n.x) * uint64_t(n.y) * uint64_t(n.z);
        }
        faceCapacity_ = uint32_t(std::clamp<uint64_t>(entries, 1, texels - 1));
        faceCells_ = uint32_t(spec.cells());
        faceCounts_ = sized("fracture face grid counts", faceCells_ + 1, 4, kUint);
        faceStart_ = sized("fracture face grid cell starts", faceCells_ + 1, 4, kUint);
        faceEntries_ = sized("fracture face grid entries", faceCapacity_, 4, kUint);
        faceState_ = sized("fracture face grid state", 4, 4, kUint);
        faceContacts_ = sized("fracture face contacts", capacity_, 32, kVec4);
        faceSums_ = sized("fracture face contact sums", capacity_, 32, kUint);
        faceScan_.emplace(context, shaders, faceCells_ + 1);
        graph.addFill("fracture face grid state clear", faceState_, 0);
    }

    shared::FractureState initial{};
    initial.counts.x = nodes_;
    initial.cutInfo.x = FRACTURE_NONE;
    sim::uploadNow(context, graph, state_, &initial, sizeof(initial));
    // Buffers without an upload start at zero: device memory may hold what an earlier run left
    // (a bench runs many drops in one process), and no result may depend on it.
    for (gpu::Buffer* b :
         {&predicted_,    &peak_,      &labels_,  &nodeSides_, &split_,     &offsets_,   &keys_,      &values_,      &tetSide_,
          &tetReach_,     &nodeReach_, &lambdas_, &corners_,   &slots_,     &nodeStart_, &heads_,     &pieceBreaks_, &contactOut_,
          &contactStart_, &origins_,   &shifts_,  &ledger_,    &tetEnergy_, &approach_,  &bounceOut_, &pushedBy_,    &roundArgs_})
        graph.addFill("fracture/clear", *b, 0u);
    writeParams();
    addRebuild(graph);
    context.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
    report_ = afterStep(graph);
    wallsNear_ = true; // nothing is known of the first step: its rounds past the iterations are recorded
}

void FractureBodies::setSettings(const FractureSettings& settings)
{
    if (needsRebuild(settings))
        throw Error("fracture: switching to or from the constraint method, or to other pieces, needs the bodies built anew");
    settings_ = settings;
    colourRuns_ = colourRuns(colourStart_, FRACTURE_GROUP_SIZE, settings_.fuseColours);
}

void FractureBodies::setTimeStep(float dt)
{
    if (!(dt > 0.0f)) throw std::logic_error(fmt::format("FractureBodies::setTimeStep: {} s", dt));
    settings_.timeStep = dt; // the step's writeParams() carries it to the GPU
}

bool FractureBodies::needsRebuild(const FractureSettings& settings) const
{
    const bool constraint = settings.method == FractureMethod::Constraint;
    // While pieced, settings_ keeps the pieces it was built with: setSettings refuses others.
    return constraint != pieced_ ||
           (constraint && (settings.pieces != settings_.pieces || settings.pieceSeed != settings_.pieceSeed));
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
    p.fracture = glm::vec4(settings_.tauScale, settings_.linkScale, settings_.fragility, settings_.radiusFactor);
    p.control = glm::uvec4(uint32_t(settings_.method), settings_.maxIterations, settings_.evaluateEveryStep ? 1u : 0u,
                           settings_.colourMode);
    const sim::GridSpec& grid = grid_->spec();
    p.gridOrigin = glm::vec4(grid.origin, grid.cellSize);
    p.gridDims = glm::uvec4(grid.dims, settings_.contacts ? 1u : 0u);
    // The grid's cells hold spheres up to half a cell: a larger radius is cut to that.
    const float radius = std::min(settings_.contactRadius, 0.5f * grid.cellSize / std::max(maxMeanEdge_, 1e-30f));
    p.methods = glm::vec4(settings_.waveToughness, settings_.weakening, settings_.weakeningFloor, radius);
    p.control2 = glm::uvec4(constraints_, links_, settings_.waveSplitBand ? 1u : 0u, std::max(settings_.weakEvery, 1u));
    p.constraint = glm::vec4(settings_.wear, settings_.wallTolerance * minMeanEdge_, 0.0f, 0.0f);
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
    in.tetInfo = &tetInfo_;
    in.damage = &tetDamage_;
    in.bodyInfo = &bodyInfo_;
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
        .dispatchThreads(std::max(corners, capacity_ + 1)); // every sorted slot and every node entry (GPU-side count)
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
            .read(FRACTURE_BIND_LINKS, linkBuffer_)
            .read(FRACTURE_BIND_CONSTRAINT_STATE, constraintState_)
            .readWrite(FRACTURE_BIND_LABELS, labels_)
            .readWrite(FRACTURE_BIND_STATE, state_)
            .push(s);
    };
    stage(0).dispatchThreads(capacity_);
    for (uint32_t round = 0; round < kComponentRounds; ++round) {
        stage(1).dispatchIndirect(state_, offsetof(shared::FractureState, tetArgs));
        if (links_ > 0) stage(5).dispatchThreads(links_);
        stage(2).dispatchIndirect(state_, offsetof(shared::FractureState, nodeArgs)); // its last workgroup ends the round
    }
    stage(4).dispatchThreads(nodes_);
    graph.addCopy("fracture state read-back", state_, stateReadback_, sizeof(shared::FractureState));
    graph.addHostRead(stateReadback_);
}

FractureReport FractureBodies::afterStep(graph::RenderGraph& graph, gpu::FrameResources* frames)
{
    shared::FractureState s = stateReadback_.readVector<shared::FractureState>(1)[0];
    // Cuts only add nodes, and cut_select never selects past the buffers' capacity: any other
    // count is a read-back of something the GPU did not write, which would size every later
    // dispatch and download.
    if (s.counts.x < nodes_ || s.counts.x > capacity_)
        throw Error(fmt::format("fracture: the step read back {} nodes, with {} before it and room for {}; this is a bug",
                                s.counts.x, nodes_, capacity_),
                    ExitCode::Failure);
    // Constraint method: links that broke this step (extra.y) change the fragments.
    rebuilt_ = s.counts.x != nodes_ || (pieced_ && s.extra.y != 0);
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
    const uint32_t substeps = std::max(settings_.substeps, 1u);
    report_.rounds = float(std::max(settings_.iterations, 1u)) + float(s.rounds.y) / float(substeps);
    report_.roundsAtLimit = s.rounds.z;
    report_.approaching = s.rounds.w;
    wallsNear_ = s.rounds.y > 0 || s.rounds.z > 0 || s.rounds.w > 0;
    float load;
    std::memcpy(&load, &s.extra.x, sizeof(load));
    report_.maxLoad = load;
    std::memcpy(&report_.maxDamage, &s.ductile.x, sizeof(report_.maxDamage));
    report_.contactOverflows = s.ductile.w;
    return report_;
}

void FractureBodies::addElasticEnergy(graph::RenderGraph& graph, uint32_t stage)
{
    graph.addCompute(pipelines_.compute("fracture/energy"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .read(FRACTURE_BIND_REST_NODES, restNodes_)
        .read(FRACTURE_BIND_TETS, tetBuffer_)
        .read(FRACTURE_BIND_TET_INFO, tetInfo_)
        .readWrite(FRACTURE_BIND_TET_ENERGY, tetEnergy_)
        .push(stage)
        .dispatchThreads(tets_);
}

void FractureBodies::addMetrics(graph::RenderGraph& graph, const glm::vec3& lo, const glm::vec3& hi, const gpu::Buffer& target)
{
    struct Push {
        glm::vec4 lo, hi;
    } push{glm::vec4(lo, 0.0f), glm::vec4(hi, 0.0f)};
    writeParams(); // params.nodes: the nodes as of the last afterStep()
    graph.addCompute(pipelines_.compute("fracture/metrics"))
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .read(FRACTURE_BIND_VELOCITIES, velocities_)
        .read(FRACTURE_BIND_NODE_DATA, nodeData_)
        .write(FRACTURE_BIND_METRICS, metricTerms_)
        .push(push)
        .dispatchThreads(nodes_);
    // Elastic energy after the step's cuts, beside the one addStep() measured before them.
    addElasticEnergy(graph, energyBeforeCuts_ ? 1u : 2u);
    energyBeforeCuts_ = false;
    accounting_ = true; // from now on addStep() measures the elastic energy before its cuts
    constexpr std::array<sim::ReduceOp, 4> sum = {sim::ReduceOp::Sum, sim::ReduceOp::Sum, sim::ReduceOp::Sum, sim::ReduceOp::Sum};
    reduce_->vec4(graph, metricTerms_, metricTotal_, nodes_, sum);
    reduce_->scalar(graph, ledger_, ledgerTotal_, nodes_, sim::ReduceOp::Sum); // copies a cut made this step hold 0
    reduce_->vec4(graph, tetEnergy_, elasticTotal_, tets_, sum);
    graph.addCopy("fracture/metrics_readback", metricTotal_, target, 16);
    graph.addCopy("fracture/ledger_readback", ledgerTotal_, target, 4, 0, offsetof(FractureMetrics, dampingLoss));
    graph.addCopy("fracture/elastic_readback", elasticTotal_, target, 16, 0, 32);
}

void FractureBodies::addSurface(graph::RenderGraph& graph)
{
    writeParams();
    graph.addCompute(pipelines_.compute("fracture/surface"))
        .read(FRACTURE_BIND_NODE_ORIGIN, origins_)
        .read(FRACTURE_BIND_PARAMS, params_)
        .read(FRACTURE_BIND_POSITIONS, positions_)
        .read(FRACTURE_BIND_TETS, tetBuffer_)
        .read(FRACTURE_BIND_LABELS, labels_)
        .read(FRACTURE_BIND_PEAK, peak_)
        .read(FRACTURE_BIND_REST_NODES, restNodes_)
        .read(FRACTURE_BIND_BODY_INFO, bodyInfo_)
        .write(FRACTURE_BIND_SURFACE, surface_)
        .write(FRACTURE_BIND_SURFACE_NORMALS, surfaceNormals_)
        .write(FRACTURE_BIND_SURFACE_TRIS, surfaceTriangles_)
        .dispatchThreads(tets_);
}

std::vector<sim::CarriedBuffer> FractureBodies::carried() const
{
    const size_t n = nodes_, t = tets_;
    return {{"positions", &positions_, 16 * n},
            {"velocities", &velocities_, 16 * n},
            {"origins", &origins_, 16 * n},
            {"rest nodes", &restNodes_, 16 * n},
            {"node data", &nodeData_, 16 * n},
            {"node flags", &nodeFlags_, 4 * n},
            {"peak loads", &peak_, 16 * n},
            {"wall approach", &approach_, 16 * n},
            {"fragment masses", &bounceOut_, 32 * n}, // and the last bounce (the fluid coupling reads the masses)
            {"tets", &tetBuffer_, 16 * t},
            {"tet damage", &tetDamage_, 16 * t},
            {"constraint state", &constraintState_, 16 * size_t(constraints_)},
            {"link impulses", &linkImpulse_, 16 * size_t(links_)},
            {"piece breaks", &pieceBreaks_, 4 * size_t(pieces_)},
            {"state", &state_, sizeof(shared::FractureState)}};
}

void FractureBodies::addRestored(graph::RenderGraph& graph, uint32_t nodes)
{
    if (nodes == 0 || nodes > capacity_)
        throw std::logic_error(fmt::format("FractureBodies::addRestored: {} nodes, at most {}", nodes, capacity_));
    nodes_ = nodes;
    // The incidence, masses and fragments follow from the tets, as after a step with cuts.
    writeParams();
    addRebuild(graph);
}

void FractureBodies::saveState(graph::RenderGraph& graph, io::SolidState& state) const
{
    state.add("fracture nodes", std::vector<uint32_t>{nodes_});
    sim::saveCarried(context_, graph, carried(), state);
}

void FractureBodies::loadState(graph::RenderGraph& graph, const io::SolidState& state, const std::filesystem::path& file)
{
    const uint32_t nodes = state.get<uint32_t>("fracture nodes", 1, file)[0];
    if (nodes < nodes_ || nodes > capacity_)
        throw Error(fmt::format("--load-state {}: {} nodes, these bodies start with {} and hold at most {}", file.string(), nodes,
                                nodes_, capacity_));
    nodes_ = nodes;
    sim::loadCarried(context_, graph, carried(), state, file);
    addRestored(graph, nodes);
    context_.submitAndWait([&](VkCommandBuffer cmd) { graph.execute(cmd); });
    report_ = afterStep(graph);
}

std::vector<glm::vec4> FractureBodies::download(graph::RenderGraph& graph, const gpu::Buffer& buffer, size_t count)
{
    std::vector<glm::vec4> out(count);
    sim::downloadNow(context_, graph, buffer, out.data(), count * sizeof(glm::vec4));
    return out;
}

} // namespace floe::fracture
