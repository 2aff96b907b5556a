// Static boundary particles sampled on triangle meshes (Akinci et al. 2012 use one layer whose
// volumes are computed from the sampling density, so uneven sampling is fine; digest-001 §4
// uses three layers). In 2D the mesh's cross-section with z = 0 is sampled.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "geometry/Mesh.h"

namespace floe::sim {

struct BoundarySampling {
    float spacing = 0.025f;   // m between samples along the surface
    int layers = 1;           // extra layers go away from the fluid, `spacing` apart
    bool fluidInside = false; // the mesh is a container (SPlisHSPlasH mapInvert / Floe inverted)
    bool flat = false;        // 2D: sample the cross-section at z = 0
};

// Points on the surface, at most one per cell of a spacing/4 grid (coincident samples of shared
// edges and vertices are merged).
std::vector<glm::vec3> sampleBoundary(const geometry::TriangleMesh& mesh, const BoundarySampling& sampling);
// An upper bound on sampleBoundary's count (before merging), computed in double precision without
// sampling: a body far larger than the particles is refused before it takes minutes and memory.
double boundarySampleBound(const geometry::TriangleMesh& mesh, const BoundarySampling& sampling);
// Floe's limit on boundary samples from one scene (about 3 GB while sampling).
constexpr double kMaxBoundarySamples = 64.0e6;

// The factor gamma on Akinci's weights Psi_b = gamma rho0 V_b with which a fluid lattice resting
// one spacing h from a flat wall has the density of the bulk lattice. Akinci's V_b = 1/sum_k W_bk
// makes one layer of samples contribute as much as a fluid half-space touching the particle's
// own plane: at distance h that is 21 % of rho0 (cubic, 3D) where the missing lattice layers give
// 15 %, so a fluid at rest next to a wall starts 6 % compressed and IISPH resolves it in one
// step with a violent push. Computed numerically for the kernel set, dimension and sampling.
float boundaryVolumeScale(uint32_t kernelSet, uint32_t dims, float spacingRatio, int layers);

// sum_j W(x_i - x_j) h^d over a square/cubic lattice of spacing h: the density of the initial
// sampling in units of rho0 when each particle has mass rho0 h^d (cubic spline: 1.000862 in 2D,
// digest-001 §7.3; 0.99966 in 3D). Floe gives particles the mass rho0 h^d / latticeDensity, so
// that the fluid starts exactly at rest density; otherwise a 2D column starts 0.086 %
// compressed, IISPH's average error sits just under its 0.1 % tolerance from the start, and
// the column falls for a dozen steps before pressure builds.
float latticeDensity(uint32_t kernelSet, uint32_t dims);

// PCISPH's pressure scaling (Solenthaler & Pajarola 2009 eq. (8) without dt and rho0): 1 / (2 V^2
// (|sum_j grad W_ij|^2 + sum_j |grad W_ij|^2)) in m^2, summed over a full lattice of spacing h
// around a particle (their prototype particle; SPlisHSPlasH samples the same lattice), with
// V = h^d / latticeDensity the volume of Floe's particles.
float pcisphFactor(uint32_t kernelSet, uint32_t dims, float h);

} // namespace floe::sim
