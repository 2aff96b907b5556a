#version 460
// The impulse the fluid's pressure gave each coupled solid sample over the step (Akinci et al.
// 2012 eq. (10)-(11), as an impulse): fluid particle i took the velocity change
// -c_i Psi_b grad W_ib from sample b (c_i: SPH_BIND_WALL_COEFFICIENTS, every pressure application
// of the step), so b takes
//   J_b = sum_i m_i c_i Psi_b grad W_ib,
// the same pairs as sph/density (the same sorted positions, the same support test), so that the
// momentum the fluid gains from the solids is the momentum they lose, to rounding. Also what the
// last step's sph/solid_guard gave the fluid at this sample (then cleared). Per sample in
// the coupling's order; the sample count is in params.flags.y. The solids' viscous drag is not
// exchanged (the solid samples are inviscid walls).
#include "sph/sph_common.glsl"
#include "common/fixed_point.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_IN0, samples); // xyz m, w Psi_b kg
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart);
FLOE_IN_FLOAT(SPH_BIND_WALL_COEFFICIENTS, wallCoefficients);
FLOE_OUT_VEC4(SPH_BIND_OUT0, impulses);
layout(std430, binding = SPH_BIND_SOLID_GUARD_IMPULSES) buffer GuardSums { int guardSums[]; };

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= params.flags.y) return;
    const vec4 xb = FLOE_LOAD_VEC4(samples, b);
    vec3 impulse = vec3(0.0);
    NEAR_BINS_BEGIN(cellStart, xb.xyz, begin, end)
    for (uint i = begin; i < end; ++i) {
        const vec4 pi = FLOE_LOAD_VEC4(positions, i);
        const vec3 xib = pi.xyz - xb.xyz;
        const float r = length(xib);
        if (!(r < sphSupport())) continue;
        impulse += (pi.w * FLOE_LOAD_FLOAT(wallCoefficients, i)) * sphGradW(xib, r);
    }
    NEAR_BINS_END
    const uint g = 4u * b;
    const vec3 guard = fromFixedPoint(ivec3(guardSums[g], guardSums[g + 1u], guardSums[g + 2u]));
    guardSums[g] = 0;
    guardSums[g + 1u] = 0;
    guardSums[g + 2u] = 0;
    FLOE_STORE_VEC4(impulses, b, vec4(xb.w * impulse + guard, 0.0));
}
