#pragma once
#include "graph/ExecutionGraph.h"
#include "trace/TraceSet.h"

#include <nlohmann/json.hpp>

namespace sl {

// The summary that `sightline-cli info` prints: per rank its id, device, world size, event counts by
// kind, tracks, time span, collectives by type, GPU ops without a launch, and warnings.
// With the set's execution graph: per rank also the boundary conditions and unexplained time the
// replay will have (prewindow_ops, threads_released_at_measured, unexplained_wait_us,
// unexplained_gpu_wait_us), a "graph" object with the repairs it made, and its warnings.
// "roofline": the source GPU's peaks and, per kernel class and top kernel, FLOPs, bytes, arithmetic
// intensity and the achieved fraction of peak (models/Roofline.h, rooflineJson).
// "warnings": the lines of traceWarnings; "warning_stats": warningStatsJson of them.
nlohmann::json traceInfoJson(const TraceSet& set, const ExecutionGraph* graph = nullptr);

// The warnings of a load (the set's, then each rank's behind "rank N: ") and of its graph, in the
// order `info` prints them.
Warnings traceWarnings(const TraceSet& set, const ExecutionGraph* graph = nullptr);

// The counters of base/Diagnostics.h as JSON: one object per kind that occurred, in the table's
// order: {key, severity, count, lines, message, example}.
nlohmann::json warningStatsJson(const Warnings& warnings);

} // namespace sl
