// The particles' colour map: viridis (shaders/shared/render.h, viridisSrgb), returned as linear
// RGB for sRGB render targets.
#ifndef FLOE_RENDER_COLORMAP_GLSL
#define FLOE_RENDER_COLORMAP_GLSL
#include "shared/render.h"

vec3 srgbToLinear(vec3 c)
{
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), greaterThan(c, vec3(0.04045)));
}

vec3 colormap(float t)
{
    return srgbToLinear(viridisSrgb(t));
}

#endif
