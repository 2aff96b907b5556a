// Viridis (van der Walt and Smith, matplotlib): perceptually uniform, readable in grey and by
// colour-blind readers. Piecewise linear through nine samples of the published table (sRGB),
// returned as linear RGB for sRGB render targets.
#ifndef FLOE_RENDER_COLORMAP_GLSL
#define FLOE_RENDER_COLORMAP_GLSL

vec3 srgbToLinear(vec3 c)
{
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), greaterThan(c, vec3(0.04045)));
}

vec3 colormap(float t)
{
    const vec3 samples[9] = vec3[](vec3(0.267004, 0.004874, 0.329415), vec3(0.282623, 0.140926, 0.457517),
                                   vec3(0.253935, 0.265254, 0.529983), vec3(0.206756, 0.371758, 0.553117),
                                   vec3(0.163625, 0.471133, 0.558148), vec3(0.127568, 0.566949, 0.550556),
                                   vec3(0.134692, 0.658636, 0.517649), vec3(0.266941, 0.748751, 0.440573),
                                   vec3(0.993248, 0.906157, 0.143936));
    const float x = clamp(t, 0.0, 1.0) * 8.0;
    const int i = min(int(x), 7);
    return srgbToLinear(mix(samples[i], samples[i + 1], x - float(i)));
}

#endif
