#version 460
// The solids' boundary samples at the vertices' current positions and velocities: each sample is
// the barycentric combination of its triangle's corners (fixed at rest), moved its depth inside
// along the combination of the corners' current miters (coupling/vertex_miters), so it stays on
// the deformed surface offset inward by the depth (coupling::placeSolidSample, the CPU reference).
// Written into the fluid's solid samples after the bodies' step (and once at the start), for the
// guard and the fluid's next step.
#include "shared/coupling.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = COUPLING_GROUP_SIZE) in;
layout(push_constant) uniform Push { CouplingParams params; };
FLOE_IN_VEC4(COUPLING_BIND_POSITIONS, positions);
FLOE_IN_VEC4(COUPLING_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(COUPLING_BIND_MITERS, miters);
FLOE_IN_UVEC4(COUPLING_BIND_SAMPLE_CORNERS, corners);
FLOE_IN_VEC4(COUPLING_BIND_SAMPLE_WEIGHTS, weights);
FLOE_OUT_VEC4(COUPLING_BIND_SAMPLES, samples);
FLOE_OUT_VEC4(COUPLING_BIND_SAMPLE_VELOCITIES, sampleVelocities);
FLOE_OUT_VEC4(COUPLING_BIND_SAMPLE_NORMALS, sampleNormals);

void main()
{
    const uint s = floeGlobalIndex();
    if (s >= params.counts.x) return;
    const uvec4 c = FLOE_LOAD_UVEC4(corners, s);
    const vec4 w = FLOE_LOAD_VEC4(weights, s);
    vec3 x = vec3(0.0), v = vec3(0.0), m = vec3(0.0);
    vec3 corner[3];
    for (uint k = 0u; k < 3u; ++k) {
        corner[k] = FLOE_LOAD_VEC4(positions, c[k]).xyz;
        if (w[k] == 0.0) continue;
        x += w[k] * corner[k];
        v += w[k] * FLOE_LOAD_VEC4(velocities, c[k]).xyz;
        m += w[k] * FLOE_LOAD_VEC4(miters, c[k]).xyz;
    }
    const vec3 offset = uintBitsToFloat(c.w) * m; // the depth along the miter
    x -= offset;
    // The plane the guard (sph/solid_guard) tests against: through the surface point above the
    // sample, with the normal of the triangle of its three corners where they are three vertices
    // (its own triangle, or, for a sample on a vertex or an edge of a flat region, a triangle of
    // that plane: coupling::sampleSolids names it with weight 0; the interpolated miter beside a
    // crease would tilt the plane), else the miter's direction (on a crease: a box's edge, the
    // bisector). Its distance is stored negative: a deformable body's sample (a tet face's are
    // positive).
    const float ml = length(m);
    vec3 plane = ml > 0.0 ? m / ml : vec3(0.0);
    if (c.x != c.y && c.y != c.z && c.x != c.z) {
        const vec3 face = cross(corner[1] - corner[0], corner[2] - corner[0]);
        if (dot(face, face) > 0.0) plane = normalize(face);
    }
    const uint slot = params.counts.z + s; // the fluid's solid arrays hold every kind's samples
    FLOE_STORE_VEC4(sampleNormals, slot, vec4(plane, -dot(offset, plane)));
    FLOE_STORE_VEC4(samples, slot, vec4(x, w.w));
    FLOE_STORE_VEC4(sampleVelocities, slot, vec4(v, length(v))); // w: the speed, for the world's CFL step
}
