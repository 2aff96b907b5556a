// Sizes of the levels of a multi-level scan or reduction: level 0 has `count` elements, each
// further level one element per block of the level below, until one block remains.
#pragma once

#include <cstdint>
#include <vector>

namespace floe::sim {

inline uint32_t blocksOf(uint32_t count, uint32_t blockSize)
{
    return (count + blockSize - 1) / blockSize;
}

// Element counts of the levels whose block sums are needed: {count, blocks(count), ...}, ending
// with the first level that fits in one block. Empty for count == 0.
inline std::vector<uint32_t> levelCounts(uint32_t count, uint32_t blockSize)
{
    std::vector<uint32_t> levels;
    if (count == 0) return levels;
    levels.push_back(count);
    while (levels.back() > blockSize) levels.push_back(blocksOf(levels.back(), blockSize));
    return levels;
}

} // namespace floe::sim
