#pragma once
// The one duration formatter of the core's sentences and reports: the unit follows the size (s, ms,
// us, ns) and each place asks for its own precision per unit, so "22.132 ms" in a comparison and
// "22.1 ms" in a pin note come from the same code.
#include <string>

namespace sl {

// Decimals per unit; a unit with decimals < 0 is not used (its range goes to the next smaller unit
// that is, or to the smallest unit used for values below it).
struct DurationPrecision {
    int s = -1;
    int ms = 2;
    int us = 2;
    int ns = -1;
    const char* usName = "us"; // "µs" in HTML
};

// The value and unit a duration is written in.
struct DurationUnit {
    double value = 0;
    int decimals = 0;
    const char* unit = "us";
};

// `value` is in nanoseconds (inNs) or microseconds; the unit is chosen by its magnitude (a negative
// duration as its absolute value) and the value divided from the input's own unit.
DurationUnit durationUnit(double value, bool inNs, const DurationPrecision& precision);

// "%.<decimals>f <unit>" of durationUnit().
std::string durationText(double value, bool inNs, const DurationPrecision& precision);

} // namespace sl
