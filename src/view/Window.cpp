#include "view/Window.h"

#include <fmt/format.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "base/Error.h"
#include "gpu/Context.h"

namespace floe::view {
namespace {

std::string lastGlfwError;

void onGlfwError(int, const char* message)
{
    lastGlfwError = message ? message : "";
}

const char* kHeadless = "run without a window: floe run SCENE.json --frames K --render fluid (pictures, metrics and plots)";

void initGlfw()
{
    static bool initialised = false;
    if (initialised) return;
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit())
        throw Error(fmt::format("floe view: cannot open a window ({}); {}", lastGlfwError.empty() ? "no display" : lastGlfwError,
                                kHeadless),
                    ExitCode::Failure);
    if (!glfwVulkanSupported())
        throw Error(fmt::format("floe view: GLFW finds no Vulkan loader for windows; {}", kHeadless), ExitCode::Failure);
    initialised = true;
}

} // namespace

std::vector<std::string> Window::requiredInstanceExtensions()
{
    initGlfw();
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    if (!names)
        throw Error(fmt::format("floe view: the display offers no Vulkan surface extension; {}", kHeadless), ExitCode::Failure);
    return std::vector<std::string>(names, names + count);
}

Window::Window(const std::string& title, uint32_t width, uint32_t height)
{
    initGlfw();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window_ = glfwCreateWindow(int(width), int(height), title.c_str(), nullptr, nullptr);
    if (!window_)
        throw Error(fmt::format("floe view: cannot create a window ({}); {}", lastGlfwError, kHeadless), ExitCode::Failure);
}

Window::~Window()
{
    if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    if (window_) glfwDestroyWindow(window_);
}

void Window::createSurface(const gpu::Context& context)
{
    instance_ = context.instance();
    const VkResult r = glfwCreateWindowSurface(instance_, window_, nullptr, &surface_);
    if (r != VK_SUCCESS)
        throw Error(fmt::format("floe view: cannot create a Vulkan surface ({})", lastGlfwError), ExitCode::Failure);
    VkBool32 supported = VK_FALSE;
    vkGetPhysicalDeviceSurfaceSupportKHR(context.physicalDevice(), context.queueFamily(), surface_, &supported);
    if (!supported)
        throw Error(
            fmt::format("floe view: {} cannot present to this window from its compute queue; {}", context.deviceName(), kHeadless),
            ExitCode::Failure);
}

void Window::framebufferSize(uint32_t& width, uint32_t& height) const
{
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    width = uint32_t(std::max(w, 0));
    height = uint32_t(std::max(h, 0));
}

bool Window::shouldClose() const
{
    return glfwWindowShouldClose(window_);
}

void Window::requestClose()
{
    glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

void Window::setSize(uint32_t width, uint32_t height)
{
    glfwSetWindowSize(window_, int(width), int(height));
}

void Window::iconify()
{
    glfwIconifyWindow(window_);
}

void Window::restore()
{
    glfwRestoreWindow(window_);
}

void Window::pollEvents()
{
    glfwPollEvents();
}

void Window::waitEvents(double timeoutSeconds)
{
    glfwWaitEventsTimeout(timeoutSeconds);
}

} // namespace floe::view
