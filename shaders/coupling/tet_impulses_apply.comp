#version 460
// The fluid's impulses on the tetrahedral solids' samples back into the nodes' velocities, with
// the weights that placed the samples: per node k, v_k += (sum over its tet corners (t, c), over
// the samples of tet t's faces, of the weight of corner c) J_s / m_k. The node's corners come
// from the incidence the fracture bodies rebuilt after their last cuts, so a node a cut
// duplicated takes exactly the samples of its own tets. Gathered in a fixed order (no atomics);
// runs after the fluid's step and before the solids' (Akinci et al. 2012 §4), so the fluid's
// pressure enters the elastic step and its stress: water can break a brittle body.
#include "shared/coupling.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = COUPLING_GROUP_SIZE) in;
layout(push_constant) uniform Push { CouplingParams params; };
FLOE_IN_VEC4(COUPLING_BIND_POSITIONS, positions); // w: inverse mass 1/kg (0: fixed)
FLOE_RW_VEC4(COUPLING_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(COUPLING_BIND_IMPULSES, impulses);
FLOE_IN_UINT(COUPLING_BIND_NODE_START, nodeStart);
FLOE_IN_UINT(COUPLING_BIND_INCIDENCE, incidence);
FLOE_IN_UINT(COUPLING_BIND_TET_SAMPLE_START, tetSampleStart);
FLOE_IN_UVEC4(COUPLING_BIND_SAMPLE_CORNERS, corners);
FLOE_IN_VEC4(COUPLING_BIND_SAMPLE_WEIGHTS, weights);
layout(std430, binding = COUPLING_BIND_CONTACT) buffer Contact { uint contact; };

const ivec3 kFaceCorners[4] = ivec3[4](ivec3(1, 2, 3), ivec3(0, 3, 2), ivec3(0, 1, 3), ivec3(0, 2, 1));

void main()
{
    const uint k = floeGlobalIndex();
    if (k >= params.counts.y) return;
    const float inverseMass = FLOE_LOAD_VEC4(positions, k).w;
    if (!(inverseMass > 0.0)) return;
    vec3 impulse = vec3(0.0);
    const uint first = FLOE_LOAD_UINT(nodeStart, k), last = FLOE_LOAD_UINT(nodeStart, k + 1u);
    for (uint slot = first; slot < last; ++slot) {
        const uint corner = FLOE_LOAD_UINT(incidence, slot);
        const uint t = corner >> 2u, c = corner & 3u;
        const uint end = FLOE_LOAD_UINT(tetSampleStart, t + 1u);
        for (uint s = FLOE_LOAD_UINT(tetSampleStart, t); s < end; ++s) {
            const uint f = FLOE_LOAD_UVEC4(corners, s).y;
            if (f == c) continue; // the face opposite this corner
            const ivec3 fc = kFaceCorners[f];
            const vec4 w = FLOE_LOAD_VEC4(weights, s);
            const float weight = uint(fc.x) == c ? w.x : uint(fc.y) == c ? w.y : w.z;
            impulse += weight * FLOE_LOAD_VEC4(impulses, params.counts.z + s).xyz;
        }
    }
    if (impulse == vec3(0.0)) return;
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, k);
    v.xyz += inverseMass * impulse;
    FLOE_STORE_VEC4(velocities, k, v);
    // The fluid loads the body: the step evaluates fracture, as a wall contact makes it (the
    // elastic solve's stress in free flight is not a load; digest-004 evaluates on contact only).
    if (contact == 0u) atomicOr(contact, 1u);
}
