// Linear workgroup and invocation indices for dispatches that the render graph folds into 2D
// when they exceed maxComputeWorkGroupCount[0] (PassBuilder::dispatchThreads).
#ifndef FLOE_COMMON_DISPATCH_GLSL
#define FLOE_COMMON_DISPATCH_GLSL

uint floeGroupIndex()
{
    return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
}

// A macro, not a function: gl_WorkGroupSize is a constant fixed where it is used, and a
// function defined before the shader's local_size layout would see the default of 1.
#define floeGlobalIndex() (floeGroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationIndex)

#endif
