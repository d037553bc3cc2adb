#pragma once
// What every front end (sightline-cli, the Python module) does between loading a set and analysing
// it, so that they print and raise the same things (docs/Python.md): the `info` object of a set,
// and its execution graph with the execution traces attached and a graph error named by its file.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "trace/TraceSet.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sl {

// The `info --json` object of a loaded set (execution traces already attached, io/EtFolder.h, with
// `etWarnings` the warnings of that): traceInfoJson with the structure, the Chakra counts,
// "warnings" and "warning_stats". A set whose graph cannot be built still gets its summary, with
// the reason as a warning. `warnings` (when given) receives the counters "warnings" lists.
nlohmann::json traceInfoReport(const TraceSet& set, const Warnings& etWarnings, Warnings* warnings = nullptr);

// The graph of ProfilerStep#`step` (-1: the whole trace) with `etWarnings` (the attached execution
// traces') among its warnings. A GraphError without a file is named by the first of `paths`.
ExecutionGraph buildGraphForPaths(const TraceSet& set, const std::vector<std::string>& paths, int step,
                                  const Warnings& etWarnings);

} // namespace sl
