#pragma once
#include "trace/TraceSet.h"

#include <QString>

#include <memory>
#include <vector>

namespace sl::ui {

class TrackState;

// The vertical layout of a timeline pane: pinned tracks first (in rank, then display order), then one
// header row per rank, its exposed-communication lane
// when TrackState shows them, then one row per visible track with one lane per shown nesting depth. Both
// panes use the same layout so their rows line up. Ranks grouped by node, pipeline stage or replica
// (TrackState::grouping) come group by group, each under a group row that folds it; a track filter
// keeps the ranks and tracks whose names match; compact rows make a collapsed rank a strip a few
// pixels high (docs/ManyRanks.md).
struct Row {
    int rank = 0;
    int track = -1; // -1: the rank's header row, -2: its exposed-communication lane, -3: a group row
    int y = 0;
    int height = 0;
    int lanes = 0;
    bool pinned = false;    // in the pinned section at the top of the pane
    bool collapsed = false; // a header row of a collapsed rank (it shows the rank's summary strip)
    bool compact = false;   // that strip only, a few pixels high, no name on the row itself
    int group = -1;         // the rank's group key (RankGroups.h), -1 ungrouped
    int members = 0;        // a group row: its ranks
    // The rank and track in the TrackState: rank and track, except in a layout built along another
    // set (RowMapping), where rank and track index the set shown and these the set the state describes.
    int stateRank = 0;
    int stateTrack = -1;
    bool header() const { return track == -1; }
    bool exposedLane() const { return track == -2; }
    bool groupRow() const { return track == -3; }
    bool isTrack() const { return track >= 0; }
    // Where a collapsed rank's summary strip sits in its row.
    int stripTop() const { return compact ? 0 : 4; }
    int stripHeight() const { return compact ? height - 1 : height - 8; }
};

// The track filter (TrackState::filter) on a set: a rank whose label ("Rank 12 dp3 tp0 pp1 ...")
// contains the text keeps all its tracks, other ranks keep the tracks whose names contain it (case
// aside). The panes' layout and the track tree both follow it.
class TrackFilter {
public:
    TrackFilter(const TraceSet& set, const TrackState& state);
    bool active() const { return !text_.isEmpty(); }
    bool rankMatched(std::size_t rank) const { return !active() || rankMatched_[rank]; }
    bool trackMatches(std::size_t rank, std::size_t track) const;
    // Whether the rank keeps a row: its label matches or one of its tracks does (hidden tracks
    // left out when skipHidden: the panes draw none of them, the tree lists them all).
    bool rankShown(std::size_t rank, bool skipHidden) const;

private:
    const TraceSet& set_;
    const TrackState& state_;
    QString text_;
    std::vector<bool> rankMatched_;
};

// Another trace set laid out along the rows of the set a TrackState describes (the comparison run
// under the open run, docs/Compare.md): per rank of `along`, the shown set's rank, and per track the
// shown set's track (-1: none; its row stays empty, so both panes' rows keep one height and scroll).
struct RowMapping {
    std::shared_ptr<const TraceSet> along;
    std::vector<int> rank;               // per rank of `along`
    std::vector<std::vector<int>> track; // per rank and track of `along`
};

class RowLayout {
public:
    static constexpr int kHeaderHeight = 20;
    static constexpr int kLaneHeight = 17;
    static constexpr int kTrackPadding = 3;
    static constexpr int kExposedHeight = 12;
    static constexpr int kExposedRow = -2;
    static constexpr int kGroupRow = -3;
    static constexpr int kCompactHeight = 5;
    static constexpr int kGroupHeight = 18;

    void build(const TraceSet& set, const TrackState& state);
    // The rows of map.along under `state` (the same rows, heights and places), showing `shown`'s
    // tracks: a row whose rank or track has no counterpart is left out (a gap of its height).
    void build(const TraceSet& shown, const TrackState& state, const RowMapping& map);
    const std::vector<Row>& rows() const { return rows_; }
    int height() const { return height_; }
    // The row at content y, or -1.
    int rowAt(int y) const;
    // The first row whose bottom is below content y (for drawing from the top of the viewport).
    int firstRowBelow(int y) const;
    // The row of a track, or -1 when it is not shown.
    int rowOf(int rank, int track) const;
    // The content y of a rank's header row, or -1 when it is not shown.
    int headerY(int rank) const;
    // The lane's y inside its row.
    static int laneY(int lane) { return kTrackPadding / 2 + lane * kLaneHeight; }

private:
    std::vector<Row> rows_;
    std::vector<std::vector<int>> rowOfTrack_;
    int height_ = 0;
};

} // namespace sl::ui
