#pragma once
#include "Palette.h"
#include "TimelineData.h"

#include <QString>

#include <atomic>
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
// The same over a copy of the hidden flags (hidden[rank][track]; ranks or tracks it lacks count as
// shown), safe off the UI thread. Returns early (incomplete) once *cancel is set.
std::vector<NameStats> computeRangeStats(const TimelineData& data,
                                         const std::vector<std::vector<bool>>& hidden, TimeNs start,
                                         TimeNs end, const std::atomic<bool>* cancel = nullptr);
// The hidden flags of TrackState (empty when tracks is null).
std::vector<std::vector<bool>> hiddenTracks(const TrackState* tracks);

} // namespace sl::ui
