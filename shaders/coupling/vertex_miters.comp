#version 460
// Each deformable body's vertex miter at its current position (coupling::surfaceMiters, the CPU
// reference): the vector m with m . n_f = 1 for every triangle f around the vertex, by least
// squares weighted by area (M m = sum a_f n_f, M = sum a_f n_f n_f^T, solved for m's difference
// from the unit normal with eps tr I added to M; below), capped at length kMiterCap. coupling/solid_samples moves each sample `depth` along the interpolated -m, so the
// samples lie on the surface offset inward by the depth, at a box's edges and corners as on its
// faces (moved along a unit normal, a sample at a corner lay only 0.58 of the depth inside each
// face's plane, and a box displaced more than its volume). Gathered per vertex over its
// incident-triangle list, as body/normals: no atomics.
#include "shared/coupling.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = COUPLING_GROUP_SIZE) in;
layout(push_constant) uniform Push { CouplingParams params; };
FLOE_IN_VEC4(COUPLING_BIND_POSITIONS, positions);
FLOE_IN_UINT(COUPLING_BIND_INCIDENT_START, incidentStart);
FLOE_IN_UINT(COUPLING_BIND_INCIDENT, incident);
FLOE_IN_UVEC4(COUPLING_BIND_TRIANGLES, triangles);
FLOE_OUT_VEC4(COUPLING_BIND_MITERS, miters);

const float REGULARIZATION = COUPLING_MITER_REGULARIZATION;
const float CAP = COUPLING_MITER_CAP;

// The triangle k of the vertex's list: its unit normal, and half the length of its cross product
// (its area). Edges from x_i keep the cross product accurate far from the origin.
float incidentTriangle(uint k, vec3 xi, out vec3 n)
{
    const uvec4 t = FLOE_LOAD_UVEC4(triangles, FLOE_LOAD_UINT(incident, k));
    const vec3 a = FLOE_LOAD_VEC4(positions, t.x).xyz - xi;
    const vec3 b = FLOE_LOAD_VEC4(positions, t.y).xyz - xi;
    const vec3 c = FLOE_LOAD_VEC4(positions, t.z).xyz - xi;
    const vec3 cross2 = cross(b - a, c - a);
    const float twiceArea = length(cross2);
    n = twiceArea > 0.0 ? cross2 / twiceArea : vec3(0.0);
    return 0.5 * twiceArea;
}

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.counts.y) return;
    const vec3 xi = FLOE_LOAD_VEC4(positions, i).xyz;
    const uint first = FLOE_LOAD_UINT(incidentStart, i), end = FLOE_LOAD_UINT(incidentStart, i + 1u);
    mat3 normalSum = mat3(0.0);
    vec3 weighted = vec3(0.0);
    for (uint k = first; k < end; ++k) {
        vec3 n;
        const float area = incidentTriangle(k, xi, n);
        normalSum += area * outerProduct(n, n);
        weighted += area * n;
    }
    // Solved for the difference t from the unit area-weighted normal u, as coupling::surfaceMiters:
    // (M + eps tr I) t = sum a_f n_f (1 - n_f . u), m = u + t. On a flat face the right-hand side
    // is of second order in the angles between the triangles, so float rounding in M cannot tilt
    // the miter.
    const float trace = normalSum[0][0] + normalSum[1][1] + normalSum[2][2];
    const float wl = length(weighted);
    vec3 m = vec3(0.0);
    if (trace > 0.0 && wl > 0.0) {
        const vec3 u = weighted / wl;
        vec3 deviation = vec3(0.0);
        for (uint k = first; k < end; ++k) {
            vec3 n;
            const float area = incidentTriangle(k, xi, n);
            deviation += area * (1.0 - dot(n, u)) * n;
        }
        m = u + inverse(normalSum + REGULARIZATION * trace * mat3(1.0)) * deviation;
        const float len = length(m);
        if (len > CAP) m *= CAP / len;
        if (any(isnan(m)) || any(isinf(m))) m = vec3(0.0);
    }
    FLOE_STORE_VEC4(miters, i, vec4(m, 0.0));
}
