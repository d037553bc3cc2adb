#pragma once
// The names of ranks in the timeline's rank rows and the track tree (docs/Structure.md): "Rank 12
// dp3 tp0 pp1  H100 80GB HBM3", the rank's place in the data x tensor x pipeline grid where the
// structure is recognised (only the dimensions with a degree above one), the device without its
// vendor prefix. Recognised once per trace set (the layout only, no block search) and kept while
// the set is the one shown.
#include "structure/Structure.h"
#include "trace/TraceSet.h"

#include <QString>

#include <memory>
#include <vector>

namespace sl::ui {

// The place of every rank of `set` ("dp3 tp0 pp1", "" when unknown or a single rank), parallel to
// TraceSet::ranks.
const std::vector<QString>& rankPlaces(const TraceSet& set);

// The same places as numbers (known = false where rankPlaces is empty).
const std::vector<RankPlace>& rankPlaceCoordinates(const TraceSet& set);

// "Rank 12  dp3 tp0 pp1  H100 80GB HBM3" (without the place when it has none).
QString rankLabel(const TraceSet& set, std::size_t rank);

} // namespace sl::ui
