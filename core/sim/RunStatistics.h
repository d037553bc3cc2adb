#pragma once
// What a run's times add up to (docs/ARCHITECTURE.md, "Simulator"): per-rank measured and simulated
// spans, the iteration of the job, and how far simulated GPU starts are from the measured ones.
// Computed after the scheduler, from SimResult's node times: the scheduler never sees them.
#include "graph/ExecutionGraph.h"
#include "sim/SetupEdits.h"
#include "sim/Simulator.h"

namespace sl {

// res.ranks, res.measuredIteration, res.simulatedIteration and res.addedRanks.summary from the
// node times (res.nodes, res.addedRanks); dropped ranks (setup) do not count in the simulated step.
// pp.degree: `laneOf` gives each node its stage in its rank's column of `lanes` stages; res.ranks
// holds stage 0, res.laneSummary the others, and the step is the longest of all.
void summarizeRanks(const ExecutionGraph& g, const SimulatedSetup& setup, SimResult& res,
                    const std::vector<std::uint8_t>* laneOf = nullptr, std::size_t lanes = 1);

// Start-time error of the GPU ops against their measured starts (pre-window ops, released at their
// measured start as boundary conditions, are left out: they would flatter the figure); so are the ops
// pp.degree moved to a stage > 0 (`laneOf`), which run far from where they were measured on purpose.
StartErrorStats kernelStartError(const ExecutionGraph& g, const SimResult& res,
                                 const std::vector<std::uint8_t>* laneOf = nullptr);

} // namespace sl
