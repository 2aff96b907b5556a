// SPH: kernels (pure functions, the same code on the CPU and the GPU), bindings, workgroup
// size and the per-step parameters of the fluid solvers (src/sim/sph/, shaders/sph/).
//
// Length scales. h is the particle spacing 2r (digest-001 §2.3: the cubic spline's "particle
// size"); every kernel has the support radius 2h = 4r, which is also the grid's cell size
// (SPlisHSPlasH uses the same 4r). The Müller et al. 2003 kernels are written with their own
// support radius H = 2h.
#ifndef FLOE_SHARED_SPH_H
#define FLOE_SHARED_SPH_H
#include "shared/types.h"

#define SPH_GROUP_SIZE 256
// Up to this many particles the step's metrics are reduced by one workgroup (sph/metrics_reduce).
#define SPH_ONE_GROUP_REDUCE 32768u

// Kernel sets (specialization constant KERNEL).
#define SPH_KERNEL_CUBIC 0   // cubic spline for density, pressure and viscosity (digest-001)
#define SPH_KERNEL_MUELLER 1 // poly6 density, spiky gradient, viscosity Laplacian (digest-003 §2.2)

// Equations of state (SphParams::flags.z).
#define SPH_EOS_LINEAR 0  // p = k (rho/rho0 - 1)             digest-001 (4.1)
#define SPH_EOS_TAIT 1    // p = k ((rho/rho0)^7 - 1)          Becker & Teschner 2007
#define SPH_EOS_DENSITY 2 // p = k (rho - rho0)                digest-003 (3.5a)

// Bindings shared by the SPH passes.
#define SPH_BIND_STATE 0          // uniform buffer: SphState
#define SPH_BIND_POSITIONS 1      // vec4: xyz m, w mass kg (sorted order)
#define SPH_BIND_VELOCITIES 2     // vec4: xyz m/s, w pressure Pa of the last step (sorted order)
#define SPH_BIND_CELL_START 3     // uint per cell + 1: first sorted fluid particle of the cell
#define SPH_BIND_BOUNDARY 4       // vec4: xyz m, w volume * rho0 (Akinci's Psi, kg)
#define SPH_BIND_BOUNDARY_START 5 // uint per cell + 1: first boundary particle of the cell
#define SPH_BIND_FIELDS 6         // vec4: x density kg/m^3, y pressure Pa (PBF: lambda), z diagonal a_ii or D_i, w source s_i
#define SPH_BIND_PREDICTED 7      // vec4: xyz predicted velocity v* m/s
#define SPH_BIND_ACCEL 8          // vec4: xyz pressure acceleration m/s^2 (PCISPH: predicted position m, PBF: correction m)
#define SPH_BIND_OUT0 9           // pass-specific outputs
#define SPH_BIND_OUT1 10
#define SPH_BIND_OUT2 11
#define SPH_BIND_OUT3 12
#define SPH_BIND_IN0 13 // pass-specific inputs
#define SPH_BIND_IN1 14
#define SPH_BIND_IN2 15
#define SPH_BIND_OUT4 16
#define SPH_BIND_WALLS 17  // uniform buffer: WallParams
#define SPH_BIND_PLANES 18 // vec4 per container face: xyz outward normal, w offset (n.x <= w inside)
#define SPH_BIND_OUT5 20
// vec4 per particle: the position (m) the step's grid was built with, which chooses the cells a
// particle's neighbours are searched in. PBF moves particles after the build: searching from the
// build position keeps every pair seen from both sides (momentum is conserved).
#define SPH_BIND_ANCHORS 21
// vec4 per particle, written by sph/density: xyz G_b = sum_b Psi_b grad W_ib (kg/m^4), w the number
// of boundary samples within the support. Static samples make every boundary term of the pressure
// solves a multiple of G_b (a_i's wall term, the density change of a_i, v_i's divergence), so the
// solves never walk the boundary again within a step.
#define SPH_BIND_BOUNDARY_TERMS 22
// The fluid neighbours of each particle within the support (itself excluded), found once per
// step by sph/density from the grid and walked by every later pass of the step: an entry
// uvec4(floatBitsToUint(m_j grad W_ij), j) per slot, slot k of particle i at k * count + i
// (consecutive particles read consecutive entries), at most sphNeighbourCapacity(dims) per
// particle; and the number found (the capacity + 1 when more were).
#define SPH_BIND_NEIGHBOURS 23
#define SPH_BIND_NEIGHBOUR_COUNTS 24
// Moving boundary samples of solids coupled to the fluid (Akinci et al. 2012, two-way; see
// coupling/FluidSolidCoupling): sorted by the fluid grid's bins each step, as the static samples.
#define SPH_BIND_SOLIDS 25           // vec4 per sorted solid sample: xyz m, w Psi_b kg
#define SPH_BIND_SOLID_START 26      // uint per bin + 1: first sorted solid sample of the bin
#define SPH_BIND_SOLID_VELOCITIES 27 // vec4 per sorted solid sample: xyz m/s
// vec4 per sorted solid sample: the surface plane above it: xyz outward unit normal, w its
// distance (m; negative for a deformable body's sample, sph/solid_guard)
#define SPH_BIND_SOLID_NORMALS 30
// float per particle, written by sph/density: S_i = sum_b Psi_b v_b . grad W_ib (kg/m^3/s) over
// the solid samples, the density change their motion causes (static samples have v_b = 0).
#define SPH_BIND_BOUNDARY_RATES 28
// float per particle: c_i (m^5/(kg s)), the sum over the step's pressure
// applications of dt p_i (1/rho_i^2 + 1/rho0^2): the particle's velocity change from every
// boundary sample is -c_i G_b, so a solid sample takes the impulse m_i c_i Psi_b grad W_ib.
#define SPH_BIND_WALL_COEFFICIENTS 29
// int per solid sample and axis (4 per sample, fixed point, common/fixed_point.glsl): the impulse
// (N s) sph/solid_guard gave the fluid at that sample, taken back from the solid by the next
// step's sph/solid_impulses, which clears it.
#define SPH_BIND_SOLID_GUARD_IMPULSES 31
// The neighbour list again, for sph/density where it is larger than a storage buffer's binding may
// be (maxStorageBufferRange; 128 MiB on lavapipe, 131k particles in 3D): written through a
// storage texel view (maxTexelBufferElements) instead (its LIST_TEXELS constant).
#define SPH_BIND_NEIGHBOUR_TEXELS 32
// float per particle: p_i / rho_i^2 (m^5/(kg s^2)) of the current pressures of a Jacobi solve
// (IISPH, DFSPH), written where they change (the solves' setups, sph/jacobi_update) and read per
// pair by sph/jacobi_accel: one float fetch per neighbour where the density and pressure were a
// vec4 fetch and a division (on lavapipe the pass took about a fifth less time).
#define SPH_BIND_PRESSURE_TERMS 33
// 3 vec4 per particle, written by sph/density where the walls are viscous: their viscosity
// sum_b Psi_b ((v_i - v_b) . x_ib) / (|x_ib|^2 + 0.01 h^2) grad W_ib = M_i v_i - d_i over the
// static samples (v_b = 0) and the moving solids' (sph/viscosity.glsl storedWallViscosity), M_i
// symmetric (x: its diagonal, w: Mueller's sum_b Psi_b lap W_ib; y: xy, xz, yz; z: d_i), read by
// sph/nonpressure and EOS's sph/integrate instead of walking the samples again.
#define SPH_BIND_WALL_VISCOSITY 34
// 2 vec4 per particle, written by sph/density for the equation of state (viscous, cubic kernel,
// no XSPH) and read per pair by its sph/integrate: (x_j, rho_j) and (v_j, p_j / rho_j^2), the
// neighbour's data of a pair in two texel fetches where positions, velocities and fields took
// three (on lavapipe every fetch is a call that spills the loop's vectors, docs/fluids.md).
#define SPH_BIND_PAIR_DATA 35
#define SPH_BIND_SOLVER_STATE 19 // vec4 per particle, kept from step to step: x DFSPH kappa dt^2, y DFSPH kappa_v dt
// Predicates of the recorded solver iterations' conditional regions per solve (pressure, DFSPH
// divergence): one uint per iteration, the most iterations any solver setting allows.
#define SPH_ITERATION_FLAGS 10001u

// Error measures of the Jacobi solvers (specialization constant ERROR_MODE of sph/jacobi_update).
#define SPH_ERROR_PRESSURED 0        // Floe: predicted compression max(-r, 0)/rho0 averaged over the particles with p > 0
#define SPH_ERROR_SIGNED 1           // digest-001 §2.7 step 4d: -r/rho0 averaged over all particles
#define SPH_ERROR_ALL 2              // SPlisHSPlasH's DFSPH: max(-r, 0)/rho0 summed over all particles / all particles
#define SPH_ERROR_SIGNED_PRESSURED 3 // SPlisHSPlasH's IISPH: -r/rho0 summed over the particles with p > 0 / all particles

// PCISPH stops iterating once its error has not improved for this many iterations.
#define SPH_STALL_ITERATIONS 5u

// What sph/jacobi_update iterates (specialization constant SYSTEM).
#define SPH_SYSTEM_IISPH 0      // fields.z holds a_ii with dt^2; (Ap) scaled by dt^2
#define SPH_SYSTEM_DENSITY 1    // DFSPH constant density: fields.z holds D_i (a_ii / dt^2)
#define SPH_SYSTEM_DIVERGENCE 2 // DFSPH divergence-free: a_ii = D_i dt, (Ap) scaled by dt, errors per time step

// How a Jacobi iteration changes the pressure (sph/jacobi_update, constant_id 4).
#define SPH_UPDATE_RELAXED 0    // p <- max(p + omega r / a_ii, 0): IISPH, and DFSPH's "relaxed"
#define SPH_UPDATE_INCREMENTS 1 // p <- p + max(r / a_ii, 0): DFSPH's kappa increments (Bender & Koschier 2017)

// Integrate modes (specialization constant MODE of sph/integrate).
#define SPH_INTEGRATE_NONE 0     // v = v*
#define SPH_INTEGRATE_PRESSURE 1 // v = v* + dt a_p (pressure in fields.y)
#define SPH_INTEGRATE_PBF 2      // positions already solved; moved from x - dt v_pbf, v = v* (viscosity)
#define SPH_INTEGRATE_EOS 3      // v = v + dt (g + a_visc + a_p) in one walk: nothing waits for v* (sph/nonpressure is skipped)

// Container reflections per particle and step before the fallback (digest-003 §2.9.6 has none).
#define SPH_MAX_REFLECTIONS 8

FLOE_SHARED_BEGIN

SHARED_CONST(float, SPH_PI, 3.14159265358979f);

// ---- Cubic spline (Monaghan 1992), digest-001 (3.11), (5.1), (5.2) -----------------------------
// W(q) = sigma_d [(2-q)^3 - 4(1-q)^3] for q <= 1, sigma_d (2-q)^3 for 1 <= q <= 2, with q = r/h.
SHARED_FN float cubicSigma(uint dims, float h)
{
    return dims == 2u ? 5.0f / (14.0f * SPH_PI * h * h) : 1.0f / (4.0f * SPH_PI * h * h * h);
}

SHARED_FN float cubicW(float r, float h, float sigma)
{
    const float q = r / h;
    const float t1 = max(1.0f - q, 0.0f);
    const float t2 = max(2.0f - q, 0.0f);
    return sigma * (t2 * t2 * t2 - 4.0f * t1 * t1 * t1);
}

// dW/dr; the gradient is dW/dr * x/|x|. Zero at r = 0 (self pair) and for r >= 2h.
SHARED_FN float cubicDW(float r, float h, float sigma)
{
    const float q = r / h;
    const float t1 = max(1.0f - q, 0.0f);
    const float t2 = max(2.0f - q, 0.0f);
    return sigma / h * (-3.0f * t2 * t2 + 12.0f * t1 * t1);
}

// ---- Müller et al. 2003 (digest-003 (3.3a)-(3.3c)), support H --------------------------------
// 3D constants as in the thesis; the 2D ones normalise the same shapes over the plane.
SHARED_FN float poly6W(float r, float H, uint dims)
{
    if (r >= H) return 0.0f;
    const float d = H * H - r * r;
    const float c = dims == 2u ? 4.0f / (SPH_PI * pow(H, 8.0f)) : 315.0f / (64.0f * SPH_PI * pow(H, 9.0f));
    return c * d * d * d;
}

// The spiky kernel itself (normalised like poly6); Floe uses only its gradient.
SHARED_FN float spikyW(float r, float H, uint dims)
{
    if (r >= H) return 0.0f;
    const float c = dims == 2u ? 10.0f / (SPH_PI * pow(H, 5.0f)) : 15.0f / (SPH_PI * pow(H, 6.0f));
    return c * (H - r) * (H - r) * (H - r);
}

// dW_spiky/dr (negative); the gradient is this times x/|x|.
SHARED_FN float spikyDW(float r, float H, uint dims)
{
    if (r >= H) return 0.0f;
    const float c = dims == 2u ? -30.0f / (SPH_PI * pow(H, 5.0f)) : -45.0f / (SPH_PI * pow(H, 6.0f));
    return c * (H - r) * (H - r);
}

SHARED_FN float viscosityLaplacian(float r, float H, uint dims)
{
    if (r >= H) return 0.0f;
    const float c = dims == 2u ? 40.0f / (SPH_PI * pow(H, 5.0f)) : 45.0f / (SPH_PI * pow(H, 6.0f));
    return c * (H - r);
}

// ---- The kernel set in use ----------------------------------------------------------------
// Density kernel W and the radial derivative of the gradient kernel, for kernel set `kind`
// (SPH_KERNEL_*), spacing h, support 2h.
SHARED_FN float kernelW(uint kind, float r, float h, uint dims)
{
    return kind == SPH_KERNEL_MUELLER ? poly6W(r, 2.0f * h, dims) : cubicW(r, h, cubicSigma(dims, h));
}

SHARED_FN float kernelDW(uint kind, float r, float h, uint dims)
{
    return kind == SPH_KERNEL_MUELLER ? spikyDW(r, 2.0f * h, dims) : cubicDW(r, h, cubicSigma(dims, h));
}

// ---- Equations of state ---------------------------------------------------------------------
SHARED_FN float eosPressure(uint kind, float rho, float rho0, float k, float gamma, bool clampNegative)
{
    float p;
    if (kind == SPH_EOS_TAIT) {
        p = k * (pow(rho / rho0, gamma) - 1.0f);
    } else if (kind == SPH_EOS_DENSITY) {
        p = k * (rho - rho0);
    } else {
        p = k * (rho / rho0 - 1.0f);
    }
    return clampNegative ? max(p, 0.0f) : p;
}

// Speed of sound c = sqrt(dp/drho) at rest density, for the acoustic CFL condition of a weakly
// compressible fluid (Monaghan 1992: dt <= lambda h / (c + |v|max)). digest-001 (3.31) bounds dt
// by the flow speed alone, which is not enough for an equation of state: with k = 1e6 Pa, c is
// 32 m/s, far above the flow, and a step sized by the flow alone blows the fluid apart.
SHARED_FN float eosSoundSpeed(uint kind, float rho0, float k, float gamma)
{
    if (kind == SPH_EOS_TAIT) return sqrt(k * gamma / rho0);
    if (kind == SPH_EOS_DENSITY) return sqrt(k);
    return sqrt(k / rho0);
}

// Explicit viscosity's step bound dt <= SPH_VISCOUS_STEP h^2 / nu. Morris et al. 1997 give 0.125,
// and the fluid alone allows 0.137 with Floe's viscosity (the most negative eigenvalue of its
// operator on a lattice); the walls' samples sit closer than mirrored fluid would and stiffen it:
// SPlisHSPlasH's viscous buckling scene (nu 5 m^2/s) blew up at its impact at 0.1 and ran at 0.08.
SHARED_CONST(float, SPH_VISCOUS_STEP, 0.0625f);

// The CFL time step (digest-001 (3.31), dt <= lambda h / |v|max with lambda = 0.4 * cflFactor as
// SPlisHSPlasH; `sound` is the equation of state's speed of sound, else 0) within [minDt, maxDt],
// and the explicit viscosity's bound for the larger of the fluid's and the walls' kinematic
// viscosity nu. One formula for sph/step_begin (a fluid's own steps, on the GPU) and for the host
// (a fluid stepped with solids, whose one step the host chooses: app/RunWorld).
SHARED_FN float sphCflTimeStep(float maxSpeed, float sound, float factor, float h, float minDt, float maxDt, float nu)
{
    float dt = maxDt;
    const float signal = maxSpeed + sound;
    if (factor > 0.0f && signal > 0.0f) dt = clamp(factor * 0.4f * h / signal, minDt, maxDt);
    // Explicit viscosity is stable for dt <= SPH_VISCOUS_STEP h^2 / nu; large kinematic
    // viscosities (SPlisHSPlasH's implicit solvers' scenes, run with Floe's explicit one) need it.
    if (factor > 0.0f && nu > 0.0f) dt = max(min(dt, SPH_VISCOUS_STEP * h * h / nu), minDt);
    return dt;
}

// Fluid neighbour slots per particle: twice the neighbours of a particle at rest density (about
// 32 in 3D and 12 in 2D, support 2h at spacing h), so that a list only fills up where the fluid is
// compressed by about 100 % (an equation of state can be: SPlisHSPlasH's supersonic collision
// reaches 140 %). Such a particle walks the grid instead (FLUID_NEIGHBOURS_BEGIN); the overflows
// are counted (SphState::counters.x) and reported in metrics.csv, never dropped.
// The density pass finds neighbours through a 64-bit mask per strip of three cells (about 24
// candidates at rest in 3D); a strip with more candidates also sends its particle to the grid walk.
#define SPH_STRIP_SLOTS 64u

SHARED_FN uint sphNeighbourCapacity(uint dims)
{
    return dims == 2u ? 32u : 64u;
}

// ---- DFSPH (Bender & Koschier 2017) ---------------------------------------------------------
// Warm-start limits. SPlisHSPlasH 2.16 clamps the stored kappa dt^2 at 0.00025 m^2 and kappa_v dt
// at 0.5 m^2/s (kappa in its rho0-normalised units, TimeStepDFSPH.cpp), fixed numbers that only
// fit its default particle radius 0.025 m (h = 0.05 m). Floe scales them with h^2 so that a scene
// and its resampled copy start alike: 0.1 h^2 and 200 h^2 per second, divided by rho0 for Floe's
// kappa = p / rho^2.
SHARED_FN float dfsphWarmStartLimit(float h, float rho0)
{
    return 0.1f * h * h / rho0;
}
SHARED_FN float dfsphDivergenceWarmStartLimit(float h, float rho0)
{
    return 200.0f * h * h / rho0;
}
// SPlisHSPlasH skips the divergence solve of a particle with fewer neighbours than this (particle
// deficiency at the free surface): 20 in 3D, 7 in 2D, fluid and boundary neighbours counted.
SHARED_FN uint dfsphMinNeighbours(uint dims)
{
    return dims == 2u ? 7u : 20u;
}

// ---- Per-step parameters --------------------------------------------------------------------
struct SphParams {
    vec4 gravity;    // xyz m/s^2, w rest density rho0 kg/m^3
    vec4 gridOrigin; // xyz m (minimum corner of cell 0), w cell size = support 2h (m)
    uvec4 gridDims;  // x bins along x (GRID_X_BINS per cell), yz cells per axis, w fluid particle count
    vec4 material;   // x spacing h (m), y viscosity nu (m^2/s), z EOS stiffness k, w XSPH epsilon
    uvec4 flags;     // x dimensions (2/3), y boundary particle count, z EOS kind, w clamp negative pressure
    vec4 iisph;      // x omega, y tolerance (relative), z min iterations, w max iterations
    vec4 domainMin;  // xyz m, w boundary viscosity nu_b (m^2/s)
    vec4 domainMax;  // xyz m, w Tait exponent gamma
};
SHARED_SIZE(SphParams, 128);

// Written on the GPU each step (time step control) and read by every pass as a uniform.
struct SphState {
    vec4 time;      // x dt (s) of the current step, y simulated time (s), z max speed of the last step (m/s), w steps
    vec4 control;   // x fixed dt or max dt (s), y CFL factor (0: fixed dt), z min dt (s), w stop time (s, 0: none)
    uvec4 solver;   // x iterations of the pressure solve of this step, y converged (0/1; PCISPH while iterating:
                    // iterations since the best error), z groups of a particle pass,
                    // w iterations of DFSPH's divergence-free solve
    vec4 error;     // x error of the last pressure-solve iteration, y of the last divergence-solve iteration, z the
                    // best pressure-solve error so far (PCISPH),
                    // w Kahan compensation of time
    uvec4 counters; // x particles whose fluid neighbours overflowed their list this step, y fluid particles moved out
                    // of a coupled solid since the start (sph/solid_guard), zw unused
};
SHARED_SIZE(SphState, 80);

// Walls of the integrate pass: the ray-cast container (digest-003 §2.9), a convex mesh's face
// planes moving along an axis, and the domain box.
struct WallParams {
    vec4 shake;  // xyz unit axis, w amplitude (m); container offset(t) = axis * amplitude * sin(2 pi f t)
    vec4 motion; // x frequency f (Hz), y restitution of the normal velocity at the container, z plane count, w unused
    vec4 domain; // x restitution at the domain walls, y friction there, z domain walls on (0/1), w escape margin (m)
};
SHARED_SIZE(WallParams, 48);

FLOE_SHARED_END
#endif
