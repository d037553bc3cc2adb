#pragma once
// The rounding of the numbers reports and `--json` outputs print (docs/ARCHITECTURE.md, "Reports"):
// one place, so the JSON, the CSV, the HTML report and the command tables agree to the last digit.
#include <cmath>
#include <cstdint>

namespace sl {

// Nanoseconds (TimeNs) as microseconds with 2 decimals (10 ns).
inline double us(std::int64_t ns) {
    return std::round(static_cast<double>(ns) / 10.0) / 100.0;
}

// A number with 3 decimals (half away from zero).
inline double round3(double v) {
    return std::round(v * 1000.0) / 1000.0;
}

// A percentage or a ratio with 3 decimals.
inline double pct(double v) {
    return round3(v);
}

} // namespace sl
