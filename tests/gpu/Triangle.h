// CPU geometry shared by the GPU tests' references.
#pragma once

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace floe::test {

// Ericson's closest point on triangle abc to p (Real-Time Collision Detection 5.1.5), in double,
// with its barycentric weights w: the CPU references' counterpart of the shaders' triangle tests.
inline glm::dvec3 closestOnTriangle(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                                    glm::dvec3& w)
{
    const glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return w = {1, 0, 0}, a;
    const glm::dvec3 bp = p - b;
    const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return w = {0, 1, 0}, b;
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        const double v = d1 / (d1 - d3);
        return w = {1 - v, v, 0}, a + v * ab;
    }
    const glm::dvec3 cp = p - c;
    const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return w = {0, 0, 1}, c;
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        const double t = d2 / (d2 - d6);
        return w = {1 - t, 0, t}, a + t * ac;
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return w = {0, 1 - t, t}, b + t * (c - b);
    }
    const double denom = 1.0 / (va + vb + vc);
    const double v = vb * denom, t = vc * denom;
    return w = {1 - v - t, v, t}, a + ab * v + ac * t;
}

} // namespace floe::test
