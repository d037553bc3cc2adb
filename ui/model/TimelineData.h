#pragma once
#include "trace/TraceSet.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace sl::ui {

class RankLabels;

// One row of boxes: the events of one nesting depth of one track, in start order, with what the
// renderer needs to draw only the visible part fast: a prefix maximum of ends (binary search for
// the first event that reaches into the window, even when events overlap) and a block hierarchy of
// the longest event (a pixel column that folds many events takes the longest one's colour).
struct Lane {
    std::vector<std::uint32_t> indexStorage;         // track event index per position; empty: identity
    std::vector<TimeNs> startStorage;                // start per position when not the track's own column
    std::vector<TimeNs> maxEnd;                      // max end of positions [0, i]
    std::vector<std::vector<std::uint32_t>> longest; // longest[l][b]: position of the longest in block b
    // Coarse level for zoomed-out frames (lanes of at least kCoarseMinEvents events): time buckets
    // of width coarseWidth << l from coarseOrigin; coarse[l][b] is the position of the longest event
    // that starts in bucket b, or kNone. A pixel column covers one to three buckets of the level
    // just finer than a pixel, so a frame costs O(pixels) however many events fold into it.
    std::vector<std::vector<std::uint32_t>> coarse;
    TimeNs coarseOrigin = 0;
    TimeNs coarseWidth = 0;
    const TimeNs* start = nullptr; // start per position
    std::size_t size = 0;

    std::uint32_t event(std::size_t pos) const {
        return indexStorage.empty() ? static_cast<std::uint32_t>(pos) : indexStorage[pos];
    }
    static constexpr std::size_t kBlock = 16;
    static constexpr std::size_t kCoarseMinEvents = 4096;
    static constexpr std::uint32_t kNone = 0xffffffffu;
};

struct TrackTimeline {
    const Track* track = nullptr;
    const TimeNs* start = nullptr; // per track event index (measured or simulated)
    const TimeNs* duration = nullptr;
    std::vector<Lane> lanes; // by depth
    TimeNs end(std::uint32_t event) const { return start[event] + duration[event]; }
};

struct RankTimeline {
    const Rank* rank = nullptr;
    std::vector<TrackTimeline> tracks;    // parallel to Rank::tracks
    std::vector<std::uint8_t> collective; // per StringId: a communication name (NCCL kernel or c10d op)
    std::vector<std::uint8_t> shade;      // per StringId: palette::shadeOfName of its text
};

// Start and duration columns of one track, indexed like Track::events.
struct TimeColumns {
    const TimeNs* start = nullptr;
    const TimeNs* duration = nullptr;
};

// What a timeline pane shows: the trace's events with measured or simulated times, indexed for
// drawing and hit testing. Immutable once built; shared between the UI and worker threads.
class TimelineData {
public:
    using ColumnsFn = std::function<TimeColumns(std::size_t rank, std::size_t track)>;

    // keepAlive owns the memory columns() points into (a simulation result), if any.
    static std::shared_ptr<const TimelineData> build(std::shared_ptr<const TraceSet> set,
                                                     const ColumnsFn& columns,
                                                     std::shared_ptr<const void> keepAlive = {});
    static std::shared_ptr<const TimelineData> measured(std::shared_ptr<const TraceSet> set);

    const TraceSet& set() const { return *set_; }
    const std::shared_ptr<const TraceSet>& setPtr() const { return set_; }
    // The names and places of the set's ranks (RankLabels.h), made with the data.
    const RankLabels& rankLabels() const { return *rankLabels_; }
    const std::vector<RankTimeline>& ranks() const { return ranks_; }
    const TrackTimeline& track(std::size_t rank, std::size_t track) const {
        return ranks_[rank].tracks[track];
    }
    TimeNs start() const { return start_; }
    TimeNs end() const { return end_; }
    std::int64_t eventCount() const { return events_; }

    // Lane queries; positions are lane positions.
    // The first position whose event ends after t (or reaches t when it has no duration).
    static std::size_t firstEndingAfter(const Lane& lane, TimeNs t);
    // The first position that starts at or after t.
    static std::size_t firstStartingAt(const Lane& lane, TimeNs t);
    // The first position at or after `from` that starts at or after t: a galloping search from
    // `from`, fast when the answer is near (the next pixel column).
    static std::size_t nextStartingAt(const Lane& lane, std::size_t from, TimeNs t);
    // The position of the longest event in [from, to), from < to.
    static std::size_t longest(const TrackTimeline& track, const Lane& lane, std::size_t from,
                               std::size_t to);
    // The coarse level whose buckets are at most nsPerPixel wide (the coarsest such), or -1 when the
    // lane has no coarse level or pixels are finer than its finest buckets.
    static int coarseLevel(const Lane& lane, double nsPerPixel);
    // The position of the longest event starting in [from, to) per the buckets of `level` (each bucket
    // counts for the column where it starts, so up to one bucket late), or Lane::kNone.
    static std::uint32_t coarseLongest(const TrackTimeline& track, const Lane& lane, int level, TimeNs from,
                                       TimeNs to);
    // The event of the lane under time t, within tolerance ns; -1 if none.
    static std::int64_t hitTest(const TrackTimeline& track, const Lane& lane, TimeNs t, TimeNs tolerance);

private:
    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const void> keepAlive_;
    std::shared_ptr<const RankLabels> rankLabels_;
    std::vector<RankTimeline> ranks_;
    TimeNs start_ = 0;
    TimeNs end_ = 0;
    std::int64_t events_ = 0;
};

} // namespace sl::ui
