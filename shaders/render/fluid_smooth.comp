#version 460
// One separable pass of the screen-space fluid's depth smoothing: a Gaussian over a radius that
// is the filter's world-space radius projected at the pixel's depth, with the narrow-range
// treatment of neighbours (shared/fluid.h). Pixels without fluid (depth 0) stay empty.
// Iterating horizontal + vertical passes smooths further (FluidSettings::iterations).
#include "shared/fluid.h"
#include "common/dispatch.glsl"
#include "common/texel.glsl"

layout(local_size_x = FLUID_GROUP_SIZE) in;
layout(std140, binding = FLUID_BIND_PARAMS) uniform Params { FluidParams params; };
layout(push_constant) uniform Push { FluidSmoothPush push; };
FLOE_IN_FLOAT(FLUID_BIND_DEPTH_IN, depthIn);
FLOE_OUT_FLOAT(FLUID_BIND_DEPTH_OUT, depthOut);

void main()
{
    const uint pixel = floeGlobalIndex();
    if (pixel >= push.pixelCount) return;
    const int width = int(params.size.x);
    const int height = int(params.size.y);
    const ivec2 p = ivec2(int(pixel) % width, int(pixel) / width);
    const float center = FLOE_LOAD_FLOAT(depthIn, pixel);
    if (push.plainRadius > 0u) {
        // A flat layer's thickness (2D): a plain Gaussian over every pixel, empty ones included,
        // so that the layer's outline becomes a smooth iso-line of the result.
        const int plain = int(push.plainRadius);
        const float s = 0.5 * float(plain);
        const ivec2 d = ivec2(push.directionX, push.directionY);
        float total = 0.0, norm = 0.0;
        for (int k = -plain; k <= plain; ++k) {
            const ivec2 q = p + k * d;
            const float w = exp(-float(k * k) / (2.0 * s * s));
            norm += w;
            if (q.x >= 0 && q.y >= 0 && q.x < width && q.y < height) total += w * FLOE_LOAD_FLOAT(depthIn, q.y * width + q.x);
        }
        FLOE_STORE_FLOAT(depthOut, pixel, total / norm);
        return;
    }
    if (center <= 0.0) {
        FLOE_STORE_FLOAT(depthOut, pixel, 0.0);
        return;
    }
    const int radius = fluidFilterPixels(center, params.smoothing.x, params.smoothing.w, params.smoothing.y);
    const float sigma = 0.5 * float(radius);
    const float inv2Sigma2 = 1.0 / (2.0 * sigma * sigma);
    const ivec2 dir = ivec2(push.directionX, push.directionY);
    const float mu = params.smoothing.z;
    float sum = 0.0;
    float weights = 0.0;
    for (int k = -radius; k <= radius; ++k) {
        const ivec2 q = p + k * dir;
        if (q.x < 0 || q.y < 0 || q.x >= width || q.y >= height) continue;
        const float z = fluidNarrowRange(center, FLOE_LOAD_FLOAT(depthIn, q.y * width + q.x), mu);
        if (z < 0.0) continue;
        const float w = exp(-float(k * k) * inv2Sigma2);
        sum += w * z;
        weights += w;
    }
    // The centre always contributes (weight 1), so weights > 0.
    FLOE_STORE_FLOAT(depthOut, pixel, sum / weights);
}
