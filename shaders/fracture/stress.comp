#version 460
// Stress per tetrahedron (digest-004 §2.4-§2.7, §10.2), one thread per tet:
//   F = sum_i x_i b_i^T, dF = sum_i v_i b_i^T (relative to node 0, exact as sum b_i = 0; this
//   keeps translations and uniform velocities out of the float rounding)
//   strain (6) eps = F^T F - I (Green's strain without the 1/2, as the thesis and O'Brien write it)
//   strain rate (8) nu = F^T dF + dF^T F (the printed "x" in (8) is p)
//   stress (9) sigma = lambda tr(eps) I + 2 mu eps + phi tr(nu) I + 2 psi nu
//   split (12)/(13) sigma+- from the eigen-decomposition; forces (10)/(11)/(14)/(15)
//   f_i = -(vol/2) F sigma b_i (with the doubled strain this is the StVK force -vol F S b_i).
// Ductile tets (TET_INFO.w = yield > 0, in units of tau; docs/fracture.md "Ductile materials"). The
// thesis names iron ductile (§2.3) but models it elastic-brittle and leaves plasticity to future
// work (§7); with (9) alone an iron edge landing loads its nodes beyond tau. Floe follows
// Hencky's deformation theory of perfect plasticity with a strain-based failure (Johnson and
// Cook's damage, with a constant failure strain):
//   sigma's deviatoric part s is scaled back onto the von Mises surface
//   sqrt(3/2 s:s) = sigma_y = yield x tau / tauScale before the split; the pressure is not
//   capped (von Mises flow is isochoric);
//   the equivalent plastic strain is then q / sigma_y - 1 yield strains, with q the von Mises
//   stress of (9) (its elastic trial stress); the damage D = plastic strain / failure strain
//   (TET_DAMAGE.y = 1 / ductility, the failure strain in yield strains) keeps its peak, and
//   fracture/load lets a ductile node crack only as far as D tau reaches (D >= 1: exhausted).
// The motion stays elastic (Floe's tets are XPBD shape-matching constraints, not driven by
// these forces), so a yielded body springs back; deformation theory equals the incremental
// theory under proportional loading, which an impact's rising stress is, and keeping D's peak
// (not summing increments) stands for the plastic strain the elastic ring-down would not add.
// The cap alone did not keep iron whole: (16) subtracts the unbalanced compressive forces, the
// cap shrinks those as well, and iron's loads gathered near 0.6-1.3 tau whatever the landing.
// Writes the nodal forces, sigma with its largest principal stress, the element's own
// separation tensor's largest eigenpair (the Wave method's element criterion, §3.0: (16) over
// the element's four corners, where the unbalanced sums vanish because sum_i f_i = 0), and one
// record per corner at its node-ordered incidence slot for the per-node segmented scan:
//   eq16:     (f+, f-, m(f+) - m(f-))           -> (16) at the node from the scanned totals
//   averaged: (the element tensor, 0)           -> its mean over the node's elements
#include "fracture/fracture_common.glsl"

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_UVEC4(FRACTURE_BIND_TETS, tets);
FLOE_IN_VEC4(FRACTURE_BIND_TET_REST, rest);
FLOE_IN_VEC4(FRACTURE_BIND_TET_MATERIAL, material);
FLOE_IN_VEC4(FRACTURE_BIND_TET_INFO, tetInfo);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_INFO, bodyInfo);
FLOE_RW_VEC4(FRACTURE_BIND_TET_DAMAGE, damage);
FLOE_IN_UINT(FRACTURE_BIND_SLOTS, slots);
FLOE_OUT_VEC4(FRACTURE_BIND_RECORDS, records);
FLOE_OUT_VEC4(FRACTURE_BIND_TET_STRESS, tetStress);
FLOE_OUT_VEC4(FRACTURE_BIND_TET_SEPARATION, tetSeparation);
FLOE_OUT_VEC4(FRACTURE_BIND_FORCES, forces);

void main()
{
    const uint t = floeGlobalIndex();
    if (t >= params.tets) return;
    const uvec4 idx = FLOE_LOAD_UVEC4(tets, t);
    vec3 b[4];
    for (int i = 0; i < 4; ++i) b[i] = FLOE_LOAD_VEC4(rest, 4u * t + uint(i)).xyz;
    const float volume = FLOE_LOAD_VEC4(rest, 4u * t).w;
    const vec4 lame = FLOE_LOAD_VEC4(material, t);
    const vec3 x0 = FLOE_LOAD_VEC4(positions, idx[0]).xyz, v0 = FLOE_LOAD_VEC4(velocities, idx[0]).xyz;
    mat3 F = mat3(0.0), dF = mat3(0.0);
    for (int i = 1; i < 4; ++i) {
        F += outerProduct(FLOE_LOAD_VEC4(positions, idx[i]).xyz - x0, b[i]);
        dF += outerProduct(FLOE_LOAD_VEC4(velocities, idx[i]).xyz - v0, b[i]);
    }
    const mat3 eps = transpose(F) * F - mat3(1.0);
    const mat3 nu = transpose(F) * dF + transpose(dF) * F;
    const float trEps = eps[0][0] + eps[1][1] + eps[2][2];
    const float trNu = nu[0][0] + nu[1][1] + nu[2][2];
    mat3 sigma = (lame.x * trEps + lame.z * trNu) * mat3(1.0) + 2.0 * lame.y * eps + 2.0 * lame.w * nu;
    const vec4 info = FLOE_LOAD_VEC4(tetInfo, t);
    if (info.w > 0.0 && params.fracture.x > 0.0) {
        const float sigmaY = info.w * FLOE_LOAD_VEC4(bodyInfo, uint(info.x)).x / params.fracture.x;
        const float pressure = (sigma[0][0] + sigma[1][1] + sigma[2][2]) / 3.0;
        const mat3 s = sigma - pressure * mat3(1.0);
        const float vonMises = sqrt(1.5 * (dot(s[0], s[0]) + dot(s[1], s[1]) + dot(s[2], s[2])));
        if (vonMises > sigmaY) {
            sigma = pressure * mat3(1.0) + (sigmaY / vonMises) * s;
            const vec4 d = FLOE_RW_LOAD_VEC4(damage, t);
            const float D = (vonMises / sigmaY - 1.0) * d.y;
            if (D > d.x) FLOE_STORE_VEC4(damage, t, vec4(D, d.yzw));
        }
    }

    vec3 w;
    mat3 V;
    symEigen(sigma, w, V);
    mat3 tensile = mat3(0.0), compressive = mat3(0.0);
    for (int k = 0; k < 3; ++k) {
        const mat3 nn = outerProduct(V[k], V[k]);
        tensile += max(w[k], 0.0) * nn;
        compressive += min(w[k], 0.0) * nn;
    }
    const float s = -0.5 * volume;
    const mat3 Ft = F * tensile, Fc = F * compressive, Fs = F * sigma;
    mat3 element = mat3(0.0);
    vec3 fp[4], fm[4];
    for (int i = 0; i < 4; ++i) {
        fp[i] = s * (Ft * b[i]);
        fm[i] = s * (Fc * b[i]);
        FLOE_STORE_VEC4(forces, 4u * t + uint(i), vec4(s * (Fs * b[i]), 0.0));
        element += 0.5 * (outerOverLength(fp[i]) - outerOverLength(fm[i]));
    }
    FLOE_STORE_VEC4(tetStress, 2u * t, vec4(sigma[0][0], sigma[1][1], sigma[2][2], sigma[1][0]));
    FLOE_STORE_VEC4(tetStress, 2u * t + 1u, vec4(sigma[2][0], sigma[2][1], max(w.x, max(w.y, w.z)), 0.0));
    FLOE_STORE_VEC4(tetSeparation, t, largestEigen(element));
    for (int i = 0; i < 4; ++i) {
        const uint slot = FLOE_LOAD_UINT(slots, 4u * t + uint(i));
        vec4 r0, r1, r2;
        if (params.separation == FRACTURE_SEPARATION_EQ16) {
            const mat3 d = outerOverLength(fp[i]) - outerOverLength(fm[i]);
            r0 = vec4(fp[i], fm[i].x);
            r1 = vec4(fm[i].yz, d[0][0], d[1][1]);
            r2 = vec4(d[2][2], d[1][0], d[2][0], d[2][1]);
        } else {
            r0 = vec4(element[0][0], element[1][1], element[2][2], element[1][0]);
            r1 = vec4(element[2][0], element[2][1], 0.0, 0.0);
            r2 = vec4(0.0);
        }
        FLOE_STORE_VEC4(records, 3u * slot, r0);
        FLOE_STORE_VEC4(records, 3u * slot + 1u, r1);
        FLOE_STORE_VEC4(records, 3u * slot + 2u, r2);
    }
}
