// floe info: Vulkan devices, why each was chosen or rejected, the chosen device's limits that
// size Floe's work, the features Floe uses, and the optional tools it found.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "app/Commands.h"
#include "gpu/Context.h"
#include "gpu/RenderDoc.h"
#include "shared/prim.h"
#include "sim/ParticleBuffers.h"

namespace floe {

int infoCommand(const DeviceOptions& options)
{
    // Only located, not loaded: loading RenderDoc would wrap the instance in its layer.
    const std::string renderDoc = gpu::RenderDoc::locate();

    gpu::ContextOptions contextOptions;
    contextOptions.validation = options.validate;
    contextOptions.deviceName = options.device;
    gpu::Context context(contextOptions);

    fmt::print("Floe 0.1.0\nVulkan instance {}.{}.{}\n\nDevices:\n", VK_API_VERSION_MAJOR(volkGetInstanceVersion()),
               VK_API_VERSION_MINOR(volkGetInstanceVersion()), VK_API_VERSION_PATCH(volkGetInstanceVersion()));
    for (const gpu::DeviceReport& r : context.deviceReports()) {
        fmt::print("  {} {} [{}] Vulkan {}, driver {}\n", r.chosen ? "*" : " ", r.name, r.type, r.apiVersion, r.driver);
        if (r.chosen)
            fmt::print("      chosen\n");
        else if (r.rejectReasons.empty())
            fmt::print("      usable (a device of a preferred type was chosen)\n");
        else
            for (const std::string& why : r.rejectReasons) fmt::print("      rejected: {}\n", why);
    }

    const gpu::DeviceCaps& caps = context.caps();
    const VkPhysicalDeviceLimits& l = caps.properties.limits;
    fmt::print("\nChosen device: {}\n", context.deviceName());
    fmt::print("  subgroup size               {} (min {}, max {})\n", caps.subgroupSize, caps.minSubgroupSize,
               caps.maxSubgroupSize);
    fmt::print("  workgroup size (primitives) {}\n", PRIM_GROUP_SIZE);
    fmt::print("  shared memory per workgroup {} KiB\n", l.maxComputeSharedMemorySize / 1024);
    fmt::print("  maxStorageBufferRange       {} MiB\n", l.maxStorageBufferRange / (1024 * 1024));
    fmt::print("  maxTexelBufferElements      {}\n", l.maxTexelBufferElements);
    fmt::print("  maxPushConstantsSize        {} bytes\n", l.maxPushConstantsSize);
    fmt::print("  timestamps                  {}\n",
               caps.timestamps ? fmt::format("yes, period {} ns, {} valid bits", caps.timestampPeriodNs, caps.timestampValidBits)
                               : "no");
    fmt::print("  particles at most           {}\n", sim::ParticleBuffers::maxParticles(context));
    fmt::print("\nFeatures used:\n");
    for (const std::string& f : caps.featuresUsed) fmt::print("  {}\n", f);
    fmt::print("\nValidation: {}\n",
               options.validate ? "on (with synchronization validation)" : "off (--validate or FLOE_VALIDATE=1)");
    fmt::print("RenderDoc:  {}\n", renderDoc.empty() ? "not installed (Debian: librenderdoc; tools/install-deps.sh)"
                                                     : fmt::format("{} (floe run --capture)", renderDoc));
    return 0;
}

} // namespace floe
