#include "gpu/Context.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <fmt/format.h>

#include "base/Error.h"
#include "gpu/Check.h"
#include "shared/prim.h"

namespace floe::gpu {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

const char* typeName(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

// Discrete > integrated > virtual > CPU > other.
int typeRank(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
    }
}

std::string versionString(uint32_t v)
{
    return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

bool hasExtension(const std::vector<VkExtensionProperties>& list, const char* name)
{
    return std::any_of(list.begin(), list.end(),
                       [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

struct DeviceQuery {
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    VkPhysicalDeviceSubgroupSizeControlProperties subgroupSize{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    // The extension structs, valid for Vulkan 1.3 cores and for 1.2 devices with the extensions
    // (RenderDoc 1.24 presents lavapipe as such a device).
    VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    VkPhysicalDeviceDynamicRenderingFeatures dynamicRendering{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    VkPhysicalDeviceSubgroupSizeControlFeatures subgroupControl{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
    VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
    std::vector<VkExtensionProperties> extensions;
    std::vector<VkQueueFamilyProperties> families;
    bool core13 = false;

    explicit DeviceQuery(VkPhysicalDevice pd)
    {
        uint32_t n = 0;
        vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
        extensions.resize(n);
        vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, extensions.data());
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
        families.resize(n);
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());

        vkGetPhysicalDeviceProperties(pd, &properties.properties);
        const uint32_t api = properties.properties.apiVersion;
        core13 = api >= VK_API_VERSION_1_3;
        if (api < VK_API_VERSION_1_2) return;
        const bool sizeControl = core13 || has(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
        properties.pNext = &v11;
        v11.pNext = &driver;
        driver.pNext = &maintenance3;
        if (sizeControl) maintenance3.pNext = &subgroupSize;
        vkGetPhysicalDeviceProperties2(pd, &properties);
        features.pNext = &f12;
        void** tail = &f12.pNext;
        if (core13 || has(VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME)) {
            *tail = &sync2;
            tail = &sync2.pNext;
        }
        if (core13 || has(VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME)) {
            *tail = &dynamicRendering;
            tail = &dynamicRendering.pNext;
        }
        if (sizeControl) {
            *tail = &subgroupControl;
            tail = &subgroupControl.pNext;
        }
        if (has(VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME)) *tail = &conditional;
        vkGetPhysicalDeviceFeatures2(pd, &features);
    }
    bool has(const char* name) const { return hasExtension(extensions, name); }
    // Extensions to enable for what Vulkan 1.3 has in its core.
    std::vector<const char*> promotedExtensions() const
    {
        if (core13) return {};
        return {VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME,
                VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME};
    }
};

// Everything Floe needs of a device; each missing piece is one reason in the rejection list.
std::vector<std::string> rejectReasons(const DeviceQuery& q, bool presentation, uint32_t* family)
{
    std::vector<std::string> reasons;
    const uint32_t api = q.properties.properties.apiVersion;
    if (api < VK_API_VERSION_1_2) {
        reasons.push_back(fmt::format("Vulkan {} < 1.2", versionString(api)));
        return reasons;
    }
    if (!q.sync2.synchronization2) reasons.emplace_back("no synchronization2 (Vulkan 1.3 or VK_KHR_synchronization2)");
    if (!q.dynamicRendering.dynamicRendering) reasons.emplace_back("no dynamicRendering (Vulkan 1.3 or VK_KHR_dynamic_rendering)");
    if (!q.subgroupControl.subgroupSizeControl || !q.subgroupControl.computeFullSubgroups)
        reasons.emplace_back("no computeFullSubgroups (Vulkan 1.3 or VK_EXT_subgroup_size_control)");
    if (!q.f12.hostQueryReset) reasons.emplace_back("no hostQueryReset");
    if (!q.has(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) reasons.emplace_back("no VK_KHR_push_descriptor");
    if (presentation && !q.has(VK_KHR_SWAPCHAIN_EXTENSION_NAME)) reasons.emplace_back("no VK_KHR_swapchain");
    const VkSubgroupFeatureFlags needOps = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                           VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT |
                                           VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
    if ((q.v11.subgroupSupportedOperations & needOps) != needOps || !(q.v11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT))
        reasons.emplace_back("subgroup arithmetic/ballot/shuffle not supported in compute shaders");
    const uint32_t maxSubgroup = std::max(q.subgroupSize.maxSubgroupSize, q.v11.subgroupSize);
    if (maxSubgroup > PRIM_GROUP_SIZE || (PRIM_GROUP_SIZE % std::max(1u, maxSubgroup)) != 0)
        reasons.push_back(fmt::format("maxSubgroupSize {} does not divide the workgroup size {}", maxSubgroup, PRIM_GROUP_SIZE));
    if (q.properties.properties.limits.maxPushConstantsSize < 128) reasons.emplace_back("maxPushConstantsSize < 128");

    bool found = false;
    for (uint32_t i = 0; i < q.families.size(); ++i) {
        const VkQueueFlags flags = q.families[i].queueFlags;
        if ((flags & VK_QUEUE_GRAPHICS_BIT) && (flags & VK_QUEUE_COMPUTE_BIT)) {
            *family = i;
            found = true;
            break;
        }
    }
    if (!found) reasons.emplace_back("no queue family with graphics and compute");
    return reasons;
}

} // namespace

Context::Context(const ContextOptions& options)
{
    validation_ = options.validation;
    echoValidation_ = options.echoValidation;
    if (volkInitialize() != VK_SUCCESS)
        throw Error("no Vulkan loader found (libvulkan.so.1); install libvulkan1 and a driver, e.g. "
                    "`tools/install-deps.sh` for Mesa's lavapipe",
                    ExitCode::Failure);
    createInstance(options);
    pickDevice(options);
    createDevice(options);
}

Context::~Context()
{
    if (device_) {
        vkDeviceWaitIdle(device_);
        vkDestroyCommandPool(device_, commandPool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
    if (!layerSettingsDir_.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(layerSettingsDir_, ec);
    }
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                      VkDebugUtilsMessageTypeFlagsEXT types,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user)
{
    auto* self = static_cast<Context*>(user);
    const bool counted =
        (types & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)) &&
        severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    const char* level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
    std::string text = fmt::format("[vulkan {}] {}", level, data->pMessage ? data->pMessage : "");
    if (counted) {
        self->validationMessages_.fetch_add(1);
        std::lock_guard lock(self->messagesMutex_);
        if (self->messages_.size() < 100) self->messages_.push_back(text);
    }
    if (self->echoValidation_ || !counted) std::fprintf(stderr, "%s\n", text.c_str());
    return VK_FALSE;
}

std::vector<std::string> Context::validationMessages() const
{
    std::lock_guard lock(messagesMutex_);
    return messages_;
}

void Context::createInstance(const ContextOptions& options)
{
    uint32_t apiVersion = volkGetInstanceVersion();
    if (apiVersion < VK_API_VERSION_1_2)
        throw Error(fmt::format("the Vulkan loader supports {}, Floe needs 1.2 or later", versionString(apiVersion)),
                    ExitCode::Failure);

    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> available(n);
    vkEnumerateInstanceExtensionProperties(nullptr, &n, available.data());

    std::vector<const char*> extensions;
    for (const std::string& e : options.instanceExtensions) {
        if (!hasExtension(available, e.c_str()))
            throw Error(fmt::format("the Vulkan instance lacks {}, needed for the window", e), ExitCode::Failure);
        extensions.push_back(e.c_str());
    }
    caps_.debugUtils = hasExtension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (caps_.debugUtils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

    std::vector<const char*> layers;
    if (validation_) {
        vkEnumerateInstanceLayerProperties(&n, nullptr);
        std::vector<VkLayerProperties> layerProps(n);
        vkEnumerateInstanceLayerProperties(&n, layerProps.data());
        const bool present = std::any_of(layerProps.begin(), layerProps.end(), [](const VkLayerProperties& l) {
            return std::strcmp(l.layerName, kValidationLayer) == 0;
        });
        if (!present)
            throw Error("validation was requested but VK_LAYER_KHRONOS_validation is not installed "
                        "(Debian: vulkan-validationlayers, installed by tools/install-deps.sh)",
                        ExitCode::Failure);
        if (!caps_.debugUtils) throw Error("validation was requested but VK_EXT_debug_utils is missing", ExitCode::Failure);
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "Floe";
    app.pEngineName = "Floe";
    app.apiVersion = apiVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

    // FLOE_GPU_ASSISTED=1 adds the layer's GPU-assisted validation: the GPU checks every indirect
    // dispatch's and draw's arguments as it reads them (garbage group counts hang a GPU where
    // lavapipe runs them). Its buffer-bounds and descriptor checks stay off: layer 1.3.239
    // (Debian 12's) does not track descriptors written with vkCmdPushDescriptorSetKHR, which is
    // how Floe binds everything (KhronosGroup/Vulkan-ValidationLayers#5321, fixed in later
    // layers), so it reports them uninitialized and its instrumented shaders skip their accesses:
    // a fracture run then fails to label its fragments. The settings go to the layer in a
    // settings file (VK_LAYER_SETTINGS_PATH; this layer reads no other source) unless the user
    // set one.
    std::vector<VkValidationFeatureEnableEXT> enables = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    const char* gpuAssisted = std::getenv("FLOE_GPU_ASSISTED");
    gpuAssisted_ = validation_ && gpuAssisted && std::string(gpuAssisted) == "1";
    if (gpuAssisted_ && !std::getenv("VK_LAYER_SETTINGS_PATH")) {
        namespace fs = std::filesystem;
        std::error_code ec;
        layerSettingsDir_ = fs::temp_directory_path(ec) / fmt::format("floe-gpu-assisted-{}", static_cast<long>(getpid()));
        fs::create_directories(layerSettingsDir_, ec);
        const fs::path file = layerSettingsDir_ / "vk_layer_settings.txt";
        std::ofstream(file) << "khronos_validation.gpuav_descriptor_indexing = false\n"
                               "khronos_validation.gpuav_buffer_oob = false\n"
                               "khronos_validation.validate_dispatch_indirect = true\n"
                               "khronos_validation.validate_draw_indirect = true\n";
        if (!fs::exists(file, ec))
            throw Error(fmt::format("FLOE_GPU_ASSISTED=1: cannot write the layer settings file {}", file.string()),
                        ExitCode::Failure);
        setenv("VK_LAYER_SETTINGS_PATH", file.c_str(), 1);
    }
    if (gpuAssisted_) {
        enables.push_back(VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT);
        enables.push_back(VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT);
    }
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = static_cast<uint32_t>(enables.size());
    features.pEnabledValidationFeatures = enables.data();

    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = &Context::debugCallback;
    messenger.pUserData = this;
    if (validation_) features.pNext = &messenger; // also catches messages of vkCreateInstance itself

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pNext = validation_ ? &features : nullptr;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    const VkResult result = vkCreateInstance(&info, nullptr, &instance_);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw Error("no Vulkan driver is installed (Debian: mesa-vulkan-drivers for lavapipe)", ExitCode::Failure);
    VK_CHECK(result);
    volkLoadInstanceOnly(instance_);
    if (validation_) VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_));
}

void Context::pickDevice(const ContextOptions& options)
{
    uint32_t n = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(instance_, &n, nullptr));
    std::vector<VkPhysicalDevice> devices(n);
    VK_CHECK(vkEnumeratePhysicalDevices(instance_, &n, devices.data()));

    int best = -1;
    int bestRank = -1;
    std::vector<uint32_t> families(n, 0);
    const std::string wanted = lower(options.deviceName);
    for (uint32_t i = 0; i < n; ++i) {
        DeviceQuery q(devices[i]);
        DeviceReport report;
        report.name = q.properties.properties.deviceName;
        report.type = typeName(q.properties.properties.deviceType);
        report.driver = fmt::format("{} {}", q.driver.driverName, q.driver.driverInfo);
        report.apiVersion = versionString(q.properties.properties.apiVersion);
        report.rejectReasons = rejectReasons(q, options.presentation, &families[i]);
        if (!wanted.empty() && lower(report.name).find(wanted) == std::string::npos)
            report.rejectReasons.insert(report.rejectReasons.begin(),
                                        fmt::format("name does not match --device '{}'", options.deviceName));
        const int rank = typeRank(q.properties.properties.deviceType);
        if (report.rejectReasons.empty() && rank > bestRank) {
            best = static_cast<int>(i);
            bestRank = rank;
        }
        reports_.push_back(std::move(report));
    }
    if (best < 0) {
        std::string list;
        for (const DeviceReport& r : reports_) {
            list += fmt::format("\n  {} ({}): ", r.name, r.type);
            for (size_t k = 0; k < r.rejectReasons.size(); ++k) list += (k ? "; " : "") + r.rejectReasons[k];
        }
        if (reports_.empty()) list = "\n  (no Vulkan devices; tools/install-deps.sh installs Mesa's lavapipe)";
        throw Error(fmt::format("no usable Vulkan device{}:{}", wanted.empty() ? "" : " named '" + options.deviceName + "'", list),
                    wanted.empty() ? ExitCode::Failure : ExitCode::BadInput);
    }
    reports_[best].chosen = true;
    physicalDevice_ = devices[best];
    queueFamily_ = families[best];
}

void Context::createDevice(const ContextOptions& options)
{
    DeviceQuery q(physicalDevice_);
    caps_.properties = q.properties.properties;
    caps_.subgroupSize = q.v11.subgroupSize;
    caps_.minSubgroupSize = q.subgroupSize.minSubgroupSize ? q.subgroupSize.minSubgroupSize : q.v11.subgroupSize;
    caps_.maxSubgroupSize = q.subgroupSize.maxSubgroupSize ? q.subgroupSize.maxSubgroupSize : q.v11.subgroupSize;
    caps_.maxMemoryAllocationSize = q.maintenance3.maxMemoryAllocationSize;
    caps_.timestampPeriodNs = caps_.properties.limits.timestampPeriod;
    caps_.timestampValidBits = q.families[queueFamily_].timestampValidBits;
    caps_.timestamps = caps_.timestampValidBits > 0 && caps_.properties.limits.timestampComputeAndGraphics;
    vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &memory_);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily_;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;

    const char* poisonEnv = std::getenv("FLOE_POISON");
    // "1": 0xFF bytes (NaN floats, the largest uints); "0xNN": bytes of NN, for memory that reads
    // as ordinary numbers (0x3F: floats of 0.747, a garbage a NaN check does not catch).
    if (poisonEnv && std::string(poisonEnv) != "" && std::string(poisonEnv) != "0") {
        const std::string value(poisonEnv);
        unsigned byte = 0;
        char end = 0;
        if (value == "1") {
            byte = 0xFF;
        } else if (value.size() != 4 || std::sscanf(value.c_str(), "0x%2x%c", &byte, &end) != 1) {
            throw Error(fmt::format("FLOE_POISON={}: expected 1 (0xFF bytes) or a byte as 0xNN", value));
        }
        caps_.poison = true;
        caps_.poisonByte = static_cast<uint8_t>(byte);
    }
    const char* nonCoherentEnv = std::getenv("FLOE_NONCOHERENT");
    caps_.forceNonCoherent = nonCoherentEnv && std::string(nonCoherentEnv) == "1";
    const char* robustEnv = std::getenv("FLOE_ROBUST");
    caps_.robustBufferAccess = q.features.features.robustBufferAccess && robustEnv && std::string(robustEnv) == "1";
    const char* conditionalEnv = std::getenv("FLOE_CONDITIONAL_RENDERING");
    caps_.conditionalRendering = q.conditional.conditionalRendering && conditionalEnv && std::string(conditionalEnv) == "1";
    VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
    conditional.conditionalRendering = VK_TRUE;
    VkPhysicalDeviceSubgroupSizeControlFeatures subgroupControl{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
    if (caps_.conditionalRendering) subgroupControl.pNext = &conditional;
    subgroupControl.subgroupSizeControl = VK_TRUE;
    subgroupControl.computeFullSubgroups = VK_TRUE;
    VkPhysicalDeviceDynamicRenderingFeatures dynamicRendering{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    dynamicRendering.pNext = &subgroupControl;
    dynamicRendering.dynamicRendering = VK_TRUE;
    VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    sync2.pNext = &dynamicRendering;
    sync2.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.pNext = &sync2;
    f12.hostQueryReset = VK_TRUE;
    f12.scalarBlockLayout = q.f12.scalarBlockLayout;
    f12.timelineSemaphore = q.f12.timelineSemaphore;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.pNext = &f12;
    features.features.shaderStorageImageWriteWithoutFormat = q.features.features.shaderStorageImageWriteWithoutFormat;
    features.features.fragmentStoresAndAtomics = q.features.features.fragmentStoresAndAtomics;
    features.features.vertexPipelineStoresAndAtomics = q.features.features.vertexPipelineStoresAndAtomics;
    features.features.robustBufferAccess = caps_.robustBufferAccess ? VK_TRUE : VK_FALSE;

    std::vector<const char*> extensions = q.promotedExtensions();
    extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    if (options.presentation) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    if (caps_.conditionalRendering) extensions.push_back(VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME);

    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = &features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VK_CHECK(vkCreateDevice(physicalDevice_, &info, nullptr, &device_));
    volkLoadDevice(device_);
    if (!q.core13) {
        // A Vulkan 1.2 device: the 1.3 entry points Floe calls are the extensions' aliases.
        vkCmdPipelineBarrier2 = vkCmdPipelineBarrier2KHR;
        vkCmdWriteTimestamp2 = vkCmdWriteTimestamp2KHR;
        vkQueueSubmit2 = vkQueueSubmit2KHR;
        vkCmdBeginRendering = vkCmdBeginRenderingKHR;
        vkCmdEndRendering = vkCmdEndRenderingKHR;
    }
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = queueFamily_;
    VK_CHECK(vkCreateCommandPool(device_, &poolInfo, nullptr, &commandPool_));

    caps_.featuresUsed = {
        q.core13 ? "Vulkan 1.3" : "Vulkan 1.2 with VK_KHR_synchronization2, VK_KHR_dynamic_rendering, VK_EXT_subgroup_size_control",
        "synchronization2",
        "dynamicRendering",
        "computeFullSubgroups",
        "hostQueryReset",
        "VK_KHR_push_descriptor",
        "subgroup arithmetic/ballot/shuffle (compute)",
        "uniform and storage texel buffers"};
    if (caps_.timestamps) caps_.featuresUsed.emplace_back("timestamp queries");
    if (caps_.debugUtils) caps_.featuresUsed.emplace_back("VK_EXT_debug_utils (labels, object names)");
    if (options.presentation) caps_.featuresUsed.emplace_back("VK_KHR_swapchain");
    if (caps_.conditionalRendering)
        caps_.featuresUsed.emplace_back("VK_EXT_conditional_rendering (solver iterations after convergence skipped)");
    setObjectName(VK_OBJECT_TYPE_QUEUE, reinterpret_cast<uint64_t>(queue_), "floe queue");
}

uint32_t Context::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const
{
    int fallback = -1;
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if (!(typeBits & (1u << i))) continue;
        const VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
        if ((flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (fallback < 0) fallback = static_cast<int>(i);
    }
    if (fallback < 0)
        vkFatal(VK_ERROR_FEATURE_NOT_PRESENT, "findMemoryType (no memory type has the required flags)", __FILE__, __LINE__);
    return static_cast<uint32_t>(fallback);
}

void Context::setObjectName(VkObjectType type, uint64_t handle, const std::string& name) const
{
    if (!caps_.debugUtils || name.empty()) return;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name.c_str();
    VK_CHECK(vkSetDebugUtilsObjectNameEXT(device_, &info));
}

void Context::submitAndWait(const std::function<void(VkCommandBuffer)>& record) const
{
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = commandPool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(device_, &alloc, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    record(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));

    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(device_, &fenceInfo, nullptr, &fence));
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmdInfo;
    VK_CHECK(vkQueueSubmit2(queue_, 1, &submit, fence));
    VK_CHECK(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(device_, fence, nullptr);
    vkFreeCommandBuffers(device_, commandPool_, 1, &cmd);
}

} // namespace floe::gpu
