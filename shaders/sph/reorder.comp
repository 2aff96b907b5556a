#version 460
// Gathers the particle state into sorted (cell) order, so that neighbour loops read coherent
// memory: sorted slot s takes particle sortedIndex[s]. velocities.w carries last step's pressure
// (IISPH warm start) along, the solver state DFSPH's warm starts.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_VEC4(SPH_BIND_VELOCITIES, velocities);
FLOE_IN_UINT(SPH_BIND_IN0, ids);
FLOE_IN_UINT(SPH_BIND_IN1, sortedIndex);
FLOE_OUT_VEC4(SPH_BIND_OUT0, sortedPositions);
FLOE_OUT_VEC4(SPH_BIND_OUT1, sortedVelocities);
FLOE_OUT_UINT(SPH_BIND_OUT2, sortedIds);
FLOE_IN_VEC4(SPH_BIND_SOLVER_STATE, solverState);
FLOE_OUT_VEC4(SPH_BIND_OUT3, sortedSolverState);

void main()
{
    const uint s = floeGlobalIndex();
    if (s >= sphFluidCount()) return;
    const uint i = FLOE_LOAD_UINT(sortedIndex, s);
    FLOE_STORE_VEC4(sortedPositions, s, FLOE_LOAD_VEC4(positions, i));
    FLOE_STORE_VEC4(sortedVelocities, s, FLOE_LOAD_VEC4(velocities, i));
    FLOE_STORE_UINT(sortedIds, s, FLOE_LOAD_UINT(ids, i));
    FLOE_STORE_VEC4(sortedSolverState, s, FLOE_LOAD_VEC4(solverState, i));
}
