#version 460
// Sphere impostors by vertex pulling: six vertices per particle, straight from the storage
// buffers the simulation writes. The quad faces the camera and is large enough to hold the
// sphere's silhouette; the fragment shader ray-casts the sphere.
#include "shared/render.h"
#include "common/texel.glsl"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };
FLOE_IN_VEC4(RENDER_BIND_POSITIONS, positions);
#ifndef FLUID_SPHERES
FLOE_IN_VEC4(RENDER_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(RENDER_BIND_METRICS_A, metricsA);
FLOE_IN_VEC4(RENDER_BIND_METRICS_B, metricsB);
#endif

layout(location = 0) out vec3 viewPosition; // of this quad corner, view space
layout(location = 1) flat out vec3 viewCenter;
#ifndef FLUID_SPHERES // the fluid surface's passes (render/fluid_spheres.vert) need no colour
layout(location = 2) flat out float colorValue;
#endif

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main()
{
    const uint particle = gl_InstanceIndex;
    const vec4 p = FLOE_LOAD_VEC4(positions, particle);
    const float radius = frame.particle.x;
    viewCenter = (frame.view * vec4(p.xyz, 1.0)).xyz;
    // The silhouette of a sphere seen in perspective is wider than its radius; 1.5 r covers
    // fields of view up to about 90 degrees.
    viewPosition = viewCenter + vec3(kCorners[gl_VertexIndex] * radius * 1.5, 0.0);
    // Pull the quad towards the camera so the nearest point of the sphere is not clipped by it.
    viewPosition += normalize(-viewCenter) * radius;
#ifndef FLUID_SPHERES
    const int colorBy = int(frame.particle.w);
    if (colorBy == RENDER_COLOR_SOLID)
        colorValue = -1.0;
    else if (colorBy == RENDER_COLOR_HEIGHT)
        colorValue = p.y;
    else if (colorBy == RENDER_COLOR_DENSITY)
        colorValue = FLOE_LOAD_VEC4(metricsB, particle).w;
    else if (colorBy == RENDER_COLOR_COMPRESSION)
        colorValue = 100.0 * FLOE_LOAD_VEC4(metricsA, particle).y;
    else if (colorBy == RENDER_COLOR_PRESSURE)
        colorValue = FLOE_LOAD_VEC4(velocities, particle).w;
    else if (colorBy == RENDER_COLOR_PHASE) {
        const vec4 a = FLOE_LOAD_VEC4(metricsA, particle), b = FLOE_LOAD_VEC4(metricsB, particle);
        colorValue = (a.w > 0.0 || b.y > 0.0) ? 3.0 : b.z > 0.0 ? 2.0 : FLOE_LOAD_VEC4(velocities, particle).w > 0.0 ? 1.0 : 0.0;
    }
    else
        colorValue = length(FLOE_LOAD_VEC4(velocities, particle).xyz);
#endif
    gl_Position = frame.projection * vec4(viewPosition, 1.0);
}
