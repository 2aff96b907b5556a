// The closest point of a triangle to a point, with its barycentric weights (the contacts
// between deformable and fracture bodies, shared/solid_contacts.h).
#ifndef FLOE_COUPLING_TRIANGLE_POINT_GLSL
#define FLOE_COUPLING_TRIANGLE_POINT_GLSL

vec3 closestOnTriangle(vec3 p, vec3 a, vec3 b, vec3 c, out vec3 weights)
{
    // Ericson, Real-Time Collision Detection 5.1.5, with the barycentric weights of the point.
    const vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    weights = vec3(1.0, 0.0, 0.0);
    if (d1 <= 0.0 && d2 <= 0.0) return a;
    const vec3 bp = p - b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    weights = vec3(0.0, 1.0, 0.0);
    if (d3 >= 0.0 && d4 <= d3) return b;
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        const float v = d1 / (d1 - d3);
        weights = vec3(1.0 - v, v, 0.0);
        return a + v * ab;
    }
    const vec3 cp = p - c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    weights = vec3(0.0, 0.0, 1.0);
    if (d6 >= 0.0 && d5 <= d6) return c;
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        const float w = d2 / (d2 - d6);
        weights = vec3(1.0 - w, 0.0, w);
        return a + w * ac;
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        weights = vec3(0.0, 1.0 - w, w);
        return b + w * (c - b);
    }
    const float denom = 1.0 / (va + vb + vc);
    const float v = vb * denom, w = vc * denom;
    weights = vec3(1.0 - v - w, v, w);
    return a + ab * v + ac * w;
}

#endif
