// Before / after comparison against loading (docs/Compare.md). Budget: comparing two runs takes less
// than twice loading them, i.e. building both graphs and aligning them (BM_CompareAfterLoad) costs
// less than loading both sets (BM_LoadPair). The pair is a generated job (8 layers, dp 8; steps from
// SIGHTLINE_BENCH_COMPARE_STEPS, default 8: about 22 MB of JSON per run) and the same job with a GPU
// twice as fast; the DLRM trace of ../shared/traces compared with itself when present.
#include "analysis/RunComparison.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "synth/Generator.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

namespace {

struct Pair {
    std::string before, after;
    sl::TraceSet a, b;
    sl::ExecutionGraph ga, gb;
};

std::unique_ptr<Pair> makePair(std::string before, std::string after) {
    auto p = std::make_unique<Pair>();
    p->before = std::move(before);
    p->after = std::move(after);
    p->a = sl::loadTraceSet({p->before});
    p->b = sl::loadTraceSet({p->after});
    p->ga = sl::buildExecutionGraph(p->a);
    p->gb = sl::buildExecutionGraph(p->b);
    return p;
}

const Pair* generated() {
    static std::unique_ptr<Pair> pair;
    if (pair) return pair.get();
    const char* env = std::getenv("SIGHTLINE_BENCH_COMPARE_STEPS");
    sl::synth::SynthConfig c;
    c.layers = 8;
    c.dp = 8;
    c.steps = env ? std::max(1, std::atoi(env)) : 8;
    const auto root = std::filesystem::temp_directory_path() / "sightline-bench-compare";
    std::filesystem::remove_all(root);
    sl::synth::generate(c, (root / "before").string(), 2);
    c.gpuSpeedup = 2;
    sl::synth::generate(c, (root / "after").string(), 2);
    pair = makePair((root / "before").string(), (root / "after").string());
    return pair.get();
}

const Pair* dlrm() {
    static std::unique_ptr<Pair> pair;
    if (pair) return pair.get();
    const std::string folder = std::string(SIGHTLINE_TRACES_DIR) + "/dlrm-8rank-v100/kineto";
    if (!std::filesystem::exists(folder)) return nullptr;
    pair = makePair(folder, folder);
    return pair.get();
}

void loadPair(benchmark::State& state, const Pair* p) {
    if (!p) return state.SkipWithError("real traces not found (../shared/traces)");
    for (auto _ : state) {
        benchmark::DoNotOptimize(sl::loadTraceSet({p->before}));
        benchmark::DoNotOptimize(sl::loadTraceSet({p->after}));
    }
}

// What compare adds to loading: both graphs and the alignment.
void compareAfterLoad(benchmark::State& state, const Pair* p) {
    if (!p) return state.SkipWithError("real traces not found (../shared/traces)");
    for (auto _ : state) {
        sl::ExecutionGraph ga = sl::buildExecutionGraph(p->a), gb = sl::buildExecutionGraph(p->b);
        benchmark::DoNotOptimize(sl::compareRuns(ga, gb));
    }
}

// The alignment and tables alone, on built graphs.
void align(benchmark::State& state, const Pair* p) {
    if (!p) return state.SkipWithError("real traces not found (../shared/traces)");
    for (auto _ : state)
        benchmark::DoNotOptimize(sl::compareRuns(p->ga, p->gb));
    state.counters["gpu_ops"] = static_cast<double>(sl::compareRuns(p->ga, p->gb).opsBefore);
}

void BM_LoadPair_Generated(benchmark::State& s) {
    loadPair(s, generated());
}
void BM_CompareAfterLoad_Generated(benchmark::State& s) {
    compareAfterLoad(s, generated());
}
void BM_Align_Generated(benchmark::State& s) {
    align(s, generated());
}
void BM_LoadPair_Dlrm8(benchmark::State& s) {
    loadPair(s, dlrm());
}
void BM_CompareAfterLoad_Dlrm8(benchmark::State& s) {
    compareAfterLoad(s, dlrm());
}
void BM_Align_Dlrm8(benchmark::State& s) {
    align(s, dlrm());
}

BENCHMARK(BM_LoadPair_Generated)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompareAfterLoad_Generated)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Align_Generated)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadPair_Dlrm8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompareAfterLoad_Dlrm8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Align_Dlrm8)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
