#version 460
// GpuTest.RobustBufferAccessReadsOutOfRangeAsZeroOrInRange: one read at a push-constant index,
// far past the end of the bound buffer.
layout(local_size_x = 1) in;
layout(push_constant) uniform Push { uvec4 index; } push;
layout(std430, binding = 0) readonly buffer In { uint values[]; };
layout(std430, binding = 1) writeonly buffer Out { uint result[]; };

void main()
{
    result[0] = values[push.index.x];
}
