#version 460
// Puts the boundary samples into cell order (once, at set-up).
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, samples);
FLOE_IN_UINT(SPH_BIND_IN0, sortedIndex);
FLOE_OUT_VEC4(SPH_BIND_OUT0, sortedSamples);

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= sphBoundaryCount()) return;
    FLOE_STORE_VEC4(sortedSamples, b, FLOE_LOAD_VEC4(samples, FLOE_LOAD_UINT(sortedIndex, b)));
}
