#version 460
// Checkerboard floor with distance fade, lit by the key light.
#include "shared/render.h"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };
layout(location = 0) in vec3 worldPosition;
layout(location = 0) out vec4 color;

void main()
{
    const float cell = max(frame.floor.y / 8.0, 1e-4);
    const vec2 q = floor((worldPosition.xz - frame.floor.zw) / cell);
    const float checker = mod(q.x + q.y, 2.0);
    const vec3 base = mix(vec3(0.55, 0.57, 0.60), vec3(0.68, 0.70, 0.73), checker);
    const vec3 lightUp = (frame.view * vec4(0, 1, 0, 0)).xyz;
    const float diffuse = max(dot(lightUp, frame.lightDirection.xyz), 0.0);
    const float fade = 1.0 - smoothstep(0.6, 1.0, length(worldPosition.xz - frame.floor.zw) / frame.floor.y);
    color = vec4(mix(vec3(0.16, 0.18, 0.22), base * (0.45 + 0.55 * diffuse), fade), 1.0);
}
