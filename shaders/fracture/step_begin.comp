#version 460
// One thread: clears the step's contact flag, largest load and cut count.
#include "fracture/fracture_common.glsl"

FRACTURE_STATE_BLOCK;

void main()
{
    if (gl_GlobalInvocationID.x != 0u) return;
    state.counts.y = 0u;
    state.extra.x = 0u;
    state.extra.y = 0u;
}
