// dp.degree at scale. Budget (docs/Structure.md, docs/AddedRanks.md): under 60 s and 8 GB on two
// cores for load, graph and simulation together.
//  - BM_DpDegree512From64: a generated 64-rank data-parallel job (two steps of sixteen layers of a
//    1024-wide model, eight GPUs per node) predicted with 512 replicas.
//  - BM_AddedRanks/N: the issue's job (`generate --dp 64 --layers 4`, the generator's defaults
//    otherwise) predicted with N = 1,024 / 4,096 / 16,384 ranks and a 1.5x straggler among the added
//    ones; every added rank is simulated on its own over its source's nodes.
// Counters: nodes simulated (graph nodes and added ranks' copies), ranks in the predicted job, result
// bytes per added node copy, peak resident memory (MB).
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

namespace {

using namespace sl;

double peakRssMb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // Linux: kilobytes
}

// The generated set, written once into a temporary folder.
const std::string& generatedDir() {
    static std::string dir = [] {
        auto d =
            std::filesystem::temp_directory_path() / ("sightline-bench-dp64-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        synth::SynthConfig c;
        c.layers = 16;
        c.steps = 2;
        c.hidden = 1024;
        c.heads = 16;
        c.seq = 512;
        c.vocab = 8192;
        c.dp = 64;
        c.gpusPerNode = 8;
        synth::generate(c, d.string(), 2);
        return d.string();
    }();
    return dir;
}

// The issue's 64-rank job: four layers, the generator's defaults otherwise.
const std::string& issueJobDir() {
    static std::string dir = [] {
        auto d = std::filesystem::temp_directory_path() /
                 ("sightline-bench-dp64-layers4-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        synth::SynthConfig c;
        c.layers = 4;
        c.dp = 64;
        synth::generate(c, d.string(), 2);
        return d.string();
    }();
    return dir;
}

struct Cleanup {
    ~Cleanup() {
        std::error_code ec;
        std::filesystem::remove_all(generatedDir(), ec);
        std::filesystem::remove_all(issueJobDir(), ec);
    }
};

// Load, graph and dp.degree=512 simulation, end to end.
void BM_DpDegree512From64(benchmark::State& state) {
    static Cleanup cleanup;
    const std::string& dir = generatedDir();
    SimKnobs knobs;
    setKnobAssignment(knobs, "dp.degree=512");
    std::size_t nodes = 0, ranks = 0;
    for (auto _ : state) {
        TraceSet set = loadTraceSet({dir});
        ExecutionGraph g = buildExecutionGraph(set);
        SimResult r = simulate(g, knobs);
        benchmark::DoNotOptimize(r.simulatedIteration);
        nodes = g.nodes.size();
        ranks = r.setup.ranks.size();
    }
    state.counters["nodes"] = static_cast<double>(nodes);
    state.counters["ranks_predicted"] = static_cast<double>(ranks);
    state.counters["peak_rss_MB"] = peakRssMb();
}
BENCHMARK(BM_DpDegree512From64)->Unit(benchmark::kMillisecond)->Iterations(1);

// Load, graph and a simulation of N ranks with a straggler at rank N - 100 (an added rank).
void BM_AddedRanks(benchmark::State& state) {
    static Cleanup cleanup;
    const std::string& dir = issueJobDir();
    const auto ranks = static_cast<int>(state.range(0));
    SimKnobs knobs;
    setKnobAssignment(knobs, "dp.degree=" + std::to_string(ranks));
    setKnobAssignment(knobs, "straggler.rank=" + std::to_string(ranks - 100));
    setKnobAssignment(knobs, "straggler.slowdown=1.5");
    SimOptions options;
    options.timeline = false;
    std::size_t nodes = 0, copies = 0, predicted = 0;
    for (auto _ : state) {
        TraceSet set = loadTraceSet({dir});
        ExecutionGraph g = buildExecutionGraph(set);
        SimResult r = simulate(g, knobs, options);
        benchmark::DoNotOptimize(r.simulatedIteration);
        copies = r.addedRanks.start.size();
        nodes = g.nodes.size() + copies;
        predicted = r.setup.ranks.size();
    }
    state.counters["nodes"] = static_cast<double>(nodes);
    state.counters["ranks_predicted"] = static_cast<double>(predicted);
    state.counters["result_B_per_copy"] =
        static_cast<double>(2 * sizeof(TimeNs) + 2 * sizeof(EdgeId)); // AddedRankTimes per slot
    state.counters["peak_rss_MB"] = peakRssMb();
}
BENCHMARK(BM_AddedRanks)->Arg(1024)->Arg(4096)->Arg(16384)->Unit(benchmark::kMillisecond)->Iterations(1);

// The simulation alone (graph built once), with and without the edit.
void BM_SimulateDp64(benchmark::State& state) {
    static TraceSet set = loadTraceSet({generatedDir()});
    static ExecutionGraph g = buildExecutionGraph(set);
    SimKnobs knobs;
    if (state.range(0) > 0) setKnobAssignment(knobs, "dp.degree=" + std::to_string(state.range(0)));
    for (auto _ : state) {
        SimResult r = simulate(g, knobs, SimOptions{false, nullptr});
        benchmark::DoNotOptimize(r.simulatedIteration);
    }
    state.counters["nodes_per_s"] = benchmark::Counter(static_cast<double>(g.nodes.size()),
                                                       benchmark::Counter::kIsIterationInvariantRate);
    state.counters["peak_rss_MB"] = peakRssMb();
}
BENCHMARK(BM_SimulateDp64)->Arg(0)->Arg(512)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
