// The nearest point of a triangle, shared by the contact passes of bodies and fragments.
#ifndef FLOE_COMMON_TRIANGLE_GLSL
#define FLOE_COMMON_TRIANGLE_GLSL

// Ericson, Real-Time Collision Detection 5.1.5, as barycentric weights of the nearest point.
vec3 nearestOnTriangle(vec3 p, vec3 a, vec3 b, vec3 c)
{
    const vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return vec3(1.0, 0.0, 0.0);
    const vec3 bp = p - b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return vec3(0.0, 1.0, 0.0);
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        const float v = d1 / (d1 - d3);
        return vec3(1.0 - v, v, 0.0);
    }
    const vec3 cp = p - c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return vec3(0.0, 0.0, 1.0);
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        const float w = d2 / (d2 - d6);
        return vec3(1.0 - w, 0.0, w);
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return vec3(0.0, 1.0 - w, w);
    }
    const float denom = 1.0 / (va + vb + vc);
    const float v = vb * denom, w = vc * denom;
    return vec3(1.0 - v - w, v, w);
}

#endif
