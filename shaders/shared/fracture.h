// Brittle fracture of tetrahedral bodies (digest-004; src/fracture/*, shaders/fracture/*):
// bindings, workgroup size and the stress-pass constants.
#ifndef FLOE_SHARED_FRACTURE_H
#define FLOE_SHARED_FRACTURE_H
#include "shared/types.h"

#define FRACTURE_GROUP_SIZE 128

#define FRACTURE_BIND_PARAMS 0       // uniform buffer: FractureParams
#define FRACTURE_BIND_POSITIONS 1    // vec4 per node: xyz m (world), w mass kg
#define FRACTURE_BIND_VELOCITIES 2   // vec4 per node: xyz m/s
#define FRACTURE_BIND_TETS 3         // uvec4 per tet: the four nodes (positive orientation)
#define FRACTURE_BIND_TET_REST 4     // 4 vec4 per tet: row i of beta's first three columns (1/m) in xyz, w rest volume m^3 (row 0)
#define FRACTURE_BIND_TET_MATERIAL 5 // vec4 per tet: lambda, mu, phi, psi (Pa, Pa s)
#define FRACTURE_BIND_SLOTS 6        // uint per corner (4 tet + c): its slot in the node-ordered incidence
#define FRACTURE_BIND_RECORDS 7      // 3 vec4 per incidence slot, written for the segmented scan
#define FRACTURE_BIND_SCANNED 8      // 3 vec4 per incidence slot: the records scanned per node
#define FRACTURE_BIND_NODE_START 9   // uint per node + 1: first incidence slot
#define FRACTURE_BIND_TET_STRESS 10  // 2 vec4 per tet: sigma (xx, yy, zz, xy), (xz, yz, largest principal stress, 0) Pa
#define FRACTURE_BIND_TET_SEPARATION                                                                                               \
    11 // vec4 per tet: unit eigenvector of the element's separation tensor, w its largest eigenvalue (N)
#define FRACTURE_BIND_NODE_SEPARATION                                                                                              \
    12                          // vec4 per node: unit eigenvector of the node's separation tensor, w its largest eigenvalue (N)
#define FRACTURE_BIND_FORCES 13 // vec4 per corner (4 tet + c): elastic + damping force (10)+(11) on that node, N

// Separation tensor per node (FractureParams.separation).
#define FRACTURE_SEPARATION_EQ16 0u     // digest-004 (16): forces' outer products per node
#define FRACTURE_SEPARATION_AVERAGED 1u // mean of the incident elements' tensors (the thesis' code, §11 item 1)

FLOE_SHARED_BEGIN

struct FractureParams {
    uint tets;
    uint nodes;
    uint separation; // FRACTURE_SEPARATION_*
    uint pad0;
};
SHARED_SIZE(FractureParams, 16);

FLOE_SHARED_END

#endif
