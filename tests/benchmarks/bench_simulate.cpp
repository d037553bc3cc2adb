// Graph build and replay simulation: on the 8-rank DLRM sample and on a synthetic 64-rank set; the
// whole answer of `sightline-cli simulate --json` stage by stage on the large trace and on the DLRM
// set, against Python's json.load of the same files.
// Budget (docs/ARCHITECTURE.md): simulation >= 5 million graph nodes per second on one core.
#include "LargeTrace.h"

#include "analysis/PinnedTime.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "report/SimulationReport.h"
#include "sim/Knobs.h"
#include "sim/NoOverlapTransform.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

namespace {

using namespace sl;

const TraceSet* dlrm() {
    static std::unique_ptr<TraceSet> set = [] {
        std::string dir = std::string(SIGHTLINE_TRACES_DIR) + "/dlrm-8rank-v100/kineto";
        if (!std::filesystem::exists(dir)) return std::unique_ptr<TraceSet>();
        return std::make_unique<TraceSet>(loadTraceSet({dir}));
    }();
    return set.get();
}

void push(EventColumns& c, TimeNs start, TimeNs dur, StringId name, EventKind kind, std::int64_t corr,
          std::uint64_t link) {
    c.start.push_back(start);
    c.duration.push_back(dur);
    c.name.push_back(name);
    c.kind.push_back(kind);
    c.depth.push_back(0);
    c.parent.push_back(-1);
    c.correlation.push_back(corr);
    c.link.push_back(link);
    c.extra.push_back(kNoExtra);
    c.argsOffset.push_back(0);
    c.argsLength.push_back(0);
}

// A data-parallel job: per rank one CPU thread launching compute kernels on stream 7 and, after
// every `every` kernels, an all-reduce on stream 20 that the next compute kernel does not wait for.
TraceSet synthetic(int ranks, int kernelsPerRank, int every = 50) {
    TraceSet set;
    for (int r = 0; r < ranks; ++r) {
        Rank rank;
        rank.rank = r;
        rank.rankFromFile = true;
        rank.worldSize = ranks;
        rank.sourcePath = "synthetic-rank-" + std::to_string(r);
        StringId launch = rank.strings.intern("cudaLaunchKernel");
        StringId gemm = rank.strings.intern("volta_sgemm_128x64_nn");
        StringId nccl =
            rank.strings.intern("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, ncclWork*)");
        rank.tracks.resize(3);
        Track& cpu = rank.tracks[0];
        cpu.kind = TrackKind::CpuThread;
        cpu.pid = 100 + r;
        cpu.tid = 100 + r;
        Track& compute = rank.tracks[1];
        compute.kind = TrackKind::GpuStream;
        compute.pid = r % 8;
        compute.tid = 7;
        Track& comm = rank.tracks[2];
        comm.kind = TrackKind::GpuStream;
        comm.pid = r % 8;
        comm.tid = 20;
        TimeNs t = 1'000'000 + 3'000 * r, gpuFree = 0, commFree = 0;
        std::int64_t corr = 1;
        std::vector<TimeNs> commStarts;
        for (int k = 0; k < kernelsPerRank; ++k) {
            bool coll = k % every == every - 1;
            TimeNs dur = coll ? 40'000 : 8'000 + (k * 37 + r * 11) % 5'000;
            auto& stream = coll ? comm : compute;
            TimeNs& free = coll ? commFree : gpuFree;
            TimeNs start = std::max(free, t + 5'000);
            std::uint32_t ci = static_cast<std::uint32_t>(cpu.events.size());
            std::uint32_t gi = static_cast<std::uint32_t>(stream.events.size());
            push(cpu.events, t, 4'000, launch, EventKind::Runtime, corr,
                 EventRef{coll ? 2u : 1u, gi}.packed());
            push(stream.events, start, dur, coll ? nccl : gemm, EventKind::Kernel, corr,
                 EventRef{0, ci}.packed());
            free = start + dur;
            t += 6'000 + (k % 3) * 1'000;
            ++corr;
        }
        set.ranks.push_back(std::move(rank));
    }
    return set;
}

void runBuild(benchmark::State& state, const TraceSet& set) {
    std::size_t nodes = 0;
    for (auto _ : state) {
        ExecutionGraph g = buildExecutionGraph(set);
        nodes = g.nodes.size();
        benchmark::DoNotOptimize(g.edges.data());
    }
    state.counters["nodes"] = static_cast<double>(nodes);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(nodes));
}

void runSimulate(benchmark::State& state, const TraceSet& set, bool timeline) {
    ExecutionGraph g = buildExecutionGraph(set);
    SimOptions opt;
    opt.timeline = timeline;
    for (auto _ : state) {
        SimResult r = simulate(g, {}, opt);
        benchmark::DoNotOptimize(r.nodes.data());
    }
    state.counters["nodes"] = static_cast<double>(g.nodes.size());
    state.counters["nodes_per_s"] =
        benchmark::Counter(static_cast<double>(g.nodes.size()) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(g.nodes.size()));
}

void BM_BuildGraph_Dlrm8(benchmark::State& state) {
    if (!dlrm()) return state.SkipWithError("dlrm-8rank-v100 traces not found");
    runBuild(state, *dlrm());
}
void BM_Simulate_Dlrm8(benchmark::State& state) {
    if (!dlrm()) return state.SkipWithError("dlrm-8rank-v100 traces not found");
    runSimulate(state, *dlrm(), state.range(0) != 0);
}

// One knob change on the 8-rank DLRM set, as the GUI's knob panel does it: the graph is built
// once, each iteration re-simulates with the timeline (what the views draw). Budget: well under
// 100 ms. Knobs: 0 compute.speedup=2, 1 comm.model=alpha-beta (self-calibrated), 2
// comm.overlap=false, 3 dp.scale=4, 4 straggler.rank=3 x1.5, 5 compute.speedup.gemm=2.
void BM_KnobChange_Dlrm8(benchmark::State& state) {
    if (!dlrm()) return state.SkipWithError("dlrm-8rank-v100 traces not found");
    static const ExecutionGraph g = buildExecutionGraph(*dlrm());
    static const char* const knobs[][2] = {{"compute.speedup", "2"},  {"comm.model", "alpha-beta"},
                                           {"comm.overlap", "false"}, {"dp.scale", "4"},
                                           {"straggler.rank", "3"},   {"compute.speedup.gemm", "2"}};
    SimKnobs k;
    setKnob(k, knobs[state.range(0)][0], knobs[state.range(0)][1]);
    if (state.range(0) == 4) setKnob(k, "straggler.slowdown", "1.5");
    for (auto _ : state) {
        SimResult r = simulate(g, k);
        benchmark::DoNotOptimize(r.nodes.data());
    }
    state.SetLabel(std::string(knobs[state.range(0)][0]) + "=" + knobs[state.range(0)][1]);
    state.counters["nodes"] = static_cast<double>(g.nodes.size());
}

const TraceSet& synthetic64() {
    static TraceSet set = synthetic(64, 20'000);
    return set;
}
void BM_BuildGraph_Synthetic64(benchmark::State& state) {
    runBuild(state, synthetic64());
}
void BM_Simulate_Synthetic64(benchmark::State& state) {
    runSimulate(state, synthetic64(), state.range(0) != 0);
}

// comm.overlap=false on the 64-rank set (every all-reduce serialized with the compute stream):
// 0 the transform alone (sim/NoOverlapTransform.h), 1 a whole simulation with the knob, which
// reuses the transform of its graph after the first run.
void BM_NoOverlap_Synthetic64(benchmark::State& state) {
    static const ExecutionGraph g = buildExecutionGraph(synthetic64());
    SimKnobs k;
    setKnob(k, "comm.overlap", "false");
    SimOptions opt;
    opt.timeline = false;
    for (auto _ : state) {
        if (state.range(0) == 0) {
            NoOverlapEdges e = buildNoOverlapEdges(g);
            benchmark::DoNotOptimize(e.overlay.edges.data());
        } else {
            SimResult r = simulate(g, k, opt);
            benchmark::DoNotOptimize(r.nodes.data());
        }
    }
    state.SetLabel(state.range(0) == 0 ? "transform" : "simulate");
    state.counters["nodes"] = static_cast<double>(g.nodes.size());
}

BENCHMARK(BM_BuildGraph_Dlrm8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate_Dlrm8)->Arg(0)->Arg(1)->ArgName("timeline")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KnobChange_Dlrm8)->DenseRange(0, 5)->ArgName("knob")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildGraph_Synthetic64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate_Synthetic64)->Arg(0)->Arg(1)->ArgName("timeline")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NoOverlap_Synthetic64)->Arg(0)->Arg(1)->ArgName("whole")->Unit(benchmark::kMillisecond);

// A knob change on a job grown by dp.degree, as the GUI re-simulates it: the graph of a generated
// 64-rank data-parallel set (4 layers, 2 steps) built once, each iteration simulates
// dp.degree=range(0) with a straggler at rank 3/4 of the job (x1.5) and jitter.pct=2 on every rank.
// The goal: 131,072 ranks under 60 s and 8 GB, the GUI's answer within 5 s.
const ExecutionGraph& generatedDp64() {
    static std::unique_ptr<TraceSet> set;
    static std::unique_ptr<ExecutionGraph> graph;
    if (!graph) {
        synth::SynthConfig c;
        c.dp = 64;
        c.layers = 4;
        c.steps = 2;
        const std::string dir =
            (std::filesystem::temp_directory_path() / ("sightline-bench-dp64-" + std::to_string(getpid())))
                .string();
        synth::generate(c, dir);
        set = std::make_unique<TraceSet>(loadTraceSet({dir}));
        std::filesystem::remove_all(dir);
        graph = std::make_unique<ExecutionGraph>(buildExecutionGraph(*set));
    }
    return *graph;
}

void BM_KnobChange_AddedRanks(benchmark::State& state) {
    const ExecutionGraph& g = generatedDp64();
    const auto ranks = static_cast<int>(state.range(0));
    SimKnobs k;
    setKnob(k, "dp.degree", std::to_string(ranks));
    setKnob(k, "straggler.rank", std::to_string(ranks / 4 * 3));
    setKnob(k, "straggler.slowdown", "1.5");
    setKnob(k, "jitter.pct", "2");
    double slowest = 0;
    for (auto _ : state) {
        SimResult r = simulate(g, k);
        slowest = static_cast<double>(r.simulatedIteration) / 1e3;
        benchmark::DoNotOptimize(r.nodes.data());
    }
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    state.counters["ranks"] = ranks;
    state.counters["virtual_nodes"] = static_cast<double>(g.nodes.size()) / 64.0 * ranks;
    state.counters["iteration_us"] = slowest;
    state.counters["peak_rss_MB"] = static_cast<double>(u.ru_maxrss) / 1024.0; // of the whole program
}
BENCHMARK(BM_KnobChange_AddedRanks)
    ->ArgName("ranks")
    ->Arg(16384)
    ->Arg(131072)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

// The whole answer, as `sightline-cli simulate --json PATH` gives it, by stage: load (files to the
// model), graph (the execution graph), simulate (the replay), report (critical path, breakdowns,
// pinned time: the JSON object) and output (its text). Seconds per stage are counters.
struct StageTimes {
    double load = 0, graph = 0, simulate = 0, report = 0, output = 0;
    double total() const { return load + graph + simulate + report + output; }
    StageTimes& operator+=(const StageTimes& t) {
        load += t.load;
        graph += t.graph;
        simulate += t.simulate;
        report += t.report;
        output += t.output;
        return *this;
    }
};

StageTimes wholeAnswer(const std::vector<std::string>& paths) {
    StageTimes t;
    auto clock = std::chrono::steady_clock::now();
    auto lap = [&] {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - clock).count();
        clock = now;
        return s;
    };
    TraceSet set = loadTraceSet(paths);
    t.load = lap();
    ExecutionGraph g = buildExecutionGraph(set);
    t.graph = lap();
    SimResult res = simulate(g, {});
    t.simulate = lap();
    nlohmann::json j = simulationResultJson(g, res, {}, nullptr);
    pinnedTime(g, res); // the text output's pins (the JSON has the critical path's own)
    t.report = lap();
    std::string text = j.dump(2);
    benchmark::DoNotOptimize(text.data());
    t.output = lap();
    return t;
}

// One whole answer in a fresh process (this program run with --whole-once): the peak resident
// memory is the answer's alone.
struct ChildAnswer {
    double seconds = -1, peakMb = -1;
};
ChildAnswer wholeAnswerInChild(const std::string& path) {
    std::string command = "/proc/" + std::to_string(getpid()) + "/exe --whole-once '" + path + "'";
    ChildAnswer out;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        if (std::fscanf(pipe, "%lf %lf", &out.seconds, &out.peakMb) != 2) out = {};
        pclose(pipe);
    }
    return out;
}

int wholeAnswerOnce(const char* path) {
    const std::int64_t before = bench::procStatusKb("VmRSS:");
    const StageTimes t = wholeAnswer({path});
    std::printf("%.4f %.1f\n", t.total(), static_cast<double>(bench::procStatusKb("VmHWM:") - before) / 1e3);
    return 0;
}

void reportStages(benchmark::State& state, const StageTimes& sum, double python, double bytes) {
    const double n = static_cast<double>(state.iterations());
    state.counters["load_s"] = sum.load / n;
    state.counters["graph_s"] = sum.graph / n;
    state.counters["simulate_s"] = sum.simulate / n;
    state.counters["report_s"] = sum.report / n;
    state.counters["output_s"] = sum.output / n;
    state.counters["total_s"] = sum.total() / n;
    state.counters["file_MB"] = bytes / 1e6;
    if (python > 0) {
        state.counters["python_s"] = python;
        state.counters["x_python"] = python / (sum.total() / n); // the goal: >= 20
    }
}

void BM_WholeAnswer_LargeTrace(benchmark::State& state) {
    const std::string& path = bench::largeTracePath();
    if (path.empty()) return state.SkipWithError("real traces not found (../shared/traces)");
    StageTimes sum;
    for (auto _ : state)
        sum += wholeAnswer({path});
    const double bytes = static_cast<double>(fileSizeOnDisk(path));
    reportStages(state, sum, bench::pythonJsonLoadSeconds(path), bytes);
    const ChildAnswer child = wholeAnswerInChild(path);
    state.counters["fresh_s"] = child.seconds;
    state.counters["peak_MB"] = child.peakMb;
    state.counters["peak/file"] = child.peakMb * 1e6 / bytes; // the goal: < 0.5
}
BENCHMARK(BM_WholeAnswer_LargeTrace)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_WholeAnswer_Dlrm8(benchmark::State& state) {
    const std::string dir = std::string(SIGHTLINE_TRACES_DIR) + "/dlrm-8rank-v100/kineto";
    if (!std::filesystem::exists(dir)) return state.SkipWithError("dlrm-8rank-v100 traces not found");
    StageTimes sum;
    for (auto _ : state)
        sum += wholeAnswer({dir});
    double python = 0, bytes = 0;
    for (const auto& f : expandTracePaths({dir})) {
        python += bench::pythonJsonLoadSeconds(f);
        bytes += static_cast<double>(fileSizeOnDisk(f));
    }
    reportStages(state, sum, python, bytes);
}
BENCHMARK(BM_WholeAnswer_Dlrm8)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--whole-once") return wholeAnswerOnce(argv[2]);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (!bench::largeTracePath().empty()) std::filesystem::remove(bench::largeTracePath());
    return 0;
}
