#pragma once
// The discrete-event scheduler (docs/ARCHITECTURE.md, "Simulator"): every node of the job starts
// when its start causes have fired and ends when its own time and its end causes are done. It
// takes a planned job (the layout, the knob timing, each rank's variation) and returns times only;
// mapping them onto ranks and the accuracy statistics are the caller's (sim/Simulator.cpp,
// sim/RunStatistics.h). Internal to core/sim.
#include "graph/ExecutionGraph.h"
#include "sim/JobLayout.h"
#include "sim/KnobTiming.h"
#include "sim/RankVariation.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

namespace sl {

// Earlier than any time of a run (an end no edge has set yet).
constexpr TimeNs kMinTime = std::numeric_limits<TimeNs>::min() / 4;

struct ScheduleInputs {
    const ExecutionGraph& g;
    const KnobTiming& timing;
    const JobLayout& layout;
    const AddedRankTimes& added;                 // the added ranks' layout (no times yet)
    const std::vector<RankVariation>& loadedVar; // per loaded rank (x lanes: [rank * lanes + lane])
    const std::vector<RankVariation>& addedVar;  // per added rank (likewise)
    const EdgeOverlay* overlay = nullptr;        // comm.overlap=false's edges, or none
    // peers.model=follow: peers outside the rank set reach a collective the measured skew after
    // this rank does (docs/ARCHITECTURE.md, "Collectives and phantom peers").
    bool followPeers = true;
    const std::atomic<bool>* cancel = nullptr;
    // pp.degree (docs/Layouts.md): the stages laid out in each rank's column, and per node its lane;
    // each lane is a rank of the job with a variation of its own. Null: one lane.
    const std::vector<std::uint8_t>* laneOf = nullptr;
    std::size_t lanes = 1;
};

struct Schedule {
    std::vector<TimeNs> duration;       // per graph node: its duration on its loaded rank
    std::vector<TimeNs> start, end;     // per graph node, on its rank's simulated clock; -1: none
    std::vector<EdgeId> startBy, endBy; // per graph node: the edge that set the time, or kNoEdge
    // The same per added rank's slot (virtual node n + slot): AddedRankTimes' arrays, before the
    // ranks' origins are added.
    std::vector<TimeNs> addedStart, addedEnd;
    std::vector<EdgeId> addedStartBy, addedEndBy;
    std::vector<std::uint64_t> rdvWinner; // per rendezvous: the virtual node that arrived last
    bool cancelled = false;               // stopped early by `cancel`
    bool complete = true;                 // every node scheduled (false: a dependency cycle)
};

Schedule scheduleJob(const ScheduleInputs& in);

} // namespace sl
