#version 460
// One thread per node: fracture/contacts' results (the pushed displacements and the moved starts)
// into the substep's buffers, in the rounds that fracture/round_check may skip; the rounds every
// substep runs copy them with transfers, which an indirect dispatch cannot skip.
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_CONTACT_OUT, contactOut);
FLOE_IN_VEC4(FRACTURE_BIND_CONTACT_START, contactStart);
FLOE_OUT_VEC4(FRACTURE_BIND_PREDICTED, predicted);
FLOE_OUT_VEC4(FRACTURE_BIND_POSITIONS, positions);

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    FLOE_STORE_VEC4(predicted, n, FLOE_LOAD_VEC4(contactOut, n));
    FLOE_STORE_VEC4(positions, n, FLOE_LOAD_VEC4(contactStart, n));
}
