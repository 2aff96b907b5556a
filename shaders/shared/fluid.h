// Screen-space fluid surface (src/render/FluidSurface.cpp, shaders/render/fluid_*): constants
// and bindings shared by C++ and GLSL.
#ifndef FLOE_SHARED_FLUID_H
#define FLOE_SHARED_FLUID_H
#include "shared/types.h"

#define FLUID_BIND_PARAMS 0      // uniform buffer: FluidParams
#define FLUID_BIND_DEPTH_IN 1    // smoothing: eye depth in (float per pixel, 0 = no fluid)
#define FLUID_BIND_DEPTH_OUT 2   // smoothing: eye depth out
#define FLUID_BIND_DEPTH 1       // composite: smoothed eye depth (float per pixel, 0 = no fluid)
#define FLUID_BIND_THICKNESS 2   // composite: fluid thickness along the view ray (half float, m)
#define FLUID_BIND_SCENE_COLOR 3 // composite: the solid scene's colour (RGBA8, sRGB-encoded)
#define FLUID_BIND_SCENE_DEPTH 4 // composite: the solid scene's depth (float, 0..1 Vulkan depth)

#define FLUID_GROUP_SIZE 256

// Render modes (ViewSettings::mode).
#define RENDER_MODE_PARTICLES 0
#define RENDER_MODE_FLUID 1
#define RENDER_MODE_BOTH 2 // the fluid surface over the particles, which show through it

FLOE_SHARED_BEGIN

struct FluidParams {
    mat4 view;           // world to view
    mat4 projection;     // view to clip (Vulkan: y down, depth 0..1)
    vec4 size;           // width, height, 1/width, 1/height (pixels)
    vec4 smoothing;      // x filter radius (m), y largest filter radius (pixels), z depth range mu (m), w pixels per m at depth 1 m
    vec4 absorption;     // rgb Beer-Lambert absorption (1/m), w refraction strength (pixels per m of thickness)
    vec4 lightDirection; // view space, normalised, towards the light
    vec4 scatter;        // rgb colour light scattered inside the fluid, w specular exponent
    vec4 surface; // a flat (2D) layer: x 1 (else 0), y the iso-thickness of its outline (m), z the bulk layer's thickness (m), w
                  // the outline's width (pixels)
};
SHARED_SIZE(FluidParams, 224);

// Push constants of one separable smoothing pass.
struct FluidSmoothPush {
    uint directionX; // 1 for the horizontal pass, 0 for the vertical one
    uint directionY;
    uint pixelCount;
    uint plainRadius; // 0: the depth's narrow-range filter; else a plain Gaussian of this radius (pixels) over every pixel
};
SHARED_SIZE(FluidSmoothPush, 16);

// The filter radius in pixels for a pixel at eye depth `depth` (m): the world-space radius
// projected, at least one pixel, at most `maxPixels` (bounds the cost of near pixels).
SHARED_FN int fluidFilterPixels(float depth, float radiusMeters, float pixelsPerMeter, float maxPixels)
{
    const float r = radiusMeters * pixelsPerMeter / max(depth, 1e-6f);
    return int(min(max(r, 1.0f), maxPixels) + 0.5f);
}

// Narrow-range treatment of one neighbour depth (after Truong and Yuksel 2018): neighbours more
// than mu behind the centre belong to another layer and are left out (returns a negative
// depth); neighbours more than mu in front are clamped to centre - mu, so that a nearer layer
// cannot pull the surface towards the camera by more than mu.
SHARED_FN float fluidNarrowRange(float center, float neighbour, float mu)
{
    if (neighbour <= 0.0f || neighbour > center + mu) return -1.0f;
    return max(neighbour, center - mu);
}

FLOE_SHARED_END
#endif
