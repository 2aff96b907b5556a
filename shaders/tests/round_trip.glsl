#version 460
// Layout round trip of one shared struct (ROUND_TRIP_TYPE): the CPU writes a struct with a
// distinct value in every byte; the GPU reads it as GLSL sees it and writes it back member by
// member into a poisoned buffer. Any disagreement in offsets or size shows up as a difference.
#include "shared/prim.h"
#include "shared/grid.h"
#include "shared/sph.h"
#include "shared/render.h"
#include "shared/fluid.h"
#include "shared/body.h"
#include "shared/fracture.h"

layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Source { ROUND_TRIP_TYPE source; };
layout(std430, binding = 1) writeonly buffer Destination { ROUND_TRIP_TYPE destination; };

void main()
{
    destination = source;
}
