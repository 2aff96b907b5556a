// Plain CPU implementations the GPU passes are compared with. Tests only.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace floe::reference {

std::vector<uint32_t> exclusiveScan(const std::vector<uint32_t>& in);
// Records of `width` floats; heads[i] != 0 (or i == 0) starts a segment. Sums in double.
std::vector<double> segmentedInclusiveScan(const std::vector<float>& in, const std::vector<uint32_t>& heads, uint32_t width);
// Per element of the result: the sum of |in| over the same range (for error bounds).
std::vector<double> segmentedAbsoluteSum(const std::vector<float>& in, const std::vector<uint32_t>& heads, uint32_t width);
// Stable sort by the low `keyBits` bits of the keys.
void stableSortPairs(std::vector<uint32_t>& keys, std::vector<uint32_t>& values, uint32_t keyBits);

} // namespace floe::reference

namespace floe::reference {

// The foundation's integrator (shaders/sim/integrate.comp) on the CPU, same float operations.
struct IntegratorParams {
    glm::vec3 gravity;
    float dt;
    glm::vec3 domainMin, domainMax;
    float radius, restitution, friction;
    int dimensions;
};
void integrate(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities, const IntegratorParams& p);

} // namespace floe::reference
