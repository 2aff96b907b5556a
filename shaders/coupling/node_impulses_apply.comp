#version 460
// The impulses the deformable vertices gave the fracture bodies' nodes in the deformable bodies'
// step (coupling/vertex_faces) into the nodes' velocities, before the fracture bodies' step; the
// sums are cleared for the next step.
#include "shared/solid_contacts.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "common/fixed_point.glsl"

layout(local_size_x = SOLID_CONTACT_GROUP_SIZE) in;
layout(push_constant) uniform Push { SolidContactParams params; };
FLOE_IN_VEC4(SOLID_CONTACT_BIND_NODE_POSITIONS, nodePositions);
FLOE_RW_VEC4(SOLID_CONTACT_BIND_NODE_VELOCITIES, nodeVelocities);
layout(std430, binding = SOLID_CONTACT_BIND_NODE_SUMS) buffer Sums { ivec4 sums[]; };

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.counts.y) return;
    const ivec4 s = sums[n];
    if (s.xyz == ivec3(0)) return;
    sums[n] = ivec4(0);
    vec4 v = FLOE_RW_LOAD_VEC4(nodeVelocities, n);
    v.xyz += FLOE_LOAD_VEC4(nodePositions, n).w * fromFixedPoint(s.xyz);
    FLOE_RW_STORE_VEC4(nodeVelocities, n, v);
}
