#version 460
// The triangles of all bodies binned into the contact grid for body/contacts: each triangle goes
// into every cell its box touches, the box of its corners at the step's start and now, grown by
// the contact radius r. A vertex then finds every triangle it may touch or have crossed in this
// step in the cells of its own move's box, whatever the triangles' size.
// Stage 0 also writes each triangle's planes. Stage 0 counts the entries per cell (counts zero before) and marks the bodies present in each
// cell (bit body mod 32: a vertex skips a cell that holds only its own body's triangles); the
// counts' exclusive scan is the
// cell-start table; stage 1 puts each triangle into its cells' ranges by counting the counters
// back down. The order within a cell is the atomics' (body/contacts breaks ties by triangle
// index, so its result does not depend on it). Entries past the table's capacity (a body
// stretched far beyond its rest size) are left out and counted in state.x. World coordinates:
// the corners are relative to their body's origin (tri.w is the body).
#include "body/body_common.glsl"

layout(push_constant) uniform Push { BodyPush push; };
FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_PREVIOUS, previous);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_IN_UVEC4(BODY_BIND_TRIANGLES, triangles);
FLOE_IN_UINT(BODY_BIND_CELL_START, cellStart);
layout(std430, binding = BODY_BIND_CONTACT_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = BODY_BIND_CONTACT_ENTRIES) buffer Entries { uint entries[]; };
layout(std430, binding = BODY_BIND_CONTACT_STATE) buffer State { uvec4 state; };
layout(std430, binding = BODY_BIND_CONTACT_MASKS) buffer Masks { uint masks[]; };
FLOE_OUT_VEC4(BODY_BIND_CONTACT_PLANES, planes);

void main()
{
    const uint t = floeGlobalIndex();
    if (t >= params.triangles) return;
    const uvec4 tri = FLOE_LOAD_UVEC4(triangles, t);
    const vec3 origin = FLOE_LOAD_VEC4(origins, tri.w).xyz;
    vec3 lo = vec3(1e30), hi = vec3(-1e30);
    for (uint k = 0u; k < 3u; ++k) {
        const vec3 x = FLOE_LOAD_VEC4(positions, tri[k]).xyz + origin, x0 = FLOE_LOAD_VEC4(previous, tri[k]).xyz + origin;
        lo = min(lo, min(x, x0));
        hi = max(hi, max(x, x0));
    }
    if (push.stage == 0u) {
        // The triangle's plane now and at the step's start (unit normal n, n . corner), for
        // body/contacts' quick rejections; a degenerate triangle gets a zero normal.
        const vec3 A1 = FLOE_LOAD_VEC4(positions, tri.x).xyz, A0 = FLOE_LOAD_VEC4(previous, tri.x).xyz; // the body's frame
        const vec3 m1 = cross(FLOE_LOAD_VEC4(positions, tri.y).xyz - A1, FLOE_LOAD_VEC4(positions, tri.z).xyz - A1);
        const vec3 m0 = cross(FLOE_LOAD_VEC4(previous, tri.y).xyz - A0, FLOE_LOAD_VEC4(previous, tri.z).xyz - A0);
        const vec3 n1 = dot(m1, m1) > 0.0 ? normalize(m1) : vec3(0.0), n0 = dot(m0, m0) > 0.0 ? normalize(m0) : vec3(0.0);
        FLOE_STORE_VEC4(planes, 2u * t, vec4(n1, dot(n1, A1 + origin)));
        FLOE_STORE_VEC4(planes, 2u * t + 1u, vec4(n0, dot(n0, A0 + origin)));
    }
    // Non-finite corners (a diverged body) bin nowhere.
    if (any(isnan(lo)) || any(isnan(hi)) || any(isinf(lo)) || any(isinf(hi))) return;
    const float r = params.contact.w, cell = params.gridOrigin.w;
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const ivec3 first = clamp(ivec3(floor((lo - r - params.gridOrigin.xyz) / cell)), ivec3(0), dims - 1);
    const ivec3 last = clamp(ivec3(floor((hi + r - params.gridOrigin.xyz) / cell)), ivec3(0), dims - 1);
    for (int z = first.z; z <= last.z; ++z)
        for (int y = first.y; y <= last.y; ++y)
            for (int x = first.x; x <= last.x; ++x) {
                const uint key = uint(x) + uint(dims.x) * (uint(y) + uint(dims.y) * uint(z));
                if (push.stage == 0u) {
                    atomicAdd(counts[key], 1u);
                    atomicOr(masks[key], 1u << (tri.w & 31u));
                    continue;
                }
                const uint slot = FLOE_LOAD_UINT(cellStart, key) + atomicAdd(counts[key], 0xFFFFFFFFu) - 1u;
                if (slot < params.contactCapacity)
                    entries[slot] = t;
                else
                    atomicAdd(state.x, 1u);
            }
}
