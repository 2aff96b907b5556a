// Uniform grid for neighbour search (src/sim/SpatialGrid.h, shaders/grid/). Cells are keyed
// row-major with x fastest, so the three cells x-1, x, x+1 of one row are consecutive keys and
// the particles sorted by key lie in one contiguous range: a neighbour loop visits 9 x-strips
// in 3D (3 in 2D) instead of 27 cells. A z-order key would give better locality across rows
// but no contiguous strips; the strips win on lavapipe and on GPUs alike.
// A grid may resolve x finer than its cells (GridParams::bins.x bins per cell, GridSpec::xBins):
// keys and the cell-start table are then per bin, so that a walk can read only the bins within
// the support's chord at each row (sph/sph_common.glsl, NEAR_BINS_BEGIN).
#ifndef FLOE_SHARED_GRID_H
#define FLOE_SHARED_GRID_H
#include "shared/types.h"

#define GRID_GROUP_SIZE 256
// A cell with up to this many particles gets them in input order (grid/cell_rank, a loop over
// the cell per particle); a more crowded one, which no simulation reaches before it has
// diverged, keeps the order its atomic counter gave.
#define GRID_RANK_LIMIT 1024
#define GRID_BIND_POSITIONS 0   // vec4 xyz m
#define GRID_BIND_KEYS 1        // uint cell key per particle, in input order
#define GRID_BIND_VALUES 2      // uint particle index per sorted slot
#define GRID_BIND_CELL_START 3  // uint per cell + 1
#define GRID_BIND_COUNTS 4      // uint per cell + 1: particles per cell, counted down again by the scatter
#define GRID_BIND_SCATTERED 5   // uint particle index per sorted slot, in the atomic counters' order
#define GRID_BIND_SORTED_KEYS 6 // uint cell key per sorted slot

FLOE_SHARED_BEGIN

struct GridParams {
    vec4 origin; // xyz m: minimum corner of cell (0,0,0); w cell size (m)
    uvec4 dims;  // x bins along x (cells times bins.x), yz cells per axis, w particle count
    uvec4 bins;  // x bins per cell along x (1: whole cells); y 1: a position with w 0 is left out (key = the bin count); zw unused
};
SHARED_SIZE(GridParams, 48);

FLOE_SHARED_END
#endif
