// The last workgroup of a dispatch (include after FRACTURE_STATE_BLOCK): every invocation calls
// fractureLastGroup() once, in uniform control flow, after its work; it returns true in the
// workgroup that finished last, whose invocation 0 may then end the round with everything the
// dispatch wrote visible (a single-invocation pass after it did this before, at a launch and a
// queue-wide barrier each). The count is state.ductile.y; the last workgroup puts it back to 0.
#ifndef FLOE_FRACTURE_LAST_GROUP_GLSL
#define FLOE_FRACTURE_LAST_GROUP_GLSL

shared bool fractureIsLastGroup;

bool fractureLastGroup()
{
    memoryBarrierBuffer(); // this invocation's stores and atomics before the count says so
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        const uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumWorkGroups.z;
        fractureIsLastGroup = atomicAdd(state.ductile.y, 1u) == groups - 1u;
        if (fractureIsLastGroup) state.ductile.y = 0u;
        memoryBarrierBuffer(); // the other workgroups' writes before this one reads them
    }
    barrier();
    return fractureIsLastGroup;
}

#endif
