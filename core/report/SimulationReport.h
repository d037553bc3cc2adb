#pragma once
// The numbers of a simulation run as one JSON object: what `simulate --json` prints, and the data
// behind `report` (HTML, JSON and CSV are all written from this object, so they agree).
#include "analysis/Throughput.h"
#include "graph/ExecutionGraph.h"
#include "report/SimulationNumbers.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sl {

// The `simulate --json` object (fields documented in `sightline-cli simulate --help`):
// iteration, ranks[] (simulated breakdown at the top level, measured in ranks[].measured,
// stream_idle[]), kernel_start_error_us, critical_path, graph, knobs, warnings (the lines) and
// warning_stats (one counter per kind: key, severity, count, lines, message, example; as `info`).
// With `replay` (the same graph simulated with default knobs) and knobs away from the defaults,
// "knob_effect" says how much the knobs moved the iteration and why (analysis/KnobEffect.h).
// When the work per step differs from the baseline's (`replay`, simulated with `replayKnobs`,
// default: every knob at its default), iteration.throughput_vs_baseline and
// iteration.scaling_efficiency relate the two (analysis/Throughput.h).
nlohmann::json simulationResultJson(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const SimResult* replay = nullptr,
                                    const SimKnobs* replayKnobs = nullptr);

// A run's numbers typed and as the JSON object above, from one computation: the JSON's typed
// fields are written from `numbers` (report/ReportNumbersJson.h). With a source, "source" and
// "changed_knobs" as simulationReportJson() writes them.
struct SimulationReport {
    ReportNumbers numbers;
    nlohmann::json json;
};
SimulationReport simulationReport(const ExecutionGraph& graph, const SimResult& result, const SimKnobs& knobs,
                                  const SimResult* replay, const SimKnobs* replayKnobs,
                                  const ReportSource* source);

// Samples and tokens per second of a run where the batch is given: the run's own batch.* knobs, else
// the baseline's (the batch describes the trace, docs/Scaling.md); unknown (Rate{}) otherwise.
Rate runRate(const ExecutionGraph& graph, const SimResult& result, const SimKnobs& knobs,
             const SimKnobs* baselineKnobs);

// simulationResultJson plus "source": {"paths": [...], "step": N or null} and "changed_knobs":
// the knob keys that differ from their replay defaults (in knobs' key order).
nlohmann::json simulationReportJson(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const std::vector<std::string>& paths, int step,
                                    const SimResult* replay = nullptr);

// The knob keys of `knobs` (a SimKnobs::toJson() object) whose values differ from the defaults.
std::vector<std::string> changedKnobs(const nlohmann::json& knobs);

} // namespace sl
