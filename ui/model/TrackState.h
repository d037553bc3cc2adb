#pragma once
#include "RankGroups.h"

#include "trace/TraceSet.h"

#include <QObject>
#include <QString>

#include <cstddef>
#include <vector>

namespace sl::ui {

// Which ranks are expanded, which tracks are hidden, pinned or show their nested rows, and the
// display order of tracks (CPU threads, then GPU streams, until the user reorders them). The track
// tree edits it; panes lay out from it (pinned tracks first, at the top of both panes).
class TrackState : public QObject {
    Q_OBJECT
public:
    // The state of one rank's tracks (indices are Rank::tracks indices).
    struct RankState {
        bool expanded = true;
        std::vector<std::size_t> order;
        std::vector<bool> hidden;
        std::vector<bool> nested;
        std::vector<bool> pinned;
    };

    explicit TrackState(QObject* parent = nullptr);

    void reset(const TraceSet& set);
    // The height of a pane in a short window (under 800 px; 0 otherwise): a set whose first four
    // ranks do not fit in it expanded opens with every rank as its summary row, so that a pane shows
    // several ranks rather than part of one (docs/MainWindow.md, "Layout"). Applies at the next reset.
    void setRoomHint(int paneHeight) { roomHint_ = paneHeight; }
    std::size_t rankCount() const { return ranks_.size(); }
    // Whether this state describes a set shaped like `set` (same ranks, same track count per rank):
    // what every reader checks before indexing a set's tracks through it, so that a state and a set
    // from different loads are never mixed.
    bool matches(const TraceSet& set) const;
    const std::vector<std::size_t>& order(std::size_t rank) const { return ranks_[rank].order; }
    const std::vector<RankState>& ranks() const { return ranks_; }
    // Replaces the state of the ranks whose track count matches (a saved session); false when none
    // or only some matched.
    bool restore(const std::vector<RankState>& ranks);

    bool rankExpanded(std::size_t rank) const { return ranks_[rank].expanded; }
    bool trackHidden(std::size_t rank, std::size_t track) const { return ranks_[rank].hidden[track]; }
    bool trackNested(std::size_t rank, std::size_t track) const { return ranks_[rank].nested[track]; }
    bool trackPinned(std::size_t rank, std::size_t track) const { return ranks_[rank].pinned[track]; }
    bool anyPinned() const;
    void setRankExpanded(std::size_t rank, bool expanded);
    void setTrackHidden(std::size_t rank, std::size_t track, bool hidden);
    void setTrackNested(std::size_t rank, std::size_t track, bool nested);
    void setTrackPinned(std::size_t rank, std::size_t track, bool pinned);
    void setAllRanksExpanded(bool expanded);
    // Moves the track at display position `from` of a rank to position `to` (both in order()).
    bool moveTrack(std::size_t rank, std::size_t from, std::size_t to);
    // A per-rank exposed-communication lane under each rank's header.
    bool exposedLanes() const { return exposedLanes_; }
    void setExposedLanes(bool on);

    // Many ranks (docs/ManyRanks.md). Ranks grouped by node, stage or replica, each group foldable
    // (a new grouping starts with every group open); collapsed ranks as compact strips a few
    // pixels high (the default above 16 ranks, which also start collapsed); a filter that keeps the
    // ranks and tracks whose names contain it (case-insensitive; empty: all).
    RankGrouping grouping() const { return grouping_; }
    void setGrouping(RankGrouping grouping);
    bool groupCollapsed(int key) const;
    void setGroupCollapsed(int key, bool collapsed);
    const std::vector<int>& collapsedGroups() const { return collapsedGroups_; }
    void setCollapsedGroups(std::vector<int> keys);
    bool compactRows() const { return compactRows_; }
    void setCompactRows(bool on);
    const QString& filter() const { return filter_; }
    void setFilter(const QString& text);
    static constexpr std::size_t kCompactAbove = 16;
    // All four at once (a session, the set's remembered view), with one change signal.
    struct RankView {
        RankGrouping grouping = RankGrouping::None;
        std::vector<int> collapsedGroups;
        bool compact = false;
        QString filter;
        bool operator==(const RankView&) const = default;
    };
    RankView rankView() const { return {grouping_, collapsedGroups_, compactRows_, filter_}; }
    void setRankView(RankView view);

    // Whether a rank state fits a rank with n tracks (order a permutation, flags sized n).
    static bool valid(const RankState& state, std::size_t n);

signals:
    void changed();

private:
    std::vector<RankState> ranks_;
    bool exposedLanes_ = false;
    RankGrouping grouping_ = RankGrouping::None;
    std::vector<int> collapsedGroups_; // sorted
    bool compactRows_ = false;
    int roomHint_ = 0;
    QString filter_;
};

} // namespace sl::ui
