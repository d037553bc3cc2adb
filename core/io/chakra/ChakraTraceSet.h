#pragma once
// A Chakra execution trace as a TraceSet (docs/Chakra.md): one rank per .et file, one track per
// processor (CPU thread, GPU compute / communication / memory stream), one event per node in a
// topological order of its data dependencies. Chakra has no measured timeline: every rank has
// Rank::hasMeasuredTimes false and event starts are placeholders (0); the node's id, type,
// dependencies, shapes and communication attributes are the event's args (JSON), from which
// buildExecutionGraph builds the graph (graph/ChakraGraph.h).
#include "io/KinetoLoader.h"
#include "io/chakra/ChakraReader.h"
#include "trace/TraceSet.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sl {

// Default streams of GPU nodes whose file gives no "tid".
constexpr std::int64_t kChakraComputeStream = 0;
constexpr std::int64_t kChakraCommStream = 1;
constexpr std::int64_t kChakraMemoryStream = 2;

// One rank from a parsed file.
Rank chakraRank(const ChakraFile& file, int rank, int worldSize);

// True when every path is Chakra input (.et files, or folders holding .et files).
bool isChakraInput(const std::vector<std::string>& paths);

// Loads .et files and folders of them as a rank set (ranks from the number before ".et", else
// load order). Throws LoadError on the first bad file (or leaves it out with a warning when
// options.skipBadFiles and another file loads).
TraceSet loadChakraTraceSet(const std::vector<std::string>& paths, const LoadOptions& options = {});

// Per rank of a Chakra set: node counts by type and dependency counts, from the events' args
// (for `info`). Empty for a rank that is not Chakra input.
struct ChakraRankSummary {
    std::int64_t nodesByType[kChakraNodeTypeCount] = {};
    std::int64_t dataDeps = 0;
    std::int64_t ctrlDeps = 0;
    std::int64_t commNodesSized = 0;   // COMM_* nodes with comm_size
    std::int64_t commNodesUnsized = 0; // COMM_* nodes without (replayed as plain ops)
    std::int64_t nodesWithoutDuration = 0;
};
ChakraRankSummary chakraRankSummary(const Rank& rank);

// For `info` on a set without measured times: measured_times false at the top and per rank, the
// rank's time span null (there is none), and a "chakra" object per rank (nodes_by_type,
// data_deps, ctrl_deps, comm_nodes_sized / _unsized, nodes_without_duration). Ranks are found by
// their "rank" field. Leaves a set with measured times as it is.
void addChakraInfo(nlohmann::json& info, const TraceSet& set);

} // namespace sl
