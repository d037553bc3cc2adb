#pragma once
// Shared by the simulator commands (simulate, critical-path): the options every one of them takes
// (PATH..., --step N, --config F.json, --set key=value) and the graph build with the exit-code
// contract (a missing step or an invalid graph is bad input, exit 2).
#include "CliCommon.h"

#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"

#include <string>
#include <vector>

namespace sl::cli {

struct SimSetup {
    std::vector<std::string> paths;
    int step = -1;
    SimKnobs knobs;
};

// Takes --step, --config and --set (when withKnobs) and the positional paths from args (call
// after the command's own flags and options were taken). Throws UsageError / LoadError.
SimSetup parseSimSetup(Args& args, const std::string& command, bool withKnobs);

// buildExecutionGraph with GraphError mapped to a LoadError on the file it concerns.
ExecutionGraph buildGraphForCli(const TraceSet& set, const SimSetup& setup);

} // namespace sl::cli
