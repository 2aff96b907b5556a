// The SPH kernels of shaders/shared/sph.h (the same code the shaders run): normalisation,
// symmetry, gradients against finite differences and digest-001's reference values, in 2D and
// 3D, for the cubic spline and the Müller 2003 set. Also the boundary sampling and its volume
// scale, and the mesh tools.
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include "base/Error.h"
#include "geometry/Mesh.h"
#include "scene/SceneSetup.h"
#include "shared/sph.h"
#include "sim/sph/BoundarySampler.h"

namespace floe {
namespace {

using shared::kernelDW;
using shared::kernelW;

// Integral of W over the plane (2D) or space (3D) by the midpoint rule in polar/spherical shells.
double integral(uint32_t kind, uint32_t dims, float h)
{
    const double support = 2.0 * h;
    const int n = 20000;
    double sum = 0;
    for (int k = 0; k < n; ++k) {
        const double r = (k + 0.5) * support / n;
        const double shell = dims == 2 ? 2.0 * M_PI * r : 4.0 * M_PI * r * r;
        sum += kernelW(kind, float(r), h, dims) * shell * support / n;
    }
    return sum;
}

class KernelTest : public ::testing::TestWithParam<std::tuple<uint32_t, uint32_t>> {};

TEST_P(KernelTest, IsNormalised)
{
    const auto [kind, dims] = GetParam();
    for (const float h : {0.01f, 0.04f, 1.0f, 10.0f}) EXPECT_NEAR(integral(kind, dims, h), 1.0, 1e-4) << "h " << h;
}

TEST_P(KernelTest, HasCompactSupportAndIsPositive)
{
    const auto [kind, dims] = GetParam();
    const float h = 0.04f;
    for (int k = 0; k < 200; ++k) {
        const float r = 2.5f * h * k / 200.0f;
        const float w = kernelW(kind, r, h, dims);
        EXPECT_GE(w, 0.0f) << r;
        if (r >= 2.0f * h) {
            EXPECT_EQ(w, 0.0f) << r;
            EXPECT_EQ(kernelDW(kind, r, h, dims), 0.0f) << r;
        }
    }
}

// The kernel whose gradient kernelDW is: the cubic spline itself, or Müller's spiky kernel.
float gradientKernelW(uint32_t kind, float r, float h, uint32_t dims)
{
    return kind == SPH_KERNEL_MUELLER ? shared::spikyW(r, 2.0f * h, dims) : kernelW(kind, r, h, dims);
}

TEST_P(KernelTest, GradientKernelIsNormalised)
{
    const auto [kind, dims] = GetParam();
    const float h = 0.04f;
    const int n = 20000;
    double sum = 0;
    for (int k = 0; k < n; ++k) {
        const double r = (k + 0.5) * 2.0 * h / n;
        sum += gradientKernelW(kind, float(r), h, dims) * (dims == 2 ? 2.0 * M_PI * r : 4.0 * M_PI * r * r) * 2.0 * h / n;
    }
    EXPECT_NEAR(sum, 1.0, 1e-4);
}

TEST_P(KernelTest, GradientMatchesFiniteDifferences)
{
    const auto [kind, dims] = GetParam();
    const float h = 0.04f;
    for (int k = 1; k < 40; ++k) {
        const double r = 2.0 * h * k / 40.0;
        const double eps = 1e-3 * h;
        const double fd =
            (double(gradientKernelW(kind, float(r + eps), h, dims)) - gradientKernelW(kind, float(r - eps), h, dims)) / (2 * eps);
        const double analytic = kernelDW(kind, float(r), h, dims);
        // float evaluation: relative 2e-3 of the largest slope
        EXPECT_NEAR(analytic, fd, 2e-3 * std::abs(kernelDW(kind, 0.5f * h, h, dims)) + 1e-3 * std::abs(fd)) << "r/h " << r / h;
        EXPECT_LE(analytic, 0.0) << "the kernel decreases with distance";
    }
}

TEST_P(KernelTest, GradientIsAntisymmetric)
{
    // grad_i W(x_i - x_j) = dW/dr (x_i - x_j)/r = - grad_j W(x_j - x_i) by construction of the
    // radial form; check that it points from i towards j (dW/dr < 0) at every distance inside.
    const auto [kind, dims] = GetParam();
    const float h = 0.04f;
    for (int k = 1; k < 20; ++k) EXPECT_LT(kernelDW(kind, 2.0f * h * k / 20.0f, h, dims), 0.0f);
    EXPECT_EQ(kernelW(kind, 0.3f * h, h, dims), kernelW(kind, 0.3f * h, h, dims));
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelTest,
                         ::testing::Combine(::testing::Values(uint32_t(SPH_KERNEL_CUBIC), uint32_t(SPH_KERNEL_MUELLER)),
                                            ::testing::Values(2u, 3u)),
                         [](const auto& param) {
                             return std::string(std::get<0>(param.param) == SPH_KERNEL_CUBIC ? "Cubic" : "Mueller") +
                                    std::to_string(std::get<1>(param.param)) + "D";
                         });

// digest-001 §2.3 and §9 checks 1-2 (h = 1).
TEST(Kernels, CubicSplineReferenceValues2D)
{
    EXPECT_NEAR(kernelW(SPH_KERNEL_CUBIC, 0.0f, 1.0f, 2), 0.4547284f, 1e-6f);
    EXPECT_NEAR(kernelW(SPH_KERNEL_CUBIC, 1.0f, 1.0f, 2), 0.1136821f, 1e-6f);
    EXPECT_NEAR(kernelW(SPH_KERNEL_CUBIC, 1.5f, 1.0f, 2), 0.0142103f, 1e-6f);
    EXPECT_EQ(kernelW(SPH_KERNEL_CUBIC, 2.0f, 1.0f, 2), 0.0f);
    EXPECT_NEAR(kernelDW(SPH_KERNEL_CUBIC, 0.5f, 1.0f, 2), -0.4263079f, 1e-6f);
    EXPECT_NEAR(kernelDW(SPH_KERNEL_CUBIC, 1.0f, 1.0f, 2), -0.3410463f, 1e-6f);
    EXPECT_NEAR(kernelDW(SPH_KERNEL_CUBIC, 1.5f, 1.0f, 2), -0.0852616f, 1e-6f);
    // Lattice density (digest-001 §7.3): interior 1.000862 rho0, top row 0.8415 rho0 (m = rho0 h^2).
    double interior = 0, top = 0;
    for (int i = -2; i <= 2; ++i)
        for (int j = -2; j <= 2; ++j) {
            const float w = kernelW(SPH_KERNEL_CUBIC, std::sqrt(float(i * i + j * j)), 1.0f, 2);
            interior += w;
            if (j <= 0) top += w;
        }
    EXPECT_NEAR(interior, 1.000862, 1e-5);
    EXPECT_NEAR(top, 0.8415, 1e-4);
}

// digest-003 §7 check 1 (h = 0.1 there is the support H).
TEST(Kernels, MuellerReferenceValues3D)
{
    const float H = 0.1f, h = H / 2;
    EXPECT_NEAR(kernelW(SPH_KERNEL_MUELLER, 0.0f, h, 3), 1566.68f, 0.05f);
    EXPECT_NEAR(shared::viscosityLaplacian(0.05f, H, 3), 7.162e5f, 100.0f);
    EXPECT_EQ(shared::spikyDW(H, H, 3), 0.0f);
}

TEST(Kernels, EquationsOfState)
{
    EXPECT_NEAR(shared::eosPressure(SPH_EOS_LINEAR, 1010.0f, 1000.0f, 1e5f, 7.0f, true), 1000.0f, 0.01f);
    EXPECT_EQ(shared::eosPressure(SPH_EOS_LINEAR, 990.0f, 1000.0f, 1e5f, 7.0f, true), 0.0f);
    EXPECT_NEAR(shared::eosPressure(SPH_EOS_LINEAR, 990.0f, 1000.0f, 1e5f, 7.0f, false), -1000.0f, 0.01f);
    EXPECT_NEAR(shared::eosPressure(SPH_EOS_TAIT, 1010.0f, 1000.0f, 1e5f, 7.0f, true), 1e5 * (std::pow(1.01, 7) - 1), 0.5);
    EXPECT_FLOAT_EQ(shared::eosPressure(SPH_EOS_DENSITY, 1010.0f, 1000.0f, 20.0f, 7.0f, true), 200.0f);
}

TEST(Boundary, VolumeScaleMakesAFlatWallLikeTheBulk)
{
    // One layer at half the spacing: Akinci's weights give a wall particle 6.4 % too much density.
    EXPECT_NEAR(sim::boundaryVolumeScale(SPH_KERNEL_CUBIC, 3, 0.5f, 1), 0.6988f, 1e-3f);
    EXPECT_NEAR(sim::boundaryVolumeScale(SPH_KERNEL_CUBIC, 2, 0.5f, 1), 0.6857f, 1e-3f);
    // Three layers at the fluid spacing: the thesis's walls, where gamma makes the first layer's
    // Akinci volume the lattice volume again.
    EXPECT_NEAR(sim::boundaryVolumeScale(SPH_KERNEL_CUBIC, 3, 1.0f, 3), 0.8503f, 1e-3f);
}

TEST(Boundary, SamplesCoverTheBoxSurfaceOnce)
{
    geometry::TriangleMesh box = geometry::loadObj(std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj");
    sim::BoundarySampling s;
    s.spacing = 0.1f;
    const std::vector<glm::vec3> samples = sim::sampleBoundary(box, s);
    // A 11 x 11 lattice per face, shared edges and corners once: 6*121 - 12*11 + 8.
    EXPECT_EQ(samples.size(), 6u * 121u - 12u * 11u + 8u);
    for (const glm::vec3& p : samples) EXPECT_NEAR(std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}), 0.5f, 1e-5f);
    // 2D: the square's outline at z = 0, 40 samples.
    s.flat = true;
    const std::vector<glm::vec3> outline = sim::sampleBoundary(box, s);
    EXPECT_EQ(outline.size(), 40u);
    for (const glm::vec3& p : outline) EXPECT_EQ(p.z, 0.0f);
    // Extra layers go away from the fluid: outwards for a container.
    s.layers = 2;
    s.fluidInside = true;
    float farthest = 0;
    for (const glm::vec3& p : sim::sampleBoundary(box, s)) farthest = std::max(farthest, std::max(std::abs(p.x), std::abs(p.y)));
    EXPECT_NEAR(farthest, 0.6f, 1e-5f);
}

TEST(Geometry, ObjErrorsNameFileAndLine)
{
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "floe_bad.obj";
    std::ofstream(path) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n";
    try {
        geometry::loadObj(path);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("floe_bad.obj:4"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
    }
    std::ofstream(path) << "# nothing\n";
    EXPECT_THROW(geometry::loadObj(path), Error);
}

TEST(Geometry, FeatureEdgesOutlineCreasesAndOpenEdges)
{
    // The unit box: its 12 edges, not the 6 diagonals that split its faces; each edge's ends are
    // two corners that differ in exactly one coordinate.
    const geometry::TriangleMesh box = geometry::loadObj(std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj");
    const auto edges = geometry::featureEdges(box, 20.0f);
    ASSERT_EQ(edges.size(), 12u);
    for (const auto& [a, b] : edges) {
        const glm::vec3 d = glm::abs(b - a);
        EXPECT_EQ(int(d.x > 0.5f) + int(d.y > 0.5f) + int(d.z > 0.5f), 1) << "a face diagonal";
    }
    // The same box with every triangle's corners repeated (as many OBJ exporters write it).
    geometry::TriangleMesh split;
    for (const glm::uvec3& t : box.triangles) {
        const uint32_t base = uint32_t(split.vertices.size());
        for (int k = 0; k < 3; ++k) split.vertices.push_back(box.vertices[t[k]]);
        split.triangles.emplace_back(base, base + 1, base + 2);
    }
    EXPECT_EQ(geometry::featureEdges(split, 20.0f).size(), 12u);
    // A crease flatter than the angle is not drawn: two triangles folded by 10 degrees.
    geometry::TriangleMesh fold;
    const float c = std::cos(10.0f * 3.14159265f / 180.0f), s = std::sin(10.0f * 3.14159265f / 180.0f);
    fold.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {-c, 0, s}};
    fold.triangles = {{0, 1, 2}, {0, 2, 3}};
    EXPECT_EQ(geometry::featureEdges(fold, 20.0f).size(), 4u) << "the open rim only";
    EXPECT_EQ(geometry::featureEdges(fold, 5.0f).size(), 5u) << "the rim and the crease";
}

TEST(Geometry, ContainerPlanesOfTheUnitBox)
{
    geometry::TriangleMesh box = geometry::loadObj(std::string(FLOE_SOURCE_DIR) + "/assets/meshes/UnitBox.obj");
    EXPECT_TRUE(geometry::isClosed(box));
    EXPECT_TRUE(geometry::isConvex(box, 1e-6f));
    const std::vector<glm::vec4> planes = containerPlanes(box, false);
    ASSERT_EQ(planes.size(), 6u);
    for (const glm::vec4& p : planes) EXPECT_NEAR(p.w, 0.5f, 1e-6f);
    EXPECT_EQ(containerPlanes(box, true).size(), 4u); // the square at z = 0
    // A rotated box is still closed and convex; an inverted one is not convex (normals inwards).
    geometry::Transform t;
    t.rotationAngle = 0.3f;
    t.rotationAxis = {1, 2, 3};
    EXPECT_TRUE(geometry::isConvex(geometry::transformed(box, t), 1e-5f));
    t.scale = {-1, 1, 1};
    EXPECT_TRUE(geometry::isConvex(geometry::transformed(box, t), 1e-5f)); // mirroring keeps the winding outward
}

} // namespace
} // namespace floe
