#version 460
// One relaxed Jacobi iteration of a pressure system, pass 3 (one workgroup; also ends each PCISPH
// and PBF iteration): the average error over the counted fluid particles, the iteration count and
// the stopping rule (at least min, at most max iterations, else stop once the error is at most
// the tolerance). When the solver stops, the indirect dispatch arguments of the remaining
// recorded iterations become zero: no CPU round trip per iteration. COUNTER 0 is the pressure
// solve (SphState solver.x, error.x), 1 DFSPH's divergence-free solve (solver.w, error.y).
// STALL (PCISPH): also stop once the error has not improved on its best for
// SPH_STALL_ITERATIONS iterations (the best in error.z, the count in solver.y until the end). Its
// iterations predict positions and evaluate the kernels there, a nonlinear fixed point that at an
// impact can stall above the tolerance and then diverge (PCISPH: 0.165 % after 15 iterations,
// growing from there, blown up after 100, where SPlisHSPlasH's error test, averaged over all
// particles, stops it after its minimum of 3). The linear Jacobi solves of IISPH and DFSPH never
// need it; PBF's average over its active constraints is not monotone while it converges.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(constant_id = 2) const uint COUNTER = 0u;
layout(constant_id = 3) const uint STALL = 0u;
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
    bool stalled = false;
    if (STALL != 0u) {
        const bool better = iterations == 1u || error < state.error.z;
        state.error.z = better ? error : state.error.z;
        state.solver.y = better ? 0u : state.solver.y + 1u;
        stalled = state.solver.y >= SPH_STALL_ITERATIONS && float(iterations) >= params.iisph.z;
    }
    const bool converged = float(iterations) >= params.iisph.z && error <= params.iisph.y;
    const bool done = converged || float(iterations) >= params.iisph.w || stalled;
    if (COUNTER == 0u) {
        state.solver.x = iterations;
        if (STALL == 0u || done) state.solver.y = converged ? 1u : 0u;
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
