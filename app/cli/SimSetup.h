#pragma once
// Shared by the simulator commands (simulate, critical-path): the options every one of them takes
// (PATH..., --step N, --config F.json, --set key=value, --et FILE_OR_DIR) and the graph build with the
// exit-code contract (a missing step, an invalid graph or a bad execution trace is bad input, exit 2).
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
    // PyTorch execution traces (files or folders, --et, repeatable) that give collectives without
    // Kineto size metadata their sizes.
    std::vector<std::string> etPaths;
};

// What --et did, for messages and tests.
struct EtApplied {
    int files = 0;
    int ranksLinked = 0;
    int collectives = 0, filled = 0, alreadySized = 0, unmatched = 0;
    int equalized = 0;     // all-to-all sizes made equal across ranks
    std::string matchedBy; // "file name" or "order"
    std::vector<std::string> warnings;
    std::string summary() const;
};

// Loads the execution traces (folders expand to their .json / .json.gz files, sorted by name),
// matches them to ranks by the rank number in the file name (dlrm_eg_3, rank-3, worker3), else by
// order, and fills the sizes of collectives that lack them. Throws LoadError on a bad ET file.
EtApplied applyExecutionTraces(TraceSet& set, const std::vector<std::string>& etPaths);

// Takes --step, --et, --config and --set (when withKnobs) and the positional paths from args (call
// after the command's own flags and options were taken). Throws UsageError / LoadError.
SimSetup parseSimSetup(Args& args, const std::string& command, bool withKnobs);

// Applies setup.etPaths to the set (a note with the counts on stderr, problems as graph warnings),
// then buildExecutionGraph with GraphError mapped to a LoadError on the file it concerns.
ExecutionGraph buildGraphForCli(TraceSet& set, const SimSetup& setup);

} // namespace sl::cli
