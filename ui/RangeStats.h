#pragma once
#include "Palette.h"
#include "TimelineData.h"

#include <QString>

#include <vector>

namespace sl::ui {

class TrackState;

// Aggregate statistics of the events with one name that overlap a time range.
struct NameStats {
    QString name;
    Category category = Category::Other;
    std::int64_t count = 0;
    TimeNs total = 0; // sum of durations
    TimeNs max = 0;
    double mean() const { return count ? static_cast<double>(total) / static_cast<double>(count) : 0.0; }
};

// Events overlapping [start, end) on the tracks that `tracks` shows (all tracks when null),
// grouped by name across ranks, sorted by total duration, longest first.
std::vector<NameStats> computeRangeStats(const TimelineData& data, const TrackState* tracks, TimeNs start,
                                         TimeNs end);

} // namespace sl::ui
