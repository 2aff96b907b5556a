// GPU primitives: scan, segmented scan, radix sort, reduction (src/sim/prim/, shaders/prim/).
#ifndef FLOE_SHARED_PRIM_H
#define FLOE_SHARED_PRIM_H
#include "shared/types.h"

// Workgroup size of every primitive; a multiple of any subgroup size up to 128, and the
// pipelines require full subgroups (Vulkan 1.3 computeFullSubgroups).
#define PRIM_GROUP_SIZE 256
// Elements each invocation handles in scans and sorts: one uvec4/vec4 of scalars per invocation.
#define PRIM_ITEMS_PER_THREAD 4
#define PRIM_BLOCK_SIZE (PRIM_GROUP_SIZE * PRIM_ITEMS_PER_THREAD)
// The scan (prim/scan_reduce, prim/scan_blocks): four uvec4 texels, 16 elements, per invocation,
// so 4096 per workgroup. On lavapipe a workgroup's barriers switch between its coroutines and
// cost about as much as its data: the 3D dam break's grid table (142k bins) took 0.61 ms to scan
// with one texel per invocation, 0.44 ms with four (`--timers pass`). GPUs load 64 contiguous
// bytes per invocation as well, and two levels cover 16M elements.
#define PRIM_SCAN_TEXELS_PER_THREAD 4
#define PRIM_SCAN_BLOCK_SIZE (PRIM_GROUP_SIZE * PRIM_SCAN_TEXELS_PER_THREAD * 4)
// Segmented scan: records of up to PRIM_SEGSCAN_MAX_VEC4 vec4 (12 floats), fewer elements per block.
// Four records per invocation, 1024 per workgroup: a deformable body of up to 1024 vertices is
// scanned in one dispatch instead of three (block sums, their scan, the blocks). On lavapipe
// `coupled_ball_pool` (642 vertices, seven scans a step) spent 1.4-1.7 ms per step in its scans
// against 2.8-2.9 ms with two records; a pile of bodies the same (3.7 ms); eight records was
// slower than four (1.4 ms). On a GPU 48 floats per invocation are still few registers.
#define PRIM_SEGSCAN_MAX_VEC4 3
#define PRIM_SEGSCAN_ITEMS_PER_THREAD 4
#define PRIM_SEGSCAN_BLOCK_SIZE (PRIM_GROUP_SIZE * PRIM_SEGSCAN_ITEMS_PER_THREAD)
// Radix sort: 4 bits per pass; 16 digit counters packed as 16-bit fields in 8 uints.
#define PRIM_SORT_BITS_PER_PASS 4
#define PRIM_SORT_RADIX 16

// Bindings (one push-descriptor set per pass).
#define PRIM_BIND_INPUT 0
#define PRIM_BIND_OUTPUT 1
#define PRIM_BIND_BLOCK_SUMS 2
#define PRIM_BIND_HEADS 3
#define PRIM_BIND_BLOCK_HEADS 4
#define PRIM_BIND_KEYS_IN 0
#define PRIM_BIND_VALUES_IN 1
#define PRIM_BIND_KEYS_OUT 2
#define PRIM_BIND_VALUES_OUT 3
#define PRIM_BIND_DIGIT_COUNTS 4
#define PRIM_BIND_DIGIT_OFFSETS 5

// Reduction operators (specialization constants, one per vec4 component).
#define PRIM_REDUCE_SUM 0
#define PRIM_REDUCE_MIN 1
#define PRIM_REDUCE_MAX 2

FLOE_SHARED_BEGIN

struct ScanParams {
    uint count;      // elements in this level
    uint blockCount; // workgroups of PRIM_SCAN_BLOCK_SIZE elements
    uint pad0;
    uint pad1;
};
SHARED_SIZE(ScanParams, 16);

struct SegScanParams {
    uint count;        // records in this level
    uint blockCount;   // workgroups of PRIM_SEGSCAN_BLOCK_SIZE records
    uint headsPerWord; // 0: heads are one uint per record; 1: per-block first-head indices
    uint pad0;
};
SHARED_SIZE(SegScanParams, 16);

struct SortParams {
    uint count;      // pairs
    uint blockCount; // workgroups of PRIM_BLOCK_SIZE pairs
    uint shift;      // first key bit of this pass
    uint pad0;
};
SHARED_SIZE(SortParams, 16);

struct ReduceParams {
    uint count;      // elements (scalars or vec4 records) in this level
    uint blockCount; // workgroups of PRIM_BLOCK_SIZE elements
    uint pad0;
    uint pad1;
    vec4 identity; // value of an empty range per component (0, +inf or -inf)
};
SHARED_SIZE(ReduceParams, 32);

FLOE_SHARED_END
#endif
