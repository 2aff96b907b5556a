#version 460
// Screen-space fluid, pass 2: the fluid's thickness along each view ray, summed additively
// over all spheres without a depth test: each sphere adds the length of the ray's chord through
// it, scaled by frame.particle.y = (particle volume) / (sphere volume), so that the summed
// thickness integrates the fluid's volume rather than the spheres' (which leave gaps).
// Vertex stage: particles.vert built as render/fluid_spheres.vert.
#include "shared/render.h"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };

layout(location = 0) in vec3 viewPosition;
layout(location = 1) flat in vec3 viewCenter;
layout(location = 0) out float thickness;

void main()
{
    const float radius = frame.particle.x;
    const vec3 d = normalize(viewPosition);
    const float b = dot(d, viewCenter);
    const float h = b * b - dot(viewCenter, viewCenter) + radius * radius;
    if (h < 0.0) discard;
    thickness = 2.0 * sqrt(h) * frame.particle.y;
}
