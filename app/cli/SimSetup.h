#pragma once
// Shared by the simulator commands (simulate, critical-path): the options every one of them takes
// (PATH..., --step N, --config F.json, --set key=value, --et FILE_OR_DIR) and the graph build with the
// exit-code contract (a missing step, an invalid graph or a bad execution trace is bad input, exit 2).
#include "CliCommon.h"

#include "graph/ExecutionGraph.h"
#include "io/EtFolder.h"
#include "sim/Knobs.h"

#include <string>
#include <vector>

namespace sl::cli {

struct SimSetup {
    std::vector<std::string> paths;
    int step = -1;
    SimKnobs knobs;
    // PyTorch execution traces (files or folders, --et, repeatable) that give collectives without
    // Kineto size metadata their sizes.
    std::vector<std::string> etPaths;
};

// Takes --step, --et, --config and --set (when withKnobs) and the positional paths from args (call
// after the command's own flags and options were taken). Throws UsageError / LoadError.
SimSetup parseSimSetup(Args& args, const std::string& command, bool withKnobs);

// Applies setup.etPaths to the set (a note with the counts on stderr, problems as graph warnings),
// then buildExecutionGraph with GraphError mapped to a LoadError on the file it concerns.
ExecutionGraph buildGraphForCli(TraceSet& set, const SimSetup& setup);

} // namespace sl::cli
