#version 460
// Test pass: polarRotation (fracture/fracture_common.glsl) of one 3x3 matrix per invocation,
// columns in and out as 3 vec4 (checked by tests/gpu/FractureStressTest.cpp).
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, matrices);
FLOE_OUT_VEC4(FRACTURE_BIND_PREDICTED, rotations);
layout(push_constant) uniform Push { uint count; };

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= count) return;
    const mat3 A = mat3(FLOE_LOAD_VEC4(matrices, 3u * i).xyz, FLOE_LOAD_VEC4(matrices, 3u * i + 1u).xyz,
                        FLOE_LOAD_VEC4(matrices, 3u * i + 2u).xyz);
    const mat3 R = polarRotation(A);
    for (uint c = 0u; c < 3u; ++c) FLOE_STORE_VEC4(rotations, 3u * i + c, vec4(R[c], 0.0));
}
