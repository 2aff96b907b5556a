// Brittle fracture of tetrahedral bodies (digest-004; src/fracture/*, shaders/fracture/*):
// bindings, workgroup size, the per-run parameters and the GPU-side state of a step.
#ifndef FLOE_SHARED_FRACTURE_H
#define FLOE_SHARED_FRACTURE_H
#include "shared/types.h"

#define FRACTURE_GROUP_SIZE 128
// Contacts between fragments (fracture/contacts): the candidates a node keeps for a substep's later
// rounds, and how far beyond a pair's reach they are kept (as a fraction of it).
#define FRACTURE_CONTACT_CANDIDATES 31u
#define FRACTURE_CONTACT_MARGIN 0.5

#define FRACTURE_BIND_PARAMS 0       // uniform buffer: FractureParams
#define FRACTURE_BIND_POSITIONS 1    // vec4 per node: xyz m (relative to its fragment's origin, NODE_ORIGIN), w inverse mass 1/kg
#define FRACTURE_BIND_VELOCITIES 2   // vec4 per node: xyz m/s
#define FRACTURE_BIND_TETS 3         // uvec4 per tet: the four nodes (positive orientation)
#define FRACTURE_BIND_TET_REST 4     // 4 vec4 per tet: row i of beta's first three columns (1/m) in xyz, w rest volume m^3 (row 0)
#define FRACTURE_BIND_TET_MATERIAL 5 // vec4 per tet: lambda, mu, phi, psi (Table 1 units)
#define FRACTURE_BIND_SLOTS 6        // uint per corner (4 tet + c): its slot in the node-ordered incidence
#define FRACTURE_BIND_RECORDS 7      // 3 vec4 per incidence slot, written for the segmented scan
#define FRACTURE_BIND_SCANNED 8      // 3 vec4 per incidence slot: the records scanned per node
#define FRACTURE_BIND_NODE_START 9   // uint per node + 1: first incidence slot
#define FRACTURE_BIND_TET_STRESS 10  // 2 vec4 per tet: sigma (xx, yy, zz, xy), (xz, yz, largest principal stress, 0)
#define FRACTURE_BIND_TET_SEPARATION                                                                                               \
    11 // vec4 per tet: unit eigenvector of the element's separation tensor, w its largest eigenvalue (N)
#define FRACTURE_BIND_NODE_SEPARATION                                                                                              \
    12                              // vec4 per node: unit eigenvector of the node's separation tensor, w its largest eigenvalue (N)
#define FRACTURE_BIND_FORCES 13     // vec4 per corner (4 tet + c): elastic + damping force (10)+(11) on that node, N
#define FRACTURE_BIND_PREDICTED 14  // vec4 per node: the substep's displacement p - x (m) from POSITIONS, w inverse mass 1/kg
#define FRACTURE_BIND_REST_NODES 15 // vec4 per node: rest position (m, the body's frame), w body index
#define FRACTURE_BIND_CORNERS 18    // uint per incidence slot: the corner 4 tet + c, node-ordered
#define FRACTURE_BIND_STATE 19      // storage buffer: FractureState
#define FRACTURE_BIND_NODE_FLAGS 20 // uint per node: FRACTURE_NODE_* bits
#define FRACTURE_BIND_TET_INFO 21   // vec4 per tet: body, density kg/m^3, stiffness E L (N/m), yield (tau units, 0 brittle)
#define FRACTURE_BIND_BODY_INFO 22  // vec4 per body: tau, breakable (0/1), mean tet volume m^3, mean edge length m
#define FRACTURE_BIND_KEYS 23       // uint per node (candidates) or corner (incidence): sort keys
#define FRACTURE_BIND_VALUES 24     // uint: the values sorted with them
#define FRACTURE_BIND_TET_SIDE 25   // int per tet: side of the current cut (+1, -1, 0 untouched)
#define FRACTURE_BIND_NODE_SIDES 26 // uint per node: bit 0 an incident tet on +, bit 1 on -
#define FRACTURE_BIND_SPLIT 27      // uint per node: 1 if the cut duplicates it
#define FRACTURE_BIND_OFFSETS 28    // uint per node: exclusive scan of SPLIT
#define FRACTURE_BIND_LABELS 29     // uint per node: fragment label (the smallest node index of its component)
#define FRACTURE_BIND_NODE_DATA                                                                                                    \
    30 // vec4 per node: lumped volume m^3, mass kg, incident tets, peak load of the step (tau scale x w / volume^(2/3))
#define FRACTURE_BIND_SURFACE 31          // vec4 per surface vertex (12 per tet): position m
#define FRACTURE_BIND_SURFACE_NORMALS 32  // vec4 per surface vertex: face normal
#define FRACTURE_BIND_SURFACE_TRIS 33     // uvec4 per surface triangle (4 per tet): vertex indices, colour code
#define FRACTURE_BIND_PEAK 36             // vec4 per node: unit crack normal at the step's peak load, w that load (tau units x tau)
#define FRACTURE_BIND_TET_REACH 37        // uint per tet: 1 if reached from the cut node (radius_connected)
#define FRACTURE_BIND_NODE_REACH 38       // uint per node: 1 if a reached tet holds it
#define FRACTURE_BIND_LAMBDAS 35          // vec4 per corner: the XPBD multiplier of its goal constraint this substep
#define FRACTURE_BIND_SORTED 39           // uint per grid slot: the node in it (contacts between fragments)
#define FRACTURE_BIND_CELL_START 40       // uint per grid cell + 1: its first slot
#define FRACTURE_BIND_CONTACT_OUT 41      // vec4 per node: the predicted position after contacts (Jacobi output)
#define FRACTURE_BIND_LINKS 42            // uvec4 per link (Constraint): node a, node b, its constraint, 0
#define FRACTURE_BIND_NODE_LINK_START 43  // uint per node + 1: first entry of its links (Constraint)
#define FRACTURE_BIND_NODE_LINKS 44       // uint: link indices grouped by node
#define FRACTURE_BIND_CONSTRAINTS 45      // uvec4 per constraint: piece a, piece b, first link, link count
#define FRACTURE_BIND_CONSTRAINT_STATE 46 // vec4 per constraint: threshold S (N s), initial S, impulse of the step, enabled
#define FRACTURE_BIND_LINK_IMPULSE 47     // vec4 per link: xyz its net impulse of this step (N s)
#define FRACTURE_BIND_PIECE_BREAKS 48     // uint per piece: its constraints that broke this step
#define FRACTURE_BIND_COLOUR_START 49     // uint per tet colour + 1: its first tet (tets are stored by colour)
#define FRACTURE_BIND_METRICS 51     // vec4 per node: kinetic energy J, escaped, not finite, potential energy J (fracture/metrics)
#define FRACTURE_BIND_NODE_ORIGIN 52 // vec4 per node: xyz the origin (m, world) its positions are relative to; one per fragment
#define FRACTURE_BIND_SHIFT 53       // vec4 per node: scratch of fracture/recentre (the new origin, the shift)
#define FRACTURE_BIND_LEDGER 54      // float per node: energy J the damping took from it this step (fracture/predict)
#define FRACTURE_BIND_TET_ENERGY 55  // vec4 per tet: elastic energy J before the step's cuts, after them, 0, 0 (fracture/energy)
#define FRACTURE_BIND_STEP_VELOCITIES 56 // vec4 per node: its velocity at the start of the step (fracture/bounce)
#define FRACTURE_BIND_APPROACH                                                                                                     \
    57 // vec4 per node: its fragment's wall approach speeds per axis, signed by the wall's normal (bounce)
#define FRACTURE_BIND_BOUNCE_OUT                                                                                                   \
    58 // 2 vec4 per node, at fragment roots: velocity change and mass kg, new approach (fracture/bounce)
#define FRACTURE_BIND_BODY_CONTACT 59  // vec4 per body: restitution at the walls, 0, 0, 0
#define FRACTURE_BIND_WALL_MASK 60     // uint per node, at fragment roots: FRACTURE_NODE_WALLS its nodes touched this step
#define FRACTURE_BIND_HEADS 61         // uint per sorted slot: 1 where a fragment starts (fracture/bounce's segmented scan)
#define FRACTURE_BIND_FRAGMENT_ROWS 62 // 3 vec4 per fragment: centre of mass m, mass kg; velocity m/s, label (bits); body (bounce)
#define FRACTURE_BIND_CONTACT_CANDIDATES                                                                                           \
    63 // uint per node x (FRACTURE_CONTACT_CANDIDATES + 1): its count, then nodes near it (fracture/contacts)
#define FRACTURE_BIND_FACE_NEIGHBOURS 64  // uvec4 per tet: the tet across face c (opposite corner c) at rest, or FRACTURE_NONE
#define FRACTURE_BIND_FACE_COUNTS 65      // uint per face-grid cell + 1: boundary faces in the cell (fracture/face_bins)
#define FRACTURE_BIND_FACE_START 66       // uint per face-grid cell + 1: its first entry
#define FRACTURE_BIND_FACE_ENTRIES 67     // uint: faces (4 tet + corner) per cell
#define FRACTURE_BIND_FACE_STATE 68       // uvec4: x face-grid entries left out (over the capacity), since the start
#define FRACTURE_BIND_FACE_CONTACTS 69    // 2 vec4 per node: its contact with a face (normal, kind; face, weights)
#define FRACTURE_BIND_FACE_SUMS 70        // int x 8 per node: fixed-point moves of p (xyz), contacts, moves of x (xyz), 0
#define FRACTURE_BIND_EXTERNAL_CONTACT 71 // uint: 1 if something outside the bodies (a coupled fluid) pushed them before this step
#define FRACTURE_BIND_OBSTACLE_TRIANGLES 72 // 3 vec4 per triangle of the static meshes (fracture/obstacles)
#define FRACTURE_BIND_OBSTACLE_CELLS 73     // uint per obstacle-grid cell + 1: its first entry
#define FRACTURE_BIND_OBSTACLE_ENTRIES 74   // uint: the triangles listed in each cell
#define FRACTURE_BIND_OBSTACLE_NORMALS 75   // vec4 per node: the static meshes' normals that pushed it this step (sum), count
#define FRACTURE_BIND_NORMAL_RECORDS 76     // vec4 per sorted slot: its node's OBSTACLE_NORMALS (fracture/bounce's scan)
#define FRACTURE_BIND_NORMAL_SCANNED 77     // vec4 per sorted slot: NORMAL_RECORDS scanned per fragment
#define FRACTURE_BIND_TET_DAMAGE 16         // vec4 per tet: x ductile damage (kept peak), y 1 / ductility (0: brittle), zw 0
#define FRACTURE_BIND_PIECE_NODE_START 17   // uint per piece + 1: first entry of its nodes (Constraint)
#define FRACTURE_BIND_PIECE_NODES 34        // uint: node indices grouped by piece (Constraint)
#define FRACTURE_BIND_CONTACT_START                                                                                                \
    50 // vec4 per node: the node folded into the contact grid, then its start position after contacts

#define FRACTURE_BIND_ROUND_ARGS 78     // VkDispatchIndirectCommand per launch of a round past Fracture.iterations
#define FRACTURE_BIND_ROUND_TEMPLATE 79 // the same launches' full group counts (the host writes them each step)

#define FRACTURE_NODE_CRACK 1u     // the node lies on a crack (secondary splits start only there)
#define FRACTURE_NODE_CONTACT 2u   // a collision moved the node this step
#define FRACTURE_NODE_WALL_LOW 4u  // << 2 a: the domain's wall at domainMin[a] moved the node this step
#define FRACTURE_NODE_WALL_HIGH 8u // << 2 a: the wall at domainMax[a]
#define FRACTURE_NODE_WALLS 0xFCu  // all six
#define FRACTURE_NONE 0xFFFFFFFFu

// Fracture methods (FractureParams.control.x, digest-004 §3).
#define FRACTURE_METHOD_NONE 0u
#define FRACTURE_METHOD_RADIUS 1u           // Mueller et al. 2001, plane through the node, tets within a radius
#define FRACTURE_METHOD_RADIUS_CONNECTED 2u // the same, only tets reached from the node through tets within the radius
#define FRACTURE_METHOD_SECONDARY 3u        // the thesis' own: one global cut, then cuts from crack nodes at tau / fragility
#define FRACTURE_METHOD_WAVE 4u             // Glondu et al. 2012 as the thesis implemented it: a crack grown tet by tet
#define FRACTURE_METHOD_CONSTRAINT 5u       // Smith et al. 2001: pre-fractured pieces held by breakable links

// Separation tensor per node (FractureParams.separation).
#define FRACTURE_SEPARATION_EQ16 0u     // digest-004 (16): forces' outer products per node
#define FRACTURE_SEPARATION_AVERAGED 1u // mean of the incident elements' tensors (the thesis' code, §11 item 1)

// Colour codes of surface triangles (FRACTURE_BIND_SURFACE_TRIS.w, render/mesh.frag).
#define FRACTURE_COLOUR_STRESS 0x10000u // + 16-bit load / tau: green (0) to red (tau)

FLOE_SHARED_BEGIN

struct FractureParams {
    uint tets;
    uint nodes;      // at the start of the step (cuts append more on the GPU: FractureState)
    uint separation; // FRACTURE_SEPARATION_*
    uint nodeCapacity;
    vec4 gravity;    // xyz m/s^2, w substep dt s
    vec4 domainMin;  // xyz m, w friction coefficient
    vec4 domainMax;  // xyz m, w damping per second
    vec4 fracture;   // x tau scale (load Pa -> tau units), y Constraint link scale, z fragility, w radius factor
    uvec4 control;   // x method, y cuts per fracture event, z evaluate every step (0/1), w colour mode (0 fragments, 1 stress)
    vec4 gridOrigin; // xyz m: the contact grid's minimum corner, w its cell size m
    uvec4 gridDims;  // xyz cells, w 1 if contacts between fragments are on
    vec4 methods;    // x Wave toughness Gc/gamma (tau units), y Constraint weakening per broken neighbour, z its floor (x S0), w
                     // contact radius (x mean edge)
    uvec4 control2;  // x constraints, y links, z Wave band (0 detach, 1 split), w weak tets: 1 in this many (Wave)
    vec4 constraint; // x Constraint wear: the share of a non-breaking impulse taken off the threshold (1: the thesis),
                     // y the walls' tolerance (m): once Fracture.iterations have run, a round in which the walls and
                     // static meshes found no node deeper ends the substep's rounds (fracture/round_check), zw 0
};
SHARED_SIZE(FractureParams, 176);

// fracture/obstacles' push constants: the static meshes' grid (geometry/ObstacleGrid.h).
struct FractureObstaclePush {
    vec4 origin; // xyz the grid's lowest corner m, w its cell size m
    uvec4 dims;  // xyz cells, w triangles
};
SHARED_SIZE(FractureObstaclePush, 32);

// fracture/wall_approach's and fracture/obstacle_approach's push constants.
struct FractureApproachPush {
    vec4 origin; // the static meshes' grid (obstacle_approach only): xyz its lowest corner m, w its cell size m
    uvec4 dims;  // xyz cells, w triangles
    vec4 reach;  // x the step T s, y the margin m (the largest mean edge), z the tolerance per substep as a speed m/s, w 0
};
SHARED_SIZE(FractureApproachPush, 48);

// GPU-side state of a step; cut passes are dispatched indirectly from it.
struct FractureState {
    uvec4 counts;    // x nodes, y contact this step (0/1), z fracture events (total), w cuts (total)
    uvec4 counts2;   // x fragments, y labels changed this round, z nodes added by this cut, w secondary cursor
    uvec4 tetArgs;   // indirect dispatch over tets for the current cut (x = 0: no cut)
    uvec4 nodeArgs;  // indirect dispatch over the node capacity for the current cut
    vec4 cutPoint;   // xyz m, w radius m (negative: the whole fragment)
    vec4 cutNormal;  // xyz unit normal, w 1 if a cut is active
    uvec4 cutInfo;   // x node, y body, z fragment label, w method
    vec4 primary;    // secondary splits: xyz the first cut's normal, w 1 once it was made this step
    uvec4 extra;     // x largest node load / tau this step (float bits), y cuts this step, z labels converged, w reach changed
    uvec4 reachArgs; // indirect dispatch over tets for the next reach round (x = 0: done or no cut)
    uvec4 wave;      // Wave: x start tet (+ tets if not weak; atomicMin), y energy used, z energy available (fixed point), w level
    uvec4 ductile;   // x largest damage of a ductile node so far (float bits), y workgroups done (last_group.glsl),
                     // z fragment rows fracture/bounce wrote this step, w nodes (per substep, total) with more
                     // contact candidates than FRACTURE_CONTACT_CANDIDATES (fracture/contacts)
    uvec4 rounds;    // x the deepest the walls and static meshes found a node in this round (float bits, m;
                     // atomicMax), y rounds run past Fracture.iterations this step, z substeps that ended at
                     // Fracture.iterationLimit with a node still deeper than the tolerance, w nodes that
                     // approach a wall fast at the step's end (fracture/wall_approach)
};
SHARED_SIZE(FractureState, 208);

FLOE_SHARED_END

#endif
