#version 460
// Deformable bodies' surfaces by vertex pulling: three vertices per triangle, indices, positions
// and smooth (area-weighted) vertex normals straight from the simulation's buffers.
#include "shared/render.h"
#include "common/texel.glsl"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };
FLOE_IN_VEC4(RENDER_BIND_POSITIONS, positions);
FLOE_IN_VEC4(RENDER_BIND_VELOCITIES, normals); // the normal sums, in the velocities' slot
FLOE_IN_UVEC4(RENDER_BIND_METRICS_A, triangles);

layout(location = 0) out vec3 viewPosition;
layout(location = 1) out vec3 viewNormal;
layout(location = 2) flat out uint body;

void main()
{
    const uvec4 t = FLOE_LOAD_UVEC4(triangles, uint(gl_VertexIndex) / 3u);
    const uint corner = uint(gl_VertexIndex) % 3u;
    const uint index = corner == 0u ? t.x : corner == 1u ? t.y : t.z;
    const vec3 p = FLOE_LOAD_VEC4(positions, index).xyz;
    const vec3 n = FLOE_LOAD_VEC4(normals, index).xyz;
    viewPosition = (frame.view * vec4(p, 1.0)).xyz;
    viewNormal = (frame.view * vec4(dot(n, n) > 0.0 ? normalize(n) : vec3(0, 1, 0), 0.0)).xyz;
    body = t.w;
    gl_Position = frame.projection * vec4(viewPosition, 1.0);
}
