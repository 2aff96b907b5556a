// A perspective camera with Vulkan conventions (depth 0..1, y down in clip space).
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace floe::render {

struct Camera {
    glm::vec3 position{0, 1, 4};  // m
    glm::vec3 target{0, 0.5f, 0}; // m
    glm::vec3 up{0, 1, 0};
    float fovY = 40.0f;      // degrees
    float nearPlane = 0.01f; // m
    float farPlane = 100.0f; // m

    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;

    // Frames the box [lo, hi] from the front and slightly above (3D), or straight on (2D),
    // for pictures of the given aspect ratio (width / height).
    static Camera fit(const glm::vec3& lo, const glm::vec3& hi, float fovY, bool flat, float aspect = 16.0f / 9.0f);
};

} // namespace floe::render
