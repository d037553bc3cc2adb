#include "TrackState.h"

#include "RowLayout.h"

#include <algorithm>
#include <numeric>

namespace sl::ui {

TrackState::TrackState(QObject* parent) : QObject(parent) {}

void TrackState::reset(const TraceSet& set) {
    ranks_.clear();
    for (const Rank& rank : set.ranks) {
        RankState rs;
        const std::size_t n = rank.tracks.size();
        rs.order.resize(n);
        std::iota(rs.order.begin(), rs.order.end(), std::size_t{0});
        std::stable_sort(rs.order.begin(), rs.order.end(), [&](std::size_t a, std::size_t b) {
            const Track& x = rank.tracks[a];
            const Track& y = rank.tracks[b];
            if (x.kind != y.kind) return x.kind == TrackKind::CpuThread;
            if (x.pid != y.pid) return x.pid < y.pid;
            return x.tid < y.tid;
        });
        rs.hidden.assign(n, false);
        // Nested CPU rows start folded (click the track name to open them), so that several ranks
        // fit at first sight.
        rs.nested.assign(n, false);
        rs.pinned.assign(n, false);
        for (std::size_t k = 0; k < n; ++k)
            rs.hidden[k] = rank.tracks[k].events.size() == 0;
        // Many ranks start as compact strips, so that 64 fit in a pane (docs/ManyRanks.md).
        rs.expanded = set.ranks.size() <= kCompactAbove;
        ranks_.push_back(std::move(rs));
    }
    compactRows_ = set.ranks.size() > kCompactAbove;
    grouping_ = RankGrouping::None;
    collapsedGroups_.clear();
    filter_.clear();
    // A short window: four ranks expanded must fit a pane, else every rank starts as its summary row.
    if (roomHint_ > 0 && !compactRows_ && set.ranks.size() >= 4) {
        RowLayout layout;
        layout.build(set, *this);
        int end = 0; // the bottom of the fourth rank's last row
        for (const Row& row : layout.rows())
            if (row.rank == 3) end = std::max(end, row.y + row.height);
        if (end > roomHint_)
            for (RankState& r : ranks_)
                r.expanded = false;
    }
    emit changed();
}

bool TrackState::matches(const TraceSet& set) const {
    if (set.ranks.size() != ranks_.size()) return false;
    for (std::size_t r = 0; r < ranks_.size(); ++r)
        if (ranks_[r].order.size() != set.ranks[r].tracks.size()) return false;
    return true;
}

bool TrackState::valid(const RankState& s, std::size_t n) {
    if (s.order.size() != n || s.hidden.size() != n || s.nested.size() != n || s.pinned.size() != n)
        return false;
    std::vector<bool> seen(n, false);
    for (std::size_t k : s.order) {
        if (k >= n || seen[k]) return false;
        seen[k] = true;
    }
    return true;
}

bool TrackState::restore(const std::vector<RankState>& ranks) {
    bool all = ranks.size() == ranks_.size();
    for (std::size_t r = 0; r < ranks.size() && r < ranks_.size(); ++r) {
        if (valid(ranks[r], ranks_[r].order.size()))
            ranks_[r] = ranks[r];
        else
            all = false;
    }
    emit changed();
    return all;
}

bool TrackState::anyPinned() const {
    return std::any_of(ranks_.begin(), ranks_.end(), [](const RankState& r) {
        return std::find(r.pinned.begin(), r.pinned.end(), true) != r.pinned.end();
    });
}

void TrackState::setRankExpanded(std::size_t rank, bool expanded) {
    if (ranks_[rank].expanded == expanded) return;
    ranks_[rank].expanded = expanded;
    emit changed();
}

void TrackState::setTrackHidden(std::size_t rank, std::size_t track, bool hidden) {
    if (ranks_[rank].hidden[track] == hidden) return;
    ranks_[rank].hidden[track] = hidden;
    emit changed();
}

void TrackState::setTrackNested(std::size_t rank, std::size_t track, bool nested) {
    if (ranks_[rank].nested[track] == nested) return;
    ranks_[rank].nested[track] = nested;
    emit changed();
}

void TrackState::setTrackPinned(std::size_t rank, std::size_t track, bool pinned) {
    if (ranks_[rank].pinned[track] == pinned) return;
    ranks_[rank].pinned[track] = pinned;
    emit changed();
}

bool TrackState::moveTrack(std::size_t rank, std::size_t from, std::size_t to) {
    if (rank >= ranks_.size()) return false;
    auto& order = ranks_[rank].order;
    if (from >= order.size() || to >= order.size() || from == to) return false;
    const std::size_t k = order[from];
    order.erase(order.begin() + static_cast<std::ptrdiff_t>(from));
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(to), k);
    emit changed();
    return true;
}

void TrackState::setAllRanksExpanded(bool expanded) {
    for (auto& r : ranks_)
        r.expanded = expanded;
    emit changed();
}

void TrackState::setGrouping(RankGrouping grouping) {
    if (grouping == grouping_) return;
    grouping_ = grouping;
    collapsedGroups_.clear(); // keys of another grouping
    emit changed();
}

bool TrackState::groupCollapsed(int key) const {
    return std::binary_search(collapsedGroups_.begin(), collapsedGroups_.end(), key);
}

void TrackState::setGroupCollapsed(int key, bool collapsed) {
    if (groupCollapsed(key) == collapsed) return;
    if (collapsed)
        collapsedGroups_.insert(std::lower_bound(collapsedGroups_.begin(), collapsedGroups_.end(), key), key);
    else
        collapsedGroups_.erase(std::lower_bound(collapsedGroups_.begin(), collapsedGroups_.end(), key));
    emit changed();
}

void TrackState::setCollapsedGroups(std::vector<int> keys) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (keys == collapsedGroups_) return;
    collapsedGroups_ = std::move(keys);
    emit changed();
}

void TrackState::setRankView(RankView view) {
    std::sort(view.collapsedGroups.begin(), view.collapsedGroups.end());
    view.collapsedGroups.erase(std::unique(view.collapsedGroups.begin(), view.collapsedGroups.end()),
                               view.collapsedGroups.end());
    if (view == rankView()) return;
    grouping_ = view.grouping;
    collapsedGroups_ = std::move(view.collapsedGroups);
    compactRows_ = view.compact;
    filter_ = std::move(view.filter);
    emit changed();
}

void TrackState::setCompactRows(bool on) {
    if (on == compactRows_) return;
    compactRows_ = on;
    emit changed();
}

void TrackState::setFilter(const QString& text) {
    if (text == filter_) return;
    filter_ = text;
    emit changed();
}

void TrackState::setExposedLanes(bool on) {
    if (on == exposedLanes_) return;
    exposedLanes_ = on;
    emit changed();
}

} // namespace sl::ui
