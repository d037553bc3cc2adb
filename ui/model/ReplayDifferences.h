#pragma once
// Where a replay differs from the measurement (docs/ManyRanks.md, "One pane under replay"): with
// the lower pane hidden because a plain replay "shows the same", the measured pane shades the time
// spans of each rank in which the replay does not, so what the hidden pane would have shown is not
// lost. What counts as different follows the zoom: a GPU op whose replayed start or end is two
// pixels or more from its measured one, from precomputed levels (1 us, 10 us, 100 us, 1 ms).
#include "TimelineData.h"

#include <utility>
#include <vector>

namespace sl::ui {

struct ReplayDifferences {
    struct Level {
        TimeNs tolerance = 0; // an op differs when its start or end is more than this off
        // Per rank (TraceSet index): sorted, disjoint spans in the pane's time (the rank's trace
        // clock), each covering the measured and replayed places of the ops that differ.
        std::vector<std::vector<std::pair<TimeNs, TimeNs>>> spans;
        std::size_t ops = 0;   // GPU ops that differ
        std::size_t ranks = 0; // ranks with at least one
    };
    std::vector<Level> levels; // finest first

    // The GPU ops of `simulated` (a replay of the set `measured` shows) against their measured times.
    static ReplayDifferences compute(const TimelineData& measured, const TimelineData& simulated);
    // The level to draw at a zoom: the coarsest whose tolerance is at most two pixels (the finest
    // when even that is wider).
    const Level& levelFor(double nsPerPixel) const;
    bool empty() const { return levels.empty() || levels.front().ops == 0; }
};

} // namespace sl::ui
