#pragma once
#include <cstdint>

namespace sl {

// All times inside Sightline are integer nanoseconds (Kineto writes microseconds).
using TimeNs = std::int64_t;

constexpr double nsToUs(TimeNs ns) {
    return static_cast<double>(ns) / 1000.0;
}

} // namespace sl
