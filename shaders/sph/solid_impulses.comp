#version 460
// The impulse the fluid gave each coupled solid sample over the step (Akinci et al. 2012 eq.
// (10)-(12), as impulses), the reaction to what each fluid particle took from it, pair by pair:
// - pressure: particle i took the velocity change -c_i Psi_b grad W_ib from sample b (c_i:
//   SPH_BIND_WALL_COEFFICIENTS, every pressure application of the step), so b takes
//   m_i c_i Psi_b grad W_ib;
// - viscosity (the walls' nu_b > 0): i took dt prefactor nu_b times solidViscosityTerm (sph/
//   viscosity.glsl, with the velocities sph/nonpressure or the EOS's integrate used: the sorted
//   velocities and the samples' at the step's start), so b takes minus m_i times that;
// - and what the last step's sph/solid_guard gave the fluid at this sample (then cleared).
// The same pairs as sph/density (the same sorted positions, the same support test), so the
// momentum the fluid gains from the solids is the momentum they lose, to rounding. Per sample in
// the coupling's order; the sample count is in params.flags.y.
#include "sph/sph_common.glsl"
#include "common/fixed_point.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_IN0, samples);           // xyz m, w Psi_b kg
FLOE_IN_VEC4(SPH_BIND_IN1, sampleVelocities);  // xyz m/s, at the step's start
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_VEC4(SPH_BIND_VELOCITIES, velocities); // the viscosity's velocities
FLOE_IN_VEC4(SPH_BIND_FIELDS, fields);         // x density
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart);
FLOE_IN_FLOAT(SPH_BIND_WALL_COEFFICIENTS, wallCoefficients);
FLOE_OUT_VEC4(SPH_BIND_OUT0, impulses);
layout(std430, binding = SPH_BIND_SOLID_GUARD_IMPULSES) buffer GuardSums { int guardSums[]; };
#define SPH_VISCOSITY_WITHOUT_WALLS // the static samples are not bound here
#include "sph/viscosity.glsl"

void main()
{
    const uint b = floeGlobalIndex();
    if (b >= params.flags.y) return;
    const vec4 xb = FLOE_LOAD_VEC4(samples, b);
    const vec3 vb = FLOE_LOAD_VEC4(sampleVelocities, b).xyz;
    const float nuBoundary = params.domainMin.w;
    const float regulariser = 0.01 * sphH() * sphH();
    vec3 pressure = vec3(0.0), viscous = vec3(0.0);
    // A sample at Psi_b 0 (a tet face inside its fragment, coupling/tet_samples) touches no
    // particle: its pair terms are zero, so the walk is skipped (most of a fracture body's).
    if (xb.w > 0.0) {
    NEAR_BINS_BEGIN(cellStart, xb.xyz, begin, end)
    for (uint i = begin; i < end; ++i) {
        const vec4 pi = FLOE_LOAD_VEC4(positions, i);
        const vec3 xib = pi.xyz - xb.xyz;
        const float r = length(xib);
        if (!(r < sphSupport())) continue;
        pressure += (pi.w * FLOE_LOAD_FLOAT(wallCoefficients, i)) * sphGradW(xib, r);
        if (nuBoundary > 0.0)
            viscous -= pi.w * solidViscosityTerm(xib, FLOE_LOAD_VEC4(velocities, i).xyz - vb, xb.w, FLOE_LOAD_VEC4(fields, i).x,
                                                 regulariser);
    }
    NEAR_BINS_END
    }
    const uint g = 4u * b;
    const vec3 guard = fromFixedPoint(ivec3(guardSums[g], guardSums[g + 1u], guardSums[g + 2u]));
    guardSums[g] = 0;
    guardSums[g + 1u] = 0;
    guardSums[g + 2u] = 0;
    const vec3 drag = (state.time.x * viscosityPrefactor() * nuBoundary) * viscous;
    FLOE_STORE_VEC4(impulses, b, vec4(xb.w * pressure + drag + guard, 0.0));
}
