#version 460
// One relaxed Jacobi iteration of a pressure system, pass 3 (one workgroup; also ends each PCISPH
// and PBF iteration): the average error over the counted fluid particles, the iteration count and
// the stopping rule (at least min, at most max iterations, else stop once the error is at most
// the tolerance). When the solver stops, the indirect dispatch arguments of the remaining
// recorded iterations become zero: no CPU round trip per iteration. COUNTER 0 is the pressure
// solve (SphState solver.x, error.x), 1 DFSPH's divergence-free solve (solver.w, error.y).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(constant_id = 2) const uint COUNTER = 0u;
layout(std430, binding = SPH_BIND_STATE) buffer State { SphState state; };
layout(std430, binding = SPH_BIND_OUT0) buffer Arguments { uvec4 particleArgs; uvec4 checkArgs; };
FLOE_IN_VEC4(SPH_BIND_IN0, errorPartials); // x error sum, y particles counted

shared vec2 subgroupSums[SPH_GROUP_SIZE];

void main()
{
    const uint partials = state.solver.z;
    vec2 sum = vec2(0.0);
    for (uint k = gl_LocalInvocationIndex; k < partials; k += SPH_GROUP_SIZE) sum += FLOE_LOAD_VEC4(errorPartials, k).xy;
    sum = subgroupAdd(sum);
    if (subgroupElect()) subgroupSums[gl_SubgroupID] = sum;
    barrier();
    if (gl_LocalInvocationIndex != 0u) return;
    vec2 total = vec2(0.0);
    for (uint s = 0u; s < gl_NumSubgroups; ++s) total += subgroupSums[s];
    const float error = total.x / max(total.y, 1.0);
    const uint iterations = (COUNTER == 0u ? state.solver.x : state.solver.w) + 1u;
    const bool done = (float(iterations) >= params.iisph.z && error <= params.iisph.y) || float(iterations) >= params.iisph.w;
    if (COUNTER == 0u) {
        state.solver.x = iterations;
        state.solver.y = done ? 1u : 0u;
        state.error.x = error;
    } else {
        state.solver.w = iterations;
        state.error.y = error;
    }
    if (done) {
        particleArgs = uvec4(0u, 1u, 1u, 0u);
        checkArgs = uvec4(0u, 1u, 1u, 0u);
    }
}
