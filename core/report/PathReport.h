#pragma once
// The critical path as JSON: what `critical-path --json` and `critical-path --by name --json`
// print (docs/ARCHITECTURE.md, "Reports": every JSON object the tools print is built here).
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <string>

namespace sl {

// "gpu0 s7" for a GPU stream, "thread 1234" for a CPU thread: the track a node ran on.
std::string pathTrackName(const ExecutionGraph& g, NodeId n);

// {length_us, by_kind{kind: us}, segments[{start_us, dur_us, kind, rank, track, edge, name, op}]};
// start_us on the clock of the rank the path starts on.
nlohmann::json criticalPathJson(const ExecutionGraph& g, const SimResult& res, const CriticalPath& cp);

// {length_us, by_name[{name, us, pct, kind, segments}]} from criticalPathByName().
nlohmann::json criticalPathByNameJson(const ExecutionGraph& g, const CriticalPath& cp);

} // namespace sl
