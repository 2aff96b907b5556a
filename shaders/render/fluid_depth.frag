#version 460
// Screen-space fluid, pass 1: the nearest sphere's eye depth (m, along the view axis) per
// pixel, with correct depth for the depth test. Vertex stage: particles.vert built as render/fluid_spheres.vert.
#include "shared/render.h"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };

layout(location = 0) in vec3 viewPosition;
layout(location = 1) flat in vec3 viewCenter;
layout(location = 0) out float eyeDepth;

void main()
{
    const float radius = frame.particle.x;
    const vec3 d = normalize(viewPosition);
    const float b = dot(d, viewCenter);
    const float h = b * b - dot(viewCenter, viewCenter) + radius * radius;
    if (h < 0.0) discard;
    const vec3 hit = (b - sqrt(h)) * d;
    const vec4 clip = frame.projection * vec4(hit, 1.0);
    gl_FragDepth = clip.z / clip.w;
    eyeDepth = -hit.z;
}
