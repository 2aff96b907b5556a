#version 460
// One Jacobi iteration over the contacts body/contacts found (vertex a against triangle T of
// another body: normal n, barycentric weights beta_k of T's nearest point, the normal speed to
// reach), with mass splitting (Tonge et al. 2012): a vertex in c contacts counts with the mass
// m / c in each, its inverse mass c / m, and takes the sum of its contacts' corrections
// (body/contacts_apply), so that each contact's corrections are equal and opposite (momentum is
// kept up to the fixed point's rounding) and their sum does not overshoot.
//   positions: the constraint C = n . (x_a - sum_k beta_k x_k) - r >= 0 (digest-002 §4.2.1's
//     position constraint, r the contact radius) at the current positions; while C < 0,
//     lambda = -C / W with W = c_a/m_a + sum_k beta_k^2 c_k/m_k, a moves lambda/m_a n and T's
//     vertex k moves -beta_k lambda/m_k n (the least mass-weighted move that closes it);
//   velocities: the relative normal speed u = (v_a - sum_k beta_k v_k) . n is raised to the
//     target body/contacts set (0, or -e u_0 for an impact) by a normal impulse accumulated over
//     the iterations and never negative (the contact only pushes), with Coulomb friction up to mu
//     times each iteration's normal impulse (at most what stops the sliding); a gets J/m_a,
//     vertex k -beta_k J/m_k.
// digest-002 spreads the impulse by beta_k / sum beta^2 over T's vertices; the constraint's
// gradient beta_k gives the least-norm split, and both close the gap.
#include "body/body_common.glsl"
#include "common/fixed_point.glsl"

FLOE_IN_VEC4(BODY_BIND_POSITIONS, positions);
FLOE_IN_VEC4(BODY_BIND_VELOCITIES, velocities);
FLOE_IN_UVEC4(BODY_BIND_TRIANGLES, triangles);
FLOE_IN_VEC4(BODY_BIND_REST, rest);
FLOE_IN_VEC4(BODY_BIND_ORIGINS, origins);
FLOE_RW_VEC4(BODY_BIND_CONTACTS, contacts);
layout(std430, binding = BODY_BIND_CONTACT_SUMS) buffer Sums { int sums[]; };

// Adds a correction of vertex k: position dx, velocity dv (the count slot is body/contacts').
void addCorrection(uint k, vec3 dx, vec3 dv)
{
    for (uint c = 0u; c < 3u; ++c) {
        atomicAdd(sums[BODY_CONTACT_WIDTH * k + c], fixedPoint(dx[c]));
        atomicAdd(sums[BODY_CONTACT_WIDTH * k + 4u + c], fixedPoint(dv[c]));
    }
}

// Contacts of vertex k this step (at least 1 for a vertex in one).
float splits(uint k)
{
    return float(max(sums[BODY_CONTACT_WIDTH * k + 3u], 1));
}

void main()
{
    const uint a = floeGlobalIndex();
    if (a >= params.particles) return;
    const vec4 contact = FLOE_RW_LOAD_VEC4(contacts, 3u * a);
    if (!(contact.w > 0.0)) return;
    const vec4 record = FLOE_RW_LOAD_VEC4(contacts, 3u * a + 1u);
    vec4 speeds = FLOE_RW_LOAD_VEC4(contacts, 3u * a + 2u); // x target normal speed, y normal impulse so far
    const uvec4 t = FLOE_LOAD_UVEC4(triangles, floatBitsToUint(record.x));
    const vec3 beta = record.yzw, n = contact.xyz;
    const vec4 xa = FLOE_LOAD_VEC4(positions, a);
    const vec4 A = FLOE_LOAD_VEC4(positions, t.x), B = FLOE_LOAD_VEC4(positions, t.y), C = FLOE_LOAD_VEC4(positions, t.z);
    const float wa = 1.0 / xa.w;
    const vec3 wk = beta / vec3(A.w, B.w, C.w); // beta_k / m_k
    const float W = splits(a) * wa + beta.x * wk.x * splits(t.x) + beta.y * wk.y * splits(t.y) + beta.z * wk.z * splits(t.z);
    // Positions are relative to their body's origin: a's to its own, T's to T's body's (sum beta = 1).
    const vec3 offset = FLOE_LOAD_VEC4(origins, uint(FLOE_LOAD_VEC4(rest, a).w)).xyz - FLOE_LOAD_VEC4(origins, t.w).xyz;
    const float gap = dot(n, xa.xyz - (beta.x * A.xyz + beta.y * B.xyz + beta.z * C.xyz) + offset) - params.contact.w;
    const float lambda = gap < 0.0 ? -gap / W : 0.0;
    const vec3 vb = beta.x * FLOE_LOAD_VEC4(velocities, t.x).xyz + beta.y * FLOE_LOAD_VEC4(velocities, t.y).xyz +
                    beta.z * FLOE_LOAD_VEC4(velocities, t.z).xyz;
    const vec3 relative = FLOE_LOAD_VEC4(velocities, a).xyz - vb;
    const float u = dot(relative, n);
    const float total = max(speeds.y + (speeds.x - u) / W, 0.0);
    const float jn = total - speeds.y;
    speeds.y = total;
    FLOE_STORE_VEC4(contacts, 3u * a + 2u, speeds);
    vec3 impulse = jn * n; // on a (N s); T gets the opposite
    if (jn > 0.0) {
        const vec3 vt = relative - u * n;
        const float slip = length(vt);
        if (slip > 0.0) impulse -= (min(params.contact.x * jn, slip / W) / slip) * vt;
    }
    if (lambda == 0.0 && jn == 0.0) return;
    addCorrection(a, wa * lambda * n, wa * impulse);
    for (uint c = 0u; c < 3u; ++c)
        if (beta[c] > 0.0) addCorrection(t[c], -wk[c] * lambda * n, -wk[c] * impulse);
}
