#pragma once
// The job as the scheduler sees it (docs/AddedRanks.md, "Simulated on their own"): the loaded
// ranks and the ranks dp.degree adds, and where collectives meet. Internal to core/sim.
#include "graph/ExecutionGraph.h"
#include "sim/SetupEdits.h"
#include "sim/Simulator.h"
#include "structure/CollectiveCalls.h"

#include <cstdint>
#include <vector>

namespace sl {

// The job's ranks as the scheduler sees them: the loaded ranks own the graph's node ids [0, n); each
// added rank owns a run of virtual ids after them, one per node of its source rank
// (docs/AddedRanks.md). With added ranks, collectives meet in rendezvous: one per matched
// collective and replica (one for all replicas when the group spans them), so an added rank's copy
// meets the members of its own group in the new job.
struct JobLayout {
    std::size_t n = 0;     // graph nodes
    std::size_t total = 0; // n + every added rank's slots
    // Rendezvous (with added ranks only): per virtual collective node, its rendezvous; members CSR.
    std::vector<std::uint32_t> rdvOfNode;   // per graph node (loaded ranks), or kNone
    std::vector<std::uint32_t> collIndex;   // per graph node: position among its rank's rendezvous nodes
    std::vector<std::size_t> addedCollBase; // per added rank: first entry in rdvOfAdded
    std::vector<std::uint32_t> rdvOfAdded;
    std::vector<std::size_t> rdvOffsets;
    std::vector<std::uint64_t> rdvMembers; // virtual ids
    static constexpr std::uint32_t kNone = 0xffffffffu;

    bool rendezvous() const { return !rdvOffsets.empty(); }
    // The added rank a virtual id u >= n belongs to.
    std::size_t addedOf(std::size_t u, const AddedRankTimes& added) const;
    // The graph node and added rank a virtual id runs (added -1: a loaded rank's node).
    SimNodeRef refOf(std::size_t u, const AddedRankTimes& added) const;
};

// Fills AddedRankTimes' layout (source, offsets, slots) and the rendezvous of the added ranks' job.
JobLayout layoutJob(const ExecutionGraph& g, const SetupEditPlan& plan,
                    const std::vector<CollectiveCall>& calls, AddedRankTimes& added);

} // namespace sl
