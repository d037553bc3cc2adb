#pragma once
// Exposed communication over the ranks of the simulated job, as a sweep reports it per value
// (`sightline-cli sweep` and the GUI's sweep view, docs/WhatIfWorkbench.md "Sweep"). After a setup
// edit (dp.degree, docs/Structure.md) the job is not the loaded ranks: a rank the edit added counts
// with its own simulated times (addedRanksBreakdown, docs/AddedRanks.md) and a dropped rank does
// not count (sim/SetupEdits.h).
#include "analysis/Breakdown.h"
#include "sim/SetupEdits.h"

#include <cstddef>
#include <vector>

namespace sl {

struct SimResult;

struct JobExposedComm {
    double meanNs = 0;     // mean over the ranks of the job (0 for a job without ranks)
    TimeNs maxNs = 0;      // the largest of them
    std::size_t ranks = 0; // ranks of the job
};

// `breakdown` is per TraceSet rank (simulatedBreakdown), indexed by SimulatedRank::source: every
// rank of the setup counts with the numbers of its source (a clone mirrors the rank it copies).
JobExposedComm jobExposedComm(const std::vector<RankBreakdown>& breakdown, const SimulatedSetup& setup);
// The same of a simulation of `graph`: the loaded ranks from its timeline, the added ranks from
// their own times (a straggler among them counts as slow, not as its source).
JobExposedComm jobExposedComm(const ExecutionGraph& graph, const SimResult& result);

} // namespace sl
