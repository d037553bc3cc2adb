#pragma once
// Who waited for whom at every collective (docs/ARCHITECTURE.md, "Collective arrivals"): each
// rank's arrival at each matched collective, measured, the last to arrive and the spread, and per
// rank the time it waited for others and the time others waited for it.
#include "graph/ExecutionGraph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

// One rank at one collective. Times are measured, relative to the rank's origin (RankWindow::origin:
// the job's first event when the ranks share a clock, so arrivals on different ranks compare).
struct RankArrival {
    NodeId node = kNoNode;
    std::uint32_t rank = 0; // index into TraceSet::ranks
    // When the rank's collective kernel could start: the latest of its launch reaching the GPU (the
    // launch call's start + the launch delay of the graph's launch edge), its stream predecessor's
    // end (+ the stream's back-to-back gap) and any cross-stream wait, never later than the
    // kernel's measured start. Without any of these (launched before the trace) its measured start.
    TimeNs arrival = 0;
    TimeNs start = 0; // the kernel's measured start and end
    TimeNs end = 0;
    TimeNs waited = 0; // the last arrival (phantom peers included) - own arrival
};

struct CollectiveArrival {
    std::uint32_t group = 0xffffffffu; // index into ExecutionGraph::collectives; none: a lone p2p op
    CollectiveType type = CollectiveType::Unknown;
    std::string processGroup;             // the process group's name ("" without metadata)
    std::vector<std::int32_t> groupRanks; // its rank ids, when the trace lists them
    int size = 0;                         // participants (group size), phantom peers included
    std::int64_t bytes = -1;
    std::vector<RankArrival> ranks; // the participants in the set, in arrival order
    // Peers outside the rank set: how many, and when they arrived (the graph's phantom arrival:
    // the measured end minus the modelled transfer, relative to the origin as above).
    int phantomPeers = 0;
    TimeNs phantomArrival = -1;
    bool lastIsPhantom = false; // the phantom peers arrived after every rank in the set
    TimeNs first = 0;           // the first and last arrival (phantom peers included)
    TimeNs lastArrival = 0;
    TimeNs spread = 0; // lastArrival - first
    // The last rank of the set to arrive (the phantom peers may have come later: lastIsPhantom).
    const RankArrival& last() const { return ranks.back(); }
};

struct RankWaiting {
    std::uint32_t rank = 0; // index into TraceSet::ranks
    int rankId = 0;
    std::int64_t collectives = 0;
    // Collectives where this rank arrived last and someone waited for it (phantom peers aside).
    std::int64_t timesLast = 0;
    TimeNs waited = 0; // sum of its waits for later arrivals
    // Sum over the collectives it arrived last at of every peer's wait for it: each wait is charged
    // to the rank that arrived last, so waited and madeOthersWait add up to the same total (less
    // the waits for phantom peers).
    TimeNs madeOthersWait = 0;
};

struct CollectiveArrivals {
    std::vector<CollectiveArrival> collectives; // matched collectives and phantom ones, by first arrival
    std::vector<RankWaiting> ranks;             // parallel to TraceSet::ranks
    TimeNs waitedForPhantoms = 0;               // waits charged to peers outside the rank set
};

// A pipeline's send or receive between two ranks: the receiver waits for the sender by the
// schedule's data flow, whoever is slow, so arriving last there names no straggler (the last stage
// of a pipeline arrives last at most of them; docs/WhatIfWorkbench.md, "Result card").
bool isPointToPoint(CollectiveType type, int participants);

// The rank the others wait for, from measured arrivals (sends and receives left out, as the result
// card does): it arrived last at most of its collectives where someone waited (spread over 1 us),
// the waits it caused there are 0.5% of the longest rank's step or more per collective; of such
// ranks the one last at the largest share of its collectives (then: that caused the
// most). `madeOthersWait` per rank (parallel to
// CollectiveArrivals::ranks) counts the same collectives; `latest` is -1 when no rank qualifies.
struct LateRank {
    std::vector<TimeNs> madeOthersWait;
    std::vector<int> timesLast, waitedAt; // collectives it came last to; where someone waited
    int latest = -1;                      // index into TraceSet::ranks
};
LateRank lateRank(const ExecutionGraph& graph, const CollectiveArrivals& arrivals);

// Arrivals at every matched collective of the graph and at every collective whose peers are
// phantoms (peers outside the rank set); unmatched ones (type or count mismatch) are left out.
CollectiveArrivals collectiveArrivals(const ExecutionGraph& graph);

// When node `n` (a GPU op) could start, measured, on its rank's trace clock (RankArrival::arrival
// before the origin is taken off).
TimeNs measuredArrival(const ExecutionGraph& graph, NodeId n);

// The job view from each collective's participants alone (type, group, size, bytes, the ranks'
// arrivals relative to their origins, unordered; phantomArrival where peers are missing): arrival
// order, the first and last arrival, the spread and waits, the per-rank totals (`rankIds`: the id
// of each rank index) and the collectives by first arrival. collectiveArrivals() ends here, and so
// does a job summarised rank by rank (report/RankSummary.h), so the two agree.
CollectiveArrivals settleArrivals(const std::vector<int>& rankIds,
                                  std::vector<CollectiveArrival> collectives);

} // namespace sl
