#version 460
// The outlines of walls and containers (3D): a line list by vertex pulling, two points per edge
// (geometry::featureEdges), in world space.
#include "shared/render.h"
#include "common/texel.glsl"

layout(std140, binding = RENDER_BIND_FRAME) uniform Frame { RenderParams frame; };
FLOE_IN_VEC4(RENDER_BIND_POSITIONS, points);

void main()
{
    const vec3 p = FLOE_LOAD_VEC4(points, uint(gl_VertexIndex)).xyz;
    // Moved 0.2 % of the way towards the eye, which keeps its pixel: an edge lying on the floor
    // or on a solid wins the depth test instead of flickering with it.
    const vec3 v = 0.998 * (frame.view * vec4(p, 1.0)).xyz;
    gl_Position = frame.projection * vec4(v, 1.0);
}
