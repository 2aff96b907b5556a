// Uniform grid for neighbour search (src/sim/SpatialGrid.h, shaders/grid/). Cells are keyed
// row-major with x fastest, so the three cells x-1, x, x+1 of one row are consecutive keys and
// the particles sorted by key lie in one contiguous range: a neighbour loop visits 9 x-strips
// in 3D (3 in 2D) instead of 27 cells. A z-order key would give better locality across rows
// but no contiguous strips; the strips win on lavapipe and on GPUs alike.
#ifndef FLOE_SHARED_GRID_H
#define FLOE_SHARED_GRID_H
#include "shared/types.h"

#define GRID_GROUP_SIZE 256
#define GRID_CELLS_PER_THREAD 16 // cell-start entries per invocation (grid/cell_start)
#define GRID_WALK_LIMIT 64       // particles walked per entry before a binary search
#define GRID_BIND_POSITIONS 0    // vec4 xyz m
#define GRID_BIND_KEYS 1         // uint cell key per particle
#define GRID_BIND_VALUES 2       // uint particle index per particle
#define GRID_BIND_CELL_START 3   // uint per cell + 1

FLOE_SHARED_BEGIN

struct GridParams {
    vec4 origin; // xyz m: minimum corner of cell (0,0,0); w cell size (m)
    uvec4 dims;  // xyz cells per axis, w particle count
};
SHARED_SIZE(GridParams, 32);

FLOE_SHARED_END
#endif
