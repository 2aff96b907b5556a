// Shared by the SPH passes: parameters, the step state, kernels of the chosen set and the
// neighbour loop over grid strips.
#ifndef FLOE_SPH_COMMON_GLSL
#define FLOE_SPH_COMMON_GLSL

// Every output of the SPH passes is per particle (or per boundary sample), within
// ParticleBuffers::maxParticles and so within maxStorageBufferRange: storage buffers
// (common/texel.glsl). sph/density's neighbour list can be larger and keeps a texel path.
#define FLOE_OUT_STORAGE

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

// p / rho^2 of a particle's fields (x density, y pressure): the term of the pressure acceleration
// (sph/pressure_accel.glsl) that the Jacobi solves also keep per particle (SPH_BIND_PRESSURE_TERMS),
// the one expression everywhere so that both give the same bits.
float pressureTerm(const vec4 f) { return f.y / (f.x * f.x); }

float sphW(float r) { return kernelW(KERNEL, r, sphH(), DIMS); }

// grad_i W(x_i - x_j) for xij = x_i - x_j at distance r; zero for the self pair.
vec3 sphGradW(vec3 xij, float r)
{
    return r > 0.0 ? (kernelDW(KERNEL, r, sphH(), DIMS) / r) * xij : vec3(0.0);
}

// The fluid grid resolves x into GRID_X_BINS bins per cell (sim::Simulation's fluidGrid): the
// fluid's cell-start table and the boundary's table are both per bin, rows of gridDims.x bins.
layout(constant_id = 11) const uint GRID_X_BINS = 1u;

// The bin of x: (bin along x, cell row y, cell row z).
ivec3 sphCell(vec3 x)
{
    return gridBin(x, params.gridOrigin, params.gridDims, GRID_X_BINS);
}

// The entries of a per-bin table near x: the fluid's (cellStart) or the boundary's static
// samples (boundaryStart; sorted by grid row (y, z) and, within a row, by x bin, as
// sim::Simulation::buildBoundary lays them out). Of the nine rows around x, a row farther than
// the support is skipped, and in the others only the bins within the support's chord at that
// row's distance are walked: in 3D about 116 candidates at rest spacing with quarter-cell bins,
// against 216 in the 27 cells, and every one within the support among them. A slack of 1e-4 of
// the support on the reach keeps float rounding of bin edges from dropping one at the border.
// Non-finite positions walk nothing. Use as
//   NEAR_BINS_BEGIN(table, x, begin, end) for (uint j = begin; j < end; ++j) {...} NEAR_BINS_END
#define NEAR_BINS_BEGIN(table_, x_, begin, end)                                                                   \
    {                                                                                                            \
        const vec3 bx_ = (x_);                                                                                   \
        const ivec3 bc_ = sphCell(bx_);                                                                          \
        const float bcell_ = params.gridOrigin.w;                                                                \
        const float bsupport_ = 1.0001 * sphSupport();                                                           \
        const float bfine_ = bcell_ / float(GRID_X_BINS);                                                        \
        const uint brow_ = params.gridDims.x;                                                                    \
        const bool bfinite_ = !any(isnan(bx_)) && !any(isinf(bx_));                                             \
        for (int bz_ = max(bc_.z - 1, 0); bz_ <= min(bc_.z + 1, int(params.gridDims.z) - 1); ++bz_)              \
            for (int by_ = max(bc_.y - 1, 0); by_ <= min(bc_.y + 1, int(params.gridDims.y) - 1); ++by_) {        \
                const vec2 blo_ = params.gridOrigin.yz + vec2(by_, bz_) * bcell_;                                \
                const vec2 bgap_ = max(max(blo_ - bx_.yz, bx_.yz - (blo_ + bcell_)), vec2(0.0));                 \
                const float breach2_ = bsupport_ * bsupport_ - dot(bgap_, bgap_);                                \
                if (!bfinite_ || !(breach2_ > 0.0)) continue;                                                    \
                const float breach_ = sqrt(breach2_);                                                            \
                const float blast_ = float(brow_ - 1u);                                                          \
                const uint bfirst_ = uint(clamp(floor((bx_.x - breach_ - params.gridOrigin.x) / bfine_), 0.0, blast_)); \
                const uint bend_ = uint(clamp(floor((bx_.x + breach_ - params.gridOrigin.x) / bfine_), 0.0, blast_)) + 1u; \
                const uint bbase_ = (uint(by_) + params.gridDims.y * uint(bz_)) * brow_;                         \
                const uint begin = FLOE_LOAD_UINT(table_, bbase_ + bfirst_);                                     \
                const uint end = FLOE_LOAD_UINT(table_, bbase_ + bend_);
#define NEAR_BINS_END \
    }                 \
    }

// The static boundary samples near x (SPH_BIND_BOUNDARY_START bound as boundaryStart).
#define BOUNDARY_NEAR_BEGIN(x_, begin, end) NEAR_BINS_BEGIN(boundaryStart, x_, begin, end)
#define BOUNDARY_NEAR_END NEAR_BINS_END

// 1: solids are coupled to the fluid (sim::Simulation::attachSolids): their moving samples
// (SPH_BIND_SOLIDS, SPH_BIND_SOLID_START, SPH_BIND_SOLID_VELOCITIES) are boundary samples too.
layout(constant_id = 12) const uint SOLIDS = 0u;
// 1: sph/density stores the walls' viscosity terms, static and solid samples' (SPH_BIND_WALL_VISCOSITY),
// and the velocity passes read them (the walls are viscous and the particles have not moved since).
layout(constant_id = 14) const uint WALL_VISCOSITY_TERMS = 0u;
// The solid samples near x (SPH_BIND_SOLID_START bound as solidStart).
#define SOLID_NEAR_BEGIN(x_, begin, end) NEAR_BINS_BEGIN(solidStart, x_, begin, end)
#define SOLID_NEAR_END NEAR_BINS_END

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
                begin_ = FLOE_LOAD_UINT(cellStart, base_ + uint(max(cell_.x - int(GRID_X_BINS), 0)));           \
                end_ = FLOE_LOAD_UINT(cellStart, base_ + uint(min(cell_.x + int(GRID_X_BINS), int(params.gridDims.x) - 1)) + 1u); \
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
            NEAR_BINS_BEGIN(cellStart, x_, begin_, end_)                                                       \
            for (uint k_ = begin_; k_ < end_; ++k_) {                                                          \
                const vec4 pk_ = FLOE_LOAD_VEC4(positions, k_);                                                \
                const vec3 xik_ = (x_) - pk_.xyz;                                                              \
                const float r_ = length(xik_);                                                                 \
                if (k_ == (i) || !(r_ < sphSupport())) continue;                                               \
                FLUID_PAIR(k_, pk_.w * sphGradW(xik_, r_))                                                      \
            }                                                                                                  \
            NEAR_BINS_END                                                                                      \
        }                                                                                                      \
    }

#endif
