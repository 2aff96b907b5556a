#version 460
// Deformable bodies: smooth-shaded surfaces, one colour per body from a small palette.
#include "shared/render.h"
#include "render/colormap.glsl"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };

layout(location = 0) in vec3 viewPosition;
layout(location = 1) in vec3 viewNormal;
layout(location = 2) flat in uint body;
layout(location = 0) out vec4 color;

void main()
{
    vec3 n = normalize(viewNormal);
    const vec3 toEye = normalize(-viewPosition);
    if (dot(n, toEye) < 0.0) n = -n;
    // Golden-ratio steps through the colour map keep neighbouring bodies apart.
    // Static obstacles (body 0xFFFF) are grey.
    const vec3 albedo = body == 0xFFFFu ? vec3(0.5, 0.52, 0.55) : colormap(0.35 + 0.6 * fract(float(body) * 0.618034));
    const vec3 l = frame.lightDirection.xyz;
    const float diffuse = max(dot(n, l), 0.0);
    const float specular = pow(max(dot(n, normalize(l + toEye)), 0.0), 40.0);
    color = vec4(albedo * (0.25 + 0.75 * diffuse) + vec3(0.3 * specular), 1.0);
}
