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
// The steps of an axis: minor ticks at least minSpacingPx apart; major ticks (the labelled ones) at a
// 1-2-5 multiple of the minor step at least minMajorSpacingPx apart (the room a label needs), or
// with 0 every fifth minor tick (every second for 5-steps).
struct AxisSteps {
    TimeNs minor = 1;
    TimeNs major = 5;
};
AxisSteps axisSteps(const TimeMapping& m, int minSpacingPx, int minMajorSpacingPx = 0);
// Ticks across a widthPx-wide area, at the steps of axisSteps() after origin.
std::vector<Tick> axisTicks(const TimeMapping& m, int widthPx, int minSpacingPx = 12, TimeNs origin = 0,
                            int minMajorSpacingPx = 0);
// A relative change in percent as people read it: "+3.2%", "-19.3%", and "no change" for what
// rounds to 0.0% (never "-0.0%").
QString formatChangePct(double pct);
// The label of a major tick, relative to origin, with the precision the step needs.
QString tickLabel(TimeNs t, TimeNs origin, TimeNs majorStep);

} // namespace sl::ui
