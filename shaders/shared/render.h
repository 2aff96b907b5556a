// Per-frame constants of the renderer (src/render/Renderer.cpp, shaders/render/*).
#ifndef FLOE_SHARED_RENDER_H
#define FLOE_SHARED_RENDER_H
#include "shared/types.h"

#define RENDER_BIND_FRAME 0      // uniform buffer: RenderParams
#define RENDER_BIND_POSITIONS 1  // uniform texel buffer: particle positions (vec4)
#define RENDER_BIND_VELOCITIES 2 // uniform texel buffer: particle velocities (vec4; w pressure Pa)
#define RENDER_BIND_METRICS_A 3  // uniform texel buffer: per-particle metrics A (vec4; y compression)
#define RENDER_BIND_METRICS_B 4  // uniform texel buffer: per-particle metrics B (vec4; w density kg/m^3)

// Colour attributes of particles.
#define RENDER_COLOR_SPEED 0
#define RENDER_COLOR_HEIGHT 1
#define RENDER_COLOR_SOLID 2       // grey: boundary particles
#define RENDER_COLOR_DENSITY 3     // kg/m^3
#define RENDER_COLOR_COMPRESSION 4 // percent: max(0, rho/rho0 - 1) * 100
#define RENDER_COLOR_PRESSURE 5    // Pa
// Solver phase of each particle in the last step: 0 free (pressure 0: free surface or
// expanded, outside the pressure solve), 1 under pressure, 2 clamped by a domain wall or the
// container's fallback, 3 escaped or not finite.
#define RENDER_COLOR_PHASE 6

FLOE_SHARED_BEGIN

struct RenderParams {
    mat4 view;
    mat4 projection;
    vec4 lightDirection; // view space, normalised, towards the light
    vec4 particle;       // x radius (m), y colour range min, z colour range max, w colour attribute
    vec4 floor;          // x height (m), y half extent (m), z centre x, w centre z
    vec4 viewport;       // width, height, 1/width, 1/height (pixels)
};
SHARED_SIZE(RenderParams, 192);

// Viridis (van der Walt and Smith, matplotlib): perceptually uniform, readable in grey and by
// colour-blind readers. Piecewise linear through nine samples of the published table, as sRGB
// values. The particles (shaders/render/colormap.glsl), the window's legend and the pictures'
// overlay (src/render/Overlay.cpp) all read these samples.
SHARED_FN vec3 viridisSample(int i)
{
    if (i <= 0) return vec3(0.267004f, 0.004874f, 0.329415f);
    if (i == 1) return vec3(0.282623f, 0.140926f, 0.457517f);
    if (i == 2) return vec3(0.253935f, 0.265254f, 0.529983f);
    if (i == 3) return vec3(0.206756f, 0.371758f, 0.553117f);
    if (i == 4) return vec3(0.163625f, 0.471133f, 0.558148f);
    if (i == 5) return vec3(0.127568f, 0.566949f, 0.550556f);
    if (i == 6) return vec3(0.134692f, 0.658636f, 0.517649f);
    if (i == 7) return vec3(0.266941f, 0.748751f, 0.440573f);
    return vec3(0.993248f, 0.906157f, 0.143936f);
}

// The colour map at t in [0, 1] (clamped), sRGB.
SHARED_FN vec3 viridisSrgb(float t)
{
    const float x = min(max(t, 0.0f), 1.0f) * 8.0f;
    const int i = min(int(x), 7);
    const vec3 a = viridisSample(i);
    return a + (viridisSample(i + 1) - a) * (x - float(i));
}

FLOE_SHARED_END
#endif
