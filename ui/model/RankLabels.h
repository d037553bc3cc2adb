#pragma once
// The names of ranks in the timeline's rank rows and the track tree (docs/Structure.md): "Rank 12
// dp3 tp0 pp1  H100 80GB HBM3", the rank's place in the data x tensor x pipeline grid where the
// structure is recognised (only the dimensions with a degree above one), the device without its
// vendor prefix. Recognised (the layout only, no block search: microseconds) when made; whoever
// shows a set owns the labels of that set: TimelineData for the set it draws (both panes and the
// renderer ask it for every rank row of every frame), the track tree and the rank overview for the
// set they list.
#include "structure/Structure.h"
#include "trace/TraceSet.h"

#include <QString>

#include <cstddef>
#include <vector>

namespace sl::ui {

class RankLabels {
public:
    RankLabels() = default;
    explicit RankLabels(const TraceSet& set);

    // The place of every rank ("dp3 tp0 pp1", "" when unknown or a single rank), parallel to
    // TraceSet::ranks.
    const std::vector<QString>& places() const { return places_; }
    // The same places as numbers (known = false where places() is empty).
    const std::vector<RankPlace>& coordinates() const { return coordinates_; }
    // "Rank 12  dp3 tp0 pp1  H100 80GB HBM3" (without the place when it has none); empty for a rank
    // the set does not have.
    QString label(std::size_t rank) const;
    std::size_t size() const { return labels_.size(); }

private:
    std::vector<QString> places_, labels_;
    std::vector<RankPlace> coordinates_;
};

} // namespace sl::ui
