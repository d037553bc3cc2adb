#pragma once
#include "TimeMapping.h"

#include <QString>

#include <vector>

namespace sl::ui {

// "850 ns", "12.5 us", "3.21 ms", "1.500 s": a duration with three significant digits (status bar,
// statistics: where a glance matters more than the last digit).
QString formatDuration(TimeNs ns);

// A time or duration with every digit down to `resolution` ns (rounded to a power of ten, at most
// 1000: never coarser than microseconds): "15.012345 ms" exact, "15.0123 ms" at 100 ns resolution.
// With resolution 1 (exact) trailing zeros below a microsecond are dropped ("15.012 ms", "1.5 us").
QString formatPrecise(TimeNs ns, TimeNs resolution = 1);
// The same with an explicit sign: "+13.012 us", "-13.012 us", "0 ns" (offsets, differences).
QString formatSigned(TimeNs ns, TimeNs resolution = 1);
// The resolution formatPrecise() should use when one pixel covers nsPerPixel: the power of ten at or
// below it, between 1 ns and 1 us.
TimeNs resolutionFor(double nsPerPixel);

// A tick of the time axis: time, pixel and whether it carries a label.
struct Tick {
    TimeNs time = 0;
    double x = 0;
    bool major = false;
};

// A 1-2-5 step in ns of at least minNs.
TimeNs niceStep(double minNs);
// Ticks across a widthPx-wide area, at least minSpacingPx apart, aligned to multiples of the step
// after origin; every fifth (or second) is major.
std::vector<Tick> axisTicks(const TimeMapping& m, int widthPx, int minSpacingPx = 12, TimeNs origin = 0);
// The label of a major tick, relative to origin, with the precision the step needs.
QString tickLabel(TimeNs t, TimeNs origin, TimeNs majorStep);

} // namespace sl::ui
