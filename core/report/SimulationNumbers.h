#pragma once
// The numbers of one simulation, typed, with the values the report's JSON holds (µs and ratios
// rounded as base/Rounding.h rounds them): the window's scenario table, `sightline-cli simulate
// --json` and the report's HTML, JSON and CSV (report/Report.h) are written from these, so they
// agree to the last digit and nothing reads the JSON back by key (docs/ARCHITECTURE.md, "Reports").
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sl {

// A GPU-time breakdown of one rank (HTA definitions, analysis/Breakdown.h): the simulated one at
// the top level of ranks[], the measured one in ranks[].measured.
struct BreakdownNumbers {
    double computeUs = 0, commUs = 0, exposedCommUs = 0, memoryUs = 0, idleUs = 0, gpuSpanUs = 0;
    double overlapPct = 0;
};

// One rank's numbers (ranks[] of the JSON); a part the run has none of is nullopt, and so is every
// measured figure of a set without measured times (Chakra input).
struct RankNumbers {
    int rank = 0;
    double simulatedUs = 0;
    std::optional<double> computeUs, exposedCommUs, commWaitUs, idleUs;
    std::optional<double> measuredUs, errorPct, gpuSpanErrorPct;
    std::optional<BreakdownNumbers> simulated, measured;
    double unexplainedWaitUs = 0, unexplainedGpuWaitUs = 0;
    std::int64_t prewindowOps = 0;
    // Measured time without a cause on the critical path ending on the rank (analysis/PinnedTime.h).
    std::optional<double> pinnedSharePct;
    std::string largestPin;
};

// A kind's share of the critical path (critical_path.by_kind.<kind>).
struct PathShare {
    double us = 0;
    double pct = 0;
};

// One of the longest events on the critical path (critical_path.top_events[]).
struct PathEventNumbers {
    std::string name;
    int rank = 0;
    std::string kind; // nodeKindName
    double us = 0;
};

// Each GPU op's simulated start against its measured start (kernel_start_error_us and _pct).
struct KernelStartNumbers {
    double medianUs = 0, p90Us = 0, maxUs = 0;
    std::int64_t count = 0;
    double medianPct = 0, p90Pct = 0, within1PctShare = 0;
};

// A row of gpu_swap.by_class (name empty) or gpu_swap.top_kernels (sim/GpuSwap.h).
struct GpuSwapRowNumbers {
    std::string name;
    std::string cls; // kernelClassName
    std::int64_t kernels = 0, withShapes = 0;
    double measuredUs = 0, predictedUs = 0, speedup = 0;
};

// gpu.target (docs/GpuModel.md): what the report shows of the swap.
struct GpuSwapNumbers {
    std::string source, target;
    double linkRatio = 1;
    std::int64_t withoutShapesKernels = 0;
    double withoutShapesUs = 0;
    std::vector<GpuSwapRowNumbers> byClass, topKernels;
};

struct SimulationNumbers {
    // False for a set without measured times (docs/Chakra.md): every measured figure is nullopt.
    bool measuredTimes = true;
    std::optional<double> measuredUs, errorPct; // iteration.measured_us, error_pct
    double simulatedUs = 0;                     // iteration.simulated_us
    // Against the baseline where the work per step differs (iteration.throughput_vs_baseline,
    // scaling_efficiency, throughput_note, baseline_us; analysis/Throughput.h); nullopt otherwise.
    std::optional<double> throughputVsBaseline, scalingEfficiency, baselineUs;
    std::string throughputNote;
    // Where batch.* gives the batch (iteration.samples_per_s, rate_note).
    std::optional<double> samplesPerSecond;
    std::string rateNote;
    double criticalPathUs = 0;                             // critical_path.length_us
    std::array<PathShare, kPathLabelCount> criticalPath{}; // by PathLabel
    std::vector<PathEventNumbers> topEvents;
    std::optional<KernelStartNumbers> kernelStart; // nullopt without measured times
    std::optional<GpuSwapNumbers> gpuSwap;         // with gpu.target
    std::vector<RankNumbers> ranks;
};

// The numbers of `result` (simulated with `knobs`) against `replay` (the baseline, simulated with
// `replayKnobs`, default: every knob at its default), as simulationResultJson() computes them.
SimulationNumbers simulationNumbers(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const SimResult* replay = nullptr,
                                    const SimKnobs* replayKnobs = nullptr);

// Where a report's numbers came from: a report file names them (source.{paths, step}).
struct ReportSource {
    std::vector<std::string> paths;
    int step = -1;
};

// The numbers object of a report (simulationReportJson) as its writers use it: the run's numbers,
// its knobs and warnings, and the source of a report file.
struct ReportNumbers {
    SimulationNumbers run;
    nlohmann::json knobs = nlohmann::json::object(); // SimKnobs::toJson(), in its key order
    std::vector<std::string> changedKnobs;           // the keys of knobs away from their defaults
    std::vector<std::string> warnings;               // the lines of "warnings"
    std::optional<ReportSource> source;
};

} // namespace sl
