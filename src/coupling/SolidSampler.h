// The boundary samples of solid surfaces for the two-way coupling with the fluid (Akinci et al.
// 2012 §3: a solid is a set of boundary particles on its surface, each weighing
// Psi_b = gamma rho0 V_b with V_b = 1 / sum_k W(x_b - x_k) over the solid's own samples). Floe's
// solids deform, so a sample is a barycentric combination of one surface triangle's corners,
// fixed at rest: every vertex, points along every edge and a lattice inside every triangle, at
// most `spacing` apart, one layer, moved `depth` inside along the interpolated normal. Pure CPU;
// the GPU passes move the samples with the vertices.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace floe::coupling {

struct SolidSurface {
    std::vector<glm::vec3> vertices;   // m, at rest
    std::vector<glm::vec3> normals;    // unit outward vertex normals at rest
    std::vector<glm::uvec3> triangles; // indices into vertices
    uint32_t firstVertex = 0;          // the global index of vertices[0] in the solids' vertex array
    float depth = 0.0f;                // m: the samples lie this far inside the surface, along the normal
};

struct SampleKernel {
    uint32_t kernelSet = 0; // SPH_KERNEL_* (shared/sph.h)
    uint32_t dims = 3;
    float h = 0.05f;          // the fluid's particle spacing (m); kernel support 2h
    float restDensity = 1000; // kg/m^3
};

struct SolidSamples {
    std::vector<glm::uvec4> corners;       // per sample: xyz global vertex indices, w its depth (m, float bits)
    std::vector<glm::vec4> weights;        // per sample: xyz barycentric weights (sum 1), w Psi_b (kg)
    std::vector<uint32_t> vertexStart;     // per global vertex + 1: first entry in vertexSamples
    std::vector<glm::uvec4> vertexSamples; // per entry: x sample, y weight (float bits)
};

// Throws floe::Error for a spacing that is not positive or a triangle index out of range.
SolidSamples sampleSolids(const std::vector<SolidSurface>& solids, uint32_t vertexCount, float spacing, const SampleKernel& kernel);

} // namespace floe::coupling
