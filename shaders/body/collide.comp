#version 460
// Contacts with the domain's walls and floor (the planes of domainMin/domainMax): a particle
// closer than the contact distance is put back on the plane, its normal velocity into the
// plane removed (times restitution when it was approaching fast), its tangential velocity
// reduced by Coulomb friction (|dv_t| <= mu |dv_n|), and it is flagged: the volume's position
// correction leaves it alone (digest-002 §2.7.9). Flags (shared/body.h): bit 0 a contact of
// this round, bit 1 any contact this step (kept; body/integrate clears it). The walls and the
// glass are moved into the body's frame (positions are relative to its origin), so a contact
// changes only the coordinate it stops and keeps the others' digits.
#include "body/body_common.glsl"

FLOE_RW_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_RW_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_RW_UINT(BODY_BIND_FLAGS, flags);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.particles) return;
    vec4 x = FLOE_RW_LOAD_VEC4(positions, i);
    const vec3 origin = FLOE_LOAD_VEC4(origins, uint(FLOE_LOAD_VEC4(rest, i).w)).xyz;
    vec3 v = FLOE_RW_LOAD_VEC4(velocities, i).xyz;
    const float d = params.contact.z;
    const float mu = params.contact.x;
    uint hit = 0u;
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            const float wall = (side == 0 ? params.domainMin[axis] + d : params.domainMax[axis] - d) - origin[axis];
            const float sign = side == 0 ? 1.0 : -1.0; // inward normal along the axis
            const float depth = sign * (wall - x[axis]);
            if (depth <= 0.0) continue;
            x[axis] = wall;
            hit = 1u;
            const float vn = sign * v[axis];
            if (vn >= 0.0) continue; // already separating
            const float dvn = -vn * (1.0 + params.contact.y);
            v[axis] += sign * dvn;
            vec3 vt = v;
            vt[axis] = 0.0;
            const float speed = length(vt);
            if (speed > 1e-20) { // a denormal speed would divide as 0 / 0 (fracture/obstacles)
                const float keep = max(0.0, 1.0 - mu * dvn / speed);
                for (int k = 0; k < 3; ++k)
                    if (k != axis) v[k] *= keep;
            }
        }
    // The glass: a vertical cylinder wall (inner radius R) up to its rim; inside it a particle
    // stays at least the contact distance from the wall, with the same response.
    const vec3 glass = params.glass.xyz - origin; // centre x, z and rim height in the body's frame
    if (params.glass.w > 0.0 && x.y <= glass.y) {
        const vec2 radial = x.xz - glass.xz;
        const float distance = length(radial);
        const float limit = params.glass.w - d;
        if (distance > limit && distance > 0.0) {
            const vec2 outward = radial / distance;
            x.xz = glass.xz + outward * limit;
            hit = 1u;
            const vec3 n = vec3(-outward.x, 0.0, -outward.y); // inward normal
            const float vn = dot(v, n);
            if (vn < 0.0) {
                const float dvn = -vn * (1.0 + params.contact.y);
                v += dvn * n;
                const vec3 vt = v - dot(v, n) * n;
                const float speed = length(vt);
                if (speed > 1e-20) v -= min(mu * dvn, speed) * vt / speed;
            }
        }
    }
    FLOE_STORE_VEC4(positions, i, x);
    FLOE_STORE_VEC4(velocities, i, vec4(v, 0.0));
    FLOE_RW_STORE_UINT(flags, i, hit != 0u ? 3u : FLOE_RW_LOAD_UINT(flags, i) & 2u);
}
