#version 460
// PCISPH (Solenthaler & Pajarola 2009, Alg. 2 lines 11-14; SPlisHSPlasH's TimeStepPCISPH): the
// density at the predicted positions, rho*_i = sum_j m_j W(x*_i - x*_j) + sum_b Psi_b W(x*_i - x_b)
// (the fluid neighbours listed at the step's positions, the paper's fixed neighbourhoods; boundary
// samples from the grid), and the pressure update
// p_i += delta (rho*_i - rho0) clamped at 0. delta (the paper's eq. (8)) is precomputed on a full
// prototype neighbourhood (sim::pcisphFactor, specialization constant FACTOR = 1 / (2 V^2
// (|sum grad W|^2 + sum |grad W|^2)) m^2, V = m / rho0); for Floe's pressure force
// -sum_j m_j (p_i/rho_i^2 + p_j/rho_j^2) grad W_ij it reads p_i += rho_i^2 FACTOR / (rho0 dt^2)
// (rho*_i/rho0 - 1). The error: the compression max(rho*_i/rho0 - 1, 0) averaged over the
// particles under pressure (Floe), or SPlisHSPlasH's signed rho*_i/rho0 - 1 averaged over all.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std430, binding = SPH_BIND_STATE) buffer State { SphState state; };
layout(constant_id = 2) const uint ERROR_MODE = SPH_ERROR_PRESSURED;
const uint COUNTER = 0u;
const uint STALL = 1u; // PCISPH can stall at an impact (sph/solver_stop.glsl)
layout(constant_id = 3) const float FACTOR = 0.0;
FLOE_IN_VEC4(SPH_BIND_ACCEL, predictedPositions);
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions); // masses in w
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_RW_VEC4(SPH_BIND_FIELDS, fields);
#include "sph/solver_stop.glsl"

void main()
{
    const uint i = floeGlobalIndex();
    float error = 0.0;
    float counted = 0.0;
    if (i < sphFluidCount()) {
        const vec3 xi = FLOE_LOAD_VEC4(predictedPositions, i).xyz;
        float rho = FLOE_LOAD_VEC4(positions, i).w * sphW(0.0); // itself; the listed neighbours are the others
        FLUID_NEIGHBOURS_BEGIN(i, FLOE_LOAD_VEC4(positions, i).xyz, j)
            const float r = length(xi - FLOE_LOAD_VEC4(predictedPositions, j).xyz);
            if (r < sphSupport()) rho += FLOE_LOAD_VEC4(positions, j).w * sphW(r);
        FLUID_NEIGHBOURS_END
        if (sphBoundaryCount() > 0u) {
            BOUNDARY_NEAR_BEGIN(xi, begin, end)
            for (uint b = begin; b < end; ++b) {
                const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
                const float r = length(xi - xb.xyz);
                if (r < sphSupport()) rho += xb.w * sphW(r);
            }
            BOUNDARY_NEAR_END
        }
        const float dt = state.time.x;
        const float rho0 = sphRho0();
        vec4 f = FLOE_RW_LOAD_VEC4(fields, i); // density at x, pressure
        const float compression = rho / rho0 - 1.0;
        f.y = dt > 0.0 ? max(f.y + f.x * f.x * FACTOR / (rho0 * dt * dt) * compression, 0.0) : 0.0;
        FLOE_RW_STORE_VEC4(fields, i, f);
        if (ERROR_MODE == SPH_ERROR_PRESSURED) {
            counted = f.y > 0.0 ? 1.0 : 0.0;
            error = counted * max(compression, 0.0);
        } else {
            counted = 1.0;
            error = compression;
        }
    }
    sphEndIteration(subgroupAdd(vec2(error, counted))); // and the stopping rule in the last workgroup
}
