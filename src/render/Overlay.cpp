#include "render/Overlay.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <stb_truetype.h>

#include "base/Error.h"
#include "shared/fluid.h"
#include "shared/render.h"

namespace floe::render {

const char* colorAttributeLabel(int attribute)
{
    switch (attribute) {
    case RENDER_COLOR_SPEED: return "speed (m/s)";
    case RENDER_COLOR_HEIGHT: return "height (m)";
    case RENDER_COLOR_DENSITY: return "density (kg/m\xc2\xb3)";
    case RENDER_COLOR_COMPRESSION: return "compression (%)";
    case RENDER_COLOR_PRESSURE: return "pressure (Pa)";
    case RENDER_COLOR_PHASE: return "solver phase";
    default: return "";
    }
}

std::optional<Legend> particleLegend(int mode, int attribute, float min, float max)
{
    if (mode == RENDER_MODE_FLUID || attribute == RENDER_COLOR_SOLID) return std::nullopt;
    const char* label = colorAttributeLabel(attribute);
    if (*label == '\0') return std::nullopt;
    Legend legend{label, min, max, {}};
    // particles.vert: 0 free (no pressure), 1 under pressure, 2 clamped at a wall, 3 escaped.
    if (attribute == RENDER_COLOR_PHASE) legend.categories = {"free", "under pressure", "at a wall", "escaped"};
    return legend;
}

glm::vec3 legendColor(float t)
{
    return shared::viridisSrgb(t);
}

std::string legendNumber(float value)
{
    if (value == 0.0f) return "0";
    return fmt::format("{:.3g}", value);
}

namespace {

// Code points of UTF-8 text; a malformed byte stands for itself.
std::vector<uint32_t> codePoints(const std::string& text)
{
    std::vector<uint32_t> out;
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        uint32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1Fu) : extra == 2 ? (c & 0x0Fu) : (c & 0x07u);
        bool ok = i + size_t(extra) < text.size();
        for (int k = 1; ok && k <= extra; ++k) {
            const auto d = static_cast<unsigned char>(text[i + size_t(k)]);
            if ((d & 0xC0u) != 0x80u) ok = false;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        if (!ok) {
            out.push_back(c);
            ++i;
        } else {
            out.push_back(cp);
            i += size_t(extra) + 1;
        }
    }
    return out;
}

} // namespace

struct Overlay::Font {
    std::vector<unsigned char> data;
    stbtt_fontinfo info{};
};

std::filesystem::path Overlay::defaultFont()
{
    return "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

Overlay::Overlay(const std::filesystem::path& font) : font_(std::make_unique<Font>())
{
    std::ifstream in(font, std::ios::binary);
    if (!in)
        throw Error(
            fmt::format("--overlay: cannot read the font {} (Debian package fonts-dejavu-core; tools/install-deps.sh installs it)",
                        font.string()),
            ExitCode::Failure);
    font_->data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const int offset = font_->data.empty() ? -1 : stbtt_GetFontOffsetForIndex(font_->data.data(), 0);
    if (offset < 0 || !stbtt_InitFont(&font_->info, font_->data.data(), offset))
        throw Error(fmt::format("--overlay: {} is not a TrueType font", font.string()), ExitCode::Failure);
}

Overlay::~Overlay() = default;

namespace {

struct Canvas {
    std::span<uint8_t> rgba;
    int width, height;

    // Blends `color` (sRGB, 0-1) over the pixel with coverage `alpha` in [0, 1].
    void blend(int x, int y, glm::vec3 color, float alpha)
    {
        if (x < 0 || y < 0 || x >= width || y >= height || alpha <= 0.0f) return;
        uint8_t* p = &rgba[(size_t(y) * size_t(width) + size_t(x)) * 4];
        for (int c = 0; c < 3; ++c) {
            const float v = float(p[c]) * (1.0f - alpha) + 255.0f * color[c] * alpha;
            p[c] = static_cast<uint8_t>(std::clamp(std::lround(v), 0l, 255l));
        }
        p[3] = 255;
    }
    void fill(const Overlay::Box& b, glm::vec3 color, float alpha)
    {
        for (int y = std::max(b.y0, 0); y < std::min(b.y1, height); ++y)
            for (int x = std::max(b.x0, 0); x < std::min(b.x1, width); ++x) blend(x, y, color, alpha);
    }
};

struct Typesetter {
    const stbtt_fontinfo& info;
    float scale;
    int ascent, lineHeight;

    Typesetter(const stbtt_fontinfo& font, int pixels) : info(font), scale(stbtt_ScaleForPixelHeight(&font, float(pixels)))
    {
        int a = 0, d = 0, gap = 0;
        stbtt_GetFontVMetrics(&info, &a, &d, &gap);
        ascent = int(std::ceil(float(a) * scale));
        lineHeight = int(std::ceil(float(a - d + gap) * scale));
    }

    // The pen's move after code point k of `cps`: its advance and the kerning with the next.
    float advance(const std::vector<uint32_t>& cps, size_t k) const
    {
        int advance = 0, bearing = 0;
        stbtt_GetCodepointHMetrics(&info, int(cps[k]), &advance, &bearing);
        const int kern = k + 1 < cps.size() ? stbtt_GetCodepointKernAdvance(&info, int(cps[k]), int(cps[k + 1])) : 0;
        return float(advance + kern) * scale;
    }

    float width(const std::string& text) const
    {
        const std::vector<uint32_t> cps = codePoints(text);
        float x = 0;
        for (size_t k = 0; k < cps.size(); ++k) x += advance(cps, k);
        return x;
    }

    // Draws `text` with its top-left corner (the line's top, not the baseline) at (x, y).
    void draw(Canvas& canvas, const std::string& text, float x, int y, glm::vec3 color) const
    {
        const std::vector<uint32_t> cps = codePoints(text);
        const int baseline = y + ascent;
        std::vector<unsigned char> glyph;
        for (size_t k = 0; k < cps.size(); ++k) {
            const int cp = int(cps[k]);
            const float shift = x - std::floor(x);
            int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
            stbtt_GetCodepointBitmapBoxSubpixel(&info, cp, scale, scale, shift, 0.0f, &x0, &y0, &x1, &y1);
            const int w = x1 - x0, h = y1 - y0;
            if (w > 0 && h > 0) {
                glyph.assign(size_t(w) * size_t(h), 0);
                stbtt_MakeCodepointBitmapSubpixel(&info, glyph.data(), w, h, w, scale, scale, shift, 0.0f, cp);
                const int left = int(std::floor(x)) + x0, top = baseline + y0;
                for (int gy = 0; gy < h; ++gy)
                    for (int gx = 0; gx < w; ++gx)
                        canvas.blend(left + gx, top + gy, color, float(glyph[size_t(gy) * size_t(w) + size_t(gx)]) / 255.0f);
            }
            x += advance(cps, k);
        }
    }
};

} // namespace

void Overlay::draw(std::span<uint8_t> rgba, uint32_t width, uint32_t height, const OverlayContent& content) const
{
    boxes_.clear();
    bar_.reset();
    if (rgba.size() < size_t(width) * height * 4 || width == 0 || height == 0) return;
    Canvas canvas{rgba, int(width), int(height)};
    const int px = std::max(11, int(std::lround(float(height) / 40.0f)));
    const Typesetter text(font_->info, px);
    const Typesetter title(font_->info, int(std::lround(float(px) * 1.3f)));
    const int margin = int(std::lround(float(px) * 0.6f)), pad = int(std::lround(float(px) * 0.45f));
    const glm::vec3 ink(0.95f), shade(0.0f);
    const float shadeAlpha = 0.55f;

    if (!content.lines.empty()) {
        float widest = 0;
        int tall = 0;
        for (size_t k = 0; k < content.lines.size(); ++k) {
            const Typesetter& t = k == 0 ? title : text;
            widest = std::max(widest, t.width(content.lines[k]));
            tall += t.lineHeight;
        }
        const Box box{margin, margin, margin + int(std::ceil(widest)) + 2 * pad, margin + tall + 2 * pad};
        canvas.fill(box, shade, shadeAlpha);
        boxes_.push_back(box);
        int y = box.y0 + pad;
        for (size_t k = 0; k < content.lines.size(); ++k) {
            const Typesetter& t = k == 0 ? title : text;
            t.draw(canvas, content.lines[k], float(box.x0 + pad), y, ink);
            y += t.lineHeight;
        }
    }

    if (content.legend) {
        const Legend& l = *content.legend;
        const int swatch = int(std::lround(float(px) * 0.8f));
        if (!l.categories.empty()) {
            // One swatch per whole value from min, each with its name.
            float widest = text.width(l.quantity);
            for (const std::string& c : l.categories) widest = std::max(widest, float(swatch + pad) + text.width(c));
            const int rows = int(l.categories.size()) + 1;
            const int tall = rows * text.lineHeight;
            const int boxWidth = int(std::ceil(widest)) + 2 * pad;
            const Box box{int(width) - margin - boxWidth, margin, int(width) - margin, margin + tall + 2 * pad};
            canvas.fill(box, shade, shadeAlpha);
            boxes_.push_back(box);
            int y = box.y0 + pad;
            text.draw(canvas, l.quantity, float(box.x0 + pad), y, ink);
            const float range = std::max(l.max - l.min, 1e-6f);
            for (size_t k = 0; k < l.categories.size(); ++k) {
                y += text.lineHeight;
                const float t = (float(k) - l.min) / range; // category k has the value k
                const int sy = y + (text.lineHeight - swatch) / 2;
                canvas.fill(Box{box.x0 + pad, sy, box.x0 + pad + swatch, sy + swatch}, legendColor(t), 1.0f);
                text.draw(canvas, l.categories[k], float(box.x0 + pad + swatch + pad), y, ink);
            }
        } else {
            // The quantity, the bar, and the values at its ends and middle.
            const std::string lo = legendNumber(l.min), mid = legendNumber(0.5f * (l.min + l.max)), hi = legendNumber(l.max);
            const int barWidth = std::max(int(std::lround(float(px) * 12.0f)),
                                          int(std::ceil(text.width(lo) + text.width(mid) + text.width(hi))) + 2 * pad);
            const int barHeight = swatch;
            const int inner = std::max(barWidth, int(std::ceil(text.width(l.quantity))));
            const int tall = text.lineHeight + pad / 2 + barHeight + text.lineHeight;
            const Box box{int(width) - margin - inner - 2 * pad, margin, int(width) - margin, margin + tall + 2 * pad};
            canvas.fill(box, shade, shadeAlpha);
            boxes_.push_back(box);
            int y = box.y0 + pad;
            text.draw(canvas, l.quantity, float(box.x0 + pad), y, ink);
            y += text.lineHeight + pad / 2;
            const Box bar{box.x0 + pad, y, box.x0 + pad + barWidth, y + barHeight};
            for (int x = bar.x0; x < bar.x1; ++x) {
                const glm::vec3 c = legendColor(float(x - bar.x0) / float(std::max(barWidth - 1, 1)));
                for (int yy = bar.y0; yy < bar.y1; ++yy) canvas.blend(x, yy, c, 1.0f);
            }
            bar_ = bar;
            y += barHeight;
            text.draw(canvas, lo, float(bar.x0), y, ink);
            text.draw(canvas, mid, float(bar.x0) + 0.5f * (float(barWidth) - text.width(mid)), y, ink);
            text.draw(canvas, hi, float(bar.x1) - text.width(hi), y, ink);
        }
    }
}

} // namespace floe::render
