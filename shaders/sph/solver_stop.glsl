// The end of an iteration of the iterative pressure solvers, in the pass that computes its error
// (sph/jacobi_update, sph/pcisph_density, sph/pbf_lambda): sphEndIteration stores the workgroup's
// error sum; the last workgroup to finish (a counter every workgroup increments after storing its
// sum) adds all the sums in a fixed order and applies the stopping rule once. An iteration thus
// needs no separate one-workgroup check pass: on an H200 each recorded dispatch and barrier pair
// costs about 1 us even when the solver has stopped and its dispatches are empty, and the fused
// check took IISPH's and DFSPH's steps 8-13 % below those with the check pass (2D and 3D dam
// breaks, 20k to 250k particles).
//
// The stopping rule (sphSolverStop): the iteration count, the
// error, at least min and at most max iterations, else stop once the average error is at most the
// tolerance (params.iisph: omega, tolerance, min, max). When the solver stops, the indirect
// dispatch arguments of the remaining recorded iterations become zero: no CPU round trip per
// iteration. While it goes on, the predicate of the next recorded iteration's conditional region is
// set (iterationFlags[COUNTER * SPH_ITERATION_FLAGS + iterations], cleared to 0 each step where
// conditional rendering is used). COUNTER 0 is the pressure solve (SphState solver.x, error.x), 1
// DFSPH's divergence-free solve (solver.w, error.y). STALL (PCISPH): also stop once the error has
// not improved on its best for SPH_STALL_ITERATIONS iterations (the best in error.z, the count in
// solver.y until the end).
//
// The includer declares SphState state (a read-write storage buffer at SPH_BIND_STATE) and the
// constants COUNTER and STALL, and uses SPH_BIND_OUT0..OUT3 for nothing else.
#ifndef FLOE_SPH_SOLVER_STOP_GLSL
#define FLOE_SPH_SOLVER_STOP_GLSL

layout(std430, binding = SPH_BIND_OUT0) coherent buffer ErrorPartials { vec4 errorPartials[]; }; // x error sum, y counted
layout(std430, binding = SPH_BIND_OUT1) writeonly buffer IterationFlags { uint iterationFlags[]; };
// The iteration's indirect arguments: its particle passes, and (offset 16) one-workgroup passes.
layout(std430, binding = SPH_BIND_OUT2) buffer Arguments { uvec4 particleArgs; uvec4 checkArgs; };
layout(std430, binding = SPH_BIND_OUT3) coherent buffer GroupsDone { uint groupsDone; };

shared vec2 subgroupSums[SPH_GROUP_SIZE];
shared bool lastGroup;

void sphSolverStop(const float error)
{
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
    } else if (iterations < SPH_ITERATION_FLAGS) {
        iterationFlags[COUNTER * SPH_ITERATION_FLAGS + iterations] = 1u;
    }
}

// Called by every invocation of the workgroup (uniform control flow) with its subgroup's sum of
// (error, counted). The partial sums are added as the former one-workgroup check pass added them
// (a strided loop over the workgroups, then the subgroups in order): every solver's results are
// bit-identical to those with the check pass.
void sphEndIteration(const vec2 subgroupSum)
{
    if (subgroupElect()) subgroupSums[gl_SubgroupID] = subgroupSum;
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        vec2 total = vec2(0.0);
        for (uint s = 0u; s < gl_NumSubgroups; ++s) total += subgroupSums[s];
        errorPartials[floeGroupIndex()] = vec4(total, 0.0, 0.0);
        memoryBarrierBuffer(); // the sum is visible before the count says so
        const uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumWorkGroups.z;
        lastGroup = atomicAdd(groupsDone, 1u) == groups - 1u;
    }
    barrier();
    if (lastGroup) { // uniform in the workgroup
        memoryBarrierBuffer();
        const uint partials = state.solver.z;
        vec2 all = vec2(0.0);
        for (uint k = gl_LocalInvocationIndex; k < partials; k += SPH_GROUP_SIZE) all += errorPartials[k].xy;
        all = subgroupAdd(all);
        if (subgroupElect()) subgroupSums[gl_SubgroupID] = all;
    }
    barrier();
    if (lastGroup && gl_LocalInvocationIndex == 0u) {
        vec2 total = vec2(0.0);
        for (uint s = 0u; s < gl_NumSubgroups; ++s) total += subgroupSums[s];
        groupsDone = 0u; // every workgroup has counted itself: ready for the next iteration
        sphSolverStop(total.x / max(total.y, 1.0));
    }
}

#endif
