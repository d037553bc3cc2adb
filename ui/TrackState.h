#pragma once
#include "trace/TraceSet.h"

#include <QObject>

#include <cstddef>
#include <vector>

namespace sl::ui {

// Which ranks are expanded, which tracks are hidden or show their nested rows, and the display
// order of tracks (CPU threads, then GPU streams). The track tree edits it; panes lay out from it.
class TrackState : public QObject {
    Q_OBJECT
public:
    explicit TrackState(QObject* parent = nullptr);

    void reset(const TraceSet& set);
    std::size_t rankCount() const { return ranks_.size(); }
    const std::vector<std::size_t>& order(std::size_t rank) const { return ranks_[rank].order; }

    bool rankExpanded(std::size_t rank) const { return ranks_[rank].expanded; }
    bool trackHidden(std::size_t rank, std::size_t track) const { return ranks_[rank].hidden[track]; }
    bool trackNested(std::size_t rank, std::size_t track) const { return ranks_[rank].nested[track]; }
    void setRankExpanded(std::size_t rank, bool expanded);
    void setTrackHidden(std::size_t rank, std::size_t track, bool hidden);
    void setTrackNested(std::size_t rank, std::size_t track, bool nested);
    void setAllRanksExpanded(bool expanded);
    // A per-rank exposed-communication lane under each rank's header.
    bool exposedLanes() const { return exposedLanes_; }
    void setExposedLanes(bool on);

signals:
    void changed();

private:
    struct RankState {
        bool expanded = true;
        std::vector<std::size_t> order;
        std::vector<bool> hidden;
        std::vector<bool> nested;
    };
    std::vector<RankState> ranks_;
    bool exposedLanes_ = false;
};

} // namespace sl::ui
