#include "Reference.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace floe::reference {

std::vector<uint32_t> exclusiveScan(const std::vector<uint32_t>& in)
{
    std::vector<uint32_t> out(in.size());
    uint32_t running = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        out[i] = running;
        running += in[i];
    }
    return out;
}

std::vector<double> segmentedInclusiveScan(const std::vector<float>& in, const std::vector<uint32_t>& heads, uint32_t width)
{
    std::vector<double> out(in.size());
    std::vector<double> running(width, 0.0);
    for (size_t i = 0; i < heads.size(); ++i) {
        if (heads[i] || i == 0) std::fill(running.begin(), running.end(), 0.0);
        for (uint32_t c = 0; c < width; ++c) {
            running[c] += in[i * width + c];
            out[i * width + c] = running[c];
        }
    }
    return out;
}

std::vector<double> segmentedAbsoluteSum(const std::vector<float>& in, const std::vector<uint32_t>& heads, uint32_t width)
{
    std::vector<float> absolute(in.size());
    std::transform(in.begin(), in.end(), absolute.begin(), [](float x) { return std::fabs(x); });
    return segmentedInclusiveScan(absolute, heads, width);
}

void stableSortPairs(std::vector<uint32_t>& keys, std::vector<uint32_t>& values, uint32_t keyBits)
{
    const uint32_t mask = keyBits >= 32 ? ~0u : ((1u << keyBits) - 1u);
    std::vector<size_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return (keys[a] & mask) < (keys[b] & mask); });
    std::vector<uint32_t> k(keys.size()), v(values.size());
    for (size_t i = 0; i < order.size(); ++i) {
        k[i] = keys[order[i]];
        v[i] = values[order[i]];
    }
    keys.swap(k);
    values.swap(v);
}

} // namespace floe::reference

namespace floe::reference {

void integrate(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities, const IntegratorParams& p)
{
    for (size_t i = 0; i < positions.size(); ++i) {
        glm::vec4& x = positions[i];
        glm::vec4& v = velocities[i];
        for (int k = 0; k < 3; ++k) v[k] += p.gravity[k] * p.dt;
        for (int k = 0; k < 3; ++k) x[k] += v[k] * p.dt;
        const glm::vec3 lo = p.domainMin + p.radius;
        const glm::vec3 hi = p.domainMax - p.radius;
        for (int axis = 0; axis < p.dimensions; ++axis) {
            const bool below = x[axis] < lo[axis];
            const bool above = x[axis] > hi[axis];
            if (!below && !above) continue;
            x[axis] = below ? lo[axis] : hi[axis];
            const float inward = below ? 1.0f : -1.0f;
            if (v[axis] * inward < 0.0f) {
                v[axis] = -p.restitution * v[axis];
                for (int t = 0; t < p.dimensions; ++t)
                    if (t != axis) v[t] *= 1.0f - p.friction;
            }
        }
        if (p.dimensions == 2) {
            x.z = 0.0f;
            v.z = 0.0f;
        }
    }
}

} // namespace floe::reference
