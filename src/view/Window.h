// A GLFW window with a Vulkan surface. Input goes through Dear ImGui's GLFW backend (Ui), so
// that the UI and the camera agree on who gets a click.
#pragma once

#include <string>
#include <vector>

#include <volk.h>

struct GLFWwindow;

namespace floe::gpu {
class Context;
}

namespace floe::view {

class Window {
public:
    // Initialises GLFW; throws floe::Error (exit status 3) naming the headless command when
    // there is no display or no Vulkan presentation support.
    static std::vector<std::string> requiredInstanceExtensions();
    Window(const std::string& title, uint32_t width, uint32_t height);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    void createSurface(const gpu::Context& context); // throws floe::Error without present support
    VkSurfaceKHR surface() const { return surface_; }
    GLFWwindow* handle() const { return window_; }
    // The framebuffer's size in pixels (0 x 0 while minimised).
    void framebufferSize(uint32_t& width, uint32_t& height) const;
    bool shouldClose() const;
    void requestClose();
    void setSize(uint32_t width, uint32_t height);
    void iconify();
    void restore();
    void pollEvents();
    void waitEvents(double timeoutSeconds);

private:
    GLFWwindow* window_ = nullptr;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
};

} // namespace floe::view
