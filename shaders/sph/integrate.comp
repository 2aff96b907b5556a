#version 460
// End of a step (digest-001 Alg. 9 lines 6-8): the pressure acceleration from the final
// pressures, v = v* + dt a_p (3.36), x = x + dt v (3.37); then the walls: the ray-cast
// container (digest-003 §2.9) and the domain box as a safety net whose contacts are counted.
// PBF has solved its positions already: its move x - dt v_pbf -> x goes through the same walls,
// and v is its velocity after viscosity. Writes the particle state back in sorted order (with
// DFSPH's warm start kappa dt^2 = p / rho^2 dt^2), and the per-particle metrics of the step.
#include "sph/sph_common.glsl"

layout(local_size_x = SPH_GROUP_SIZE) in;
layout(constant_id = 2) const uint MODE = SPH_INTEGRATE_PRESSURE;
layout(std140, binding = SPH_BIND_STATE) uniform State { SphState state; };
layout(std140, binding = SPH_BIND_WALLS) uniform Walls { WallParams walls; };
FLOE_IN_VEC4(SPH_BIND_POSITIONS, positions);
FLOE_IN_VEC4(SPH_BIND_VELOCITIES, velocities); // PBF: its velocity before viscosity
FLOE_IN_VEC4(SPH_BIND_SOLVER_STATE, solverState);
FLOE_IN_UVEC4(SPH_BIND_NEIGHBOURS, neighbours);
FLOE_IN_UINT(SPH_BIND_NEIGHBOUR_COUNTS, neighbourCounts);
FLOE_IN_UINT(SPH_BIND_CELL_START, cellStart); // walked when a list overflowed
FLOE_IN_VEC4(SPH_BIND_BOUNDARY_TERMS, boundaryTerms);
FLOE_IN_VEC4(SPH_BIND_FIELDS, fields);
FLOE_IN_VEC4(SPH_BIND_PREDICTED, predicted);
FLOE_IN_UINT(SPH_BIND_IN0, sortedIds);
FLOE_IN_VEC4(SPH_BIND_PLANES, planes);
FLOE_OUT_VEC4(SPH_BIND_OUT0, positionsOut);
FLOE_OUT_VEC4(SPH_BIND_OUT1, velocitiesOut);
FLOE_OUT_UINT(SPH_BIND_OUT2, idsOut);
FLOE_OUT_VEC4(SPH_BIND_OUT3, metricsA);
FLOE_OUT_VEC4(SPH_BIND_OUT4, metricsB);
FLOE_OUT_VEC4(SPH_BIND_OUT5, solverStateOut);
FLOE_IN_VEC4(SPH_BIND_BOUNDARY, boundary);            // EOS: viscous walls
FLOE_IN_UINT(SPH_BIND_BOUNDARY_START, boundaryStart); // EOS: viscous walls
// With SOLIDS: c_i of the step (shared/sph.h); 1: DFSPH's divergence-free solve stored its part.
layout(constant_id = 13) const uint ADD_WALL_COEFFICIENT = 0u;
FLOE_RW_FLOAT(SPH_BIND_WALL_COEFFICIENTS, wallCoefficients);
FLOE_IN_VEC4(SPH_BIND_SOLIDS, solids);
FLOE_IN_UINT(SPH_BIND_SOLID_START, solidStart);
FLOE_IN_VEC4(SPH_BIND_SOLID_VELOCITIES, solidVelocities);
// 1 (IISPH, DFSPH): the neighbours' p / rho^2 from the array their solve keeps (sph/pressure_accel.glsl);
// 0: from their fields (PCISPH keeps no such array).
layout(constant_id = 15) const uint PRESSURE_TERMS_ARRAY = 0u;
FLOE_IN_FLOAT(SPH_BIND_PRESSURE_TERMS, pressureTerms);
#define PRESSURE_ACCEL_TERM(j) (PRESSURE_TERMS_ARRAY != 0u ? FLOE_LOAD_FLOAT(pressureTerms, j) : pressureTerm(FLOE_LOAD_VEC4(fields, j)))
#include "sph/pressure_accel.glsl"
FLOE_IN_VEC4(SPH_BIND_WALL_VISCOSITY, wallViscosityTerms); // WALL_VISCOSITY_TERMS: sph/density's
#include "sph/viscosity.glsl"
// 1 (the equation of state, viscous, the cubic set without XSPH): a pair's neighbour as sph/density
// stored it, (x_j, rho_j) and (v_j, p_j / rho_j^2), two fetches instead of three (SPH_BIND_PAIR_DATA).
layout(constant_id = 16) const uint PAIR_DATA = 0u;
FLOE_IN_VEC4(SPH_BIND_PAIR_DATA, pairData);

// EOS's whole velocity update, v = v + dt (g + a_visc) (+ XSPH) + dt a_p: the work of
// sph/nonpressure and of the pressure acceleration in one walk over the list (an equation of state
// has no solve between them), each pair's m_j grad W_ij serving both sums.
vec3 eosVelocity(uint i, vec3 xi, float rhoi, float pi)
{
    const vec3 vi = FLOE_LOAD_VEC4(velocities, i).xyz;
    const float nu = params.material.y;
    const float nuBoundary = params.domainMin.w;
    const bool viscous = nu > 0.0 || XSPH != 0u;
    const float regulariser = 0.01 * sphH() * sphH();
    const float pi_rho2 = pi / (rhoi * rhoi);
    vec3 viscosity = vec3(0.0), smoothing = vec3(0.0), pressure = vec3(0.0);
#define FLUID_PAIR(j, gradient)                                                           \
    if (PAIR_DATA != 0u) {                                                                \
        const vec4 xj = FLOE_LOAD_VEC4(pairData, 2u * (j));                               \
        const vec4 vj = FLOE_LOAD_VEC4(pairData, 2u * (j) + 1u);                          \
        pressure -= (pi_rho2 + vj.w) * (gradient);                                        \
        VISCOSITY_PAIR_V(xj, vj.xyz, xj.w, gradient, viscosity, smoothing)                \
    } else {                                                                              \
        const vec4 fj = FLOE_LOAD_VEC4(fields, j);                                        \
        pressure -= (pi_rho2 + fj.y / (fj.x * fj.x)) * (gradient);                        \
        if (viscous) {                                                                    \
            const vec4 pj = FLOE_LOAD_VEC4(positions, j);                                 \
            VISCOSITY_PAIR(j, pj, fj.x, gradient, viscosity, smoothing)                   \
        }                                                                                 \
    }
    FLUID_PAIRS(i, xi)
#undef FLUID_PAIR
    const vec3 wall = wallViscosity(i, xi, vi, rhoi, regulariser, nuBoundary);
    const float dt = state.time.x;
    vec3 v = vi + dt * (params.gravity.xyz + viscosityPrefactor() * (nu * viscosity + nuBoundary * wall)) + params.material.w * smoothing;
    if (DIMS == 2u) v.z = 0.0;
    return v + dt * (pressure + wallPressureAcceleration(i, rhoi, pi));
}

// Smallest lambda in (0, 1] at which x + lambda d leaves the container through a face, and
// that face; lambda = 2 when the move stays inside (digest-003 (3.8a), nearest plane wins).
float firstExit(vec3 x, vec3 d, out vec3 normal)
{
    float best = 2.0;
    normal = vec3(0.0);
    const uint count = uint(walls.motion.z);
    for (uint k = 0u; k < count; ++k) {
        const vec4 plane = FLOE_LOAD_VEC4(planes, k);
        const float along = dot(plane.xyz, d);
        if (along <= 0.0) continue; // parallel, or moving inwards
        const float lambda = (plane.w - dot(plane.xyz, x)) / along;
        if (lambda >= 0.0 && lambda <= 1.0 && lambda < best) {
            best = lambda;
            normal = plane.xyz;
        }
    }
    return best;
}

bool insideContainer(vec3 x, float slack)
{
    const uint count = uint(walls.motion.z);
    for (uint k = 0u; k < count; ++k) {
        const vec4 plane = FLOE_LOAD_VEC4(planes, k);
        if (dot(plane.xyz, x) > plane.w + slack) return false;
    }
    return true;
}

vec3 containerOffset(float t)
{
    return walls.shake.xyz * (walls.shake.w * sin(2.0 * SPH_PI * walls.motion.x * t));
}

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= sphFluidCount()) return;
    const vec4 p4 = FLOE_LOAD_VEC4(positions, i);
    const vec4 fi = FLOE_LOAD_VEC4(fields, i);
    const float dt = state.time.x;
    vec3 v;
    if (MODE == SPH_INTEGRATE_EOS) {
        v = eosVelocity(i, p4.xyz, fi.x, fi.y);
    } else {
        v = FLOE_LOAD_VEC4(predicted, i).xyz;
        if (MODE == SPH_INTEGRATE_PRESSURE) v += dt * pressureAcceleration(i, p4.xyz, fi.x, fi.y);
    }
    if (DIMS == 2u) v.z = 0.0;
    if (SOLIDS != 0u) {
        const bool pressured = MODE == SPH_INTEGRATE_PRESSURE || MODE == SPH_INTEGRATE_EOS;
        const float before = ADD_WALL_COEFFICIENT != 0u ? FLOE_RW_LOAD_FLOAT(wallCoefficients, i) : 0.0;
        FLOE_RW_STORE_FLOAT(wallCoefficients, i, before + (pressured ? dt * wallPressureCoefficient(fi.x, fi.y) : 0.0));
    }
    vec3 x = p4.xyz;
    vec3 move = dt * v;
    if (MODE == SPH_INTEGRATE_PBF) {
        move = dt * FLOE_LOAD_VEC4(velocities, i).xyz;
        x -= move;
    }
    float fallbacks = 0.0;

    // Ray-cast container, in its own (moving) frame: the move relative to the walls is cast
    // against the face planes and mirrored at the nearest hit until it stays inside (digest-003
    // §2.9.4, remaining length (1 - lambda)); the velocity relative to the walls is reflected
    // alike, its normal part scaled by the restitution (1: the thesis's ideal mirror).
    if (walls.motion.z > 0.0) {
        const vec3 before = containerOffset(state.time.y - dt);
        const vec3 after = containerOffset(state.time.y);
        const vec3 wallVelocity = dt > 0.0 ? (after - before) / dt : vec3(0.0);
        vec3 s = x - before;   // start, container frame
        vec3 d = move - (after - before);
        vec3 vRel = v - wallVelocity;
        const float restitution = walls.motion.y;
        const vec3 start = s;
        bool settled = false;
        for (uint bounce = 0u; bounce < SPH_MAX_REFLECTIONS; ++bounce) {
            vec3 n;
            const float lambda = firstExit(s, d, n);
            if (lambda > 1.0) {
                s += d;
                settled = true;
                break;
            }
            s += lambda * d;
            d = (1.0 - lambda) * (d - 2.0 * dot(d, n) * n);
            if (dot(vRel, n) > 0.0) vRel -= (1.0 + restitution) * dot(vRel, n) * n;
        }
        // Fallback (digest-003 §2.9.6 case 4): out of reflections, or outside through round-off:
        // stay at the last position known inside, at rest relative to the walls.
        if (!settled || !insideContainer(s, 1e-6 * sphSupport())) {
            s = insideContainer(s, 1e-6 * sphSupport()) ? s : start;
            vRel = vec3(0.0);
            fallbacks += 1.0;
        }
        x = s + after;
        v = vRel + wallVelocity;
    } else {
        x += move;
    }

    // Domain box: a safety net (digest-001 §4), counted as a clamp event when it acts.
    const float radius = 0.5 * sphH(); // the particle radius r = h/2
    if (walls.domain.z != 0.0) {
        const vec3 lo = params.domainMin.xyz + radius;
        const vec3 hi = params.domainMax.xyz - radius;
        for (uint axis = 0u; axis < DIMS; ++axis) {
            const bool below = x[axis] < lo[axis];
            const bool above = x[axis] > hi[axis];
            if (below || above) {
                x[axis] = below ? lo[axis] : hi[axis];
                if (v[axis] * (below ? 1.0 : -1.0) < 0.0) {
                    v[axis] = -walls.domain.x * v[axis];
                    for (uint t = 0u; t < DIMS; ++t)
                        if (t != axis) v[t] *= 1.0 - walls.domain.y;
                }
                fallbacks += 1.0;
            }
        }
    }
    if (DIMS == 2u) x.z = 0.0;

    FLOE_STORE_VEC4(positionsOut, i, vec4(x, p4.w));
    const float pressure = MODE == SPH_INTEGRATE_PRESSURE || MODE == SPH_INTEGRATE_EOS ? fi.y : 0.0;
    FLOE_STORE_VEC4(velocitiesOut, i, vec4(v, pressure));
    const vec4 kept = FLOE_LOAD_VEC4(solverState, i);
    FLOE_STORE_VEC4(solverStateOut, i, vec4(pressure / (fi.x * fi.x) * dt * dt, kept.yzw));
    FLOE_STORE_UINT(idsOut, i, FLOE_LOAD_UINT(sortedIds, i));

    const bool finite = !any(isnan(x)) && !any(isinf(x)) && !any(isnan(v)) && !any(isinf(v));
    const vec3 margin = vec3(walls.domain.w);
    const bool inside = finite && all(greaterThanEqual(x, params.domainMin.xyz - margin)) && all(lessThanEqual(x, params.domainMax.xyz + margin));
    const float compression = max(fi.x / sphRho0() - 1.0, 0.0);
    FLOE_STORE_VEC4(metricsA, i, vec4(finite ? 0.5 * p4.w * dot(v, v) : 0.0, compression, compression, inside ? 0.0 : 1.0));
    FLOE_STORE_VEC4(metricsB, i, vec4(finite ? length(v) : 0.0, finite ? 0.0 : 1.0, fallbacks, fi.x));
}
