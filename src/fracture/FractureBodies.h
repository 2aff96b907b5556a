// Brittle tetrahedral bodies on the GPU (digest-004): elastic dynamics (co-rotational tet
// constraints, XPBD, substeps), collisions with the domain, the stress evaluation (TetStress),
// the fracture methods as a fixed number of cut passes per step whose work is dispatched
// indirectly from GPU-side state (no read-back decides anything within a step), node
// duplication, and after a step with cuts the rebuilt incidence, lumped masses and fragments
// (connected components). The Constraint method instead pre-fractures the bodies into pieces
// (Pieces.h), rigid bodies held by breakable links. Every pass goes through the render graph.
//
// A step (FractureStep.cpp): step_begin; recentre; the start velocities copied; substeps x (predict; iterations x ([several
// fragments: grid, contacts]; collide; [obstacles]; colour runs x tet_goals; [Constraint: link_solve,
// piece_match]; [round_check]), then up to iterationLimit - iterations more such rounds, launched
// indirectly while the walls find nodes deeper than wallTolerance; finish; [Constraint: piece_velocity]; stress; separation; load
// (the step's peak per node)); bounce (restitution at the walls, per fragment: sort by label, segmented scan); [rounds past the
// iterations: wall_approach, or obstacle_approach with static meshes]; [cutting methods:
// energy]; then either candidate sort and cuts x (cut_select, which first finishes the cut before; [radius_connected: cut_reach
// rounds | wave: cut_wave rounds]; cut_classify; cut_split; scan; cut_duplicate; cut_rewrite), a last cut_select that only
// finishes, or [Constraint] constraint_update; the state copied for the host. afterStep() reads it and, if cuts added nodes or
// links broke, rebuilds (incidence_keys, sort, incidence_start, node_mass, components).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "fracture/Elasticity.h"
#include "fracture/FractureSettings.h"
#include "fracture/TetMesh.h"
#include "fracture/TetStress.h"
#include "geometry/Mesh.h"
#include "gpu/Buffer.h"
#include "gpu/PipelineCache.h"
#include "io/SolidState.h"
#include "sim/ObstacleBuffers.h"
#include "sim/ParticleBuffers.h"
#include "sim/SpatialGrid.h"
#include "sim/prim/RadixSort.h"
#include "sim/prim/Reduce.h"
#include "sim/prim/Scan.h"
#include "sim/prim/SegmentedScan.h"

namespace floe::graph {
class PassBuilder;
class RenderGraph;
} // namespace floe::graph
namespace floe::gpu {
class FrameResources;
}

namespace floe::fracture {

struct FractureBodyInstance {
    TetMesh mesh;                   // rest shape, in world coordinates
    std::vector<glm::vec3> initial; // start positions (a deformed start), or empty: the rest shape
    Material material;
    float density = 1000.0f;      // kg/m^3; 0 makes the body fixed
    float youngsModulus = 1.0e8f; // Pa, of the dynamics (the tet constraints' stiffness)
    glm::vec3 velocity{0.0f}, angularVelocity{0.0f};
    bool breakable = true;
};

// The dispatches of one Gauss-Seidel sweep over the tet colours (tet_goals): a colour larger
// than a workgroup alone (colours 0: tets [firstTet, firstTet + tets), a thread each), and each
// run of consecutive colours that fit in one workgroup as one single-workgroup dispatch
// (colours > 0: colours [firstColour, firstColour + colours)). Without fusing, every colour is
// a dispatch of its own.
struct ColourRun {
    uint32_t firstTet = 0, tets = 0, firstColour = 0, colours = 0;
};
std::vector<ColourRun> colourRuns(const std::vector<uint32_t>& colourStart, uint32_t groupSize, bool fuse);
uint32_t bitsFor(uint32_t n); // the key bits a radix sort needs for keys 0..n

// A row of addFragmentMotionReadback() (48 bytes).
struct FragmentMotion {
    glm::vec3 centre;   // m, world: the centre of mass
    float mass;         // kg
    glm::vec3 velocity; // m/s, of the centre of mass
    uint32_t label;     // the fragment's smallest node index
    float body, unused0, unused1, unused2;
};
static_assert(sizeof(FragmentMotion) == 48);

struct FractureReport {
    uint32_t nodes = 0, fragments = 0, events = 0, cuts = 0;
    bool contact = false;
    float maxLoad = 0.0f;          // largest node load / tau this step
    float maxDamage = 0.0f;        // largest damage of a ductile body's node so far (1: its ductility is spent)
    uint64_t contactOverflows = 0; // node-substeps with more contact candidates than kept: those walked the grid again
    float rounds = 0.0f;           // mean rounds (contacts and walls, then the tets) per substep this step
    uint32_t roundsAtLimit = 0;    // substeps that ended at Fracture.iterationLimit with a node deeper in a wall than the tolerance
    uint32_t approaching = 0;      // nodes approaching a wall fast at the step's end (fracture/wall_approach)
};

// What addMetrics() writes: sums over the nodes and tets (J unless noted).
struct FractureMetrics {
    float kinetic, escaped, notFinite, potential;       // escaped and not finite: node counts; potential -m g . x (world)
    float dampingLoss, unused0, unused1, unused2;       // the energy the velocity damping took this step; unused: not written
    float elasticBeforeCuts, elastic, unused3, unused4; // the tets' goal springs' energy before the step's cuts and now
};
static_assert(sizeof(FractureMetrics) == 48);

class FractureBodies {
public:
    // `obstacles`: static closed or open triangle meshes (outward normals) the nodes collide with
    // (fracture/obstacles), besides the domain's walls.
    FractureBodies(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                   const std::vector<FractureBodyInstance>& bodies, const FractureSettings& settings,
                   const std::vector<geometry::TriangleMesh>& obstacles = {});

    void setSettings(const FractureSettings& settings); // takes effect at the next step
    // The next step's length (s; its substeps divide it), as a world choosing its steps sets it
    // every step: nothing else of the settings is looked at again. Throws for a step <= 0.
    void setTimeStep(float dt);
    // Settings that need new FractureBodies: switching to or from the Constraint method (its
    // pieces are made when the bodies are), or other pieces.
    bool needsRebuild(const FractureSettings& settings) const;
    const FractureSettings& settings() const { return settings_; }

    void addStep(graph::RenderGraph& graph);
    // The names of every pass a step can record, contacts included (they start once a scene has
    // two fragments), for metrics columns; records a step into the empty graph and discards it.
    std::vector<std::string> stepPassNames(graph::RenderGraph& graph);
    // After the step's submission finished: reads the GPU state; after cuts rebuilds the
    // incidence, masses and fragments (one more submission, timed with `frames`' slot 0 if
    // given).
    FractureReport afterStep(graph::RenderGraph& graph, gpu::FrameResources* frames = nullptr);
    bool rebuiltLastStep() const { return rebuilt_; }
    // What a saved state holds, for the current node count; a coupled world's replay snapshots
    // copy the same on the GPU (app/RunWorld).
    std::vector<sim::CarriedBuffer> carried() const;
    // After carried() of `nodes` nodes was copied back (loadState, a replay): the incidence, masses
    // and fragments recorded anew from the tets, as after a step with cuts; submit, then afterStep().
    void addRestored(graph::RenderGraph& graph, uint32_t nodes);
    // The flat-shaded tet faces for the mesh renderer (colour by fragment or stress).
    void addSurface(graph::RenderGraph& graph);
    // The step's metrics reduced on the GPU and copied to `target` (FractureMetrics, 48 bytes),
    // over the nodes as of the last afterStep(); record after addStep(), or alone for the state
    // as it is.
    void addMetrics(graph::RenderGraph& graph, const glm::vec3& lo, const glm::vec3& hi, const gpu::Buffer& target);
    // Restitution at the walls (fracture/bounce), the last pass of a step's dynamics: recorded by
    // addStep(); alone, it acts on the buffers as they are (tests).
    void addBounce(graph::RenderGraph& graph);
    // Contacts between fragments and bodies (fracture/contacts), one round of a substep's: with
    // detect, the contact grid is built and each node keeps its candidates (the first round),
    // else only those are tested. Recorded by addStep(); alone, it acts on the buffers as they
    // are (tests).
    void addContacts(graph::RenderGraph& graph, bool detect);
    // Face contacts between fragments (fracture/face_bins, face_contacts, face_resolve,
    // face_apply): detection in a substep's first round, a Jacobi round in each.
    void addFaceContacts(graph::RenderGraph& graph, bool detect);
    // Face-grid entries left out for lack of room since the start (contacts missed). Submits and waits.
    uint32_t faceGridOverflows(graph::RenderGraph& graph) const;
    // Each fragment's motion in the step recorded last (before its cuts), for bodies.csv:
    // fragmentMotionRows() rows of FragmentMotion, in no particular order, copied to `target`.
    void addFragmentMotionReadback(graph::RenderGraph& graph, const gpu::Buffer& target) const;
    uint32_t fragmentMotionRows() const { return fragmentRowsAtStep_; }

    // Saved states (--save-state, --load-state): the buffers that carry a run from one step to the
    // next and the node count; loading rebuilds the incidence, masses and fragments from them.
    // Both submit and wait; load throws floe::Error naming `file` when the state does not fit.
    void saveState(graph::RenderGraph& graph, io::SolidState& state) const;
    void loadState(graph::RenderGraph& graph, const io::SolidState& state, const std::filesystem::path& file);
    uint64_t fingerprint() const { return fingerprint_; } // of the meshes, materials and method's pieces

    uint32_t tetCount() const { return tets_; }
    uint32_t nodeCount() const { return nodes_; }
    uint32_t nodeCapacity() const { return capacity_; } // nodes the buffers hold (cuts add nodes up to it)
    // m: the node spheres' radius of the finest body (Fracture.contactRadius x its mean edge)
    float finestContactRadius() const { return settings_.contactRadius * minMeanEdge_; }
    uint32_t bodyCount() const { return bodies_; }
    uint32_t colourCount() const { return uint32_t(colourStart_.size()) - 1; }
    const std::vector<ColourRun>& colourRunList() const { return colourRuns_; }
    uint32_t constraintCount() const { return constraints_; }
    uint32_t pieceCount() const { return pieces_; }
    uint32_t linkCount() const { return links_; }
    const gpu::Buffer& constraintState() const { return constraintState_; }
    const gpu::Buffer& constraintInfo() const { return constraintInfo_; }
    const gpu::Buffer& links() const { return linkBuffer_; }
    const FractureReport& report() const { return report_; }
    std::vector<glm::vec4> download(graph::RenderGraph& graph, const gpu::Buffer& buffer, size_t count);

    const gpu::Buffer& positions() const { return positions_; } // relative to each node's origin (origins())
    const gpu::Buffer& origins() const { return origins_; }     // vec4 per node: its fragment's origin (world, m)
    const gpu::Buffer& velocities() const { return velocities_; }
    const gpu::Buffer& displacements() const { return predicted_; }             // vec4 per node: the substep's p - x, inverse mass
    const gpu::Buffer& contactCandidates() const { return contactCandidates_; } // uint per node x stride: count, nodes
    uint32_t contactCandidateStride() const { return contactStride_; }
    const gpu::Buffer& tets() const { return tetBuffer_; }
    // uvec4 per tet: the tet across face c (opposite corner c) at rest, or FRACTURE_NONE.
    const gpu::Buffer& faceNeighbours() const { return faceNeighbours_; }
    // The static meshes (fracture/obstacles reads their grid; pictures draw them, creases kept).
    const sim::ObstacleBuffers& obstacles() const { return obstacles_; }
    // uint: nonzero makes the next step one with contact (fracture is evaluated), as a coupled
    // fluid's push does (coupling/tet_impulses_apply writes it); 0 unless a caller writes it.
    const gpu::Buffer& externalContact() const { return externalContact_; }
    // The node-ordered incidence, current after afterStep(): node k's tet corners (4 tet + c) are
    // incidenceCorners()[nodeStart()[k] .. nodeStart()[k + 1]).
    const gpu::Buffer& nodeStart() const { return nodeStart_; }
    const gpu::Buffer& incidenceCorners() const { return corners_; }
    bool pieced() const { return pieced_; } // built for the Constraint method (its pieces' nodes are copies)
    // Per node as built: the first of the copies of its input node (itself outside pieced bodies).
    const std::vector<uint32_t>& canonicalNodes() const { return canonicalNodes_; }
    const gpu::Buffer& labels() const { return labels_; }
    const gpu::Buffer& nodeData() const { return nodeData_; }
    const gpu::Buffer& restNodes() const { return restNodes_; } // vec4 per node: rest position (body frame), body
    const gpu::Buffer& bodyInfo() const { return bodyInfo_; }   // vec4 per body: tau, breakable, mean tet volume, mean edge
    const gpu::Buffer& tetInfo() const { return tetInfo_; }     // vec4 per tet: body, density, stiffness E L, yield
    const gpu::Buffer& peakLoads() const { return peak_; }      // vec4 per node: crack normal, the step's peak load
    const gpu::Buffer& tetDamage() const { return tetDamage_; } // vec4 per tet: ductile damage, 1 / ductility
    const gpu::Buffer& nodeFlags() const { return nodeFlags_; }
    const gpu::Buffer& stepVelocities() const { return stepVelocities_; } // vec4 per node: velocity at the step's start
    const gpu::Buffer& wallApproach() const { return approach_; } // vec4 per node: its fragment's approach speeds (fracture/bounce)
    // 2 vec4 per node, at fragment roots (labels()): the last step's velocity change and the
    // fragment's mass (kg, as of that step's bounce, before its cuts), the new approach.
    const gpu::Buffer& fragmentBounce() const { return bounceOut_; }
    const TetStress& stress() const { return *stress_; }
    const gpu::Buffer& surfacePositions() const { return surface_; }
    const gpu::Buffer& surfaceNormals() const { return surfaceNormals_; }
    const gpu::Buffer& surfaceTriangles() const { return surfaceTriangles_; }
    uint32_t surfaceTriangleCount() const { return 4 * tets_; }

private:
    void writeParams();
    void addRebuild(graph::RenderGraph& graph);
    void addSubstep(graph::RenderGraph& graph, uint32_t substep);
    void addCuts(graph::RenderGraph& graph);
    void addConstraintUpdate(graph::RenderGraph& graph);
    void addPieceMatch(graph::RenderGraph& graph); // the Constraint method's pieces rigid
    void addPieceVelocity(graph::RenderGraph& graph);
    // A pass of a substep's round: dispatched directly in the rounds every substep runs, and in
    // the rounds past Fracture.iterations from ROUND_ARGS, which fracture/round_check fills with
    // these group counts or with zero groups (gatedRound_ while those are recorded).
    void launch(graph::PassBuilder& pass, uint64_t threads);
    uint32_t roundLaunch(uint64_t groups); // the entry of ROUND_ARGS with these groups (added if new)
    bool roundsGoOn() const;               // rounds past Fracture.iterations may run (fracture/round_check)
    void launchGroups(graph::PassBuilder& pass, uint32_t groups);
    void addRoundCheck(graph::RenderGraph& graph, uint32_t round, uint32_t rounds);
    // contactOut_ and contactStart_ into the substep's displacements and starts.
    void addContactResults(graph::RenderGraph& graph);
    void addCollide(graph::RenderGraph& graph);                       // the domain's walls (fracture/collide)
    void addObstacles(graph::RenderGraph& graph);                     // the static meshes (fracture/obstacles)
    void addElasticEnergy(graph::RenderGraph& graph, uint32_t stage); // fracture/energy
    StressInputs stressInputs() const;

    gpu::Context& context_;
    gpu::PipelineCache pipelines_;
    FractureSettings settings_;
    uint32_t tets_ = 0, nodes_ = 0, capacity_ = 0, bodies_ = 0;
    uint64_t fingerprint_ = 0;
    uint32_t constraints_ = 0, links_ = 0, pieces_ = 0; // Constraint method
    bool pieced_ = false;                               // built for the Constraint method
    std::vector<uint32_t> canonicalNodes_;              // per node as built: its input node's first copy
    float maxMeanEdge_ = 0.0f, minMeanEdge_ = 0.0f;
    FractureReport report_;
    bool rebuilt_ = false;
    bool allPasses_ = false;            // stepPassNames(): record the passes that depend on the state too
    std::vector<uint32_t> colourStart_; // tets of colour c: [colourStart_[c], colourStart_[c+1])
    std::vector<ColourRun> colourRuns_; // tet_goals' dispatches per sweep
    gpu::Buffer colourStartBuffer_;
    gpu::Buffer params_, state_, stateReadback_;
    gpu::Buffer roundArgs_, roundTemplate_; // the gated rounds' indirect launches, and their full group counts
    std::vector<glm::uvec4> roundLaunches_; // the group counts recorded this step (one entry per distinct count)
    bool gatedRound_ = false;
    // The last step ran rounds past the iterations or ended with nodes approaching a wall or a
    // static mesh fast (or near one, pushed from outside).
    bool wallsNear_ = true;
    // Static meshes: their triangles and the grid of triangle lists (geometry/ObstacleGrid.h).
    sim::ObstacleBuffers obstacles_;
    gpu::Buffer pushedBy_, normalRecords_, normalSums_; // the meshes' normals per node, and per fragment (fracture/bounce)
    gpu::Buffer positions_, velocities_, predicted_, peak_, restNodes_, nodeFlags_, nodeData_, labels_;
    gpu::Buffer nodeSides_, split_, offsets_, keys_, values_;
    gpu::Buffer tetBuffer_, tetRest_, tetMaterial_, tetInfo_, tetDamage_, tetSide_, tetReach_, nodeReach_, lambdas_;
    gpu::Buffer corners_, slots_, nodeStart_, heads_, bodyInfo_;
    gpu::Buffer surface_, surfaceNormals_, surfaceTriangles_;
    gpu::Buffer contactOut_, contactStart_, contactCandidates_, linkBuffer_, nodeLinkStart_, nodeLinks_, constraintInfo_,
        constraintState_, linkImpulse_, pieceBreaks_, pieceNodeStart_, pieceNodes_;
    uint32_t contactStride_ = 1; // entries per node of contactCandidates_ (the count, then candidates)
    // Face contacts: each tet's rest neighbours across its faces, the face grid (the node grid's
    // cells), each node's contact and fixed-point sums.
    gpu::Buffer faceNeighbours_, faceCounts_, faceStart_, faceEntries_, faceState_, faceContacts_, faceSums_;
    std::optional<sim::Scan> faceScan_;
    uint32_t faceCapacity_ = 0, faceCells_ = 0;
    std::optional<sim::SpatialGrid> grid_;
    std::optional<sim::RadixSort> sort_;
    std::optional<sim::Scan> scan_;
    std::optional<sim::Reduce> reduce_;
    gpu::Buffer metricTerms_, metricTotal_; // fracture/metrics' vec4 per node and their sums
    gpu::Buffer origins_, shifts_;          // per node: its fragment's origin; fracture/recentre's scratch
    gpu::Buffer externalContact_;           // uint: a coupled fluid pushed the bodies (externalContact())
    gpu::Buffer ledger_, tetEnergy_;        // per node: energy taken this step; per tet: elastic energy
    gpu::Buffer ledgerTotal_, elasticTotal_;
    // fracture/bounce (restitution at the walls): per node its velocity at the step's start, its
    // fragment's approach speeds; per fragment root the result and the walls touched; the sort
    // by fragment and the segmented scan's records.
    gpu::Buffer bodyContact_, stepVelocities_, approach_, bounceOut_, wallMask_;
    gpu::Buffer bounceKeys_, bounceValues_, bounceHeads_, bounceRecords_, bounceScanned_, fragmentRows_;
    uint32_t fragmentRowsAtStep_ = 0; // the rows the last recorded bounce writes
    std::optional<sim::SegmentedScan> bounceScan_;
    bool energyBeforeCuts_ = false; // addStep() measured the elastic energy before its cuts
    bool accounting_ = false;       // addMetrics() was recorded: steps measure the energy the cuts take
    std::optional<TetStress> stress_;
};

} // namespace floe::fracture
