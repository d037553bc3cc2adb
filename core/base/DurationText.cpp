#include "base/DurationText.h"

#include <cmath>
#include <cstdio>

namespace sl {

DurationUnit durationUnit(double value, bool inNs, const DurationPrecision& p) {
    // Each unit's size in the input's unit, largest first.
    const double perUs = inNs ? 1e3 : 1.0;
    struct Unit {
        double size;
        int decimals;
        const char* name;
    };
    const Unit units[] = {{1e6 * perUs, p.s, "s"}, {1e3 * perUs, p.ms, "ms"}, {perUs, p.us, p.usName}};
    const double a = std::abs(value);
    for (const Unit& u : units)
        if (u.decimals >= 0 && a >= u.size) return {value / u.size, u.decimals, u.name};
    if (inNs && p.ns >= 0) return {value, p.ns, "ns"};
    // Below every unit used: the smallest one used.
    for (auto it = std::rbegin(units); it != std::rend(units); ++it)
        if (it->decimals >= 0) return {value / it->size, it->decimals, it->name};
    return {value, 0, inNs ? "ns" : p.usName};
}

std::string durationText(double value, bool inNs, const DurationPrecision& precision) {
    const DurationUnit u = durationUnit(value, inNs, precision);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f %s", u.decimals, u.value, u.unit);
    return buf;
}

} // namespace sl
