// Headless pictures: particles drawn straight from the position buffer as sphere impostors
// with correct depth, checked pixel by pixel against projections computed on the CPU.
#include <cmath>

#include "GpuTest.h"
#include "render/OffscreenTarget.h"
#include "render/Renderer.h"
#include "shared/render.h"

namespace floe::test {
namespace {

struct Picture {
    uint32_t width, height;
    std::vector<uint8_t> rgba;
    glm::vec3 at(const glm::vec2& pixel) const
    {
        const uint32_t x = uint32_t(pixel.x), y = uint32_t(pixel.y);
        const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
        return glm::vec3(p[0], p[1], p[2]) / 255.0f;
    }
};

class RenderTest : public GpuTest {
protected:
    Picture draw(const std::vector<glm::vec4>& positions, const render::ViewSettings& view, uint32_t w = 320, uint32_t h = 240,
                 std::vector<glm::vec4> velocities = {}, const std::vector<glm::vec4>& outlines = {})
    {
        velocities.resize(positions.size(), glm::vec4(0));
        sim::ParticleBuffers particles = sim::ParticleBuffers::create(context(), graph(), positions, velocities);
        render::OffscreenTarget target(context(), w, h);
        render::Renderer renderer(context(), shaders(), render::OffscreenTarget::kColorFormat,
                                  render::OffscreenTarget::kDepthFormat, 1);
        gpu::Buffer lines;
        if (!outlines.empty()) {
            lines = gpu::Buffer(context(),
                                {"outlines", outlines.size() * 16, gpu::MemoryKind::DeviceLocal, VK_FORMAT_R32G32B32A32_SFLOAT});
            sim::uploadNow(context(), graph(), lines, outlines.data(), outlines.size() * 16);
            renderer.setOutlines(&lines, uint32_t(outlines.size()));
        }
        renderer.addPasses(graph(), target.color(), target.depth(), particles, view, 0);
        target.addReadback(graph());
        submit();
        return {w, h, target.pixels()};
    }
    // Pixel coordinates (top row 0) of a world point.
    static glm::vec2 project(const render::ViewSettings& view, const glm::vec3& p, uint32_t w, uint32_t h)
    {
        const glm::vec4 clip = view.camera.projection(float(w) / float(h)) * view.camera.view() * glm::vec4(p, 1.0f);
        const glm::vec2 ndc = glm::vec2(clip) / clip.w;
        return {(ndc.x * 0.5f + 0.5f) * w, (ndc.y * 0.5f + 0.5f) * h};
    }
};

const glm::vec3 kBackground = glm::vec3(0.10f, 0.11f, 0.13f);

bool near(const glm::vec3& a, const glm::vec3& b, float tolerance)
{
    return glm::all(glm::lessThanEqual(glm::abs(a - b), glm::vec3(tolerance)));
}

// sRGB encoding of the linear clear colour, as the sRGB target stores it.
glm::vec3 encoded(const glm::vec3& linear)
{
    glm::vec3 out;
    for (int c = 0; c < 3; ++c)
        out[c] = linear[c] <= 0.0031308f ? 12.92f * linear[c] : 1.055f * std::pow(linear[c], 1.0f / 2.4f) - 0.055f;
    return out;
}

TEST_F(RenderTest, ParticlesAppearWhereTheCameraProjectsThem)
{
    render::ViewSettings view;
    view.camera.position = {0, 0, 4};
    view.camera.target = {0, 0, 0};
    view.particleRadius = 0.15f;
    view.drawFloor = false;
    const std::vector<glm::vec4> positions = {{-1, 0.5f, 0, 1}, {1, -0.5f, 0, 1}};
    const Picture pic = draw(positions, view);
    for (const glm::vec4& p : positions) {
        const glm::vec2 centre = project(view, glm::vec3(p), pic.width, pic.height);
        EXPECT_FALSE(near(pic.at(centre), encoded(kBackground), 0.02f))
            << "no particle at its projection " << centre.x << "," << centre.y;
        // Just outside its radius (in the image plane): background.
        const glm::vec2 outside = project(view, glm::vec3(p) + glm::vec3(0.25f, 0, 0), pic.width, pic.height);
        EXPECT_TRUE(near(pic.at(outside), encoded(kBackground), 0.02f)) << "particle drawn too large";
    }
    // A corner far from both: background.
    EXPECT_TRUE(near(pic.at({2, 2}), encoded(kBackground), 0.02f));
}

// Colour by pressure (the w of the velocity buffer): the range's ends get the colour map's ends
// (viridis: dark purple, yellow), whatever the speeds.
TEST_F(RenderTest, ColourByPressureMapsTheRangeToTheColourMap)
{
    render::ViewSettings view;
    view.camera.position = {0, 0, 4};
    view.camera.target = {0, 0, 0};
    view.particleRadius = 0.2f;
    view.drawFloor = false;
    view.colorAttribute = RENDER_COLOR_PRESSURE;
    view.colorMin = 0.0f;
    view.colorMax = 1000.0f;
    const std::vector<glm::vec4> positions = {{-1, 0, 0, 1}, {1, 0, 0, 1}};
    const Picture pic = draw(positions, view, 320, 240, {{5, 0, 0, 0.0f}, {0, 0, 0, 1000.0f}});
    const glm::vec3 low = pic.at(project(view, glm::vec3(positions[0]), pic.width, pic.height));
    const glm::vec3 high = pic.at(project(view, glm::vec3(positions[1]), pic.width, pic.height));
    EXPECT_GT(low.b, low.g) << "pressure 0 must be the map's purple start";
    EXPECT_GT(high.r, 0.5f) << "pressure at the range's top must be the map's yellow end";
    EXPECT_GT(high.g, high.b);

    // Solver phase: 0 free (pressure 0), 1 under pressure; over 0..1 the ends of the map again.
    view.colorAttribute = RENDER_COLOR_PHASE;
    view.colorMax = 1.0f;
    const Picture phase = draw(positions, view, 320, 240, {{5, 0, 0, 0.0f}, {0, 0, 0, 3.0f}});
    const glm::vec3 free = phase.at(project(view, glm::vec3(positions[0]), phase.width, phase.height));
    const glm::vec3 pressed = phase.at(project(view, glm::vec3(positions[1]), phase.width, phase.height));
    EXPECT_GT(free.b, free.g) << "a particle without pressure is free (phase 0)";
    EXPECT_GT(pressed.r, 0.5f) << "a particle with pressure is under pressure (phase 1)";
}

// Walls' outlines (Renderer::setOutlines): a line in front of a particle is drawn over it, a line
// behind it is hidden by it and drawn where nothing covers it.
TEST_F(RenderTest, OutlinesShowInFrontOfParticlesAndHideBehindThem)
{
    render::ViewSettings view;
    view.camera.position = {0, 0, 4};
    view.camera.target = {0, 0, 0};
    view.particleRadius = 0.4f;
    view.drawFloor = false;
    const std::vector<glm::vec4> particle = {{0, 0, 0, 1}};
    const std::vector<glm::vec4> lines = {{-1.5f, 0.1f, 1.0f, 1},
                                          {1.5f, 0.1f, 1.0f, 1}, // in front, across the particle
                                          {-1.5f, -0.1f, -1.0f, 1},
                                          {1.5f, -0.1f, -1.0f, 1}}; // behind it
    const Picture pic = draw(particle, view, 320, 240, {}, lines);
    const glm::vec3 ink = encoded(glm::vec3(0.22f, 0.30f, 0.45f)); // shaders/render/edges.frag
    // A line pixel within a pixel of the projection (rasterisation rules move a thin line by one).
    const auto lineNear = [&](const glm::vec3& p) {
        const glm::vec2 c = project(view, p, pic.width, pic.height);
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                if (near(pic.at(c + glm::vec2(dx, dy)), ink, 0.03f)) return true;
        return false;
    };
    EXPECT_TRUE(lineNear({0, 0.1f, 1.0f})) << "the line in front of the particle";
    EXPECT_FALSE(lineNear({0, -0.1f, -1.0f})) << "the line behind the particle shows through it";
    EXPECT_TRUE(lineNear({1.2f, -0.1f, -1.0f})) << "the line behind, beside the particle";
    // Without outlines, none of it.
    const Picture plain = draw(particle, view, 320, 240);
    const glm::vec2 c = project(view, {1.2f, -0.1f, -1.0f}, plain.width, plain.height);
    EXPECT_TRUE(near(plain.at(c), encoded(kBackground), 0.02f));
}

TEST_F(RenderTest, NearerParticleHidesFartherOne)
{
    render::ViewSettings view;
    view.camera.position = {0, 0, 4};
    view.camera.target = {0, 0, 0};
    view.particleRadius = 0.3f;
    view.drawFloor = false;
    view.colorAttribute = RENDER_COLOR_HEIGHT; // colour by y: the two get distinct colours
    view.colorMin = 0.0f;
    view.colorMax = 0.2f;
    // Overlapping on screen; the one drawn second is farther away and higher (other colour).
    const Picture pic = draw({{0, 0, 0.5f, 1}, {0.05f, 0.2f, -0.5f, 1}}, view);
    const Picture nearOnly = draw({{0, 0, 0.5f, 1}}, view);
    const glm::vec2 centre = project(view, {0, 0, 0.5f}, pic.width, pic.height);
    EXPECT_TRUE(near(pic.at(centre), nearOnly.at(centre), 0.01f));
}

TEST_F(RenderTest, IntersectingSpheresShowTheNearestSurfacePerPixel)
{
    // Two overlapping spheres side by side. Inside the overlap, the left sphere's surface is
    // nearer left of the middle and the right one's right of it. Flat impostors would show
    // one sphere over the whole overlap.
    render::ViewSettings view;
    view.camera.position = {0.15f, 0.01f, 4};
    view.camera.target = {0.15f, 0.01f, 0};
    view.particleRadius = 0.3f;
    view.drawFloor = false;
    view.colorAttribute = RENDER_COLOR_HEIGHT;
    view.colorMin = 0.0f;
    view.colorMax = 0.02f;
    const glm::vec4 left(0, 0, 0, 1), right(0.3f, 0.02f, 0, 1);
    for (const bool leftFirst : {true, false}) {
        const Picture both = leftFirst ? draw({left, right}, view) : draw({right, left}, view);
        const Picture leftOnly = draw({left}, view);
        const Picture rightOnly = draw({right}, view);
        const glm::vec2 nearLeft = project(view, {0.08f, 0.01f, 0.29f}, both.width, both.height);
        const glm::vec2 nearRight = project(view, {0.22f, 0.01f, 0.29f}, both.width, both.height);
        EXPECT_TRUE(near(both.at(nearLeft), leftOnly.at(nearLeft), 0.01f)) << "left sphere not in front at its side";
        EXPECT_TRUE(near(both.at(nearRight), rightOnly.at(nearRight), 0.01f)) << "right sphere not in front at its side";
        EXPECT_FALSE(near(leftOnly.at(nearRight), rightOnly.at(nearRight), 0.05f)) << "the spheres' colours must differ";
    }
}

} // namespace
} // namespace floe::test
