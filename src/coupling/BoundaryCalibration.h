// The weights of a solid's boundary samples, fitted so that the fluid meets every part of the
// solid as it meets a flat wall (coupling/SolidSampler calls it for both kinds of solid).
//
// Akinci et al. 2012 weigh a boundary sample by the inverse of its own samples' kernel sum
// (eq. (4)-(5)), which reproduces, near a flat wall, a fraction of the density the missing fluid
// on the wall's side would give a fluid particle; the samples' depth below the surface (1.5 r)
// is calibrated on such walls so that a body displaces its own volume. Where the surface is not
// flat, the same weights do not give that fraction: beside a box's edge or corner a particle
// misses a quarter or an eighth of its neighbourhood, but the samples inset on the faces lie
// farther from it than from a particle beside a face (the field there is a sixth of the flat
// wall's fraction for a cube of tets), and beside a ball 6-8 h across the crowded inset samples
// give 0.8 of it. The fluid then comes closer, the body displaces less than its volume, and a
// body of the fluid's density sinks (docs/coupling.md).
//
// The fit: probes sit where the fluid's first layer rests, at offsets delta outside the surface
// (along the face's normal, an edge's bisector, a vertex's miter), and at each the missing
// fluid's density is rho0 times the kernel's integral over the solid,
//     M(p) = rho0 int_solid W(p - y) dy = rho0 oint_surface F(y - p) . n dA,
// by the divergence theorem with F(x) = x (G(|x|) - 1 / (4 pi)) / |x|^3, G(s) = int_0^s W(t) t^2 dt
// (div F = W, and the constant part, whose flux through a closed surface is zero from outside,
// is taken out so that only triangles within the support count). The target at a probe is the
// flat wall's fraction: T(p) = M(p) F_flat(delta + d) / M_flat(delta), with F_flat(D) the field of
// a plane of the samples' mass per area (planeBoundaryMassPerArea) at distance D and M_flat(delta)
// the missing density of a half-space at distance delta. The weights are then fitted to the
// targets by multiplicative (Richardson-Lucy) updates, Psi_b <- Psi_b sum_k W_kb T_k / sum_k W_kb f_k
// with f_k the probes' current fields, which keep every weight positive and leave those of a flat
// wall far from edges as they are. Weights are fitted once, at rest, as Akinci's are.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "coupling/SolidSampler.h"

namespace floe::coupling {

// A closed surface at rest and the depth of its samples below it (m).
struct CalibrationSurface {
    const std::vector<glm::vec3>* vertices = nullptr;
    std::vector<glm::uvec3> triangles; // counter-clockwise seen from outside; closed (every edge in two triangles)
    float depth = 0.0f;
};

struct CalibrationResult {
    uint32_t probes = 0;     // probes used (outside every surface, within reach of a sample)
    double massBefore = 0.0; // sum of the fitted samples' Psi (kg), before and after
    double massAfter = 0.0;
    double errorBefore = 0.0; // RMS of (field - target) / target over the probes
    double errorAfter = 0.0;
};

// The flat wall's fraction: the field of a plane of `massPerArea` (kg/m^2) at distance
// delta + depth over the missing density of a half-space at distance delta (both kg/m^3).
double flatWallFraction(double delta, double depth, double massPerArea, const SampleKernel& kernel);

// rho0 int_solid W(p - y) dy for the solid the closed surfaces bound, at a point p outside it;
// negative (that integral minus rho0) for a point inside.
double missingDensity(const glm::vec3& p, const std::vector<CalibrationSurface>& surfaces, const SampleKernel& kernel);

// Fits psi[b] for the samples with fit[b] (positions at rest) so that the field of all samples
// at probes offset from the surfaces is the flat wall's fraction of the missing density there.
// Samples without fit[b] count in the field and keep their weights. Open surfaces (an edge in
// other than two triangles) are left out. Only for 3D kernels (dims 3; otherwise a no-op).
CalibrationResult calibrateBoundaryMass(const std::vector<CalibrationSurface>& surfaces, const std::vector<glm::vec3>& positions,
                                        std::vector<float>& psi, const std::vector<bool>& fit, float spacing,
                                        const SampleKernel& kernel);

} // namespace floe::coupling
