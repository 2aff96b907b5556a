#version 460
// GpuTest.IndexChecksGivePoisonOutOfRange: the texel accessors of common/texel.glsl at a
// push-constant index. Compiled plain into build/shaders/ and with FLOE_INDEX_CHECKS into
// build/shaders-checked/.
#include "common/texel.glsl"

layout(local_size_x = 1) in;
layout(push_constant) uniform Push { uvec4 index; } push;
FLOE_IN_UINT(0, values);   // 16 elements
FLOE_IN_VEC4(1, vectors);  // 16 elements
FLOE_RW_UINT(2, result);   // 8 elements: [0] values[i], [1] the bits of vectors[i].y, [2] result[i + 4], [4..7] stores

void main()
{
    const uint i = push.index.x;
    const uint fromValues = FLOE_LOAD_UINT(values, i);
    const uint fromVectors = floatBitsToUint(FLOE_LOAD_VEC4(vectors, i).y);
    const uint fromResult = FLOE_RW_LOAD_UINT(result, i + 4u);
    FLOE_STORE_UINT(result, 0u, fromValues);
    FLOE_STORE_UINT(result, 1u, fromVectors);
    FLOE_STORE_UINT(result, 2u, fromResult);
    FLOE_STORE_UINT(result, i + 4u, 7u); // dropped when out of range
}
