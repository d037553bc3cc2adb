// Graph build and replay simulation: on the 8-rank DLRM sample and on a synthetic 64-rank set.
// Budget (docs/ARCHITECTURE.md): simulation >= 5 million graph nodes per second on one core.
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/NoOverlapTransform.h"
#include "sim/Simulator.h"

#include <benchmark/benchmark.h>

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

} // namespace

BENCHMARK_MAIN();
