#include "RowLayout.h"

#include "TrackState.h"

#include <algorithm>

namespace sl::ui {

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
    for (std::size_t r = 0; r < set.ranks.size() && r < state.rankCount(); ++r) {
        rows_.push_back({static_cast<int>(r), -1, y, kHeaderHeight, 0});
        rows_.back().collapsed = !state.rankExpanded(r);
        y += kHeaderHeight;
        if (state.exposedLanes()) {
            rows_.push_back({static_cast<int>(r), kExposedRow, y, kExposedHeight, 0});
            y += kExposedHeight;
        }
        if (!state.rankExpanded(r)) continue;
        for (std::size_t k : state.order(r)) {
            if (state.trackHidden(r, k) || state.trackPinned(r, k)) continue;
            addTrack(r, k, false);
        }
    }
    height_ = y;
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

int RowLayout::rowOf(int rank, int track) const {
    if (rank < 0 || static_cast<std::size_t>(rank) >= rowOfTrack_.size()) return -1;
    const auto& v = rowOfTrack_[static_cast<std::size_t>(rank)];
    return track >= 0 && static_cast<std::size_t>(track) < v.size() ? v[static_cast<std::size_t>(track)] : -1;
}

} // namespace sl::ui
