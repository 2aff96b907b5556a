// Viscosity and XSPH of one fluid pair, shared by sph/nonpressure and EOS's fused sph/integrate.
// Cubic set: Koschier et al. 2020, digest-001 (3.28) with the squared distance (erratum 3) and its
// prefactor 2(d+2) (applied by the caller), so that nu is the kinematic viscosity in m^2/s. Müller
// set: the viscosity Laplacian of digest-003 (4.6a) in kinematic form. m_j/rho_j of (3.28) is taken
// with rho_j -> (rho_i + rho_j)/2, so that pair forces cancel and linear momentum is conserved
// exactly (Monaghan's XSPH uses the same mean).
//
// VISCOSITY_PAIR(j, pj, rhoj, gradient, viscosity, smoothing): pj the neighbour's position and mass,
// rhoj its density, gradient = m_j grad W_ij (the neighbour list's entry where the particles have not
// moved since, which saves the kernel's gradient per pair); needs xi, vi, rhoi, regulariser in scope
// and the velocities bound. XSPH (a specialization constant) adds the smoothing sum only when on.
// VISCOSITY_PAIR_V(pj, vj, rhoj, ...): the same with the neighbour's velocity given (pj's w, its
// mass, is read only by Mueller's set and XSPH).
#ifndef FLOE_SPH_VISCOSITY_GLSL
#define FLOE_SPH_VISCOSITY_GLSL

layout(constant_id = 9) const uint XSPH = 0u; // 1: the XSPH factor is above 0

#define VISCOSITY_PAIR(j, pj, rhoj, gradient, viscosity, smoothing) \
    VISCOSITY_PAIR_V(pj, FLOE_LOAD_VEC4(velocities, j).xyz, rhoj, gradient, viscosity, smoothing)
#define VISCOSITY_PAIR_V(pj, vj, rhoj, gradient, viscosity, smoothing)                    \
    {                                                                                     \
        const vec3 xij_ = xi - (pj).xyz;                                                  \
        const vec3 vij_ = vi - (vj);                                                      \
        const float twoOverRho_ = 2.0 / (rhoi + (rhoj));                                  \
        if (KERNEL == SPH_KERNEL_MUELLER)                                                 \
            viscosity -= (twoOverRho_ * (pj).w) * vij_ * viscosityLaplacian(length(xij_), 2.0 * sphH(), DIMS); \
        else                                                                              \
            viscosity += (twoOverRho_ * dot(vij_, xij_) / (dot(xij_, xij_) + regulariser)) * (gradient); \
        if (XSPH != 0u) smoothing -= (twoOverRho_ * (pj).w * sphW(length(xij_))) * vij_; \
    }

// One solid sample's term of the wall viscosity: as a static sample's, with the velocity relative
// to the sample's (Akinci et al. 2012 eq. (11)-(12) in the form of digest-001 (3.28)). The fluid
// particle's acceleration is viscosityPrefactor() nu_b times the sum of these; sph/solid_impulses
// gives the sample the opposite of m_i dt times its term.
vec3 solidViscosityTerm(vec3 xib, vec3 vib, float psi, float rhoi, float regulariser)
{
    const float r = length(xib);
    if (!(r < sphSupport())) return vec3(0.0);
    const float volume = psi / rhoi;
    if (KERNEL == SPH_KERNEL_MUELLER) return -volume * vib * viscosityLaplacian(r, 2.0 * sphH(), DIMS);
    return volume * dot(vib, xib) / (r * r + regulariser) * sphGradW(xib, r);
}

#ifndef SPH_VISCOSITY_WITHOUT_WALLS
// Static boundary samples (velocity 0) with Psi_b and the particle's own density, as digest-001
// Alg. 8; one more walk over the boundary's cells (PBF, whose particles moved since sph/density).
vec3 boundaryViscosity(vec3 xi, vec3 vi, float rhoi, float regulariser)
{
    vec3 sum = vec3(0.0);
    BOUNDARY_NEAR_BEGIN(xi, begin, end)
    for (uint b = begin; b < end; ++b) {
        const vec4 xb = FLOE_LOAD_VEC4(boundary, b);
        const vec3 xib = xi - xb.xyz;
        const float r = length(xib);
        if (!(r < sphSupport())) continue; // also skips NaN distances
        const float volume = xb.w / rhoi;
        if (KERNEL == SPH_KERNEL_MUELLER)
            sum -= volume * vi * viscosityLaplacian(r, 2.0 * sphH(), DIMS);
        else
            sum += volume * dot(vi, xib) / (r * r + regulariser) * sphGradW(xib, r);
    }
    BOUNDARY_NEAR_END
    return sum;
}

// The walls' whole viscosity term, static samples' and moving solids' (solidViscosityTerm), as the
// sum of sph/density's walk: linear in v_i, M_i v_i - d_i with M_i symmetric (grad W_ib is parallel
// to x_ib) and d_i the solids' part of v_b (SPH_BIND_WALL_VISCOSITY), over rho_i.
vec3 storedWallViscosity(uint i, vec3 vi, float rhoi)
{
    const vec4 m0 = FLOE_LOAD_VEC4(wallViscosityTerms, 3u * i);
    const vec4 m1 = FLOE_LOAD_VEC4(wallViscosityTerms, 3u * i + 1u);
    const vec3 drag = FLOE_LOAD_VEC4(wallViscosityTerms, 3u * i + 2u).xyz;
    if (KERNEL == SPH_KERNEL_MUELLER) return (-m0.w * vi - drag) / rhoi;
    const vec3 mv = vec3(dot(vec3(m0.x, m1.x, m1.y), vi), dot(vec3(m1.x, m0.y, m1.z), vi), dot(vec3(m1.y, m1.z, m0.z), vi));
    return (mv - drag) / rhoi;
}

// The walls' viscosity term (static samples and moving solids) for the velocity passes: as
// sph/density summed it, or (WALL_VISCOSITY_TERMS 0) a walk over each kind of sample.
vec3 wallViscosity(uint i, vec3 xi, vec3 vi, float rhoi, float regulariser, float nuBoundary)
{
    if (WALL_VISCOSITY_TERMS != 0u) return storedWallViscosity(i, vi, rhoi);
    vec3 wall = sphBoundaryCount() > 0u && nuBoundary > 0.0 ? boundaryViscosity(xi, vi, rhoi, regulariser) : vec3(0.0);
    if (SOLIDS != 0u && nuBoundary > 0.0) {
        SOLID_NEAR_BEGIN(xi, begin, end)
        for (uint b = begin; b < end; ++b) {
            const vec4 xb = FLOE_LOAD_VEC4(solids, b);
            wall += solidViscosityTerm(xi - xb.xyz, vi - FLOE_LOAD_VEC4(solidVelocities, b).xyz, xb.w, rhoi, regulariser);
        }
        SOLID_NEAR_END
    }
    return wall;
}
#endif

// The prefactor of (3.28) for the chosen kernel set.
float viscosityPrefactor()
{
    return KERNEL == SPH_KERNEL_MUELLER ? 1.0 : 2.0 * float(DIMS + 2u);
}

#endif
