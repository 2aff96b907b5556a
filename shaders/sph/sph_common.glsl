// Shared by the SPH passes: parameters, the step state, kernels of the chosen set and the
// neighbour loop over grid strips.
#ifndef FLOE_SPH_COMMON_GLSL
#define FLOE_SPH_COMMON_GLSL

#include "shared/sph.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"
#include "grid/grid_common.glsl"

layout(push_constant) uniform Push { SphParams params; };
layout(constant_id = 0) const uint KERNEL = SPH_KERNEL_CUBIC;
layout(constant_id = 1) const uint DIMS = 3u;

float sphH() { return params.material.x; }               // particle spacing h (m)
float sphSupport() { return params.gridOrigin.w; }       // kernel support 2h (m)
float sphRho0() { return params.gravity.w; }             // rest density
uint sphFluidCount() { return params.gridDims.w; }
uint sphBoundaryCount() { return params.flags.y; }

float sphW(float r) { return kernelW(KERNEL, r, sphH(), DIMS); }

// grad_i W(x_i - x_j) for xij = x_i - x_j at distance r; zero for the self pair.
vec3 sphGradW(vec3 xij, float r)
{
    return r > 0.0 ? (kernelDW(KERNEL, r, sphH(), DIMS) / r) * xij : vec3(0.0);
}

ivec3 sphCell(vec3 x)
{
    return gridCell(x, params.gridOrigin, params.gridDims);
}

// The fluid neighbours sph/density listed this step (SPH_BIND_NEIGHBOURS), two ways to walk them.
// Both need
//   FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours); FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
//   FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart);
// A particle with more neighbours than its list holds (its count is then capacity + 1) also walks
// the grid's nine strips with the support test, so an overflow costs time, never a neighbour.
//
// FLUID_PAIRS(i, x): for passes at the positions the lists were built at (x the particle's), with
// the pair term written as a macro FLUID_PAIR(j, gradient) before it, gradient = m_j grad W_ij:
// read from the list, so a pair costs one load of its entry and the loads of its body, without
// the neighbour's position or the kernel. On lavapipe, which runs both sides of every branch,
// this is 35 % less time per solver iteration than recomputing the gradient.
//
// FLUID_NEIGHBOURS_BEGIN(i, x, j) { ... } FLUID_NEIGHBOURS_END: the neighbour index only, for passes
// that need positions (viscosity) or have moved the particles (PBF, PCISPH's prediction).
//
// j is never i.
#ifndef FLUID_ANCHOR
#define FLUID_ANCHOR(j) FLOE_LOAD_VEC4(positions, j).xyz
#endif
#define FLUID_NEIGHBOURS_BEGIN(i, anchor_, j)                                                                       \
    {                                                                                                          \
        const uint listed_ = FLOE_LOAD_UINT(neighbourCounts, (i));                                             \
        const bool walk_ = listed_ > sphNeighbourCapacity(DIMS);                                               \
        const ivec3 cell_ = sphCell(anchor_);                                                                        \
        for (int strip_ = 0; strip_ < (walk_ ? 9 : 1); ++strip_) {                                             \
            uint begin_ = 0u, end_ = listed_;                                                                   \
            if (walk_) {                                                                                        \
                const ivec3 row_ = ivec3(0, cell_.y + strip_ % 3 - 1, cell_.z + strip_ / 3 - 1);                \
                if (row_.y < 0 || row_.y >= int(params.gridDims.y) || row_.z < 0 || row_.z >= int(params.gridDims.z)) \
                    continue;                                                                                   \
                const uint base_ = gridKey(row_, params.gridDims);                                              \
                begin_ = FLOE_LOAD_UINT(cellStart, base_ + uint(max(cell_.x - 1, 0)));                          \
                end_ = FLOE_LOAD_UINT(cellStart, base_ + uint(min(cell_.x + 1, int(params.gridDims.x) - 1)) + 1u); \
            }                                                                                                   \
            for (uint slot_ = begin_; slot_ < end_; ++slot_) {                                                  \
                const uint j = walk_ ? slot_ : FLOE_LOAD_UVEC4(neighbours, slot_ * sphFluidCount() + (i)).w;    \
                if (walk_ && (j == (i) || !(length((anchor_) - FLUID_ANCHOR(j)) < sphSupport()))) continue;
#define FLUID_NEIGHBOURS_END \
    }                        \
    }                        \
    }

// The listed pairs, or, for a particle whose list overflowed, the grid walk instead. The two loops
// are separate, not two sides of a branch: a loop no invocation enters costs nothing.
#define FLUID_PAIRS(i, x_)                                                                                         \
    {                                                                                                          \
        const uint listed_ = FLOE_LOAD_UINT(neighbourCounts, (i));                                             \
        const bool walk_ = listed_ > sphNeighbourCapacity(DIMS);                                               \
        for (uint slot_ = 0u; slot_ < (walk_ ? 0u : listed_); ++slot_) {                                       \
            const uvec4 pair_ = FLOE_LOAD_UVEC4(neighbours, slot_ * sphFluidCount() + (i));                     \
            FLUID_PAIR(pair_.w, uintBitsToFloat(pair_.xyz))                                                     \
        }                                                                                                      \
        if (walk_) {                                                                                           \
            GRID_STRIPS_BEGIN(cellStart, sphCell(x_), params.gridDims, begin_, end_)                           \
            for (uint k_ = begin_; k_ < end_; ++k_) {                                                          \
                const vec4 pk_ = FLOE_LOAD_VEC4(positions, k_);                                                \
                const vec3 xik_ = (x_) - pk_.xyz;                                                              \
                const float r_ = length(xik_);                                                                 \
                if (k_ == (i) || !(r_ < sphSupport())) continue;                                               \
                FLUID_PAIR(k_, pk_.w * sphGradW(xik_, r_))                                                      \
            }                                                                                                  \
            GRID_STRIPS_END                                                                                    \
        }                                                                                                      \
    }

#endif
