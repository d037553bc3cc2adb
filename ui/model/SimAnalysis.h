#pragma once
#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <vector>

namespace sl::ui {

// The analyses the views show for one simulation: the critical path, the per-rank breakdown and
// the exposed-communication intervals, measured and simulated. Computed once per simulator run,
// off the UI thread, then shared read-only by the panes, the charts and the exporters.
struct SimAnalysis {
    CriticalPath path;
    std::vector<RankBreakdown> measured;  // parallel to TraceSet::ranks
    std::vector<RankBreakdown> simulated; // parallel to TraceSet::ranks
    std::vector<std::vector<TimeSpan>> measuredExposed;
    std::vector<std::vector<TimeSpan>> simulatedExposed;
};

SimAnalysis analyzeSimulation(const ExecutionGraph& graph, const SimResult& result);

} // namespace sl::ui
