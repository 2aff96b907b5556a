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

FLOE_SHARED_END
#endif
