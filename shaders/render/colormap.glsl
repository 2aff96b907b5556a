// A perceptually ordered colour map (dark blue to yellow, close to viridis) as a cubic fit.
#ifndef FLOE_RENDER_COLORMAP_GLSL
#define FLOE_RENDER_COLORMAP_GLSL

vec3 colormap(float t)
{
    const vec3 c0 = vec3(0.267, 0.005, 0.329);
    const vec3 c1 = vec3(0.157, 1.180, 0.730);
    const vec3 c2 = vec3(0.600, 0.050, -1.400);
    const vec3 c3 = vec3(-0.030, -0.330, 0.480);
    return clamp(c0 + t * (c1 + t * (c2 + t * c3)), 0.0, 1.0);
}

#endif
