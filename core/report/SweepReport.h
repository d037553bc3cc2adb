#pragma once
// The numbers of a sweep (analysis/Sweep.h) as one JSON object: what `sightline-cli sweep --json`
// prints and the Python module's sweep frame is built from (docs/Python.md), so both agree.
#include "analysis/Sweep.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sl {

// The runs of runSweep(graph, knobs) where knobs[0] is the baseline and knobs[i + 1] sets `key` to
// values[i]: {knob, baseline, points[{value, iteration_us, ranks, change_pct, exposed_comm_us,
// exposed_comm_max_us, critical_path.{length_us, by_kind}, warnings, warning_stats, ...}],
// graph_warnings, graph_warning_stats}. Rethrows the error of the first run that failed.
nlohmann::json sweepJson(const ExecutionGraph& graph, const std::string& key,
                         const std::vector<std::string>& values, const std::vector<SimKnobs>& knobs,
                         const std::vector<SweepRun>& runs);

// A run's mean exposed communication in microseconds, as sweepJson rounds it.
double sweepExposedMeanUs(const SweepRun& run);

} // namespace sl
