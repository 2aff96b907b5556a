#version 460
// The fracture nodes' pushes on the deformable vertices (coupling/node_triangles) in this
// collision round: a vertex moves by the mean of its moves (Jacobi, so that several nodes
// pressing one vertex do not add up past each of them) and takes the sum of its impulses; it is
// flagged as a contact (the volume correction leaves it). The sums are cleared.
#include "shared/solid_contacts.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "common/fixed_point.glsl"

layout(local_size_x = SOLID_CONTACT_GROUP_SIZE) in;
layout(push_constant) uniform Push { SolidContactParams params; };
FLOE_RW_VEC4(SOLID_CONTACT_BIND_VERTICES, vertices);
FLOE_RW_VEC4(SOLID_CONTACT_BIND_VERTEX_VELOCITIES, velocities);
FLOE_RW_UINT(SOLID_CONTACT_BIND_VERTEX_FLAGS, flags);
layout(std430, binding = SOLID_CONTACT_BIND_VERTEX_SUMS) buffer VertexSums { ivec4 vertexSums[]; };

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.counts.z) return;
    const ivec4 moved = vertexSums[2u * i];
    if (moved.w == 0) return;
    const ivec4 impulse = vertexSums[2u * i + 1u];
    vertexSums[2u * i] = ivec4(0);
    vertexSums[2u * i + 1u] = ivec4(0);
    vec4 x = FLOE_RW_LOAD_VEC4(vertices, i);
    x.xyz += fromFixedPoint(moved.xyz) / float(moved.w);
    FLOE_RW_STORE_VEC4(vertices, i, x);
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
    if (x.w > 0.0) v.xyz += fromFixedPoint(impulse.xyz) / x.w;
    FLOE_RW_STORE_VEC4(velocities, i, v);
    FLOE_RW_STORE_UINT(flags, i, 3u); // this round and this step
}
