#pragma once
// A GPU kernel's launch configuration as the profiler recorded it in the kernel's args ("grid":
// [x, y, z], "blocks per SM"), typed. The Kineto loader fills one per event of every GPU stream that
// has any (Rank::kernelLaunches, in io/RankFinalizer.cpp, once per load); the graph's SM contention
// reads it there instead of the args text (docs/Loader.md, "Typed side tables").
#include <cmath>
#include <limits>

namespace sl {

// 8 bytes an event: floats rounded towards minus infinity, so that `value >= n` for a whole number
// n below 2^24 (one block per SM, a device's SM count) answers as it does for the value written.
struct KernelLaunch {
    float gridBlocks = -1;  // x * y * z of "grid"; -1 when the kernel has none
    float blocksPerSm = -1; // "blocks per SM" (fractional: 0.5 is half the SMs); -1 when absent

    static float atMost(double v) {
        constexpr float kMax = std::numeric_limits<float>::max();
        if (v > static_cast<double>(kMax)) return kMax;
        if (v < -static_cast<double>(kMax)) return -std::numeric_limits<float>::infinity();
        float f = static_cast<float>(v);
        if (static_cast<double>(f) > v) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
        return f;
    }
};

} // namespace sl
