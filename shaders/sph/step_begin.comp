#version 460
// Start of a step, one invocation: the time step from the CFL condition (sphCflTimeStep in
// shared/sph.h; for an equation of state the speed of sound joins |v|max, see eosSoundSpeed) or
// the fixed step (CFL factor 0: also the step a host chose for a fluid coupled with solids),
// capped so that the run ends exactly at the stop time; the simulated time; the IISPH iteration
// state and the indirect arguments of its passes.
#include "sph/sph_common.glsl"

layout(local_size_x = 1) in;
layout(constant_id = 2) const uint ACOUSTIC = 0u; // 1: the pressure solver is an equation of state
layout(std430, binding = SPH_BIND_STATE) buffer State { SphState state; };
layout(std430, binding = SPH_BIND_OUT0) buffer Arguments { uvec4 particleArgs; uvec4 checkArgs; };
layout(std430, binding = SPH_BIND_OUT1) buffer DivergenceArguments { uvec4 divergenceParticleArgs; uvec4 divergenceCheckArgs; };
FLOE_IN_VEC4(SPH_BIND_IN0, lastStep); // reduced metrics of the last step: x max speed (m/s)

void main()
{
    const float maxSpeed = FLOE_LOAD_VEC4(lastStep, 0).x;
    const vec4 control = state.control; // x fixed or max dt, y CFL factor, z min dt, w stop time
    const float sound = ACOUSTIC != 0u ? eosSoundSpeed(params.flags.z, params.gravity.w, params.material.z, params.domainMax.w) : 0.0;
    float dt = sphCflTimeStep(maxSpeed, sound, control.y, sphH(), control.z, control.x, max(params.material.y, params.domainMin.w));
    // End exactly at the stop time without a sliver of a step: the last one or two steps share
    // what is left (each between dt/2 and dt). What is left within the float clock's rounding of
    // one or two steps (a few ulp of the stop time) is that: 400 steps of 0.5 ms to 0.2 s left
    // 0.5 ms + 8e-7 s (without the precise sum below) and the run took two half steps at the end.
    if (control.w > 0.0) {
        const float left = max(control.w - state.time.y, 0.0);
        const float rounding = 4.0 * (uintBitsToFloat(floatBitsToUint(control.w) + 1u) - control.w);
        dt = left <= dt + rounding ? left : (left < 2.0 * dt - rounding ? 0.5 * left : dt);
    }
    // Kahan summation of the simulated time (compensation in error.w): float time stays exact to
    // a few ulp over millions of steps. precise: without it the compiler may simplify
    // (t - time) - y to 0 (llvmpipe did: 399 steps of 0.5 ms summed to 0.1994992 s, the plain
    // float sum, instead of 0.1995).
    precise const float y = dt - state.error.w;
    precise const float t = state.time.y + y;
    precise const float compensation = (t - state.time.y) - y;
    state.time = vec4(dt, t, maxSpeed, state.time.w + 1.0);
    const uint groups = (sphFluidCount() + SPH_GROUP_SIZE - 1u) / SPH_GROUP_SIZE;
    state.solver = uvec4(0u, 0u, groups, 0u);
    state.error = vec4(0.0, 0.0, 0.0, compensation);
    state.counters.x = 0u; // y counts over the whole run
    // Fold into 2D past 65535 groups, the smallest maxComputeWorkGroupCount[0] Vulkan allows.
    const uint maxX = 65535u;
    particleArgs = groups <= maxX ? uvec4(groups, 1u, 1u, 0u) : uvec4(maxX, (groups + maxX - 1u) / maxX, 1u, 0u);
    checkArgs = uvec4(1u, 1u, 1u, 0u);
    divergenceParticleArgs = particleArgs;
    divergenceCheckArgs = checkArgs;
}
