// Pressure acceleration (digest-001 (5.21) with the boundary of Alg. 7: mirrored pressure
// p_b = p_i and density rho0, weighted by Akinci's Psi_b instead of the thesis's equal mass):
//   a_i = - sum_j m_j (p_i/rho_i^2 + p_j/rho_j^2) grad W_ij - sum_b Psi_b p_i (1/rho_i^2 + 1/rho0^2) grad W_ib
// The wall term is - Psi-weighted (p_i/rho_i^2 + p_i/rho0^2) G_b with G_b = sum_b Psi_b grad W_ib
// from the density pass (static samples: a fixed vector per particle and step).
// Needs positions, fields (x density, y pressure), the fluid neighbour lists and boundaryTerms bound;
// define PRESSURE_ACCEL_RW_FIELDS where fields is a read-write binding.
#ifndef FLOE_SPH_PRESSURE_ACCEL_GLSL
#define FLOE_SPH_PRESSURE_ACCEL_GLSL
// 1: the boundary term mirrors the pressure (IISPH, DFSPH, EOS); 0: Akinci's one-sided
// p_i/rho_i^2 (PCISPH, whose fixed prototype scaling assumes a fluid neighbourhood).
layout(constant_id = 8) const uint MIRROR_BOUNDARY_PRESSURE = 1u;

#ifdef PRESSURE_ACCEL_RW_FIELDS
#define PRESSURE_ACCEL_FIELD(j) FLOE_RW_LOAD_VEC4(fields, j)
#else
#define PRESSURE_ACCEL_FIELD(j) FLOE_LOAD_VEC4(fields, j)
#endif

// p_j / rho_j^2 of a neighbour: from its fields, or, where the includer defines
// PRESSURE_ACCEL_TERM(j) (sph/jacobi_accel), from the SPH_BIND_PRESSURE_TERMS array the solve keeps.
// Every pass that writes a pressure of IISPH or DFSPH into fields writes pressureTerm of it into
// that array too (sph/density, iisph_setup, dfsph_pressure_setup, jacobi_update), so the array's
// float is the fields' expression to the bit: an R32F texel per pair instead of an RGBA32F one
// (sph/integrate 1.03-1.37 against 1.27-1.46 GPU ms per step, DFSPH in SPlisHSPlasH's dam break).
#ifndef PRESSURE_ACCEL_TERM
#define PRESSURE_ACCEL_TERM(j) pressureTerm(PRESSURE_ACCEL_FIELD(j))
#endif

// The walls' term is -wallPressureCoefficient * G_b: every boundary sample b contributes
// -coefficient Psi_b grad W_ib, so a moving solid sample takes m_i dt coefficient Psi_b grad W_ib back
// (SPH_BIND_WALL_COEFFICIENTS).
float wallPressureCoefficient(float rhoi, float pi)
{
    const float rho0 = sphRho0();
    const float pi_rho2 = pi / (rhoi * rhoi);
    return MIRROR_BOUNDARY_PRESSURE != 0u ? pi_rho2 + pi / (rho0 * rho0) : pi_rho2;
}

// The walls' term alone.
vec3 wallPressureAcceleration(uint i, float rhoi, float pi)
{
    if (sphBoundaryCount() == 0u || pi == 0.0) return vec3(0.0);
    return -wallPressureCoefficient(rhoi, pi) * FLOE_LOAD_VEC4(boundaryTerms, i).xyz;
}

vec3 pressureAcceleration(uint i, vec3 xi, float rhoi, float pi)
{
    const float pi_rho2 = pi / (rhoi * rhoi);
    vec3 a = vec3(0.0);
#define FLUID_PAIR(j, gradient)                           \
    {                                                     \
        a -= (pi_rho2 + PRESSURE_ACCEL_TERM(j)) * (gradient); \
    }
    FLUID_PAIRS(i, xi)
#undef FLUID_PAIR
    return a + wallPressureAcceleration(i, rhoi, pi);
}

#endif
