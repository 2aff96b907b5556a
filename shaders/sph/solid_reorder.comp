#version 460
// Gathers the coupled solids' samples into the fluid grid's bin order (the solid sample grid built
// just before), so that sph/density walks them as it walks the static samples: sorted slot s
// takes sample sortedIndex[s]. The sample count is in params.flags.y.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_IN0, samples);    // xyz m, w Psi_b kg
FLOE_IN_VEC4(SPH_BIND_IN1, velocities); // xyz m/s
FLOE_IN_UINT(SPH_BIND_IN2, sortedIndex);
FLOE_OUT_VEC4(SPH_BIND_OUT0, sortedSamples);
FLOE_OUT_VEC4(SPH_BIND_OUT1, sortedVelocities);
FLOE_IN_VEC4(SPH_BIND_SOLID_NORMALS, normals); // the surface plane: xyz outward unit normal, w distance (m; < 0: a deformable body's sample)
FLOE_OUT_VEC4(SPH_BIND_OUT2, sortedNormals);

void main()
{
    const uint s = floeGlobalIndex();
    if (s >= params.flags.y) return;
    const uint b = FLOE_LOAD_UINT(sortedIndex, s);
    FLOE_STORE_VEC4(sortedSamples, s, FLOE_LOAD_VEC4(samples, b));
    FLOE_STORE_VEC4(sortedVelocities, s, FLOE_LOAD_VEC4(velocities, b));
    FLOE_STORE_VEC4(sortedNormals, s, FLOE_LOAD_VEC4(normals, b));
}
