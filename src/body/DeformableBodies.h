// Incompressible deformable bodies by surface shape matching (digest-002 §2.7): closed triangle
// meshes, one particle per vertex, all bodies' particles in one array in path order, so the
// cost depends only on the total count. Positions are stored relative to each body's origin
// (float32 keeps their digits far from the world's origin); positions() has them in the world.
// Each step (§2.7.13), all on the GPU through the graph:
//   body/origins (to the first particle) -> body/integrate (free flight) -> body/normals -> body/sm_terms -> segmented
//   scan along paths -> body/sm_regions (gather, extra point, det fix, warm-started polar) ->
//   segmented scan of the transforms -> body/sm_goals (goal average, v += s (g - x)/dt, x) ->
//   [damping: body/damp_terms -> scan -> body/damp_regions -> scan -> body/damp_apply] ->
//   body/collide (walls, plate, glass) -> [body/obstacles (static meshes)] -> [contacts between
//   bodies: body/triangle_bins (count) -> scan -> body/triangle_bins (scatter) -> body/contacts
//   (point against triangle) -> (body/contacts_resolve -> body/contacts_apply) x iterations] ->
//   rounds of: body/normals -> body/volume_terms -> per-body scan -> body/volume_weights (need),
//   [body/weights_smooth x N] -> body/volume_weights (zero collided) -> per-body scan ->
//   body/volume_apply (positions, velocities) -> body/collide, [body/obstacles], [one more
//   contacts_resolve -> contacts_apply] -> then body/normals -> body/volume_terms (measure) ->
//   per-body scan -> [energy account: body/sm_terms -> scan -> body/sm_energy -> per-body scan] ->
//   body/volume_measure (volume and rigid error per body) -> body/world (world positions).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "body/BodyLayout.h"
#include "body/BodySettings.h"
#include "gpu/Buffer.h"
#include "gpu/PipelineCache.h"
#include "io/SolidState.h"
#include "sim/ObstacleBuffers.h"
#include "sim/ParticleBuffers.h"
#include "sim/SpatialGrid.h"
#include "sim/prim/Scan.h"
#include "sim/prim/SegmentedScan.h"

namespace floe::graph {
class RenderGraph;
class PassBuilder;
} // namespace floe::graph

namespace floe::body {

struct BodyInstance {
    geometry::TriangleMesh mesh;       // rest shape, placed in the world (m)
    float density = 1000.0f;           // kg/m^3: the body's mass spread evenly over its vertices
    glm::vec3 velocity{0.0f};          // m/s at the start
    glm::vec3 angularVelocity{0.0f};   // rad/s about the centroid at the start
    int volumeMode = -1;               // this body's BODY_VOLUME_* (-1: the settings')
    float alpha = -1.0f, beta = -1.0f; // this body's local-volume alpha and beta (negative: the settings')
    std::vector<glm::vec3> initial;    // start positions in the mesh's vertex order (empty: the rest shape); with
                                       // them, `mesh` must be closedSurface()'s output (its vertex order is kept)
};

class DeformableBodies {
public:
    // Throws floe::Error for bad meshes (closedSurface) and omega out of range.
    // `obstacles`: static closed or open triangle meshes (outward normals) the bodies collide with.
    DeformableBodies(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                     const std::vector<BodyInstance>& bodies, const BodySettings& settings,
                     const std::vector<geometry::TriangleMesh>& obstacles = {});

    // From the next step on; omega is fixed at construction (changing it needs new bodies).
    void setSettings(const BodySettings& settings);
    // The next step's length (s), as a world choosing its steps sets it every step (the frame's
    // parameters are written again; nothing else is checked). Throws for a step <= 0.
    void setTimeStep(float dt);
    // Runs with steps in flight: the host-written parameters (the plate's height, the settings)
    // have one copy per frame; setFrame(f) selects copy f for the next setSettings and addStep,
    // brought up to date with the settings if they changed since. The caller waits for the step
    // that last used frame f first.
    static constexpr uint32_t kFrames = 2;
    void setFrame(uint32_t frame);
    const BodySettings& settings() const { return settings_; }
    void addStep(graph::RenderGraph& graph);
    // Per body vec4 (volume error (V - V0)/V0, V m^3, rigid-consistency error: mean |g - x| over
    // the body's size, 0) of the last step, copied to `target`.
    void addMetricsReadback(graph::RenderGraph& graph, const gpu::Buffer& target, VkDeviceSize offset = 0) const;
    // Per body 2 vec4 of the last step (bodies.csv): centre of mass (world, m) and mass (kg); the
    // centre's velocity (m/s) and the volume (m^3), copied to `target`.
    void addMotionReadback(graph::RenderGraph& graph, const gpu::Buffer& target) const;

    // The energy account (docs/bodies.md, *Energy*): with it on, each step's measurement adds
    // the bodies' elastic energy (body/sm_energy: the shape-matching potential of the end
    // positions), the kinetic energy the damping took and the particles a contact moved; off
    // (the default, as in the body bench) it costs nothing. Runs turn it on (app/DeformablePart).
    void setEnergyAccount(bool on) { energy_ = on; }
    // The measurement of the bodies as they are now, before any step (the account's start);
    // needs the energy account on. Read it with addMetricsReadback and addEnergyReadback.
    void addInitialMeasure(graph::RenderGraph& graph);
    // Per body vec4 of the last measurement: elastic energy (J), the damping's loss in the step
    // (J), particles a contact moved (the last round), 0; copied to `target`.
    void addEnergyReadback(graph::RenderGraph& graph, const gpu::Buffer& target) const;

    // Entries the contact grid between bodies left out since the start (a body stretched far
    // beyond its rest size; their triangles were missed by some contacts). Submits and waits.
    uint32_t contactGridOverflows(graph::RenderGraph& graph) const;
    // Contacts with another kind of solid (coupling::SolidContacts): `before` is recorded at the
    // start of each step, `contacts` after the walls and static meshes in each collision round
    // (with the relative positions, velocities and flags of this step), `after` at its end.
    struct ContactHooks {
        std::function<void(graph::RenderGraph&)> before, contacts, after;
    };
    void setContactHooks(ContactHooks hooks) { hooks_ = std::move(hooks); }
    const gpu::Buffer& flags() const { return flags_; }         // uint per particle: 3 when a contact moved it this round
    const gpu::Buffer& restData() const { return rest_; }       // vec4 per particle: w its body
    const gpu::Buffer& bodyOrigins() const { return origins_; } // vec4 per body: the origin of its relative positions (m)
    uint32_t particleCount() const { return particles_; }
    float contactRadius() const { return contactRadius_; } // m, between bodies: half the finest body's mean edge length
    uint32_t bodyCount() const { return static_cast<uint32_t>(layouts_.size()); }
    uint32_t triangleCount() const { return triangles_; }
    const std::vector<BodyLayout>& layouts() const { return layouts_; }
    const std::vector<uint32_t>& firstParticle() const { return first_; }
    // vec4 per particle: xyz m (world), w mass kg; as the last step (or set-up) left them. The
    // passes keep positions relative to each body's origin (body/origins) and write these last.
    const gpu::Buffer& positions() const { return world_; }
    const gpu::Buffer& relativePositions() const { return positions_; } // to each body's origin (tests)
    // vec4 per particle: its position at the step's start, relative to its body's origin (the
    // continuous contacts' start point).
    const gpu::Buffer& previousPositions() const { return previous_; }
    const gpu::Buffer& velocities() const { return velocities_; }
    const gpu::Buffer& triangles() const { return triangleBuffer_; } // uvec4 per triangle
    // The triangles around each particle: uint per particle + 1, its first entry in incident(),
    // and uint per entry, a triangle's index (the particles' order, as normals() gathers them).
    const gpu::Buffer& incidentStart() const { return incidentStart_; }
    const gpu::Buffer& incident() const { return incident_; }
    const gpu::Buffer& normals() const { return normals_; } // vec4 area-weighted sums, end of step
    // The static obstacles for drawing: vertex positions, area-weighted normals, triangles (w 0xFFFF).
    const sim::ObstacleBuffers& obstacles() const { return obstacles_; }
    const gpu::Buffer& transforms() const { return transforms_; } // 3 vec4 per region after a step (tests)
    // vec4 per region after a measurement with the energy account on (tests): its elastic
    // energy (J), the damping's loss at its particle (J), 1 if a contact moved its particle, 0.
    const gpu::Buffer& energyRecords() const { return weightTerms_; }

    // Saved states (--save-state, --load-state): the buffers that carry a run from one step to
    // the next (positions, velocities, the polar decompositions' warm starts, contact flags and
    // shape-matching displacements), submitted and waited for. load throws floe::Error naming
    // `file` when the state does not fit these bodies.
    void saveState(graph::RenderGraph& graph, io::SolidState& state) const;
    void loadState(graph::RenderGraph& graph, const io::SolidState& state, const std::filesystem::path& file);
    // The same buffers (a coupled world's replay snapshots copy them on the GPU, app/RunWorld), and
    // what a state copied back into them needs recorded before the next step (normals, world positions).
    std::vector<sim::CarriedBuffer> carried() const;
    void addRestored(graph::RenderGraph& graph);
    uint64_t fingerprint() const { return fingerprint_; } // of the bodies' meshes, masses and regions

    // Submits and waits: positions/velocities as vec4 in path order, and replacing them (tests).
    std::vector<glm::vec4> download(graph::RenderGraph& graph, const gpu::Buffer& buffer) const;
    void uploadState(graph::RenderGraph& graph, const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities);

private:
    void addParamsUpdate();
    void addShapeMatching(graph::RenderGraph& graph);
    // body/sm_terms of the current positions into terms_, and (`scan`) their path scan into scanned_.
    void addShapeTerms(graph::RenderGraph& graph, bool scan);
    // A pass of body/sm_regions or one of its variants with the region fit's inputs bound (the
    // sums: terms_ with member lists if `naive`, else scanned_ with interval lists); the caller
    // adds the warm start and the outputs, and dispatches.
    graph::PassBuilder addRegionFit(graph::RenderGraph& graph, const char* shader, bool naive);
    void addVolume(graph::RenderGraph& graph);
    void addMeasure(graph::RenderGraph& graph);
    void addWorld(graph::RenderGraph& graph); // body/world: positions() from the relative positions
    // Per body its first particle's position and a zero move (the origins_ layout), and the
    // positions relative to them, from world positions in path order.
    std::vector<glm::vec4> originsOf(const std::vector<glm::vec4>& world) const;
    std::vector<glm::vec4> relativeTo(const std::vector<glm::vec4>& origins, const std::vector<glm::vec4>& world) const;
    void addEnergyRecords(graph::RenderGraph& graph); // body/sm_energy's records, scanned per body into weightScanned_
    void addDamping(graph::RenderGraph& graph);
    void addNormals(graph::RenderGraph& graph);        // area-weighted vertex normal sums of the current positions
    void addStaticContacts(graph::RenderGraph& graph); // walls, plate, glass, static meshes
    // body/volume_terms (stage 0: correction terms, 1: measurement) and their per-body sums.
    void addVolumeSums(graph::RenderGraph& graph, uint32_t stage);

    gpu::Context& context_;
    gpu::PipelineCache pipelines_;
    BodySettings settings_;
    std::vector<BodyLayout> layouts_;
    std::vector<uint32_t> first_;
    uint32_t particles_ = 0, triangles_ = 0;
    uint64_t fingerprint_ = 0;
    std::optional<sim::SegmentedScan> scan_;
    // Contacts between bodies: the triangles binned into a grid (body/triangle_bins), and
    // body/contacts' fixed-point corrections, BODY_CONTACT_WIDTH ints per particle.
    float contactRadius_ = 0.0f;
    ContactHooks hooks_;
    sim::GridSpec contactGrid_;
    uint32_t contactCapacity_ = 0;
    std::optional<sim::Scan> contactScan_;
    gpu::Buffer contactCounts_, contactStart_, contactEntries_, contactMasks_, contactPlanes_, contactState_, contactSums_,
        contacts_;
    // The triangle grid's buffers (body/BodyContacts.cpp, as the passes below).
    void buildBodyContacts(const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const BodySettings& settings,
                           const std::vector<glm::uvec4>& triangles, const std::vector<glm::vec4>& positions);
    void addBodyContacts(graph::RenderGraph& graph);                          // bins, detection, iterations
    void addBodyContactIterations(graph::RenderGraph& graph, int iterations); // resolve and apply
    gpu::Buffer centroids_, dampRigid_;               // damping: region centroids, per-region rigid velocity terms
    gpu::Buffer weights_, weightsB_, adjStart_, adj_; // volume weights and their smoothing over the 1-rings
    gpu::Buffer joints_;                              // interior joints (partner, rest length, stiffness)
    std::array<gpu::Buffer, kFrames> bodyVolume_;     // per body: volume mode, alpha, beta (host-written, per frame)
    std::vector<glm::vec3> bodyOverrides_;            // per body: its own mode, alpha, beta (negative: none)
    bool anyVolume_ = true, anyLocal_ = false;
    bool energy_ = false;
    gpu::Buffer dampLoss_; // float per particle: the kinetic energy body/damp_apply took this step
    // Static obstacles: triangles (3 vec4), a grid of triangle lists, and draw buffers.
    sim::ObstacleBuffers obstacles_;
    void buildObstacles(graph::RenderGraph& graph, const std::vector<geometry::TriangleMesh>& obstacles);
    std::array<gpu::Buffer, kFrames> params_; // BodyParams, one per frame in flight
    uint32_t frame_ = 0;
    std::array<bool, kFrames> stale_{}; // the frame's copies predate the settings
    void writeFrame();                  // the settings into the current frame's copies
    // positions_ and previous_ relative to their body's origin; origins_: per body its origin
    // (world m), then per body its move at this step's start; world_: positions() for the outside.
    gpu::Buffer positions_, velocities_, previous_, rest_, bodyRange_, bodyData_, origins_, world_;
    gpu::Buffer regionInfo_, regionCentre_, regionStart_, intervals_, pathHeads_, bodyHeads_;
    gpu::Buffer memberStart_, members_; // naive summation only
    gpu::Buffer normals_, restNormals_, warm_, incidentStart_, incident_, triangleBuffer_, flags_, displacement_;
    gpu::Buffer terms_, scanned_, transforms_, volumeTerms_, volumeScanned_, weightTerms_, weightScanned_, metrics_;
};

} // namespace floe::body
