#version 460
// The fluid's impulses on the samples back into the solid vertices' velocities, with the weights
// that placed the samples (so the vertices together take exactly the samples' sum): per vertex
// k, v_k += sum_s w_sk J_s / m_k, gathered over the vertex's entries in a fixed order (no atomics;
// the result does not depend on scheduling). Runs after the fluid's step and before the solids'
// (Akinci et al. 2012 §4: the fluid forces enter the solid's integration).
#include "shared/coupling.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = COUPLING_GROUP_SIZE) in;
layout(push_constant) uniform Push { CouplingParams params; };
FLOE_IN_VEC4(COUPLING_BIND_POSITIONS, positions);
FLOE_RW_VEC4(COUPLING_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(COUPLING_BIND_IMPULSES, impulses);
FLOE_IN_UINT(COUPLING_BIND_VERTEX_START, vertexStart);
FLOE_IN_UVEC4(COUPLING_BIND_VERTEX_SAMPLES, vertexSamples);

void main()
{
    const uint k = floeGlobalIndex();
    if (k >= params.counts.y) return;
    const uint first = FLOE_LOAD_UINT(vertexStart, k), last = FLOE_LOAD_UINT(vertexStart, k + 1u);
    if (first == last) return;
    vec3 impulse = vec3(0.0);
    for (uint e = first; e < last; ++e) {
        const uvec4 entry = FLOE_LOAD_UVEC4(vertexSamples, e);
        impulse += uintBitsToFloat(entry.y) * FLOE_LOAD_VEC4(impulses, params.counts.z + entry.x).xyz;
    }
    const float mass = FLOE_LOAD_VEC4(positions, k).w;
    if (!(mass > 0.0)) return;
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, k);
    v.xyz += impulse / mass;
    FLOE_STORE_VEC4(velocities, k, v);
}
