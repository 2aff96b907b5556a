#version 460
// PBF iteration, pass 1 (Macklin & Müller 2013 eqs. (1)-(11); SPlisHSPlasH's TimeStepPBF): the
// density at the current positions and the constraint C_i = max(rho_i/rho0 - 1, 0) (clamped, so
// that particles at the surface do not clump), its gradients grad_k C_i = (1/rho0) sum m_j grad W
// (boundary samples with Psi_b), and lambda_i = -C_i / (sum_k |grad_k C_i|^2 + epsilon), written to
// fields = (density, lambda). The fluid neighbours are those sph/density listed at the predicted
// positions (Macklin & Müller find them once per step); the boundary is walked, the particles
// moving. The error: C_i averaged over the particles with C_i > 0 (Floe) or over all fluid
// particles (SPlisHSPlasH). The last lambda pass of a step leaves the density at the final
// positions in fields.x, as the viscosity pass needs it.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#define FLUID_ANCHOR(j) FLOE_LOAD_VEC4(anchors, j).xyz
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(std430, binding = SPH_BIND_STATE) buffer State { SphState state; };
layout(constant_id = 2) const uint ERROR_MODE = SPH_ERROR_PRESSURED;
const uint COUNTER = 0u;
const uint STALL = 0u;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_ANCHORS, anchors);       // the predicted positions the lists were built at
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_OUT_VEC4(SPH_BIND_FIELDS, fields);
#include "sph/solver_stop.glsl"

// SPlisHSPlasH's constraint force mixing epsilon (m^-2 in Floe's units), far below sum |grad C|^2
// (about 1e3/h^2 m^-2): it only keeps an isolated particle's lambda finite.
const float kEpsilon = 1e-6;

void main()
{
    const uint i = floeGlobalIndex();
    float error = 0.0;
    float counted = 0.0;
    if (i < sphFluidCount()) {
        const vec4 pi4 = FLOE_LOAD_VEC4(positions, i);
        const vec3 xi = pi4.xyz;
        const float rho0 = sphRho0();
        float rho = pi4.w * sphW(0.0), squares = 0.0; // itself, then the neighbours listed at the predicted positions
        vec3 gradI = vec3(0.0);
        FLUID_NEIGHBOURS_BEGIN(i, FLOE_LOAD_VEC4(anchors, i).xyz, j)
            const vec4 pj = FLOE_LOAD_VEC4(positions, j);
            const vec3 xij = xi - pj.xyz;
            const float r = length(xij);
            if (!(r < sphSupport())) continue; // moved apart (also skips NaN distances)
            rho += pj.w * sphW(r);
            const vec3 g = (pj.w / rho0) * sphGradW(xij, r);
            squares += dot(g, g);
            gradI += g;
        FLUID_NEIGHBOURS_END
        if (sphBoundaryCount() > 0u) {
            BOUNDARY_NEAR_BEGIN(xi, begin, end)
            for (uint b = begin; b < end; ++b) {
                const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
                const vec3 xib = xi - xb.xyz;
                const float r = length(xib);
                if (!(r < sphSupport())) continue;
                rho += xb.w * sphW(r);
                gradI += (xb.w / rho0) * sphGradW(xib, r);
            }
            BOUNDARY_NEAR_END
        }
        const float constraint = max(rho / rho0 - 1.0, 0.0);
        const float lambda = constraint > 0.0 ? -constraint / (squares + dot(gradI, gradI) + kEpsilon) : 0.0;
        FLOE_STORE_VEC4(fields, i, vec4(rho, lambda, 0.0, 0.0));
        counted = ERROR_MODE == SPH_ERROR_PRESSURED ? (constraint > 0.0 ? 1.0 : 0.0) : 1.0;
        error = constraint;
    }
    sphEndIteration(subgroupAdd(vec2(error, counted))); // and the stopping rule in the last workgroup
}
