#pragma once
// Who waited for whom at every collective, as JSON: what `collectives --json` prints
// (docs/ARCHITECTURE.md, "Reports").
#include "analysis/CollectiveArrivals.h"
#include "graph/ExecutionGraph.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace sl {

// The ranks of `a` ordered by the time they made others wait, longest first (ties keep rank order).
std::vector<RankWaiting> ranksByMadeOthersWait(const CollectiveArrivals& a);

// The rank that arrived last at `c`: null when all arrived together, "phantom" when peers outside
// the set came last, else the rank id.
nlohmann::json lastArrivalJson(const ExecutionGraph& g, const CollectiveArrival& c);

// {ranks[] (ranksByMadeOthersWait order), waited_for_phantoms_us, collectives[{type, group,
// group_ranks, size, bytes, first_us, last_rank, spread_us, phantom_peers, arrivals[]}]}.
nlohmann::json collectivesJson(const ExecutionGraph& g, const CollectiveArrivals& a);
// The same with the rank ids of the rank indices of `a` given (a job summarised rank by rank).
nlohmann::json collectivesJson(const std::vector<int>& rankIds, const CollectiveArrivals& a);

} // namespace sl
