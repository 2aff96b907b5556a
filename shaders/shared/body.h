// Deformable bodies by surface shape matching (digest-002 §2.7; src/body/DeformableBodies.cpp,
// shaders/body/*): bindings, workgroup size and the per-step constants.
#ifndef FLOE_SHARED_BODY_H
#define FLOE_SHARED_BODY_H
#include "shared/types.h"

#define BODY_GROUP_SIZE 128

#define BODY_BIND_PARAMS 0          // uniform buffer: BodyParams
#define BODY_BIND_POSITIONS 1       // vec4 per particle: xyz m relative to its body's origin, w mass kg
#define BODY_BIND_VELOCITIES 2      // vec4 per particle: xyz m/s
#define BODY_BIND_PREVIOUS 3        // vec4 per particle: position at the start of the step (relative)
#define BODY_BIND_REST 4            // vec4 per particle: rest position in the body's local frame, w body index
#define BODY_BIND_BODY_RANGE 5      // uvec4 per body: first particle, count
#define BODY_BIND_BODY_DATA 6       // vec4 per body: local scale (1/m), rest volume m^3, particle mass kg
#define BODY_BIND_SCAN 7            // scanned records (3 vec4 per particle, or 1)
#define BODY_BIND_SCAN_B 8          // a second scanned record stream (1 vec4 per particle)
#define BODY_BIND_OUT 9             // records written for the next scan (3 vec4 or 1 per particle)
#define BODY_BIND_REGION_INFO 10    // vec4 per region: M kg, member count, extra point distance (local), 0
#define BODY_BIND_REGION_CENTRE 11  // vec4 per region: rest centre t0 (local)
#define BODY_BIND_REGION_START 12   // uint per region + 1: first interval
#define BODY_BIND_INTERVALS 13      // uint pairs: first, last particle of each interval (inclusive)
#define BODY_BIND_HEADS 14          // uint per particle: 1 at a path start
#define BODY_BIND_NORMALS 15        // vec4 per particle: area-weighted normal sum (m^2), world
#define BODY_BIND_REST_NORMALS 16   // vec4 per particle: unit rest normal
#define BODY_BIND_WARM 17           // 3 vec4 per region: Jacobi warm start V (columns)
#define BODY_BIND_INCIDENT_START 18 // uint per particle + 1
#define BODY_BIND_INCIDENT 19       // uint: triangle ids
#define BODY_BIND_TRIANGLES 20      // uvec4 per triangle: particle indices
#define BODY_BIND_FLAGS 21          // uint per particle: bit 0 a contact moved it in this round, bit 1 in this step
#define BODY_BIND_DISPLACEMENT 22   // vec4 per particle: shape-matching displacement c (m), w |c|
#define BODY_BIND_METRICS                                                                                                          \
    23                       // vec4 per body: volume error (V - V0) / V0, potential energy J, rigid error, kinetic energy J;
                             // then 2 vec4 per body: centre of mass (world m), mass kg; its velocity m/s, volume m^3;
                             // then, when measured, vec4 per body: elastic energy J, damping loss J this step,
                             // particles a contact moved, 0
#define BODY_BIND_ORIGINS 24 // vec4 per body: origin (world m) its positions are relative to; then per body its move this step
#define BODY_BIND_CONTACT_ENTRIES 25    // uint: triangle indices per cell of the contact grid (body/triangle_bins)
#define BODY_BIND_CELL_START 26         // uint per cell + 1: first entry of the contact grid's cell
#define BODY_BIND_CENTROIDS 28          // vec4 per region: centroid t (local frame) of the last shape matching
#define BODY_BIND_WEIGHTS 29            // vec4 per particle: x volume weight w (7.14), smoothed
#define BODY_BIND_ADJ_START 30          // uint per particle + 1: first 1-ring neighbour
#define BODY_BIND_ADJ 31                // uint: 1-ring neighbours
#define BODY_BIND_OBSTACLE_TRIANGLES 33 // vec4 x3 per static triangle: a, b, c (xyz m); a.w unused
#define BODY_BIND_OBSTACLE_CELLS 34     // uint per obstacle grid cell + 1: first entry
#define BODY_BIND_OBSTACLE_ENTRIES 35   // uint: triangle ids per cell
#define BODY_BIND_BODY_VOLUME 36        // vec4 per body: volume mode, alpha, beta (the settings or the body's own), 0
#define BODY_BIND_JOINTS 32             // vec4 per particle: interior joint partner (index), rest length m, stiffness, 1 if any
#define BODY_BIND_CONTACT_SUMS 37       // int x BODY_CONTACT_WIDTH per particle: contacts between bodies (fixed point)
#define BODY_BIND_CONTACT_COUNTS 38     // uint per cell + 1: triangles per contact-grid cell (body/triangle_bins)
#define BODY_BIND_CONTACT_MASKS 40      // uint per cell: bit (body mod 32) set for each body with a triangle in the cell
#define BODY_BIND_CONTACT_PLANES 41     // 2 vec4 per triangle: plane now, at the step's start (unit normal, n . corner m)
#define BODY_BIND_CONTACTS                                                                                                         \
    42                             // 3 vec4 per particle: its contact with another body (normal, depth m; triangle,
                                   // weights; normal speed to reach m/s, normal impulse so far N s)
#define BODY_BIND_DAMP_LOSS 43     // float per particle: kinetic energy the damping took this step (J)
#define BODY_BIND_CONTACT_STATE 39 // uvec4: x contact-grid entries left out (over the capacity), since the start

// The contacts between bodies' per-particle sums (body/contacts, contacts_resolve, contacts_apply):
// position correction xyz (m), the number of contacts, velocity correction xyz (m/s), unused; in
// fixed point (common/fixed_point.glsl).
#define BODY_CONTACT_WIDTH 8u

// Volume modes (digest-002 §2.7.8-2.7.9).
#define BODY_VOLUME_NONE 0
#define BODY_VOLUME_GLOBAL 1
#define BODY_VOLUME_LOCAL 2

FLOE_SHARED_BEGIN

struct BodyParams {
    vec4 gravity;        // xyz m/s^2, w dt s
    vec4 control;        // x stiffness s, y volume alpha, z volume mode, w Jacobi sweeps
    vec4 contact;        // x friction coefficient, y restitution, z contact distance m, w particle radius between bodies m
    vec4 domainMin;      // m, walls of the domain box (the floor is domainMin.y)
    vec4 domainMax;      // m
    vec4 glass;          // x, z centre m, y rim height m (above the floor), w inner radius m (0: no glass)
    vec4 damping;        // x per-region velocity damping k in [0, 1] (digest-002 §2.7.10), y joint influence beta (§2.7.9), zw 0
    vec4 obstacleOrigin; // xyz m: minimum corner of the obstacle grid, w cell size m (0: no obstacles)
    uvec4 obstacleDims;  // xyz cells per axis
    vec4 gridOrigin;     // xyz m: minimum corner of the contact grid, w cell size m
    uvec4 gridDims;      // xyz cells per axis
    uint particles;
    uint bodies;
    uint triangles;
    uint contactCapacity; // entries the contact grid holds (body/triangle_bins)
};
SHARED_SIZE(BodyParams, 192);

struct BodyPush {
    uint stage; // which variant of a multi-use pass (see the shader)
    uint pad0, pad1, pad2;
};
SHARED_SIZE(BodyPush, 16);

// The "need" for volume of a particle (digest-002 §2.7.9, the unnumbered weight with joints):
// beta s_i d_i + (1 - beta) |c_i|, d_i the strain |(|x_i - x_k| - L0)| of its interior joint.
SHARED_FN float bodyVolumeNeed(float beta, float jointStiffness, float jointStrain, float displacement)
{
    return beta * jointStiffness * jointStrain + (1.0f - beta) * displacement;
}

FLOE_SHARED_END
#endif
