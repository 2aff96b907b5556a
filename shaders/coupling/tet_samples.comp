#version 460
// The tetrahedral solids' boundary samples at the nodes' current positions and velocities (the
// fracture bodies' step left them): a sample is the barycentric combination of its tet face's
// corners (fixed at rest), moved its depth inside along the face's normal. It is on (Psi_b as
// sampled) while its face bounds a fragment: no tet shared the face at rest, or the one that did
// no longer holds its three nodes (a cut duplicated one: a crack face, as fracture/face_bins
// tells them) or, between two pieces of the Constraint method, belongs to another fragment; a
// face inside a fragment keeps its samples at Psi_b 0, which the fluid's passes skip. The surface
// plane for sph/solid_guard is the face's own. Written into the fluid's solid samples from
// params.counts.z on, after the solids' step (and once at the start).
#include "shared/coupling.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = COUPLING_GROUP_SIZE) in;
layout(push_constant) uniform Push { CouplingParams params; };
FLOE_IN_VEC4(COUPLING_BIND_POSITIONS, positions);
FLOE_IN_VEC4(COUPLING_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(COUPLING_BIND_NODE_ORIGINS, origins);
FLOE_IN_UVEC4(COUPLING_BIND_TETS, tets);
FLOE_IN_UVEC4(COUPLING_BIND_FACE_NEIGHBOURS, neighbours);
FLOE_IN_UVEC4(COUPLING_BIND_SAMPLE_CORNERS, corners);
FLOE_IN_VEC4(COUPLING_BIND_SAMPLE_WEIGHTS, weights);
FLOE_IN_UINT(COUPLING_BIND_LABELS, labels);
FLOE_IN_VEC4(COUPLING_BIND_FRAGMENT_MASS, fragments);
FLOE_IN_VEC4(COUPLING_BIND_TET_INFO, tetInfo);
FLOE_OUT_VEC4(COUPLING_BIND_SAMPLES, samples);
FLOE_OUT_VEC4(COUPLING_BIND_SAMPLE_VELOCITIES, sampleVelocities);
FLOE_OUT_VEC4(COUPLING_BIND_SAMPLE_NORMALS, sampleNormals);

// Face c of a tet: its corners, the normal pointing away from corner c (SolidSampler.h).
const ivec3 kFaceCorners[4] = ivec3[4](ivec3(1, 2, 3), ivec3(0, 3, 2), ivec3(0, 1, 3), ivec3(0, 2, 1));

void main()
{
    const uint s = floeGlobalIndex();
    if (s >= params.counts.x) return;
    const uvec4 c = FLOE_LOAD_UVEC4(corners, s);
    const vec4 w = FLOE_LOAD_VEC4(weights, s);
    const uvec4 tet = FLOE_LOAD_UVEC4(tets, c.x);
    const uvec3 face = uvec3(tet[kFaceCorners[c.y].x], tet[kFaceCorners[c.y].y], tet[kFaceCorners[c.y].z]);
    bool boundary = true;
    const uint across = FLOE_LOAD_UVEC4(neighbours, c.x)[c.y];
    if (across != COUPLING_NONE) {
        const uvec4 other = FLOE_LOAD_UVEC4(tets, across);
        bool sharedFace = true;
        for (int k = 0; k < 3; ++k) sharedFace = sharedFace && any(equal(other, uvec4(face[k])));
        // The Constraint method's pieces (params.limits.y 1) copy their shared nodes: a face between
        // two pieces is inside while they are one fragment (joined by an intact constraint).
        const bool sameFragment = params.limits.y != 0.0 && FLOE_LOAD_UINT(labels, face.x) == FLOE_LOAD_UINT(labels, other.x);
        boundary = !(sharedFace || sameFragment);
    }
    // A fragment smaller than one fluid particle is below what the fluid resolves: its faces'
    // samples would lie deeper than the fragment is thick, and it is lighter than the particles
    // that push it, which the pressure solve (it takes every boundary as immovable) overshoots:
    // a two-tet glass shard of 11 g (a fluid particle weighs 15.6 g) was thrown 35 cm up out of
    // a dam break's water. The fluid does not see such a fragment, nor the fragment the fluid.
    // The mass is the fragment's as of the last step's bounce (0 before the first: seen).
    const float mass = FLOE_LOAD_VEC4(fragments, 2u * FLOE_LOAD_UINT(labels, face.x)).w;
    const float density = FLOE_LOAD_VEC4(tetInfo, c.x).y;
    if (mass > 0.0 && density > 0.0 && mass < density * params.limits.x) boundary = false;
    vec3 corner[3];
    vec3 v = vec3(0.0);
    for (int k = 0; k < 3; ++k) {
        corner[k] = FLOE_LOAD_VEC4(positions, face[k]).xyz + FLOE_LOAD_VEC4(origins, face[k]).xyz;
        v += w[k] * FLOE_LOAD_VEC4(velocities, face[k]).xyz;
    }
    const vec3 n = cross(corner[1] - corner[0], corner[2] - corner[0]);
    const float nn = length(n);
    const vec3 unit = nn > 0.0 ? n / nn : vec3(0.0);
    const float depth = uintBitsToFloat(c.z);
    const vec3 x = w.x * corner[0] + w.y * corner[1] + w.z * corner[2] - depth * unit;
    const uint slot = params.counts.z + s;
    FLOE_STORE_VEC4(sampleNormals, slot, vec4(unit, depth)); // positive: a tet face's (sph/solid_guard)
    FLOE_STORE_VEC4(samples, slot, vec4(x, boundary ? w.w : 0.0));
    // w: the speed of a sample the fluid sees, for the world's CFL step (app/RunWorld)
    FLOE_STORE_VEC4(sampleVelocities, slot, vec4(v, boundary ? length(v) : 0.0));
}
