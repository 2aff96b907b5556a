#version 460
// Deformable bodies and fracture fragments: shaded surfaces, one colour per body or fragment
// from a small palette, or a stress colour.
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
    // Codes from 0x10000 on (fracture's stress view): green at 0 to red at tau.
    vec3 albedo;
    if (body >= 0x10000u) albedo = mix(vec3(0.1, 0.75, 0.2), vec3(0.9, 0.1, 0.05), float(body - 0x10000u) / 65535.0);
    else if (body == 0xFFFFu) albedo = vec3(0.5, 0.52, 0.55);
    else albedo = colormap(0.35 + 0.6 * fract(float(body) * 0.618034));
    const vec3 l = frame.lightDirection.xyz;
    const float diffuse = max(dot(n, l), 0.0);
    const float specular = pow(max(dot(n, normalize(l + toEye)), 0.0), 40.0);
    color = vec4(albedo * (0.25 + 0.75 * diffuse) + vec3(0.3 * specular), 1.0);
}
