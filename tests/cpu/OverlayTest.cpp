// The pictures' overlay (floe run --overlay): text inside its panels, a legend bar that shows
// the particles' colour map end to end, and clear errors.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "base/Error.h"
#include "render/Overlay.h"
#include "shared/fluid.h"
#include "shared/render.h"

using namespace floe;

namespace {

constexpr uint32_t kWidth = 640, kHeight = 360;

std::vector<uint8_t> grey(uint32_t width = kWidth, uint32_t height = kHeight)
{
    std::vector<uint8_t> rgba(size_t(width) * height * 4, 128);
    for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
    return rgba;
}

const uint8_t* pixel(const std::vector<uint8_t>& rgba, int x, int y, uint32_t width = kWidth)
{
    return &rgba[(size_t(y) * width + size_t(x)) * 4];
}

bool inside(const render::Overlay::Box& b, int x, int y)
{
    return x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
}

void expectColour(const std::vector<uint8_t>& rgba, int x, int y, glm::vec3 srgb)
{
    const uint8_t* p = pixel(rgba, x, y);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(int(p[c]), int(std::lround(255.0f * srgb[c])), 1) << "pixel " << x << "," << y << " channel " << c;
}

} // namespace

TEST(Overlay, TextStaysInsideItsPanelAndNothingElseChanges)
{
    const render::Overlay overlay;
    std::vector<uint8_t> rgba = grey();
    const std::vector<uint8_t> before = rgba;
    overlay.draw(rgba, kWidth, kHeight, {{"dam_break_3d", "DFSPH \u00b7 10648 particles", "t = 1.250 s"}, std::nullopt});
    ASSERT_EQ(overlay.lastBoxes().size(), 1u);
    const render::Overlay::Box box = overlay.lastBoxes()[0];
    EXPECT_GT(box.x1 - box.x0, 100) << "three lines of text need room";
    EXPECT_LT(box.x1, int(kWidth) / 2);
    int ink = 0;
    for (int y = 0; y < int(kHeight); ++y)
        for (int x = 0; x < int(kWidth); ++x) {
            const bool changed = pixel(rgba, x, y)[0] != pixel(before, x, y)[0];
            if (!inside(box, x, y)) {
                ASSERT_FALSE(changed) << "pixel " << x << "," << y << " outside the panel";
            } else {
                ASSERT_TRUE(changed) << "the panel shades every pixel it covers: " << x << "," << y;
                if (pixel(rgba, x, y)[0] > 150) ++ink; // the shaded panel is about 58
            }
        }
    EXPECT_GT(ink, 300) << "light text on the dark panel";

    // A longer line makes a wider panel.
    std::vector<uint8_t> wider = grey();
    overlay.draw(wider, kWidth, kHeight,
                 {{"dam_break_3d", "DFSPH \u00b7 10648 particles and then some more words", "t = 1.250 s"}, {}});
    EXPECT_GT(overlay.lastBoxes()[0].x1, box.x1 + 50);
}

TEST(Overlay, LegendBarShowsTheParticlesColourMapEndToEnd)
{
    const render::Overlay overlay;
    std::vector<uint8_t> rgba = grey();
    const auto legend = render::particleLegend(RENDER_MODE_PARTICLES, RENDER_COLOR_SPEED, 0.0f, 6.0f);
    ASSERT_TRUE(legend.has_value());
    overlay.draw(rgba, kWidth, kHeight, {{}, legend});
    ASSERT_TRUE(overlay.lastBar().has_value());
    const render::Overlay::Box bar = *overlay.lastBar();
    EXPECT_GT(bar.x1 - bar.x0, 100);
    EXPECT_GT(bar.x0, int(kWidth) / 2) << "the legend sits on the right";
    const int y = (bar.y0 + bar.y1) / 2;
    // The ends and the middle are the shared colour map's (shaders/render/colormap.glsl reads the same).
    expectColour(rgba, bar.x0, y, shared::viridisSample(0));
    expectColour(rgba, bar.x1 - 1, y, shared::viridisSample(8));
    const int mid = bar.x0 + (bar.x1 - 1 - bar.x0) / 2;
    expectColour(rgba, mid, y, shared::viridisSrgb(float(mid - bar.x0) / float(bar.x1 - 1 - bar.x0)));
    // The colour map's samples: the first and last of viridis, and halfway between its fifth and sixth.
    EXPECT_NEAR(shared::viridisSrgb(0.0f).r, 0.267004f, 1e-6f);
    EXPECT_NEAR(shared::viridisSrgb(1.0f).g, 0.906157f, 1e-6f);
    EXPECT_NEAR(shared::viridisSrgb(4.5f / 8.0f).b, 0.5f * (0.558148f + 0.550556f), 1e-6f);
    EXPECT_NEAR(shared::viridisSrgb(-1.0f).r, 0.267004f, 1e-6f) << "clamped below";
    EXPECT_NEAR(shared::viridisSrgb(7.0f).r, 0.993248f, 1e-6f) << "clamped above";
}

TEST(Overlay, LegendsNameTheQuantityAndUnit)
{
    EXPECT_EQ(render::particleLegend(RENDER_MODE_PARTICLES, RENDER_COLOR_SPEED, 0, 3)->quantity, "speed (m/s)");
    EXPECT_EQ(render::particleLegend(RENDER_MODE_BOTH, RENDER_COLOR_PRESSURE, 0, 1e4f)->quantity, "pressure (Pa)");
    EXPECT_EQ(render::particleLegend(RENDER_MODE_PARTICLES, RENDER_COLOR_COMPRESSION, 0, 1)->quantity, "compression (%)");
    EXPECT_FALSE(render::particleLegend(RENDER_MODE_FLUID, RENDER_COLOR_SPEED, 0, 3)) << "the surface alone has no colour map";
    EXPECT_FALSE(render::particleLegend(RENDER_MODE_PARTICLES, RENDER_COLOR_SOLID, 0, 3));
    const auto phase = render::particleLegend(RENDER_MODE_PARTICLES, RENDER_COLOR_PHASE, 0, 3);
    ASSERT_TRUE(phase.has_value());
    EXPECT_EQ(phase->categories.size(), 4u);

    // One swatch per category in the colour map's colour of its value.
    const render::Overlay overlay;
    std::vector<uint8_t> rgba = grey();
    overlay.draw(rgba, kWidth, kHeight, {{}, phase});
    ASSERT_EQ(overlay.lastBoxes().size(), 1u);
    EXPECT_FALSE(overlay.lastBar().has_value());
    int found = 0;
    for (int k = 0; k < 4; ++k) {
        const glm::vec3 c = shared::viridisSrgb(float(k) / 3.0f);
        bool seen = false;
        const render::Overlay::Box b = overlay.lastBoxes()[0];
        for (int y = b.y0; y < b.y1 && !seen; ++y)
            for (int x = b.x0; x < b.x1 && !seen; ++x) {
                const uint8_t* p = pixel(rgba, x, y);
                seen = std::abs(int(p[0]) - int(std::lround(255 * c.r))) <= 1 &&
                       std::abs(int(p[1]) - int(std::lround(255 * c.g))) <= 1 &&
                       std::abs(int(p[2]) - int(std::lround(255 * c.b))) <= 1;
            }
        found += seen ? 1 : 0;
    }
    EXPECT_EQ(found, 4);

    EXPECT_EQ(render::legendNumber(0.0f), "0");
    EXPECT_EQ(render::legendNumber(6.0106f), "6.01");
    EXPECT_EQ(render::legendNumber(3.0f), "3");
    EXPECT_EQ(render::legendNumber(120000.0f), "1.2e+05");
}

TEST(Overlay, SmallPicturesAndOddTextAreSafe)
{
    const render::Overlay overlay;
    // Panels larger than the picture are clipped, not written past its end.
    std::vector<uint8_t> tiny = grey(16, 16);
    overlay.draw(tiny, 16, 16,
                 {{"a scene name much wider than sixteen pixels", "\xff\xfe broken UTF-8 \xe2\x82", "kg/m\xc2\xb3"},
                  render::particleLegend(RENDER_MODE_PARTICLES, RENDER_COLOR_SPEED, 0, 1)});
    EXPECT_EQ(tiny.size(), 16u * 16u * 4u);
    // A buffer smaller than width x height draws nothing.
    std::vector<uint8_t> shortBuffer(10, 0);
    overlay.draw(shortBuffer, 16, 16, {{"x"}, std::nullopt});
    EXPECT_EQ(shortBuffer, std::vector<uint8_t>(10, 0));
}

TEST(Overlay, AMissingFontIsAClearError)
{
    try {
        render::Overlay overlay("/nonexistent/DejaVuSans.ttf");
        FAIL() << "no error";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("/nonexistent/DejaVuSans.ttf"), std::string::npos) << what;
        EXPECT_NE(what.find("fonts-dejavu-core"), std::string::npos) << what;
    }
    // A file that is not a font.
    try {
        render::Overlay overlay(FLOE_SOURCE_DIR "/README.md");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not a TrueType font"), std::string::npos) << e.what();
    }
}
