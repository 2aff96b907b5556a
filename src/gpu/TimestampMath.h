// Timestamp arithmetic without Vulkan (unit-tested on the CPU): a device's counter has
// `validBits` bits (36 to 64 on real GPUs, 64 on lavapipe) and ticks every `periodNs` ns (1 on
// lavapipe and NVIDIA, 83.333 on some Intel GPUs, 10 or 40 on others). An interval is the
// difference modulo 2^validBits, so a counter that wrapped between two stamps still gives the
// right length.
#pragma once

#include <cstdint>

namespace floe::gpu {

inline double timestampIntervalMs(uint64_t begin, uint64_t end, double periodNs, uint32_t validBits)
{
    const uint64_t mask = validBits >= 64 ? ~0ull : validBits == 0 ? 0ull : ((1ull << validBits) - 1);
    return static_cast<double>(((end & mask) - (begin & mask)) & mask) * periodNs * 1e-6;
}

} // namespace floe::gpu
