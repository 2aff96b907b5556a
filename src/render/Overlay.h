// Annotations drawn into a headless picture after it was read back (`floe run --overlay`): the
// scene's name, the solver and the simulated time in the top-left corner, and the colour map's
// legend with its quantity, unit and range in the top-right one (where a fluid on the floor
// rarely is), so that a picture explains
// itself when it is looked at alone. Drawn on the CPU into the sRGB pixels with the DejaVu Sans
// font (Debian's fonts-dejavu-core, rasterised by stb_truetype).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace floe::render {

// What a colour map means: the quantity with its unit and the values at its ends. With
// `categories`, the colour map holds one colour per whole value from `min` (the names, in order)
// instead of a continuous range.
struct Legend {
    std::string quantity; // "speed (m/s)"
    float min = 0.0f, max = 1.0f;
    std::vector<std::string> categories;
    bool operator==(const Legend&) const = default;
};

// The quantity a particle colouring shows, with its unit ("speed (m/s)"), or "" for solid colours.
const char* colorAttributeLabel(int attribute);
// The legend of particles coloured by `attribute` (RENDER_COLOR_*) over [min, max] in render
// `mode` (RENDER_MODE_*), or none where the picture shows no colour map (solid colours, or the
// fluid surface alone).
std::optional<Legend> particleLegend(int mode, int attribute, float min, float max);
// The colour map's sRGB colour at t in [0, 1] (shared::viridisSrgb), components in [0, 1].
glm::vec3 legendColor(float t);

struct OverlayContent {
    std::vector<std::string> lines; // top left; the first (the scene's name) larger; UTF-8
    std::optional<Legend> legend;   // top right
};

class Overlay {
public:
    // The Debian path of DejaVu Sans.
    static std::filesystem::path defaultFont();
    // Loads the font; throws floe::Error naming the file and the package when it cannot.
    explicit Overlay(const std::filesystem::path& font = defaultFont());
    ~Overlay();
    Overlay(const Overlay&) = delete;
    Overlay& operator=(const Overlay&) = delete;

    // Draws `content` into `rgba` (width x height, 8-bit sRGB, rows top to bottom). The text sits
    // on translucent dark panels; the legend's colour bar is opaque. Sizes follow the height
    // (18 px text at 720 rows).
    void draw(std::span<uint8_t> rgba, uint32_t width, uint32_t height, const OverlayContent& content) const;

    // The pixel rectangles the last draw covered (tests): x0, y0, x1, y1, exclusive ends.
    struct Box {
        int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    };
    const std::vector<Box>& lastBoxes() const { return boxes_; }
    // The last legend bar's rectangle (none without a legend).
    const std::optional<Box>& lastBar() const { return bar_; }

private:
    struct Font;
    std::unique_ptr<Font> font_;
    mutable std::vector<Box> boxes_;
    mutable std::optional<Box> bar_;
};

// A legend's tick value as text: up to three significant digits, no trailing zeros ("0.5", "3",
// "1.2e+05").
std::string legendNumber(float value);

} // namespace floe::render
