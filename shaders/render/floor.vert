#version 460
// A square floor under the domain, for context in pictures.
#include "shared/render.h"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };
layout(location = 0) out vec3 worldPosition;

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main()
{
    const vec2 c = kCorners[gl_VertexIndex];
    worldPosition = vec3(frame.floor.z + c.x * frame.floor.y, frame.floor.x, frame.floor.w + c.y * frame.floor.y);
    gl_Position = frame.projection * frame.view * vec4(worldPosition, 1.0);
}
