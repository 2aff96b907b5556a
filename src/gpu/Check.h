// VK_CHECK: fatal in every build, with file, line, the call and the result's name. Used for
// Vulkan calls whose failure is a programming or driver error; problems the user can cause
// (bad input, a scene that does not fit the device) are reported as floe::Error before they
// reach Vulkan.
#pragma once

#include <volk.h>

namespace floe::gpu {

const char* resultName(VkResult result);
[[noreturn]] void vkFatal(VkResult result, const char* call, const char* file, int line);

} // namespace floe::gpu

#define VK_CHECK(call)                                                                                                             \
    do {                                                                                                                           \
        const VkResult floeResult_ = (call);                                                                                       \
        if (floeResult_ != VK_SUCCESS) ::floe::gpu::vkFatal(floeResult_, #call, __FILE__, __LINE__);                               \
    } while (0)
