// The screen-space fluid surface on fixed particle blocks: the compute smoothing against a CPU
// reference of the same filter, the covered pixels against the block's projection, smoothing
// lowering the depth's local variance, the thickness integrating the fluid's volume, and the
// composite leaving the scene untouched where there is no fluid.
#include <cmath>
#include <random>

#include <glm/gtc/packing.hpp>
#include <glm/gtx/component_wise.hpp>

#include "GpuTest.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "shared/fluid.h"

namespace floe::test {
namespace {

constexpr uint32_t kWidth = 320, kHeight = 240;
constexpr float kRadius = 0.02f; // m, particle radius; spacing 2r
constexpr int kNx = 14, kNy = 12, kNz = 6;

struct FluidFrame {
    std::vector<float> raw, smoothed, thickness; // per pixel, top row first
    std::vector<uint8_t> rgba;
    render::ViewSettings view;
};

// A block of kNx x kNy x kNz particles on a lattice of spacing 2r centred on the origin, each
// moved by up to `jitter` particle radii.
std::vector<glm::vec4> block(float jitter, uint32_t seed = 5)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-jitter * kRadius, jitter * kRadius);
    std::vector<glm::vec4> out;
    for (int z = 0; z < kNz; ++z)
        for (int y = 0; y < kNy; ++y)
            for (int x = 0; x < kNx; ++x) {
                const glm::vec3 p = 2.0f * kRadius * (glm::vec3(x, y, z) - 0.5f * glm::vec3(kNx - 1, kNy - 1, kNz - 1));
                out.emplace_back(p + glm::vec3(d(rng), d(rng), d(rng)), 1.0f);
            }
    return out;
}

render::ViewSettings fluidView(int iterations)
{
    render::ViewSettings view;
    view.camera.position = {0, 0, 1.2f};
    view.camera.target = {0, 0, 0};
    view.camera.nearPlane = 0.1f;
    view.camera.farPlane = 10.0f;
    view.particleRadius = kRadius;
    view.drawFloor = false;
    view.mode = RENDER_MODE_FLUID;
    view.fluid = render::fluidSettingsFor(kRadius, glm::vec3(1.0f), false);
    view.fluid.iterations = iterations;
    return view;
}

class FluidSurfaceTest : public GpuTest {
protected:
    FluidFrame draw(const std::vector<glm::vec4>& positions, const render::ViewSettings& view,
                    std::vector<glm::vec4> velocities = {})
    {
        if (velocities.empty()) velocities.assign(positions.size(), glm::vec4(0));
        sim::ParticleBuffers particles = sim::ParticleBuffers::create(context(), graph(), positions, velocities);
        render::OffscreenTarget target(context(), kWidth, kHeight);
        render::Renderer renderer(context(), shaders(), render::OffscreenTarget::kColorFormat,
                                  render::OffscreenTarget::kDepthFormat, 1);
        renderer.addPasses(graph(), target.color(), target.depth(), particles, view, 0);
        target.addReadback(graph());
        submit();
        const render::FluidSurface* fluid = renderer.fluidSurface();
        FluidFrame f;
        f.view = view;
        f.rgba = target.pixels();
        if (view.mode == RENDER_MODE_PARTICLES) return f; // no surface
        EXPECT_NE(fluid, nullptr);
        const size_t pixels = size_t(kWidth) * kHeight;
        f.raw = download<float>(fluid->rawDepth(), pixels);
        f.smoothed = download<float>(fluid->smoothedDepth(), pixels);
        for (uint16_t h : download<uint16_t>(fluid->thickness(), pixels)) f.thickness.push_back(glm::unpackHalf1x16(h));
        return f;
    }
};

// CPU reference of one separable pass (shaders/render/fluid_smooth.comp), in double.
std::vector<float> smoothPass(const std::vector<float>& in, glm::ivec2 dir, const render::FluidSettings& s, float pixelsPerMeter)
{
    std::vector<float> out(in.size(), 0.0f);
    for (int y = 0; y < int(kHeight); ++y)
        for (int x = 0; x < int(kWidth); ++x) {
            const float center = in[size_t(y) * kWidth + x];
            if (center <= 0.0f) continue;
            const int radius = shared::fluidFilterPixels(center, s.filterRadius, pixelsPerMeter, s.maxFilterPixels);
            const double sigma = 0.5 * radius;
            double sum = 0, weights = 0;
            for (int k = -radius; k <= radius; ++k) {
                const glm::ivec2 q = glm::ivec2(x, y) + k * dir;
                if (q.x < 0 || q.y < 0 || q.x >= int(kWidth) || q.y >= int(kHeight)) continue;
                const float z = shared::fluidNarrowRange(center, in[size_t(q.y) * kWidth + q.x], s.depthRange);
                if (z < 0.0f) continue;
                const double w = std::exp(-double(k * k) / (2.0 * sigma * sigma));
                sum += w * z;
                weights += w;
            }
            out[size_t(y) * kWidth + x] = float(sum / weights);
        }
    return out;
}

double pixelsPerMeter(const render::ViewSettings& view)
{
    return 0.5 * kHeight * std::fabs(view.camera.projection(float(kWidth) / kHeight)[1][1]);
}

TEST_F(FluidSurfaceTest, SmoothingMatchesTheCpuReference)
{
    const FluidFrame f = draw(block(0.4f), fluidView(2));
    std::vector<float> expected = f.raw;
    const float ppm = float(pixelsPerMeter(f.view));
    for (int i = 0; i < f.view.fluid.iterations; ++i) {
        expected = smoothPass(expected, {1, 0}, f.view.fluid, ppm);
        expected = smoothPass(expected, {0, 1}, f.view.fluid, ppm);
    }
    double changed = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
        // float32 sums over up to 2 * 24 + 1 taps, two iterations: well within 1e-5 relative.
        ASSERT_NEAR(f.smoothed[i], expected[i], 1e-5 * std::max(1.0f, expected[i])) << "pixel " << i % kWidth << "," << i / kWidth;
        changed = std::max(changed, double(std::fabs(f.smoothed[i] - f.raw[i])));
    }
    EXPECT_GT(changed, 0.1 * kRadius) << "smoothing must change the jittered surface for the comparison to mean something";
}

// A flat layer (2D): its thickness is smoothed by a plain Gaussian (compared with a CPU reference
// of the same filter), and the picture shows one body of fluid in an even tint inside a smooth
// outline where the block is, instead of its discs; a lone particle still shows.
TEST_F(FluidSurfaceTest, FlatLayerReadsAsOneSurface)
{
    std::vector<glm::vec4> layer;
    for (const glm::vec4& p : block(0.4f))
        if (std::fabs(p.z - 2.0f * kRadius * (0.0f - 0.5f * (kNz - 1))) < 1.5f * kRadius) layer.emplace_back(p.x, p.y, 0.0f, 1.0f);
    ASSERT_EQ(layer.size(), size_t(kNx * kNy));
    const glm::vec3 lone(0.35f, 0.3f, 0.0f);
    layer.emplace_back(lone, 1.0f);
    render::ViewSettings view = fluidView(3);
    view.fluid = render::fluidSettingsFor(kRadius, glm::vec3(1.0f, 1.0f, 0.0f), true);
    ASSERT_TRUE(view.fluid.flat);
    const FluidFrame f = draw(layer, view);
    const render::FluidSurface* fluid = nullptr;
    {
        // The smoothed thickness the composite read, against the CPU reference.
        sim::ParticleBuffers particles =
            sim::ParticleBuffers::create(context(), graph(), layer, std::vector<glm::vec4>(layer.size()));
        render::OffscreenTarget target(context(), kWidth, kHeight);
        render::Renderer renderer(context(), shaders(), render::OffscreenTarget::kColorFormat,
                                  render::OffscreenTarget::kDepthFormat, 1);
        renderer.addPasses(graph(), target.color(), target.depth(), particles, view, 0);
        submit();
        fluid = renderer.fluidSurface();
        ASSERT_NE(fluid, nullptr);
        const size_t pixels = size_t(kWidth) * kHeight;
        const std::vector<float> smoothed = download<float>(fluid->compositeThickness(), pixels);
        const float ppm = float(pixelsPerMeter(view));
        const int radius = int(std::clamp(view.fluid.filterRadius * ppm / 1.2f, 1.0f, view.fluid.maxFilterPixels));
        std::vector<double> expected(f.thickness.begin(), f.thickness.end());
        for (int i = 0; i < view.fluid.iterations; ++i)
            for (const glm::ivec2 dir : {glm::ivec2(1, 0), glm::ivec2(0, 1)}) {
                std::vector<double> out(expected.size(), 0.0);
                const double sigma = 0.5 * radius;
                for (int y = 0; y < int(kHeight); ++y)
                    for (int x = 0; x < int(kWidth); ++x) {
                        double sum = 0, norm = 0;
                        for (int k = -radius; k <= radius; ++k) {
                            const double w = std::exp(-double(k * k) / (2.0 * sigma * sigma));
                            norm += w;
                            const glm::ivec2 q = glm::ivec2(x, y) + k * dir;
                            if (q.x >= 0 && q.y >= 0 && q.x < int(kWidth) && q.y < int(kHeight))
                                sum += w * expected[size_t(q.y) * kWidth + q.x];
                        }
                        out[size_t(y) * kWidth + x] = sum / norm;
                    }
                expected = out;
            }
        double peak = 0;
        for (size_t i = 0; i < pixels; ++i) {
            ASSERT_NEAR(smoothed[i], expected[i], 1e-5 * kRadius + 1e-5 * expected[i])
                << "pixel " << i % kWidth << "," << i / kWidth;
            peak = std::max(peak, expected[i]);
        }
        EXPECT_GT(peak, kRadius) << "the layer's smoothed thickness is about 1.7 r inside";
    }

    // Inside the block (well within its projected cells), one even tint: no discs.
    const double scale = pixelsPerMeter(view) / 1.2;
    const auto pixelOf = [&](float x, float y) { return glm::ivec2(int(kWidth / 2 + x * scale), int(kHeight / 2 - y * scale)); };
    const glm::ivec2 lo = pixelOf(-(kNx - 3) * kRadius, (kNy - 3) * kRadius),
                     hi = pixelOf((kNx - 3) * kRadius, -(kNy - 3) * kRadius);
    glm::ivec3 minC(255), maxC(0);
    for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) {
            const uint8_t* p = &f.rgba[(size_t(y) * kWidth + x) * 4];
            minC = glm::min(minC, glm::ivec3(p[0], p[1], p[2]));
            maxC = glm::max(maxC, glm::ivec3(p[0], p[1], p[2]));
        }
    EXPECT_LE(glm::compMax(maxC - minC), 2) << "the layer's inside is not one tint";
    const glm::ivec3 tint = minC;
    // Farther than a particle radius (the particles are jittered by 0.4 r) and two pixels outside
    // the block's cells, away from the lone particle: background.
    const uint8_t* corner = &f.rgba[0];
    const glm::ivec3 background(corner[0], corner[1], corner[2]);
    EXPECT_GT(glm::compMax(glm::abs(tint - background)), 10) << "the fluid must differ from the background";
    const glm::ivec2 outerLo = pixelOf(-(kNx + 1) * kRadius, (kNy + 1) * kRadius) - glm::ivec2(2),
                     outerHi = pixelOf((kNx + 1) * kRadius, -(kNy + 1) * kRadius) + glm::ivec2(2);
    for (int y = 0; y < int(kHeight); ++y)
        for (int x = 0; x < int(kWidth) / 2 + 20; ++x) {
            if (x >= outerLo.x && x <= outerHi.x && y >= outerLo.y && y <= outerHi.y) continue;
            const uint8_t* p = &f.rgba[(size_t(y) * kWidth + x) * 4];
            ASSERT_EQ(glm::ivec3(p[0], p[1], p[2]), background) << "fluid drawn outside the block at " << x << "," << y;
        }
    // The lone particle shows.
    const glm::ivec2 at = pixelOf(lone.x, lone.y);
    const uint8_t* p = &f.rgba[(size_t(at.y) * kWidth + at.x) * 4];
    EXPECT_NE(glm::ivec3(p[0], p[1], p[2]), background) << "a lone particle vanished";
}

TEST_F(FluidSurfaceTest, CoverageMatchesTheProjectedBlockAndTheSceneIsKeptElsewhere)
{
    const render::ViewSettings view = fluidView(3);
    const FluidFrame f = draw(block(0.0f), view);
    // The front layer of spheres (radius s r) spans the block's x/y extent plus s r and lies
    // nearest to the camera, so its projection bounds the silhouette (layers behind project
    // smaller); the rounded rim loses a little at the corners.
    const float s = view.fluid.sphereScale;
    const float halfX = kRadius * (kNx - 1) + s * kRadius, halfY = kRadius * (kNy - 1) + s * kRadius;
    const float front = 1.2f - kRadius * (kNz - 1); // camera distance to the front layer's centres
    const double ppm = pixelsPerMeter(view);
    const double expected = (2.0 * halfX * ppm / front) * (2.0 * halfY * ppm / front);
    size_t covered = 0;
    for (float z : f.raw) covered += z > 0.0f ? 1 : 0;
    EXPECT_NEAR(double(covered), expected, 0.05 * expected) << "fluid pixels " << covered << ", projected block " << expected;
    EXPECT_GT(covered, 0.05 * kWidth * kHeight) << "the block must cover a fair share of the picture";

    // Outside the fluid the composite writes the scene's colour (the clear colour here); at the
    // block's centre it shows the fluid.
    const auto rgb = [&](uint32_t x, uint32_t y) {
        const uint8_t* p = &f.rgba[(size_t(y) * kWidth + x) * 4];
        return glm::ivec3(p[0], p[1], p[2]);
    };
    const glm::ivec3 background = rgb(2, 2);
    size_t fluidPixels = 0, differing = 0;
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            const bool fluid = f.raw[size_t(y) * kWidth + x] > 0.0f;
            const glm::ivec3 d = glm::abs(rgb(x, y) - background);
            const bool same = d.x <= 1 && d.y <= 1 && d.z <= 1;
            if (!fluid) {
                ASSERT_TRUE(same) << "pixel " << x << "," << y << " without fluid changed";
            }
            fluidPixels += fluid;
            differing += fluid && !same;
        }
    EXPECT_GT(differing, 0.95 * fluidPixels) << "fluid pixels must show the fluid";
}

// --render both: the surface is a glaze over the coloured particles, so the colour map keeps its
// meaning (issue 18: at the fluid mode's absorption the speeds washed out to a flat teal). The
// block moves faster to the right; the left-right colour difference under the surface must stay
// most of what the bare particles show, and the colours near them.
TEST_F(FluidSurfaceTest, BothModeKeepsTheParticlesColours)
{
    const std::vector<glm::vec4> positions = block(0.0f);
    std::vector<glm::vec4> velocities;
    for (const glm::vec4& p : positions) velocities.emplace_back(20.0f * (p.x + 0.3f), 0.0f, 0.0f, 0.0f);
    render::ViewSettings view = fluidView(3);
    view.mode = RENDER_MODE_PARTICLES;
    const FluidFrame bare = draw(positions, view, velocities);
    view.mode = RENDER_MODE_BOTH;
    const FluidFrame both = draw(positions, view, velocities);
    const auto halves = [&](const FluidFrame& f, glm::dvec3& left, glm::dvec3& right) {
        left = right = glm::dvec3(0);
        size_t nl = 0, nr = 0;
        for (uint32_t y = 0; y < kHeight; ++y)
            for (uint32_t x = 0; x < kWidth; ++x) {
                if (both.raw[size_t(y) * kWidth + x] <= 0.0f) continue; // fluid pixels of the glazed frame
                const uint8_t* p = &f.rgba[(size_t(y) * kWidth + x) * 4];
                (x < kWidth / 2 ? left : right) += glm::dvec3(p[0], p[1], p[2]);
                ++(x < kWidth / 2 ? nl : nr);
            }
        left /= double(std::max<size_t>(nl, 1));
        right /= double(std::max<size_t>(nr, 1));
    };
    glm::dvec3 bareLeft, bareRight, bothLeft, bothRight;
    halves(bare, bareLeft, bareRight);
    halves(both, bothLeft, bothRight);
    const double bareContrast = glm::length(bareRight - bareLeft), bothContrast = glm::length(bothRight - bothLeft);
    EXPECT_GT(bareContrast, 40.0) << "the speeds must colour the particles apart";
    EXPECT_GT(bothContrast, 0.6 * bareContrast) << "under the surface the colours lost their contrast";
    EXPECT_LT(glm::length(bothLeft - bareLeft), 60.0) << "left half's colour under the surface";
    EXPECT_LT(glm::length(bothRight - bareRight), 60.0) << "right half's colour under the surface";
}

TEST_F(FluidSurfaceTest, SmoothingLowersTheDepthsLocalVariance)
{
    const FluidFrame f = draw(block(0.5f), fluidView(3));
    // Mean squared difference to the average of the four neighbours, over pixels whose
    // neighbours all hold fluid: high for bumpy spheres, low for a smooth surface.
    const auto roughness = [&](const std::vector<float>& z) {
        double sum = 0;
        size_t n = 0;
        for (uint32_t y = 1; y + 1 < kHeight; ++y)
            for (uint32_t x = 1; x + 1 < kWidth; ++x) {
                const size_t i = size_t(y) * kWidth + x;
                const float l = f.raw[i - 1], r = f.raw[i + 1], u = f.raw[i - kWidth], d = f.raw[i + kWidth];
                if (f.raw[i] <= 0 || l <= 0 || r <= 0 || u <= 0 || d <= 0) continue;
                const double e = z[i] - 0.25 * (z[i - 1] + z[i + 1] + z[i - kWidth] + z[i + kWidth]);
                sum += e * e;
                ++n;
            }
        return n ? sum / double(n) : 0.0;
    };
    const double raw = roughness(f.raw), smoothed = roughness(f.smoothed);
    EXPECT_GT(raw, 0.0);
    EXPECT_LT(smoothed, 0.25 * raw) << "raw " << raw << " m^2, smoothed " << smoothed << " m^2";
}

TEST_F(FluidSurfaceTest, ThicknessIntegratesTheFluidsVolume)
{
    const render::ViewSettings view = fluidView(0);
    const FluidFrame f = draw(block(0.0f), view);
    // Over the block's inner region every pixel looks through kNz particles, each standing for a
    // cube of side 2r: the mean thickness there is kNz * 2r (per pixel it varies with where the
    // ray crosses the lattice).
    const float front = 1.2f - kRadius * (kNz - 1);
    const double ppm = pixelsPerMeter(view);
    const int halfX = int(kRadius * (kNx - 5) * ppm / front), halfY = int(kRadius * (kNy - 5) * ppm / front);
    double sum = 0;
    size_t n = 0;
    for (int y = -halfY; y < halfY; ++y)
        for (int x = -halfX; x < halfX; ++x) {
            sum += f.thickness[size_t(y + int(kHeight) / 2) * kWidth + size_t(x + int(kWidth) / 2)];
            ++n;
        }
    ASSERT_GT(n, 1000u);
    const double expected = kNz * 2.0 * kRadius;
    EXPECT_NEAR(sum / double(n), expected, 0.1 * expected);
}

} // namespace
} // namespace floe::test
