#pragma once
#include "Palette.h"
#include "TimelineData.h"

#include <QMetaType>
#include <QString>

#include <atomic>
#include <vector>

namespace sl::ui {

class TrackState;

// Aggregate statistics of the events with one name that overlap a time range, clipped to it: an
// event that starts before the range or ends after it counts only its part inside.
struct NameStats {
    QString name;
    Category category = Category::Other;
    std::int64_t count = 0;
    TimeNs total = 0; // sum of the in-range parts of the durations
    TimeNs max = 0;   // the longest in-range part
    int shade = 0;    // the name's colour shade (palette::shadeOfName)
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

// One name in both panes.
struct RangeRow {
    QString name;
    Category category = Category::Other;
    int shade = 0;
    NameStats measured;  // count 0 when the name has no event in the range of the measured pane
    NameStats simulated; // ... of the simulated pane
};

// The range statistics panel's content: the measured and the simulated pane over one range, by name.
struct RangeTable {
    TimeNs start = 0;
    TimeNs end = 0;
    int ranks = 1;             // for shares: a name's time per rank as a share of the range
    bool hasSimulated = false; // the simulated columns mean something
    std::vector<RangeRow> rows;

    TimeNs length() const { return end - start; }
    // time as a percentage of the range on one rank on average (time summed over ranks / ranks).
    double share(TimeNs time) const;
};

// Joins the two panes' statistics by name (measured order first, then names only simulated).
RangeTable mergeRangeStats(const std::vector<NameStats>& measured, const std::vector<NameStats>& simulated,
                           bool hasSimulated, TimeNs start, TimeNs end, int ranks);
// Both panes over [start, end) (simulated may be null), safe off the UI thread.
RangeTable computeRangeTable(const TimelineData& measured, const TimelineData* simulated,
                             const std::vector<std::vector<bool>>& hidden, TimeNs start, TimeNs end,
                             const std::atomic<bool>* cancel = nullptr);
// The table as CSV (RFC 4180 quoting, times in ns, shares in percent), one row per name.
QString rangeTableCsv(const RangeTable& table);

} // namespace sl::ui

Q_DECLARE_METATYPE(sl::ui::RangeTable)
