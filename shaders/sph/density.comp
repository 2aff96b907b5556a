#version 460
// Density (digest-001 (5.3): the particle itself and boundary particles included; Akinci et
// al. 2012: a boundary particle weighs Psi_b = rho0 V_b) and the equation-of-state pressure
// (digest-001 (4.1), Tait, digest-003 (3.5a)); the boundary's terms of the step
// (SPH_BIND_BOUNDARY_TERMS: G_b and the count of boundary neighbours, static and solid samples;
// SPH_BIND_BOUNDARY_RATES: the solid samples' density change), and the list of fluid
// neighbours every later pass of the step walks (SPH_BIND_NEIGHBOURS): the one grid walk a step
// makes for the fluid (PBF's corrections keep these neighbours, found at its predicted positions).
//
// With DIAGONAL (DFSPH), also the diagonal of the pressure system in the same neighbour loop,
// Bender & Koschier 2017 eq. (11) (their factor alpha_i is -1 / (D_i rho_i^2)), written for
// Floe's pressure force a_i = -sum_j m_j (p_i/rho_i^2 + p_j/rho_j^2) grad W_ij
// - sum_b Psi_b p_i (1/rho_i^2 + 1/rho0^2) grad W_ib (pressure mirrored at walls, as IISPH):
//   D_i = -[(G_f + c G_b).(G_f + G_b) + m_i sum_j m_j |grad W_ij|^2] / rho_i^2,
//   G_f = sum_j m_j grad W_ij, G_b = sum_b Psi_b grad W_ib, c = 1 + rho_i^2/rho0^2,
// the coefficient of p_i in the density change sum_j m_j (a_i - a_j).grad W_ij + sum_b Psi_b
// a_i.grad W_ib. SPlisHSPlasH's DFSPH applies p_i/rho_i^2 once at walls (c = 1); Floe mirrors the
// pressure for every solver, so that switching solvers does not change how walls push.
//
// With DIVERGENCE_SETUP (DFSPH with its divergence-free solve), also that solve's set-up in the
// same neighbour loop (Bender & Koschier 2017 Alg. 2; SPlisHSPlasH's divergenceSolve): the density
// change rate of the step's start velocities
//   (D rho / Dt)_i = sum_j m_j (v_i - v_j).grad W_ij + sum_b Psi_b v_i.grad W_ib - S_i   (eq. (9)),
// kept only where it compresses (> 0) and where the particle has enough neighbours (deficient
// particles at the free surface are left alone, dfsphMinNeighbours); the source is
// s_i = -(D rho / Dt)_i. Warm start (their §4.3): half the last step's kappa_v where the fluid
// compresses, limited (dfsphDivergenceWarmStartLimit), as a pressure p = kappa rho_i^2. A pass of
// its own walked every list once more for this: folded here it costs one velocity load per pair.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(constant_id = 2) const uint DIAGONAL = 0u;
layout(std430, binding = SPH_BIND_STATE) buffer State { SphState state; };
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart);
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart);
FLOE_OUT_VEC4(SPH_BIND_FIELDS, fields);
FLOE_OUT_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_OUT_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
// 1: the list is larger than a storage buffer's binding may be; it goes through a texel view.
layout(constant_id = 3) const uint LIST_TEXELS = 0u;
layout(constant_id = 4) const uint DIVERGENCE_SETUP = 0u;
FLOE_RW_UVEC4(SPH_BIND_NEIGHBOUR_TEXELS, neighbourTexels);
FLOE_OUT_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_VEC4(SPH_BIND_SOLIDS, solids);
FLOE_IN_UINT(SPH_BIND_SOLID_START, solidStart);
FLOE_IN_VEC4(SPH_BIND_SOLID_VELOCITIES, solidVelocities);
FLOE_OUT_FLOAT(SPH_BIND_BOUNDARY_RATES, boundaryRates);
// DIVERGENCE_SETUP: the start velocities, the last step's kappa_v, and p_i / rho_i^2 for sph/jacobi_accel.
FLOE_IN_VEC4(SPH_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(SPH_BIND_SOLVER_STATE, solverState);
FLOE_OUT_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms);
FLOE_OUT_VEC4(SPH_BIND_WALL_VISCOSITY, wallViscosityTerms); // WALL_VISCOSITY_TERMS: 3 per particle
// 1 (the equation of state, sph/integrate's PAIR_DATA): each particle's (x, rho) and (v, p / rho^2)
// for the pairs of sph/integrate (SPH_BIND_PAIR_DATA).
layout(constant_id = 16) const uint PAIR_DATA = 0u;
FLOE_OUT_VEC4(SPH_BIND_PAIR_DATA, pairData);

// The walls' viscosity (SPH_BIND_WALL_VISCOSITY) as sums: the matrix's diagonal and Mueller's
// Laplacian sum (w), its off-diagonal xy, xz, yz, and the moving solids' part that does not depend
// on v_i (sph/viscosity.glsl storedWallViscosity).
struct WallViscosity {
    vec4 diagonal;
    vec3 offDiagonal, drag;
};

// One sample's share (solidViscosityTerm with v_i - v_b; v_b = 0 for a static sample): g is
// Psi_b grad W_ib.
void addWallViscosity(vec3 xib, float r, float psi, vec3 g, vec3 vb, float regulariser, inout WallViscosity wall)
{
    if (KERNEL == SPH_KERNEL_MUELLER) {
        const float l = psi * viscosityLaplacian(r, 2.0 * sphH(), DIMS);
        wall.diagonal.w += l;
        wall.drag -= l * vb;
    } else {
        const vec3 q = g / (r * r + regulariser);
        wall.diagonal.xyz += q * xib;
        wall.offDiagonal += vec3(q.x * xib.y, q.x * xib.z, q.y * xib.z);
        wall.drag += q * dot(vb, xib);
    }
}

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec4 pi4 = FLOE_LOAD_VEC4(positions, i);
    const vec3 xi = pi4.xyz;
    const float support2 = sphSupport() * sphSupport();
    float rho = pi4.w * sphW(0.0); // the particle itself; the neighbours add theirs in the mask's loop
    vec3 gradFluid = vec3(0.0), gradBoundary = vec3(0.0);
    float gradSquares = 0.0, boundaryNeighbours = 0.0;
    const vec3 vi = DIVERGENCE_SETUP != 0u ? FLOE_LOAD_VEC4(velocities, i).xyz : vec3(0.0);
    float rate = 0.0;        // DIVERGENCE_SETUP: the density change rate
    uint beyondMasks = 0u;   // fluid neighbours past a strip's mask (not in `listed`)
    const uint capacity = sphNeighbourCapacity(DIMS);
    uint listed = 0u;      // fluid neighbours found; the list holds the first `capacity`
    bool overflow = false; // more than the list or a strip's mask holds: later passes walk the grid
    NEAR_BINS_BEGIN(cellStart, xi, begin, end)
    // The candidates: a mask of the neighbours among the strip's first 64, from the squared
    // distance alone. Nothing else happens per candidate: lavapipe executes every branch of the
    // loop for all of them, about six times the neighbours, so the square root, the kernel and
    // its gradient and the list's stores wait for the mask's loop below, which runs once per
    // neighbour (moving the kernel there made this pass 12 % faster on lavapipe, 3D dam break).
    const uint masked = min(end, begin + SPH_STRIP_SLOTS);
    uvec2 bits = uvec2(0u);
    for (uint j = begin; j < masked; ++j) {
        const vec3 d = xi - FLOE_LOAD_VEC4(positions, j).xyz;
        const uint k = j - begin;
        // False for NaN: one broken particle does not spread.
        if (dot(d, d) < support2 && j != i) {
            if (k < 32u)
                bits.x |= 1u << k;
            else
                bits.y |= 1u << (k - 32u);
        }
    }
    // The neighbours: the density, m_j grad W_ij, DFSPH's diagonal, and the list's entries.
    while ((bits.x | bits.y) != 0u) {
        const bool low = bits.x != 0u;
        const uint word = low ? bits.x : bits.y;
        const uint j = begin + uint(findLSB(word)) + (low ? 0u : 32u);
        if (low)
            bits.x = word & (word - 1u);
        else
            bits.y = word & (word - 1u);
        const vec4 pj = FLOE_LOAD_VEC4(positions, j);
        const vec3 xij = xi - pj.xyz;
        const float r = length(xij);
        rho += pj.w * sphW(r);
        const vec3 g = pj.w * sphGradW(xij, r);
        if (DIAGONAL != 0u) {
            gradFluid += g;
            gradSquares += dot(g, g) / pj.w; // m_j |grad W_ij|^2
        }
        if (DIVERGENCE_SETUP != 0u) rate += dot(vi - FLOE_LOAD_VEC4(velocities, j).xyz, g);
        if (listed < capacity) {
            const uint at = listed * sphFluidCount() + i;
            if (LIST_TEXELS != 0u)
                FLOE_RW_STORE_UVEC4(neighbourTexels, at, uvec4(floatBitsToUint(g), j));
            else
                FLOE_STORE_UVEC4(neighbours, at, uvec4(floatBitsToUint(g), j));
        }
        ++listed;
    }
    // A row with more candidates than its mask holds (the fluid at about three times its rest
    // density, 3.6 times with quarter-cell bins):
    // the rest are not listed, and the particle walks the grid in the later passes.
    for (uint j = masked; j < end; ++j) {
        const vec4 pj = FLOE_LOAD_VEC4(positions, j);
        const vec3 xij = xi - pj.xyz;
        const float r = length(xij);
        if (r < sphSupport() && j != i) {
            rho += pj.w * sphW(r);
            overflow = true;
            if (DIAGONAL != 0u) {
                const vec3 g = sphGradW(xij, r);
                gradFluid += pj.w * g;
                gradSquares += pj.w * dot(g, g);
            }
            if (DIVERGENCE_SETUP != 0u) {
                rate += dot(vi - FLOE_LOAD_VEC4(velocities, j).xyz, pj.w * sphGradW(xij, r));
                ++beyondMasks;
            }
        }
    }
    NEAR_BINS_END
    overflow = overflow || listed > capacity;
    WallViscosity wall = WallViscosity(vec4(0.0), vec3(0.0), vec3(0.0));
    const float regulariser = 0.01 * sphH() * sphH(); // as the viscosity's (sph/viscosity.glsl)
    if (sphBoundaryCount() > 0u) {
        BOUNDARY_NEAR_BEGIN(xi, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
            const vec3 xib = xi - xb.xyz;
            const float r = length(xib);
            if (r < sphSupport()) {
                rho += xb.w * sphW(r);
                const vec3 g = xb.w * sphGradW(xib, r);
                gradBoundary += g;
                boundaryNeighbours += 1.0;
                if (WALL_VISCOSITY_TERMS != 0u) addWallViscosity(xib, r, xb.w, g, vec3(0.0), regulariser, wall);
            }
        }
        BOUNDARY_NEAR_END
    }
    // Solid samples weigh as static ones (Akinci et al. 2012 eq. (5)-(6)), and their motion
    // changes the density: S_i = sum_b Psi_b v_b . grad W_ib, which the solvers' source terms
    // subtract from v_i . G_b (their eq. (9)-(10) for a moving boundary).
    float solidRate = 0.0;
    if (SOLIDS != 0u) {
        SOLID_NEAR_BEGIN(xi, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(solids, b);
            const vec3 xib = xi - xb.xyz;
            const float r = length(xib);
            if (r < sphSupport() && xb.w > 0.0) { // Psi_b 0: a tet face inside its fragment (coupling/tet_samples)
                rho += xb.w * sphW(r);
                const vec3 g = xb.w * sphGradW(xib, r);
                gradBoundary += g;
                const vec3 vb = FLOE_LOAD_VEC4(solidVelocities, b).xyz;
                solidRate += dot(vb, g);
                boundaryNeighbours += 1.0;
                if (WALL_VISCOSITY_TERMS != 0u) addWallViscosity(xib, r, xb.w, g, vb, regulariser, wall);
            }
        }
        SOLID_NEAR_END
        FLOE_STORE_FLOAT(boundaryRates, i, solidRate);
    }
    if (WALL_VISCOSITY_TERMS != 0u) {
        FLOE_STORE_VEC4(wallViscosityTerms, 3u * i, wall.diagonal);
        FLOE_STORE_VEC4(wallViscosityTerms, 3u * i + 1u, vec4(wall.offDiagonal, 0.0));
        FLOE_STORE_VEC4(wallViscosityTerms, 3u * i + 2u, vec4(wall.drag, 0.0));
    }
    float diagonal = 0.0;
    if (DIAGONAL != 0u) {
        const float rho0 = sphRho0();
        const float mirror = 1.0 + rho * rho / (rho0 * rho0);
        diagonal = -(dot(gradFluid + mirror * gradBoundary, gradFluid + gradBoundary) + pi4.w * gradSquares) / (rho * rho);
    }
    const float p = eosPressure(params.flags.z, rho, sphRho0(), params.material.z, params.domainMax.w, params.flags.w != 0u);
    vec4 f = vec4(rho, DIAGONAL != 0u ? 0.0 : p, diagonal, 0.0);
    if (DIVERGENCE_SETUP != 0u) {
        // The terms in the order the former pass summed them: fluid pairs, walls, moving solids.
        if (sphBoundaryCount() > 0u) {
            rate += dot(vi, gradBoundary);
            if (SOLIDS != 0u) rate -= solidRate; // moving solids: v_b . grad W_ib
        }
        if (listed + beyondMasks + uint(boundaryNeighbours) < dfsphMinNeighbours(DIMS)) rate = 0.0;
        rate = max(rate, 0.0);
        const float dt = state.time.x;
        const float stored = FLOE_LOAD_VEC4(solverState, i).y; // kappa_v dt of the last step
        const float kappa =
            rate > 0.0 && dt > 0.0 ? 0.5 * min(stored, dfsphDivergenceWarmStartLimit(sphH(), sphRho0())) / dt : 0.0;
        f = vec4(rho, kappa * rho * rho, diagonal, -rate);
        FLOE_STORE_FLOAT(pressureTerms, i, pressureTerm(f));
    }
    FLOE_STORE_VEC4(fields, i, f);
    if (PAIR_DATA != 0u) {
        FLOE_STORE_VEC4(pairData, 2u * i, vec4(xi, rho));
        FLOE_STORE_VEC4(pairData, 2u * i + 1u, vec4(FLOE_LOAD_VEC4(velocities, i).xyz, pressureTerm(f)));
    }
    FLOE_STORE_VEC4(boundaryTerms, i, vec4(gradBoundary, boundaryNeighbours));
    // Overflowed: capacity + 1 tells the later passes to walk the grid instead of the list.
    FLOE_STORE_UINT(neighbourCounts, i, overflow ? capacity + 1u : listed);
    if (overflow) atomicAdd(state.counters.x, 1u);
}
