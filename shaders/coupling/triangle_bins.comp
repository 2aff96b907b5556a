#version 460
// The deformable bodies' triangles into the grid of the contacts with fracture bodies' nodes
// (shared/solid_contacts.h; the face grid's cells), each triangle in every cell its box, grown by
// twice the contact radius (the radius, and as much again for the vertices' moves in the step's
// later collision rounds), touches: stage 0 counts, stage 1 (after the counts' scan and reset)
// writes. Entries past the grid's room are counted in state.z, not written.
#include "shared/solid_contacts.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = SOLID_CONTACT_GROUP_SIZE) in;
layout(push_constant) uniform Push { SolidContactParams params; };
FLOE_IN_UVEC4(SOLID_CONTACT_BIND_TRIANGLES, triangles);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_VERTICES, vertices);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_VERTEX_REST, rest);
FLOE_IN_VEC4(SOLID_CONTACT_BIND_BODY_ORIGINS, bodyOrigins);
FLOE_IN_UINT(SOLID_CONTACT_BIND_TRIANGLE_START, triangleStart);
layout(std430, binding = SOLID_CONTACT_BIND_TRIANGLE_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = SOLID_CONTACT_BIND_TRIANGLE_ENTRIES) buffer Entries { uint entries[]; };
layout(std430, binding = SOLID_CONTACT_BIND_STATE) buffer State { uvec4 state; };

vec3 vertexWorld(uint k)
{
    return FLOE_LOAD_VEC4(vertices, k).xyz + FLOE_LOAD_VEC4(bodyOrigins, uint(FLOE_LOAD_VEC4(rest, k).w)).xyz;
}

void main()
{
    const uint t = floeGlobalIndex();
    if (t >= params.triangles.x) return;
    const uvec4 tri = FLOE_LOAD_UVEC4(triangles, t);
    const vec3 a = vertexWorld(tri.x), b = vertexWorld(tri.y), c = vertexWorld(tri.z);
    const float reach = 2.0 * params.contact.z, size = params.gridOrigin.w;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const vec3 lo = min(min(a, b), c) - reach, hi = max(max(a, b), c) + reach;
    if (any(isnan(lo)) || any(isnan(hi)) || any(isinf(lo)) || any(isinf(hi))) return;
    const ivec3 c0 = max(ivec3(floor((lo - params.gridOrigin.xyz) / size)), ivec3(0));
    const ivec3 c1 = min(ivec3(floor((hi - params.gridOrigin.xyz) / size)), dims - 1);
    for (int z = c0.z; z <= c1.z; ++z)
        for (int y = c0.y; y <= c1.y; ++y)
            for (int x = c0.x; x <= c1.x; ++x) {
                const uint key = uint(x) + uint(dims.x) * (uint(y) + uint(dims.y) * uint(z));
                if (params.counts.w == 0u) {
                    atomicAdd(counts[key], 1u);
                } else {
                    const uint slot = FLOE_LOAD_UINT(triangleStart, key) + atomicAdd(counts[key], 1u);
                    if (slot < params.triangles.y)
                        entries[slot] = t;
                    else
                        atomicAdd(state.z, 1u);
                }
            }
}
