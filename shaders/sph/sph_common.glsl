// Shared by the SPH passes: parameters, the step state, kernels of the chosen set and the
// neighbour loop over grid strips.
#ifndef FLOE_SPH_COMMON_GLSL
#define FLOE_SPH_COMMON_GLSL

#include "shared/sph.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "grid/grid_common.glsl"

layout(push_constant) uniform Push { SphParams params; };
layout(constant_id = 0) const uint KERNEL = SPH_KERNEL_CUBIC;
layout(constant_id = 1) const uint DIMS = 3u;

float sphH() { return params.material.x; }               // particle spacing h (m)
float sphSupport() { return params.gridOrigin.w; }       // kernel support 2h (m)
float sphRho0() { return params.gravity.w; }             // rest density
uint sphFluidCount() { return params.gridDims.w; }
uint sphBoundaryCount() { return params.flags.y; }

float sphW(float r) { return kernelW(KERNEL, r, sphH(), DIMS); }

// grad_i W(x_i - x_j) for xij = x_i - x_j at distance r; zero for the self pair.
vec3 sphGradW(vec3 xij, float r)
{
    return r > 0.0 ? (kernelDW(KERNEL, r, sphH(), DIMS) / r) * xij : vec3(0.0);
}

ivec3 sphCell(vec3 x)
{
    return gridCell(x, params.gridOrigin, params.gridDims);
}

#endif
