// A generated 512-rank set (dp 16 x tp 8 x pp 4, one step of a 32-layer, hidden-8192 model with 8
// micro-batches, about 1.8 GB of JSON): generate, load and simulate. Budget on the 2-core
// machine: under 60 s and under 8 GB for load + simulate. Reports peak RSS (ru_maxrss) as a counter.
// Run: build/.../tests/benchmarks/bench_synth [--benchmark_filter=...]
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>
#include <memory>

namespace {

sl::synth::SynthConfig bigJob() {
    sl::synth::SynthConfig c;
    c.dp = 16;
    c.tp = 8;
    c.pp = 4;
    c.layers = 32;
    c.hidden = 8192;
    c.heads = 64;
    c.seq = 4096;
    c.microbatches = 8;
    return c;
}

std::string outDir() {
    return (std::filesystem::temp_directory_path() / "sightline-bench-synth-512").string();
}

double peakRssMB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

std::unique_ptr<sl::TraceSet>& loaded() {
    static std::unique_ptr<sl::TraceSet> set;
    return set;
}

void BM_Generate512(benchmark::State& state) {
    sl::synth::GenerateResult r;
    for (auto _ : state)
        r = sl::synth::generate(bigJob(), outDir());
    state.counters["ranks"] = static_cast<double>(r.files.size());
    state.counters["json_MB"] = static_cast<double>(r.bytesWritten) / 1e6;
    state.counters["events"] = static_cast<double>(r.events);
    state.counters["peak_rss_MB"] = peakRssMB();
}

void BM_Load512(benchmark::State& state) {
    if (!std::filesystem::exists(outDir())) sl::synth::generate(bigJob(), outDir());
    for (auto _ : state) {
        loaded().reset();
        loaded() = std::make_unique<sl::TraceSet>(sl::loadTraceSet({outDir()}));
    }
    state.counters["events"] = static_cast<double>(loaded()->eventCount());
    state.counters["peak_rss_MB"] = peakRssMB();
}

void BM_Simulate512(benchmark::State& state) {
    if (!loaded()) loaded() = std::make_unique<sl::TraceSet>(sl::loadTraceSet({outDir()}));
    double err = 0;
    std::size_t nodes = 0;
    for (auto _ : state) {
        sl::ExecutionGraph g = sl::buildExecutionGraph(*loaded());
        sl::SimResult r = sl::simulate(g);
        err = r.iterationErrorPct();
        nodes = g.nodes.size();
    }
    state.counters["nodes"] = static_cast<double>(nodes);
    state.counters["replay_error_pct"] = err;
    state.counters["peak_rss_MB"] = peakRssMB();
}

} // namespace

BENCHMARK(BM_Generate512)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_Load512)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_Simulate512)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_MAIN();
