#pragma once
// The numbers of one simulation that the window's scenario table shows, typed, with the values
// simulationResultJson() writes (µs and ratios rounded as base/Rounding.h rounds them): the table
// and `sightline-cli simulate --json` agree to the last digit, and nothing reads the JSON back by key.
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace sl {

// One rank's simulated numbers (ranks[] of the JSON); a part the run has none of is nullopt.
struct RankNumbers {
    int rank = 0;
    double simulatedUs = 0;
    std::optional<double> computeUs, exposedCommUs, commWaitUs, idleUs;
};

// A kind's share of the critical path (critical_path.by_kind.<kind>).
struct PathShare {
    double us = 0;
    double pct = 0;
};

struct SimulationNumbers {
    double simulatedUs = 0; // iteration.simulated_us
    // Against the baseline where the work per step differs (iteration.throughput_vs_baseline,
    // scaling_efficiency, throughput_note; analysis/Throughput.h); nullopt otherwise.
    std::optional<double> throughputVsBaseline, scalingEfficiency;
    std::string throughputNote;
    // Where batch.* gives the batch (iteration.samples_per_s, rate_note).
    std::optional<double> samplesPerSecond;
    std::string rateNote;
    double criticalPathUs = 0;                             // critical_path.length_us
    std::array<PathShare, kPathLabelCount> criticalPath{}; // by PathLabel
    std::vector<RankNumbers> ranks;
};

// The numbers of `result` (simulated with `knobs`) against `replay` (the baseline, simulated with
// `replayKnobs`, default: every knob at its default), as simulationResultJson() computes them.
SimulationNumbers simulationNumbers(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const SimResult* replay = nullptr,
                                    const SimKnobs* replayKnobs = nullptr);

} // namespace sl
