#include "gpu/Check.h"

#include <cstdio>
#include <cstdlib>

namespace floe::gpu {

const char* resultName(VkResult result)
{
    switch (result) {
#define FLOE_RESULT(name)                                                                                                          \
    case name: return #name;
        FLOE_RESULT(VK_SUCCESS)
        FLOE_RESULT(VK_NOT_READY)
        FLOE_RESULT(VK_TIMEOUT)
        FLOE_RESULT(VK_EVENT_SET)
        FLOE_RESULT(VK_EVENT_RESET)
        FLOE_RESULT(VK_INCOMPLETE)
        FLOE_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        FLOE_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        FLOE_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        FLOE_RESULT(VK_ERROR_DEVICE_LOST)
        FLOE_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        FLOE_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        FLOE_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        FLOE_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        FLOE_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        FLOE_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        FLOE_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        FLOE_RESULT(VK_ERROR_FRAGMENTED_POOL)
        FLOE_RESULT(VK_ERROR_UNKNOWN)
        FLOE_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        FLOE_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        FLOE_RESULT(VK_ERROR_FRAGMENTATION)
        FLOE_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        FLOE_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
        FLOE_RESULT(VK_ERROR_SURFACE_LOST_KHR)
        FLOE_RESULT(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        FLOE_RESULT(VK_SUBOPTIMAL_KHR)
        FLOE_RESULT(VK_ERROR_OUT_OF_DATE_KHR)
        FLOE_RESULT(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
        FLOE_RESULT(VK_ERROR_VALIDATION_FAILED_EXT)
        FLOE_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef FLOE_RESULT
    default: return "VK_RESULT_UNKNOWN";
    }
}

void vkFatal(VkResult result, const char* call, const char* file, int line)
{
    std::fprintf(stderr, "floe: fatal Vulkan error %s (%d) in %s\n  at %s:%d\n", resultName(result), static_cast<int>(result), call,
                 file, line);
    std::fflush(stderr);
    std::abort();
}

} // namespace floe::gpu
