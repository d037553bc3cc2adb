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
nlohmann::json traceInfoJson(const TraceSet& set, const ExecutionGraph* graph = nullptr);

} // namespace sl
