#version 460
// Non-pressure accelerations and the predicted velocity v* = v + dt (g + a_visc) (+ XSPH), with the
// viscosity of sph/viscosity.glsl. (EOS folds this into sph/integrate: nothing waits for v* there.)
//
// Viscosity substeps (sim::Simulation::addNonPressure): a step above the explicit viscosity's
// stability bound SPH_VISCOUS_STEP h^2 / nu takes it in k substeps of dt / k, each from the
// velocities the last one left (nu / k with the step's dt; gravity and XSPH in the last). The step
// records K passes of this shader, pass s of K in params.iisph.xy (a solver's field, unused here).
// With params.iisph.z 0 the host chose k = K (a fixed step); with 1 the step is the GPU's (CFL,
// at most K bounds, sph/step_begin) and each pass takes k = ceil(dt / bound) from it, as the host
// rounds (SphSettings::viscousSubsteps): the last k passes run, the first K - k copy the
// velocities on, so that the passes' ping-pong ends where it always does.
#define FLUID_ANCHOR(j) FLOE_LOAD_VEC4(anchors, j).xyz
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
// 1: the particles are where sph/density listed their neighbours (every solver but PBF), so the
// list's m_j grad W_ij serves the viscosity; 0: PBF has moved them, the gradient is recomputed.
layout(constant_id = 10) const uint LISTED = 1u;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_VEC4(SPH_BIND_VELOCITIES, velocities);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_ANCHORS, anchors); // positions the lists were built at (PBF moves particles since)
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_IN_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_VEC4(SPH_BIND_PREDICTED, predicted);
FLOE_IN_VEC4(SPH_BIND_SOLIDS, solids);
FLOE_IN_UINT(SPH_BIND_SOLID_START, solidStart);
FLOE_IN_VEC4(SPH_BIND_SOLID_VELOCITIES, solidVelocities);
FLOE_IN_VEC4(SPH_BIND_WALL_VISCOSITY, wallViscosityTerms); // WALL_VISCOSITY_TERMS: sph/density's
#include "sph/viscosity.glsl"

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const vec3 vi = FLOE_LOAD_VEC4(velocities, i).xyz;
    const uint pass = uint(params.iisph.x), passes = max(uint(params.iisph.y), 1u);
    uint substeps = passes;
    if (params.iisph.z != 0.0) {
        const float bound = SPH_VISCOUS_STEP * sphH() * sphH() / max(params.material.y, params.domainMin.w);
        substeps = uint(clamp(ceil(state.time.x / bound * (1.0 - 1e-6)), 1.0, float(passes)));
    }
    if (pass + substeps < passes) { // before this step's first substep
        FLOE_STORE_VEC4(predicted, i, vec4(vi, 0.0));
        return;
    }
    const bool last = pass + 1u == passes;
    const float rhoi = FLOE_LOAD_VEC4(fields, i).x;
    const float nu = params.material.y / float(substeps);
    const float nuBoundary = params.domainMin.w / float(substeps);
    const float xsph = last ? params.material.w : 0.0;
    const float regulariser = 0.01 * sphH() * sphH();

    vec3 viscosity = vec3(0.0);
    vec3 smoothing = vec3(0.0);
    if (nu > 0.0 || XSPH != 0u) {
        if (LISTED != 0u) {
#define FLUID_PAIR(j, gradient)                                                                      \
    {                                                                                                \
        const vec4 pj = FLOE_LOAD_VEC4(positions, j);                                                \
        VISCOSITY_PAIR(j, pj, FLOE_LOAD_VEC4(fields, j).x, gradient, viscosity, smoothing)           \
    }
            FLUID_PAIRS(i, xi)
#undef FLUID_PAIR
        } else {
            FLUID_NEIGHBOURS_BEGIN(i, FLOE_LOAD_VEC4(anchors, i).xyz, j)
                const vec4 pj = FLOE_LOAD_VEC4(positions, j);
                const vec3 xij = xi - pj.xyz;
                VISCOSITY_PAIR(j, pj, FLOE_LOAD_VEC4(fields, j).x, pj.w * sphGradW(xij, length(xij)), viscosity, smoothing)
            FLUID_NEIGHBOURS_END
        }
    }
    const vec3 wall = wallViscosity(i, xi, vi, rhoi, regulariser, nuBoundary);
    const vec3 a = (last ? params.gravity.xyz : vec3(0.0)) + viscosityPrefactor() * (nu * viscosity + nuBoundary * wall);
    vec3 vStar = vi + state.time.x * a + xsph * smoothing;
    if (DIMS == 2u) vStar.z = 0.0;
    FLOE_STORE_VEC4(predicted, i, vec4(vStar, 0.0));
}
