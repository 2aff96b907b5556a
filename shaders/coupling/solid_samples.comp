#version 460
// The solids' boundary samples at the vertices' current positions and velocities: each sample is
// the barycentric combination of its triangle's corners (fixed at rest), moved its depth inside
// along the combination of the corners' current normals, so it stays under the deformed surface.
// Written into the fluid's solid samples after the bodies' step (and once at the start), for the
// guard and the fluid's next step.
#include "shared/coupling.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = COUPLING_GROUP_SIZE) in;
layout(push_constant) uniform Push { CouplingParams params; };
FLOE_IN_VEC4(COUPLING_BIND_POSITIONS, positions);
FLOE_IN_VEC4(COUPLING_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(COUPLING_BIND_NORMALS, normals);
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
    vec3 x = vec3(0.0), v = vec3(0.0), n = vec3(0.0);
    for (uint k = 0u; k < 3u; ++k) {
        if (w[k] == 0.0) continue;
        x += w[k] * FLOE_LOAD_VEC4(positions, c[k]).xyz;
        v += w[k] * FLOE_LOAD_VEC4(velocities, c[k]).xyz;
        const vec3 nk = FLOE_LOAD_VEC4(normals, c[k]).xyz;
        const float lk = length(nk);
        if (lk > 0.0) n += (w[k] / lk) * nk;
    }
    const float nn = length(n);
    const float depth = uintBitsToFloat(c.w);
    const vec3 unit = nn > 0.0 ? n / nn : vec3(0.0);
    x -= depth * unit;
    // The plane the guard (sph/solid_guard) tests against: through the surface point above the
    // sample, with the triangle's own normal for a sample inside a triangle (the face itself, where
    // the interpolated vertex normal tilts the plane through the face by up to half the angle
    // between neighbouring faces), the interpolated normal on edges and at vertices. Its distance
    // is stored negative: the guard's rules for a deformable body's samples (a tet face's are
    // positive).
    vec3 plane = unit;
    if (w.x > 0.0 && w.y > 0.0 && w.z > 0.0) {
        const vec3 a = FLOE_LOAD_VEC4(positions, c.x).xyz;
        const vec3 face = cross(FLOE_LOAD_VEC4(positions, c.y).xyz - a, FLOE_LOAD_VEC4(positions, c.z).xyz - a);
        if (dot(face, face) > 0.0) plane = normalize(face);
    }
    const uint slot = params.counts.z + s; // the fluid's solid arrays hold every kind's samples
    FLOE_STORE_VEC4(sampleNormals, slot, vec4(plane, -depth * dot(unit, plane)));
    FLOE_STORE_VEC4(samples, slot, vec4(x, w.w));
    FLOE_STORE_VEC4(sampleVelocities, slot, vec4(v, length(v))); // w: the speed, for the world's CFL step
}
