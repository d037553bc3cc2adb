#include "report/ToolSetup.h"

#include "analysis/TraceInfo.h"
#include "io/chakra/ChakraTraceSet.h"
#include "structure/Structure.h"

#include <exception>

namespace sl {

nlohmann::json traceInfoReport(const TraceSet& set, const Warnings& etWarnings, Warnings* warningsOut) {
    // The graph says what the replay will treat as boundary conditions; a trace whose graph cannot
    // be built still gets its summary, with the reason as a warning.
    nlohmann::json j;
    Warnings warnings;
    try {
        ExecutionGraph graph = buildExecutionGraph(set);
        j = traceInfoJson(set, &graph);
        j["structure"] = structureJson(recognizeStructure(set, &graph));
        warnings = traceWarnings(set, &graph);
    } catch (const std::exception& e) {
        j = traceInfoJson(set);
        j["structure"] = structureJson(recognizeStructure(set));
        warnings = traceWarnings(set);
        warnings.add(Warn::GraphNotBuilt, std::string("no execution graph: ") + e.what());
    }
    addChakraInfo(j, set); // a Chakra set: no measured times, its node and dependency counts
    warnings.append(etWarnings);
    j["warnings"] = warnings.lines();
    j["warning_stats"] = warningStatsJson(warnings);
    if (warningsOut) *warningsOut = std::move(warnings);
    return j;
}

ExecutionGraph buildGraphForPaths(const TraceSet& set, const std::vector<std::string>& paths, int step,
                                  const Warnings& etWarnings) {
    GraphOptions gopt;
    gopt.step = step;
    try {
        ExecutionGraph g = buildExecutionGraph(set, gopt);
        g.warnings.append(etWarnings);
        return g;
    } catch (const GraphError& e) {
        // The file the error concerns, else the first path given.
        throw GraphError(e.file().empty() && !paths.empty() ? paths.front() : e.file(), e.message());
    }
}

} // namespace sl
