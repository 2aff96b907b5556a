#version 460
// Ray-cast sphere impostor with correct depth, a key light, ambient and specular.
#include "shared/render.h"
#include "render/colormap.glsl"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };

layout(location = 0) in vec3 viewPosition;
layout(location = 1) flat in vec3 viewCenter;
layout(location = 2) flat in float colorValue;
layout(location = 0) out vec4 color;

void main()
{
    const float radius = frame.particle.x;
    // Ray from the eye (origin of view space) through this fragment: |t d - c|^2 = r^2.
    const vec3 d = normalize(viewPosition);
    const float b = dot(d, viewCenter);
    const float h = b * b - dot(viewCenter, viewCenter) + radius * radius;
    if (h < 0.0) discard;
    const float t = b - sqrt(h);
    const vec3 hit = t * d;
    const vec3 n = (hit - viewCenter) / radius;
    const vec4 clip = frame.projection * vec4(hit, 1.0);
    gl_FragDepth = clip.z / clip.w;

    const float range = max(frame.particle.z - frame.particle.y, 1e-6);
    const vec3 albedo = colorValue == -1.0 && frame.particle.w == float(RENDER_COLOR_SOLID) ? vec3(0.45, 0.46, 0.48)
                                                                                            : colormap(clamp((colorValue - frame.particle.y) / range, 0.0, 1.0));
    const vec3 l = frame.lightDirection.xyz;
    const float diffuse = max(dot(n, l), 0.0);
    const vec3 halfway = normalize(l - d);
    const float specular = pow(max(dot(n, halfway), 0.0), 48.0);
    color = vec4(albedo * (0.25 + 0.75 * diffuse) + vec3(0.35 * specular), 1.0);
}
