#version 460
// The step's metrics in one dispatch of one workgroup, for up to SPH_ONE_GROUP_REDUCE particles:
// A (kinetic energy J, compression summed, largest compression, escaped particles) and B
// (largest speed m/s, non-finite particles, wall contacts, density summed) from sph/integrate's
// per-particle records. prim/reduce takes two dispatches for each at 10k particles; on lavapipe a
// dispatch costs about 45 us whatever its size, and the four took 0.20-0.26 ms of a 6 ms WCSPH step.
// Larger runs use prim/reduce, whose levels spread the work over the device (on an H200 one
// workgroup was faster at 20k particles, slower at 64k). The order of the
// operations depends only on the particle count: the results are deterministic.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_IN0, metricsA);
FLOE_IN_VEC4(SPH_BIND_IN1, metricsB);
FLOE_OUT_VEC4(SPH_BIND_OUT0, reducedA);
FLOE_OUT_VEC4(SPH_BIND_OUT1, reducedB);

// A: (sum, sum, max, sum); B: (max, sum, sum, sum). Every term is >= 0, so 0 is the identity.
vec4 combineA(vec4 s, vec4 t) { return vec4(s.xy + t.xy, max(s.z, t.z), s.w + t.w); }
vec4 combineB(vec4 s, vec4 t) { return vec4(max(s.x, t.x), s.yzw + t.yzw); }

shared vec4 sumsA[SPH_GROUP_SIZE], sumsB[SPH_GROUP_SIZE];

void main()
{
    vec4 a = vec4(0.0), b = vec4(0.0);
    for (uint k = gl_LocalInvocationIndex; k < sphFluidCount(); k += SPH_GROUP_SIZE) {
        a = combineA(a, FLOE_LOAD_VEC4(metricsA, k));
        b = combineB(b, FLOE_LOAD_VEC4(metricsB, k));
    }
    a = vec4(subgroupAdd(a.xy), subgroupMax(a.z), subgroupAdd(a.w));
    b = vec4(subgroupMax(b.x), subgroupAdd(b.yzw));
    if (subgroupElect()) {
        sumsA[gl_SubgroupID] = a;
        sumsB[gl_SubgroupID] = b;
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        vec4 ta = vec4(0.0), tb = vec4(0.0);
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            ta = combineA(ta, sumsA[s]);
            tb = combineB(tb, sumsB[s]);
        }
        FLOE_STORE_VEC4(reducedA, 0, ta);
        FLOE_STORE_VEC4(reducedB, 0, tb);
    }
}
