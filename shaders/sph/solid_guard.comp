#version 460
// After a coupled step (the fluid's, then the solids'), a fluid particle whose centre lies behind a
// coupled solid's surface is moved back onto it, and its velocity relative to the surface loses
// its inward part (a contact without restitution). The pressure keeps particles out where the
// fluid is full; a lone particle, as at the free surface on top of a rising body, has too few
// neighbours to build pressure until it is well inside the boundary's reach (Akinci's boundary
// acts through the density only), and the solid's own step moves its surface after the fluid's.
// A surface near a particle: a solid sample's, the plane of its surface point
// (SPH_BIND_SOLID_NORMALS: its unit normal n_b, the face's own for a sample inside a triangle or
// on a tet face, and the plane's distance |d_b| above the sample, d_b stored negative for a
// deformable body's sample); behind means 0 < |d_b| - (x_i - x_b) . n_b <= |d_b| (above the
// sample, below the surface). Counted in state.counters.y (the run's total).
// Runs on the particles as sph/integrate left them (sorted order of the step), against the
// samples at the solids' new surfaces (sorted into the fluid grid's bins by sph/solid_reorder).
// The particle's momentum change goes to the sample it was put back on, as the solid's share
// (fixed-point sums, so the order of the atomics does not matter), and the next step's
// sph/solid_impulses takes it from the solid: momentum is kept.
#include "sph/sph_common.glsl"
#include "common/fixed_point.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
// The samples' spacing on the surface (Floe.boundarySpacing times h, m): every point of a solid's
// surface lies within it, along the surface, of a sample's surface point (a deformable body's
// lattice and edges at most that far apart; a tet face's sub-triangles' centroids, 1.5 times
// that apart, within 0.87 of it).
layout(constant_id = 3) const float SAMPLE_REACH = 0.0;
layout(std430, binding = SPH_BIND_STATE) buffer State { SphState state; };
FLOE_RW_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_RW_VEC4(SPH_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(SPH_BIND_SOLIDS, solids);
FLOE_IN_UINT(SPH_BIND_SOLID_START, solidStart);
FLOE_IN_VEC4(SPH_BIND_SOLID_VELOCITIES, solidVelocities);
FLOE_IN_VEC4(SPH_BIND_SOLID_NORMALS, solidNormals);
FLOE_IN_UINT(SPH_BIND_IN0, sortedIndex); // the samples' order in the table: sorted slot -> sample
layout(std430, binding = SPH_BIND_SOLID_GUARD_IMPULSES) buffer GuardSums { int guardSums[]; };

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec4 p = FLOE_RW_LOAD_VEC4(positions, i);
    // The surface a particle is put back onto, and only:
    // - From between the surface and the sample layer under it (0 < behind <= |d_b|): a particle
    //   crosses that band on its way in (it moves less than d_b, about 0.7 h, in a step). Below
    //   the layer it is more likely outside beside a sharp edge, behind the plane of a face it
    //   does not face: a glass fragment's crack face was the only surface within h of fluid
    //   particles beside the fragment, and the guard threw them h across it.
    // - Where the face is: the particle's foot on the plane must lie within the samples' spacing
    //   of the surface point. Beside a box's face near an edge the nearest sample is often the
    //   other face's, and the particle, outside the box, lies behind its plane; the guard threw
    //   such particles up to d_b and gave their momentum to one or two light vertices, until a
    //   deformable box dropped into water diverged (docs/coupling.md).
    // Which surface: that of the nearest surface point (|d_b| above the sample along n_b) among the
    // samples within the support 2h, of either kind. Both lie on their body's surface offset
    // inward by the depth (a deformable body's along its vertices' miters, coupling/vertex_miters;
    // a tet face's on the inset face, coupling::sampleTetFaces), so beside an edge the nearest
    // sample is often the other face's, and the nearest surface point the face's the particle is
    // beside or under. A tet face's inset face ends d_b short of a right-angled edge of the body,
    // so its foot may lie d_b farther (d_b > 0); a deformable body's samples have surface points
    // on the edges themselves, with the planes of their miters (d_b < 0). (Before the miters, a
    // deformable body's samples lay a unit normal's depth inside, less deep at edges, and the
    // guard took its nearest sample within h: with the miters a particle just inside an edge lies
    // farther than h from every sample, and a submerged box kept up to three particles inside.)
    const float support2 = 4.0 * sphH() * sphH();
    uint best = 0xFFFFFFFFu;
    float best2 = support2;
    SOLID_NEAR_BEGIN(p.xyz, begin, end)
    for (uint b = begin; b < end; ++b) {
        const vec4 xb = FLOE_LOAD_VEC4(solids, b);
        const vec3 d = p.xyz - xb.xyz;
        if (!(dot(d, d) < support2 && xb.w > 0.0)) continue;
        const vec4 plane = FLOE_LOAD_VEC4(solidNormals, b);
        const vec3 toSurface = d - abs(plane.w) * plane.xyz;
        const float s2 = dot(toSurface, toSurface);
        if (s2 < best2) {
            best2 = s2;
            best = b;
        }
    }
    SOLID_NEAR_END
    if (best == 0xFFFFFFFFu) return;
    float behind;
    {
        const vec4 plane = FLOE_LOAD_VEC4(solidNormals, best);
        const vec3 xb = FLOE_LOAD_VEC4(solids, best).xyz;
        const float depth = abs(plane.w);
        behind = depth - dot(p.xyz - xb, plane.xyz);
        const vec3 offset = p.xyz - (xb + depth * plane.xyz); // from the surface point
        const vec3 along = offset - dot(offset, plane.xyz) * plane.xyz;
        const float reach = SAMPLE_REACH + max(plane.w, 0.0);
        if (!(behind > 0.0) || behind > depth || dot(plane.xyz, plane.xyz) == 0.0 || dot(along, along) > reach * reach) return;
    }
    const vec4 plane = FLOE_LOAD_VEC4(solidNormals, best);
    vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
    const vec3 relative = v.xyz - FLOE_LOAD_VEC4(solidVelocities, best).xyz;
    const float inward = dot(relative, plane.xyz);
    if (inward < 0.0) {
        v.xyz -= inward * plane.xyz;
        // The fluid gained p.w (-inward) n; the solid loses it.
        const uint owner = FLOE_LOAD_UINT(sortedIndex, best);
        for (uint c = 0u; c < DIMS; ++c) atomicAdd(guardSums[4u * owner + c], fixedPoint(p.w * inward * plane[c]));
    }
    vec3 x = p.xyz + behind * plane.xyz;
    if (DIMS == 2u) {
        x.z = 0.0;
        v.z = 0.0;
    }
    FLOE_RW_STORE_VEC4(positions, i, vec4(x, p.w));
    FLOE_RW_STORE_VEC4(velocities, i, v);
    atomicAdd(state.counters.y, 1u);
}
