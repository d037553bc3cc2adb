#pragma once
#include "TimeMapping.h"

#include <QString>

#include <vector>

namespace sl::ui {

// "850 ns", "12.5 us", "3.21 ms", "1.500 s": a duration with three significant digits.
QString formatDuration(TimeNs ns);

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
