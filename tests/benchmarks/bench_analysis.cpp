// Analyses on the 8-rank DLRM trace: critical path across ranks, temporal breakdowns (measured and
// simulated), exposed-communication intervals and stream idle attribution. Budget: "well under
// 100 ms" together, so that a knob change re-renders at once.
#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"
#include "analysis/PinnedTime.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Simulator.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

namespace {

struct Dlrm {
    sl::TraceSet set;
    sl::ExecutionGraph graph;
    sl::SimResult result;
};

const Dlrm* dlrm() {
    static std::unique_ptr<Dlrm> data;
    if (data) return data.get();
    std::string folder = std::string(SIGHTLINE_TRACES_DIR) + "/dlrm-8rank-v100/kineto";
    if (!std::filesystem::exists(folder)) return nullptr;
    data = std::make_unique<Dlrm>();
    data->set = sl::loadTraceSet({folder});
    data->graph = sl::buildExecutionGraph(data->set);
    data->result = sl::simulate(data->graph);
    return data.get();
}

void BM_CriticalPath_Dlrm8(benchmark::State& state) {
    const Dlrm* d = dlrm();
    if (!d) return state.SkipWithError("real traces not found (../shared/traces)");
    for (auto _ : state)
        benchmark::DoNotOptimize(sl::criticalPath(d->graph, d->result));
}
BENCHMARK(BM_CriticalPath_Dlrm8)->Unit(benchmark::kMillisecond);

void BM_Breakdowns_Dlrm8(benchmark::State& state) {
    const Dlrm* d = dlrm();
    if (!d) return state.SkipWithError("real traces not found (../shared/traces)");
    for (auto _ : state) {
        benchmark::DoNotOptimize(sl::measuredBreakdown(d->set, &d->graph));
        benchmark::DoNotOptimize(sl::simulatedBreakdown(d->set, d->result.timeline));
        benchmark::DoNotOptimize(sl::measuredExposedCommunication(d->set, &d->graph));
        benchmark::DoNotOptimize(sl::simulatedExposedCommunication(d->set, d->result.timeline));
        benchmark::DoNotOptimize(sl::measuredStreamIdle(d->graph));
    }
}
BENCHMARK(BM_Breakdowns_Dlrm8)->Unit(benchmark::kMillisecond);

// Pinned time per rank (a critical path from each rank's last node), as simulate --json reports it.
void BM_PinnedTime_Dlrm8(benchmark::State& state) {
    const Dlrm* d = dlrm();
    if (!d) return state.SkipWithError("real traces not found (../shared/traces)");
    for (auto _ : state)
        benchmark::DoNotOptimize(sl::pinnedTime(d->graph, d->result));
}
BENCHMARK(BM_PinnedTime_Dlrm8)->Unit(benchmark::kMillisecond);

// What a knob change costs end to end in the core: simulate, then every analysis the views show.
void BM_SimulateAndAnalyse_Dlrm8(benchmark::State& state) {
    const Dlrm* d = dlrm();
    if (!d) return state.SkipWithError("real traces not found (../shared/traces)");
    sl::SimKnobs knobs;
    knobs.computeSpeedup = 2.0;
    for (auto _ : state) {
        sl::SimResult r = sl::simulate(d->graph, knobs);
        const sl::CriticalPath path = sl::criticalPath(d->graph, r);
        benchmark::DoNotOptimize(sl::pinsOnPath(d->graph, r, path)); // the result card's pinned note
        benchmark::DoNotOptimize(sl::simulatedBreakdown(d->set, r.timeline));
        benchmark::DoNotOptimize(sl::simulatedExposedCommunication(d->set, r.timeline));
    }
}
BENCHMARK(BM_SimulateAndAnalyse_Dlrm8)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
