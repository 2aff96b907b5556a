#version 460
// Substep begin (one thread per node): gravity, damping, the predicted displacement v dt
// (PREDICTED holds the substep's displacement p - x, not p, so that the solve's small
// corrections keep their digits: fracture/finish adds it to the position).
// Nodes of inverse mass 0 stay. The first substep also clears the nodes' contact flags, peak
// loads and energy ledger; the kinetic energy the damping takes goes into the ledger.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_OUT_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_RW_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_OUT_VEC4(FRACTURE_BIND_PEAK, peak);
FLOE_RW_FLOAT(FRACTURE_BIND_LEDGER, ledger);
layout(push_constant) uniform Push { uint substep; };

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const float dt = params.gravity.w;
    const vec4 x = FLOE_LOAD_VEC4(positions, n);
    vec3 v = FLOE_RW_LOAD_VEC4(velocities, n).xyz;
    float damped = 0.0; // J
    if (x.w > 0.0) {
        const vec3 fallen = v + params.gravity.xyz * dt;
        v = fallen * max(0.0, 1.0 - params.domainMax.w * dt);
        damped = 0.5 * (dot(fallen, fallen) - dot(v, v)) / x.w;
    } else {
        v = vec3(0.0);
    }
    FLOE_STORE_VEC4(velocities, n, vec4(v, 0.0));
    precise const vec3 moved = v * dt; // finish repeats this bit for bit
    FLOE_STORE_VEC4(predicted, n, vec4(moved, x.w));
    const float account = substep == 0u ? 0.0 : FLOE_RW_LOAD_FLOAT(ledger, n);
    FLOE_STORE_FLOAT(ledger, n, account + damped);
    if (substep == 0u) {
        FLOE_STORE_UINT(flags, n, FLOE_RW_LOAD_UINT(flags, n) & ~(FRACTURE_NODE_CONTACT | FRACTURE_NODE_WALLS));
        FLOE_STORE_VEC4(peak, n, vec4(0.0, 0.0, 0.0, -1.0)); // the step's peak load starts anew
    }
}
