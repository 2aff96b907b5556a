// Shared by the primitives. Requires GL_KHR_shader_subgroup_basic in the including shader.
#ifndef FLOE_PRIM_COMMON_GLSL
#define FLOE_PRIM_COMMON_GLSL

// The invocation's position in its workgroup as the primitives order data: subgroup by subgroup,
// lane by lane. Pipelines require full subgroups, so this is a bijection onto
// [0, PRIM_GROUP_SIZE) whatever the device's mapping of invocations to subgroups; results do
// not depend on that mapping.
uint primThread()
{
    return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
}

bool primLastLane()
{
    return gl_SubgroupInvocationID == gl_SubgroupSize - 1u;
}

#endif
