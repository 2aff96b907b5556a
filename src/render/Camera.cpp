#include "render/Camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace floe::render {

glm::mat4 Camera::view() const
{
    return glm::lookAt(position, target, up);
}

glm::mat4 Camera::projection(float aspect) const
{
    glm::mat4 p = glm::perspective(glm::radians(fovY), aspect, nearPlane, farPlane);
    p[1][1] *= -1.0f; // Vulkan's clip space has y pointing down
    return p;
}

Camera Camera::fit(const glm::vec3& lo, const glm::vec3& hi, float fovY, bool flat, float aspect)
{
    Camera c;
    c.fovY = fovY;
    const glm::vec3 center = 0.5f * (lo + hi);
    const float radius = std::max(0.5f * glm::length(hi - lo), 1e-3f);
    const float tanHalf = std::tan(glm::radians(fovY) * 0.5f);
    // 2D: the rectangle fills the picture; 3D: the bounding sphere fits.
    const float distance =
        flat ? 1.08f * std::max(0.5f * (hi.y - lo.y) / tanHalf, 0.5f * (hi.x - lo.x) / (tanHalf * aspect)) + 0.5f * (hi.z - lo.z)
             : radius / std::sin(glm::radians(fovY) * 0.5f) * 1.05f;
    const glm::vec3 direction = flat ? glm::vec3(0, 0, 1) : glm::normalize(glm::vec3(0.35f, 0.45f, 1.0f));
    c.target = center;
    c.position = center + direction * distance;
    c.nearPlane = std::max(distance - 2.0f * radius, distance * 1e-3f);
    c.farPlane = distance + 4.0f * radius;
    return c;
}

} // namespace floe::render
