#include "RowLayout.h"

#include "RankGroups.h"
#include "RankLabels.h"
#include "TrackState.h"

#include <algorithm>
#include <numeric>

namespace sl::ui {

TrackFilter::TrackFilter(const TraceSet& set, const TrackState& state)
    : set_(set), state_(state), text_(state.filter().trimmed()) {
    if (!active()) return;
    rankMatched_.resize(set.ranks.size());
    const RankLabels labels(set);
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        rankMatched_[r] = labels.label(r).contains(text_, Qt::CaseInsensitive);
}

bool TrackFilter::trackMatches(std::size_t rank, std::size_t track) const {
    return rankMatched(rank) ||
           QString::fromStdString(set_.ranks[rank].tracks[track].name).contains(text_, Qt::CaseInsensitive);
}

bool TrackFilter::rankShown(std::size_t rank, bool skipHidden) const {
    if (rankMatched(rank)) return true;
    for (std::size_t k = 0; k < set_.ranks[rank].tracks.size(); ++k)
        if (!(skipHidden && state_.trackHidden(rank, k)) && trackMatches(rank, k)) return true;
    return false;
}

void RowLayout::build(const TraceSet& set, const TrackState& state) {
    rows_.clear();
    rowOfTrack_.assign(set.ranks.size(), {});
    height_ = 0;
    if (!state.matches(set)) return; // a state of another set: nothing to lay out
    int y = 0;
    const auto addTrack = [&](std::size_t r, std::size_t k, bool pinned) {
        const Track& track = set.ranks[r].tracks[k];
        const int lanes = state.trackNested(r, k) ? track.maxDepth + 1 : 1;
        const int h = lanes * kLaneHeight + kTrackPadding;
        rowOfTrack_[r][k] = static_cast<int>(rows_.size());
        Row row{static_cast<int>(r), static_cast<int>(k), y, h, lanes};
        row.pinned = pinned;
        rows_.push_back(row);
        y += h;
    };
    for (std::size_t r = 0; r < set.ranks.size() && r < state.rankCount(); ++r) {
        rowOfTrack_[r].assign(set.ranks[r].tracks.size(), -1);
        for (std::size_t k : state.order(r))
            if (state.trackPinned(r, k) && !state.trackHidden(r, k)) addTrack(r, k, true);
    }
    // The ranks in group order (stable: by rank within a group), and the filter's matches.
    const std::size_t n = std::min(set.ranks.size(), state.rankCount());
    const std::vector<int> groups = rankGroups(set, state.grouping());
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (state.grouping() != RankGrouping::None)
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return groups[a] < groups[b]; });
    const TrackFilter filter(set, state);
    std::vector<bool> rankShown(n, true);
    if (filter.active())
        for (std::size_t r = 0; r < n; ++r)
            rankShown[r] = filter.rankShown(r, true);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t r = order[i];
        if (!rankShown[r]) continue;
        const int group = state.grouping() == RankGrouping::None ? -1 : groups[r];
        if (group != -1 && (rows_.empty() || rows_.back().group != group || rows_.back().pinned)) {
            // A group row before the group's first shown rank; it counts the group's shown ranks.
            Row g{static_cast<int>(r), kGroupRow, y, kGroupHeight, 0};
            g.group = group;
            g.collapsed = state.groupCollapsed(group);
            for (std::size_t j = i; j < n && groups[order[j]] == group; ++j)
                g.members += rankShown[order[j]] ? 1 : 0;
            rows_.push_back(g);
            y += kGroupHeight;
        }
        if (group != -1 && state.groupCollapsed(group)) continue;
        const bool collapsed = !state.rankExpanded(r);
        Row header{static_cast<int>(r), -1, y,
                   collapsed && state.compactRows() ? kCompactHeight : kHeaderHeight, 0};
        header.collapsed = collapsed;
        header.compact = collapsed && state.compactRows();
        header.group = group;
        rows_.push_back(header);
        y += header.height;
        if (state.exposedLanes() && !header.compact) {
            rows_.push_back({static_cast<int>(r), kExposedRow, y, kExposedHeight, 0});
            rows_.back().group = group;
            y += kExposedHeight;
        }
        if (collapsed) continue;
        for (std::size_t k : state.order(r)) {
            if (state.trackHidden(r, k) || state.trackPinned(r, k)) continue;
            if (!filter.trackMatches(r, k)) continue;
            addTrack(r, k, false);
            rows_.back().group = group;
        }
    }
    height_ = y;
    for (Row& row : rows_)
        row.stateRank = row.rank, row.stateTrack = row.track;
}

void RowLayout::build(const TraceSet& shown, const TrackState& state, const RowMapping& map) {
    if (!map.along) {
        *this = {};
        return;
    }
    build(*map.along, state);
    rowOfTrack_.assign(shown.ranks.size(), {});
    for (std::size_t r = 0; r < shown.ranks.size(); ++r)
        rowOfTrack_[r].assign(shown.ranks[r].tracks.size(), -1);
    std::vector<Row> kept;
    kept.reserve(rows_.size());
    for (const Row& row : rows_) {
        const auto r = static_cast<std::size_t>(row.rank);
        const int other = r < map.rank.size() ? map.rank[r] : -1;
        if (other < 0 || static_cast<std::size_t>(other) >= shown.ranks.size()) continue;
        Row mapped = row;
        mapped.rank = other;
        if (row.isTrack()) {
            const auto k = static_cast<std::size_t>(row.track);
            mapped.track = r < map.track.size() && k < map.track[r].size() ? map.track[r][k] : -1;
            const auto& tracks = rowOfTrack_[static_cast<std::size_t>(other)];
            if (mapped.track < 0 || static_cast<std::size_t>(mapped.track) >= tracks.size()) continue;
            rowOfTrack_[static_cast<std::size_t>(other)][static_cast<std::size_t>(mapped.track)] =
                static_cast<int>(kept.size());
        }
        kept.push_back(mapped);
    }
    rows_ = std::move(kept);
}

int RowLayout::rowAt(int y) const {
    const int i = firstRowBelow(y);
    return i < static_cast<int>(rows_.size()) && rows_[static_cast<std::size_t>(i)].y <= y ? i : -1;
}

int RowLayout::firstRowBelow(int y) const {
    auto it = std::upper_bound(rows_.begin(), rows_.end(), y,
                               [](int value, const Row& row) { return value < row.y + row.height; });
    return static_cast<int>(it - rows_.begin());
}

int RowLayout::headerY(int rank) const {
    for (const Row& row : rows_)
        if (row.rank == rank && row.track == -1) return row.y;
    return -1;
}

int RowLayout::rowOf(int rank, int track) const {
    if (rank < 0 || static_cast<std::size_t>(rank) >= rowOfTrack_.size()) return -1;
    const auto& v = rowOfTrack_[static_cast<std::size_t>(rank)];
    return track >= 0 && static_cast<std::size_t>(track) < v.size() ? v[static_cast<std::size_t>(track)] : -1;
}

} // namespace sl::ui
