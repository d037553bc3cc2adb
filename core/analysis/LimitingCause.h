#pragma once
// What limits a step, named by rank and event (docs/WhatIfWorkbench.md, "What limits this step"):
// the GUI's result card reads it. Where a rank entered the step late and that late start holds a
// good part of the critical path, the sentence says so and what the rank ran before its first GPU
// call; where one rank holds the path, the collectives keep waiting for it and its GPU or its host
// runs slower than the ranks that wait, it names that rank and which of the two is slow; otherwise
// it falls back to stepLimit (the kind holding most time on the path).
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <string>

namespace sl {

struct LimitingCause {
    // SlowRank: its GPU compute is slower (with the host, when both are: a straggler); SlowHost:
    // only its host is (its launches come late, its kernels are as fast as the others').
    enum class Kind : std::uint8_t { None, LateStart, SlowRank, SlowHost, PathKind };
    Kind kind = Kind::None;
    int rankId = -1;            // Rank::rank of the rank named, -1 when none
    int earliestRankId = -1;    // LateStart: the rank that entered the step first
    TimeNs enteredAfter = 0;    // LateStart: its first event after the earliest rank's first event
    TimeNs beforeFirstCall = 0; // LateStart: from its first event to its first GPU runtime call
    std::string beforeOp;       // LateStart: the op that ran longest in that time ("" when none)
    double slowdown = 1.0;      // SlowRank / SlowHost: its GPU compute time over the median of the others'
    double hostSlowdown = 1.0;  // SlowRank / SlowHost: its host CPU time over the median of the others'
    int collectivesLast = 0;    // SlowRank / SlowHost: collectives it arrived at last (someone waited)
    int collectivesWaited = 0;  // ... where someone waited (a pipeline's sends and receives left out)
    double sharePct = 0;        // the named cause's share of the critical path
    std::string sentence;       // "rank 7 enters the step 7.5 ms after rank 1, then ..."
};

// Empty sentence when the path is empty. `result` is the run the path was walked on.
LimitingCause limitingCause(const ExecutionGraph& graph, const CriticalPath& path, const SimResult& result);

} // namespace sl
