#version 460
// Non-pressure accelerations and the predicted velocity v* = v + dt (g + a_visc) (+ XSPH).
// Cubic set: viscosity of Koschier et al. 2020, digest-001 (3.28) with the squared distance
// (erratum 3) and its prefactor 2(d+2), so that nu is the kinematic viscosity in m^2/s; the
// thesis's Alg. 8 uses 2, which only rescales nu. Static boundaries (velocity 0) enter with
// Psi_b and the particle's own density, as Alg. 8. Müller set: the viscosity Laplacian of
// digest-003 (4.6a) in kinematic form, nu sum_j (m_j/rho_j) (v_j - v_i) lap W.
#define FLUID_ANCHOR(j) FLOE_LOAD_VEC4(anchors, j).xyz
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
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

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const vec3 vi = FLOE_LOAD_VEC4(velocities, i).xyz;
    const float rhoi = FLOE_LOAD_VEC4(fields, i).x;
    const float h = sphH();
    const float nu = params.material.y;
    const float nuBoundary = params.domainMin.w;
    const float xsph = params.material.w;
    const float regulariser = 0.01 * h * h;
    const ivec3 c = sphCell(xi); // boundary samples are static: searched from where the particle is

    vec3 viscosity = vec3(0.0);
    vec3 smoothing = vec3(0.0);
    if (nu > 0.0 || xsph > 0.0) {
    FLUID_NEIGHBOURS_BEGIN(i, FLOE_LOAD_VEC4(anchors, i).xyz, j)
        const vec4 pj = FLOE_LOAD_VEC4(positions, j);
        const vec3 xij = xi - pj.xyz;
        const float r = length(xij);
        const vec3 vij = vi - FLOE_LOAD_VEC4(velocities, j).xyz;
        // m_j/rho_j of (3.28) with rho_j -> (rho_i + rho_j)/2, so that pair forces cancel and
        // linear momentum is conserved exactly (Monaghan's XSPH uses the same mean).
        const float volume = 2.0 * pj.w / (rhoi + FLOE_LOAD_VEC4(fields, j).x);
        if (KERNEL == SPH_KERNEL_MUELLER)
            viscosity -= volume * vij * viscosityLaplacian(r, 2.0 * h, DIMS);
        else
            viscosity += volume * dot(vij, xij) / (r * r + regulariser) * sphGradW(xij, r);
        smoothing -= volume * vij * sphW(r);
    FLUID_NEIGHBOURS_END
    }
    vec3 boundaryViscosity = vec3(0.0);
    if (sphBoundaryCount() > 0u && nuBoundary > 0.0) {
        GRID_STRIPS_BEGIN(boundaryStart, c, params.gridDims, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
            const vec3 xib = xi - xb.xyz;
            const float r = length(xib);
            if (!(r < sphSupport())) continue; // also skips NaN distances
            const float volume = xb.w / rhoi;
            if (KERNEL == SPH_KERNEL_MUELLER)
                boundaryViscosity -= volume * vi * viscosityLaplacian(r, 2.0 * h, DIMS);
            else
                boundaryViscosity += volume * dot(vi, xib) / (r * r + regulariser) * sphGradW(xib, r);
        }
        GRID_STRIPS_END
    }
    const float prefactor = KERNEL == SPH_KERNEL_MUELLER ? 1.0 : 2.0 * float(DIMS + 2u);
    const vec3 a = params.gravity.xyz + prefactor * (nu * viscosity + nuBoundary * boundaryViscosity);
    vec3 vStar = vi + state.time.x * a + xsph * smoothing;
    if (DIMS == 2u) vStar.z = 0.0;
    FLOE_STORE_VEC4(predicted, i, vec4(vStar, 0.0));
}
