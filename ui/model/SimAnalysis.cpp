#include "SimAnalysis.h"

namespace sl::ui {

SimAnalysis analyzeSimulation(const ExecutionGraph& graph, const SimResult& result) {
    SimAnalysis a;
    const TraceSet& set = *graph.trace;
    a.path = criticalPath(graph, result);
    a.measured = measuredBreakdown(set, &graph);
    a.simulated = simulatedBreakdown(set, result.timeline);
    a.measuredExposed = measuredExposedCommunication(set, &graph);
    a.simulatedExposed = simulatedExposedCommunication(set, result.timeline);
    return a;
}

} // namespace sl::ui
