#pragma once
// The rule by which the k-th collectives of a process group on each rank form one collective
// (graph/CollectiveMatching.cpp), shared with the reduce of a job summarised rank by rank
// (report/RankSummary.h), so that both match the same collectives.
#include "trace/Collective.h"

#include <algorithm>
#include <cstdint>

namespace sl {

// Adds a member of type `type` moving `bytes` (-1: unknown) to a group of `groupType` and
// `groupBytes` (set by the first member: `first`). False when it does not belong: another type, or
// another size (all_to_allv legitimately sends different amounts per rank: the group is as large
// as its largest member; other collectives must agree).
inline bool joinCollectiveGroup(CollectiveType& groupType, std::int64_t& groupBytes, bool first,
                                CollectiveType type, std::int64_t bytes) {
    if (first) {
        groupType = type;
        groupBytes = bytes;
        return true;
    }
    if (type != groupType) return false;
    if (bytes >= 0 && groupBytes >= 0 && bytes != groupBytes) {
        if (type != CollectiveType::AllToAll) return false;
        groupBytes = std::max(groupBytes, bytes);
    }
    return true;
}

} // namespace sl
