// Radix sort helpers: 16 digit counters packed as 16-bit fields in two uvec4 (a block holds at
// most PRIM_BLOCK_SIZE = 1024 keys, so no field overflows and packed sums stay exact).
#ifndef FLOE_SORT_COMMON_GLSL
#define FLOE_SORT_COMMON_GLSL

struct DigitCounts {
    uvec4 lo; // digits 0..7
    uvec4 hi; // digits 8..15
};

DigitCounts countOne(uint digit)
{
    DigitCounts c;
    c.lo = uvec4(0u);
    c.hi = uvec4(0u);
    const uint word = (digit >> 1u) & 3u;
    const uint bits = 1u << (16u * (digit & 1u));
    if (digit < 8u) c.lo[word] = bits;
    else c.hi[word] = bits;
    return c;
}

uint countOf(DigitCounts c, uint digit)
{
    const uint word = (digit >> 1u) & 3u;
    const uint packed = digit < 8u ? c.lo[word] : c.hi[word];
    return (packed >> (16u * (digit & 1u))) & 0xffffu;
}

DigitCounts addCounts(DigitCounts a, DigitCounts b)
{
    a.lo += b.lo;
    a.hi += b.hi;
    return a;
}

uint digitOf(uint key, uint shift)
{
    return (key >> shift) & (PRIM_SORT_RADIX - 1u);
}

#endif
