#version 460
// One thread: starts the step's contact flag (set if a coupled fluid pushed the bodies before the
// step: coupling/tet_impulses_apply; fracture is evaluated in steps with contact, digest-004
// §3.0), clears the largest load and cut count and the rounds' counters (fracture/round_check).
#include "fracture/fracture_common.glsl"

FRACTURE_STATE_BLOCK;
FLOE_IN_UINT(FRACTURE_BIND_EXTERNAL_CONTACT, externalContact);

void main()
{
    if (gl_GlobalInvocationID.x != 0u) return;
    state.counts.y = FLOE_LOAD_UINT(externalContact, 0) != 0u ? 1u : 0u;
    state.extra.x = 0u;
    state.extra.y = 0u;
    state.rounds = uvec4(0u);
}
