#pragma once
#include "trace/Time.h"

#include <cmath>
#include <cstdint>

namespace sl::ui {

// Maps trace time (int64 ns) to pixels of a timeline area and back. x = 0 is the left edge of the
// area, at time `start`; one pixel covers `nsPerPixel` nanoseconds. Differences are taken in int64
// before converting, so precision holds at any zoom far from the epoch.
struct TimeMapping {
    TimeNs start = 0;
    double nsPerPixel = 1.0;

    // The mapping that shows [windowStart, windowEnd) across widthPx pixels.
    static TimeMapping fromWindow(TimeNs windowStart, TimeNs windowEnd, int widthPx) {
        const double px = widthPx > 0 ? static_cast<double>(widthPx) : 1.0;
        const double span = windowEnd > windowStart ? static_cast<double>(windowEnd - windowStart) : 1.0;
        return {windowStart, span / px};
    }

    double x(TimeNs t) const { return static_cast<double>(t - start) / nsPerPixel; }
    double width(TimeNs duration) const { return static_cast<double>(duration) / nsPerPixel; }
    TimeNs time(double xPx) const { return start + static_cast<TimeNs>(std::llround(xPx * nsPerPixel)); }
    TimeNs duration(double px) const { return static_cast<TimeNs>(std::llround(px * nsPerPixel)); }
    // The end of the window that a widthPx-wide area shows.
    TimeNs end(int widthPx) const { return time(static_cast<double>(widthPx)); }
    // The first time at or after pixel column `column` (columns are [c, c + 1)).
    TimeNs columnStart(std::int64_t column) const {
        return start + static_cast<TimeNs>(std::ceil(static_cast<double>(column) * nsPerPixel));
    }
};

} // namespace sl::ui
