#pragma once
#include "SimAnalysis.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <vector>

namespace sl::ui {

// Per-event highlight flags, one byte per event: kOnPath when the event is a node of the critical
// path, its PathLabel in the low bits (the label of its longest own segment).
namespace highlight {
constexpr std::uint8_t kOnPath = 0x80;
constexpr std::uint8_t kLabelMask = 0x0f;
inline bool onPath(std::uint8_t f) {
    return (f & kOnPath) != 0;
}
inline PathLabel label(std::uint8_t f) {
    return static_cast<PathLabel>(f & kLabelMask);
}
} // namespace highlight

// A piece of the critical path drawn over a lane of a track: the slice of a node's event that is on
// the path, or the gap it waited through (a late start, a collective wait, an unexplained wait),
// in the pane's times.
struct PathBar {
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint16_t depth = 0; // lane (nesting depth) of the node's event
    PathLabel label = PathLabel::Idle;
    bool wait = false; // a wait, drawn striped: the node was not running
};

// Where consecutive pieces of the path lie on different ranks: a thin line from the end of the
// one on rank `rank` to the start of the next on rank `toRank`, so the eye follows the path.
struct PathJoint {
    TimeNs from = 0, to = 0;
    int rank = -1, track = -1;
    std::uint16_t depth = 0;
    int toRank = -1, toTrack = -1;
    std::uint16_t toDepth = 0;
};

struct TrackHighlights {
    std::vector<std::uint8_t> flags; // per event of the track; empty: nothing on the path
    std::vector<PathBar> bars;       // sorted by start
    std::vector<TimeNs> barsMaxEnd;  // prefix maximum of bar ends (binary search of the window)
    bool communication = false;      // a GPU stream that runs collective kernels (hatched exposure)
};

struct RankHighlights {
    std::vector<TrackHighlights> tracks; // parallel to Rank::tracks
    std::vector<TimeSpan> exposed;       // exposed communication, sorted and disjoint
};

// Everything a pane draws on top of its events, precomputed once per simulation so that painting
// only reads flags (no per-event lookups in the graph, no virtual calls).
struct PaneHighlights {
    std::vector<RankHighlights> ranks; // parallel to TraceSet::ranks
    std::vector<PathJoint> joints;     // in path order
    std::int64_t eventsOnPath = 0;
    std::int64_t bars = 0;

    const TrackHighlights* track(std::size_t rank, std::size_t track) const {
        return rank < ranks.size() && track < ranks[rank].tracks.size() ? &ranks[rank].tracks[track]
                                                                        : nullptr;
    }
    // The first bar of a track whose end is after t.
    static std::size_t firstBarEndingAfter(const TrackHighlights& t, TimeNs t0);
};

// Builds the highlights of the measured pane (timeline == nullptr: the replay's path segments,
// waits included, moved to their nodes' measured times; measured exposed communication) or of the
// simulated pane (path segments at simulated times, simulated exposed communication).
PaneHighlights buildPaneHighlights(const ExecutionGraph& graph, const SimAnalysis& analysis,
                                   const SimulatedTimeline* timeline);

} // namespace sl::ui
