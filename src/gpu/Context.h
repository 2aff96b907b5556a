// The Vulkan context: instance (debug utils, validation with synchronization validation on
// request), the chosen physical device with the reasons every other device was rejected, one
// queue that does compute, graphics and transfer, and the device capabilities Floe reads.
// volk's global function pointers are loaded for the one device a process drives at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <volk.h>

namespace floe::gpu {

struct ContextOptions {
    bool validation = false;                     // Khronos validation layer + synchronization validation
    std::string deviceName;                      // case-insensitive part of a device name; empty: the best
    std::vector<std::string> instanceExtensions; // extra, e.g. what GLFW needs for a surface
    bool presentation = false;                   // the device must support VK_KHR_swapchain
    bool echoValidation = true;                  // print validation messages to stderr as they arrive
};

// One line per physical device for `floe info` and for errors when none is usable.
struct DeviceReport {
    std::string name;
    std::string type; // "discrete GPU", "integrated GPU", "CPU", ...
    std::string driver;
    std::string apiVersion;
    std::vector<std::string> rejectReasons; // empty: usable
    bool chosen = false;
};

struct DeviceCaps {
    VkPhysicalDeviceProperties properties{};
    uint32_t subgroupSize = 0;
    uint32_t minSubgroupSize = 0;
    uint32_t maxSubgroupSize = 0;
    bool timestamps = false; // timestamp queries usable on Floe's queue
    double timestampPeriodNs = 1.0;
    uint32_t timestampValidBits = 0;
    bool debugUtils = false; // labels and object names (instance has VK_EXT_debug_utils)
    // FLOE_POISON=1 (tools/test.sh sets it): every new buffer is filled with 0xFFFFFFFF (a NaN as
    // a float, the largest uint) before its first use, so that reading memory nothing wrote fails
    // a test instead of reading a driver's zeros. FLOE_POISON=0xNN fills with that byte instead
    // (garbage that reads as ordinary numbers).
    bool poison = false;
    uint8_t poisonByte = 0xFF;
    // FLOE_NONCOHERENT=1 (tools/test.sh's second pass): mapped memory is treated as not
    // host-coherent, so that the flush and invalidate calls a GPU's non-coherent memory needs run
    // on lavapipe (whose memory is all coherent) under validation.
    bool forceNonCoherent = false;
    // FLOE_ROBUST=1 (tools/test.sh sets it): robustBufferAccess where the device offers it, so that
    // an index bug in a test reads zeros or in-bounds data and fails the comparison instead of
    // reading or writing memory that is not the buffer's (what a GPU without it would do).
    bool robustBufferAccess = false;
    // VK_EXT_conditional_rendering for the solver iterations after convergence, on request
    // (FLOE_CONDITIONAL_RENDERING=1) where the device has it. Off by default: on an H200 a region
    // per iteration cost more than the zero-group dispatches it skips (2D dam break, 20k
    // particles, IISPH: 1.83 against 1.66 GPU ms per step), since the barriers inside a skipped
    // region still run.
    bool conditionalRendering = false;
    VkDeviceSize maxMemoryAllocationSize = 0; // bytes in one allocation (Vulkan 1.1 maintenance3)
    std::vector<std::string> featuresUsed;    // for `floe info`
};

class Context {
public:
    explicit Context(const ContextOptions& options); // throws floe::Error when no device is usable
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    VkCommandPool commandPool() const { return commandPool_; }
    const DeviceCaps& caps() const { return caps_; }
    const VkPhysicalDeviceLimits& limits() const { return caps_.properties.limits; }
    const std::vector<DeviceReport>& deviceReports() const { return reports_; }
    std::string deviceName() const { return caps_.properties.deviceName; }
    bool validationEnabled() const { return validation_; }
    // GPU-assisted validation of indirect arguments on too (FLOE_GPU_ASSISTED=1 with validation).
    bool gpuAssistedValidation() const { return gpuAssisted_; }

    // Validation messages (warnings and errors of the validation layer) since the start.
    uint32_t validationMessageCount() const { return validationMessages_.load(); }
    std::vector<std::string> validationMessages() const;

    // Unique, never reused identity for buffers and images (the render graph's state key).
    uint64_t newResourceId() { return ++nextResourceId_; }

    uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const;
    VkMemoryPropertyFlags memoryFlags(uint32_t type) const { return memory_.memoryTypes[type].propertyFlags; }
    void setObjectName(VkObjectType type, uint64_t handle, const std::string& name) const;

    // Records with `record`, submits and waits. For uploads and set-up, not per-frame work.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                        VkDebugUtilsMessageTypeFlagsEXT types,
                                                        const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);
    void createInstance(const ContextOptions& options);
    void pickDevice(const ContextOptions& options);
    void createDevice(const ContextOptions& options);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    VkPhysicalDeviceMemoryProperties memory_{};
    DeviceCaps caps_;
    std::vector<DeviceReport> reports_;
    bool validation_ = false;
    bool gpuAssisted_ = false;
    std::filesystem::path layerSettingsDir_; // FLOE_GPU_ASSISTED: the layer settings written for it
    bool echoValidation_ = true;
    std::atomic<uint32_t> validationMessages_{0};
    mutable std::mutex messagesMutex_;
    std::vector<std::string> messages_;
    uint64_t nextResourceId_ = 0;
};

} // namespace floe::gpu
