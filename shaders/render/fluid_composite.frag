#version 460
// Screen-space fluid, last pass (van der Laan et al. 2009; Green 2010): normals from the
// smoothed eye depth, Fresnel reflection of a sky gradient, refraction of the solid scene
// behind the fluid with Beer-Lambert absorption by thickness, light scattered inside thick
// fluid, a specular highlight. Writes every pixel: the scene's colour where there is no fluid
// or where a solid is in front of it.
#include "shared/fluid.h"
#include "common/texel.glsl"
#include "render/colormap.glsl"

layout(std140, binding = FLUID_BIND_PARAMS) uniform Params { FluidParams params; };
FLOE_IN_FLOAT(FLUID_BIND_DEPTH, depth);
FLOE_IN_FLOAT(FLUID_BIND_THICKNESS, thickness);
FLOE_IN_VEC4(FLUID_BIND_SCENE_COLOR, sceneColor);
FLOE_IN_FLOAT(FLUID_BIND_SCENE_DEPTH, sceneDepth);

layout(location = 0) out vec4 color;

int width() { return int(params.size.x); }
int height() { return int(params.size.y); }
int pixelIndex(ivec2 p) { return p.y * width() + p.x; }
bool inside(ivec2 p) { return p.x >= 0 && p.y >= 0 && p.x < width() && p.y < height(); }

float eyeDepthAt(ivec2 p)
{
    return inside(p) ? FLOE_LOAD_FLOAT(depth, pixelIndex(p)) : 0.0;
}

// View-space position of pixel p's centre at eye depth z (> 0).
vec3 viewPositionAt(ivec2 p, float z)
{
    const vec2 ndc = (vec2(p) + 0.5) * params.size.zw * 2.0 - 1.0;
    return vec3(ndc.x * z / params.projection[0][0], ndc.y * z / params.projection[1][1], -z);
}

vec3 sceneAt(ivec2 p)
{
    const ivec2 q = clamp(p, ivec2(0), ivec2(width() - 1, height() - 1));
    return srgbToLinear(FLOE_LOAD_VEC4(sceneColor, pixelIndex(q)).rgb);
}

// Of the two one-sided differences, the one with the smaller depth step (Green 2010), so that
// silhouettes do not bend the normals; a missing neighbour uses the other side.
vec3 tangent(ivec2 p, ivec2 step, vec3 center)
{
    const float zForward = eyeDepthAt(p + step);
    const float zBackward = eyeDepthAt(p - step);
    const vec3 forward = zForward > 0.0 ? viewPositionAt(p + step, zForward) - center : vec3(0.0);
    const vec3 backward = zBackward > 0.0 ? center - viewPositionAt(p - step, zBackward) : vec3(0.0);
    if (zForward <= 0.0) return backward;
    if (zBackward <= 0.0) return forward;
    return abs(forward.z) < abs(backward.z) ? forward : backward;
}

vec3 sky(vec3 worldDirection)
{
    const vec3 horizon = vec3(0.62, 0.70, 0.78);
    const vec3 zenith = vec3(0.16, 0.32, 0.62);
    const vec3 ground = vec3(0.18, 0.17, 0.16);
    const float y = worldDirection.y;
    return y >= 0.0 ? mix(horizon, zenith, sqrt(y)) : mix(horizon, ground, sqrt(-y));
}

float thicknessAt(ivec2 p)
{
    const ivec2 q = clamp(p, ivec2(0), ivec2(width() - 1, height() - 1));
    return FLOE_LOAD_FLOAT(thickness, pixelIndex(q));
}

// A flat layer (2D, params.surface.x = 1): the region inside the smoothed thickness's iso-line,
// anti-aliased over a pixel, in one even tint (the bulk layer's absorption, facing the camera),
// with a light outline along the iso-line, so that the layer reads as one body of fluid and not
// as its particles.
void flatLayer(ivec2 p, vec3 background)
{
    const float t = thicknessAt(p);
    const float iso = params.surface.y;
    // Signed distance to the iso-line in pixels, from the field's gradient.
    const vec2 g = 0.5 * vec2(thicknessAt(p + ivec2(1, 0)) - thicknessAt(p - ivec2(1, 0)),
                              thicknessAt(p + ivec2(0, 1)) - thicknessAt(p - ivec2(0, 1)));
    const float d = (t - iso) / max(length(g), 1e-3 * iso);
    const float coverage = clamp(d + 0.5, 0.0, 1.0);
    if (coverage <= 0.0) {
        color = vec4(background, 1.0);
        return;
    }
    // Depth: the particles' where they are drawn, else the plane z = 0 of a 2D scene (the ray
    // from the eye through the pixel, met in world space).
    float z = eyeDepthAt(p);
    if (z <= 0.0) {
        const vec3 ray = viewPositionAt(p, 1.0);
        const mat3 toWorld = transpose(mat3(params.view));
        const vec3 eye = -(toWorld * params.view[3].xyz);
        const vec3 dir = toWorld * ray;
        z = abs(dir.z) > 1e-6 ? max(-eye.z / dir.z, 0.0) : 0.0;
    }
    if (z > 0.0) {
        const vec4 clip = params.projection * vec4(viewPositionAt(p, z), 1.0);
        if (FLOE_LOAD_FLOAT(sceneDepth, pixelIndex(p)) < clip.z / clip.w) { // a solid in front
            color = vec4(background, 1.0);
            return;
        }
    }
    const vec3 transmittance = exp(-params.absorption.rgb * params.surface.z);
    const float diffuse = 0.35 + 0.65 * max(params.lightDirection.z, 0.0);
    vec3 fluid = background * transmittance + params.scatter.rgb * diffuse * (1.0 - transmittance);
    const float rim = 1.0 - smoothstep(0.0, params.surface.w, d);
    fluid = mix(fluid, vec3(0.75, 0.88, 0.95), 0.7 * rim);
    color = vec4(mix(background, fluid, coverage), 1.0);
}

void main()
{
    const ivec2 p = ivec2(gl_FragCoord.xy);
    const vec3 background = sceneAt(p);
    if (params.surface.x > 0.0) {
        flatLayer(p, background);
        return;
    }
    const float z = eyeDepthAt(p);
    if (z <= 0.0) {
        color = vec4(background, 1.0);
        return;
    }
    const vec3 position = viewPositionAt(p, z);
    const vec4 clip = params.projection * vec4(position, 1.0);
    if (FLOE_LOAD_FLOAT(sceneDepth, pixelIndex(p)) < clip.z / clip.w) { // a solid in front
        color = vec4(background, 1.0);
        return;
    }
    vec3 n = normalize(cross(tangent(p, ivec2(1, 0), position), tangent(p, ivec2(0, 1), position)));
    const vec3 toEye = normalize(-position);
    if (dot(n, toEye) < 0.0) n = -n;
    if (any(isnan(n))) n = toEye; // an isolated pixel: no neighbours, face the camera

    // Fresnel (Schlick, water F0 = 0.02) and the sky seen in the reflection, in world space.
    const float cosTheta = clamp(dot(n, toEye), 0.0, 1.0);
    const float fresnel = 0.02 + 0.98 * pow(1.0 - cosTheta, 5.0);
    const vec3 reflected = reflect(-toEye, n);
    const vec3 worldReflected = normalize(transpose(mat3(params.view)) * reflected);
    const vec3 reflection = sky(worldReflected);

    // Refraction: the scene behind, displaced along the normal by the thickness, attenuated by
    // Beer-Lambert absorption; light scattered inside fills in what is absorbed.
    const float t = FLOE_LOAD_FLOAT(thickness, pixelIndex(p));
    const ivec2 offset = ivec2(round(n.xy * vec2(1.0, -1.0) * params.absorption.w * t));
    const vec3 behind = sceneAt(p + offset);
    const vec3 transmittance = exp(-params.absorption.rgb * t);
    const vec3 l = params.lightDirection.xyz;
    const float diffuse = 0.35 + 0.65 * max(dot(n, l), 0.0);
    const vec3 refraction = behind * transmittance + params.scatter.rgb * diffuse * (1.0 - transmittance);

    const vec3 halfway = normalize(l + toEye);
    const float specular = pow(max(dot(n, halfway), 0.0), params.scatter.w);
    color = vec4(mix(refraction, reflection, fresnel) + vec3(0.6 * specular), 1.0);
}
