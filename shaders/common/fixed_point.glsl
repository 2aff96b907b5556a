// Fixed-point sums for corrections that many threads add to one element with integer atomics
// (the contacts of bodies and of fragments): integer addition does not depend on the order the
// GPU adds in, so runs stay identical. 2^20 per unit (a micrometre, a micrometre per second);
// one term holds at most FIXED_POINT_LIMIT units, so 63 of them fit a 32-bit sum.
#ifndef FLOE_COMMON_FIXED_POINT_GLSL
#define FLOE_COMMON_FIXED_POINT_GLSL

#define FIXED_POINT_SCALE 1048576.0
#define FIXED_POINT_LIMIT 32.0

// x in fixed point, clamped to what the sums hold; 0 for NaN (it would convert to an arbitrary
// integer and move a sound element; the diverged element reports itself elsewhere).
int fixedPoint(float x)
{
    return isnan(x) ? 0 : int(round(clamp(x, -FIXED_POINT_LIMIT, FIXED_POINT_LIMIT) * FIXED_POINT_SCALE));
}

// A sum back in units (the scale is a power of two: exact).
vec3 fromFixedPoint(ivec3 sum)
{
    return vec3(sum) * (1.0 / FIXED_POINT_SCALE);
}

#endif
