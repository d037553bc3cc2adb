#pragma once
// A loaded rank's program as the ranks dp.degree adds run it (docs/AddedRanks.md, "Simulated on
// their own"): per slot (a node's place among its rank's nodes), the edges that fire at its start
// and those that fire at its end, in the order the scheduler relaxes them (the graph's out-edges,
// then comm.overlap=false's), with their targets as slots and their delays on a host at x1. Built
// once a run for each source rank, so that an added rank's vertex reads one compact run of edges
// rather than the graph's edges through their ids (at 131,072 ranks the scheduler's largest cost).
// Internal to core/sim.
#include "graph/ExecutionGraph.h"
#include "sim/JobLayout.h"
#include "sim/KnobTiming.h"
#include "sim/Simulator.h"

#include <cstdint>
#include <vector>

namespace sl {

struct SlotEdge {
    static constexpr std::uint32_t kGatesEnd = 1u << 31;   // bounds the target's end, else its start
    static constexpr std::uint32_t kHostScaled = 1u << 30; // its delay follows the rank's host
    static constexpr std::uint32_t kSlot = kHostScaled - 1;
    std::uint32_t to; // the target's slot | the flags above
    EdgeId id;        // the graph's edge, or edges.size() + the overlay's edge
    TimeNs delay;     // on a host at x1 (KnobTiming::delay with RankVariation{})
};

// What an added rank's vertex reads of a slot besides its edges, side by side.
struct SlotInfo {
    TimeNs unitDuration;           // on a rank whose host and GPU run at x1
    NodeId node;                   // the graph node
    std::uint32_t collIndex;       // JobLayout::collIndex: its rendezvous among the rank's, or kNone
    KnobTiming::VariedBy variedBy; // what of a rank's variation its duration follows
    bool phantom;                  // it has peers outside the rank set
};

struct SourceProgram {
    std::vector<SlotInfo> info;       // per slot
    std::vector<std::uint32_t> first; // per vertex 2 * slot + (1 at its end): its first edge, and the end
    std::vector<SlotEdge> edges;
    std::vector<std::uint32_t> roots; // slots without start causes, in slot order
    // Per slot, where an added rank starts: the release time on a host at x1 and the pending
    // start and end causes.
    std::vector<TimeNs> release;
    std::vector<std::uint32_t> pendStart, pendEnd;
};

// The programs of the loaded ranks that added ranks run (empty for the others). Collective edges
// are left out: with added ranks, collectives meet in rendezvous (sim/JobLayout.h). pendStart and
// pendEnd: per graph node, its pending start and end causes.
std::vector<SourceProgram> sourcePrograms(const ExecutionGraph& g, const KnobTiming& timing,
                                          const JobLayout& layout, const AddedRankTimes& added,
                                          const EdgeOverlay* overlay,
                                          const std::vector<std::uint32_t>& pendStart,
                                          const std::vector<std::uint32_t>& pendEnd);

} // namespace sl
