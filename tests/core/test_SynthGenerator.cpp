// The synthetic workload generator: generated sets load like real traces, match the configured
// shape (ranks, streams, collectives per step), follow the schedule, and replay within 1%.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include "analysis/Breakdown.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

using namespace sl;
using namespace sl::synth;

namespace {

SynthConfig small() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 1024;
    c.heads = 16;
    c.seq = 512;
    c.vocab = 8192;
    c.dp = 1;
    return c;
}

TraceSet generateAndLoad(const SynthConfig& c, QTemporaryDir& dir) {
    auto result = generate(c, dir.path().toStdString(), 2);
    if (result.files.size() != static_cast<std::size_t>(c.worldSize())) qFatal("wrong file count");
    return loadTraceSet({dir.path().toStdString()});
}

// What one rank of a pipeline stage issues per step, derived by hand from the configuration and
// the job described in core/synth/README.md (never from the generator's own expectedComms()):
//   - a TP all-reduce after the attention output and the MLP down GEMMs of every layer in forward,
//     and after the QKV and MLP-up dgrads in backward: 4 per layer per micro-batch when tp > 1;
//   - pipeline: a stage sends its activations forward and its gradients back once per micro-batch,
//     and receives as many;
//   - DDP (dp > 1): gradients (Float, (12H^2 + 13H)/tp per layer, vocab*H/tp embedding on stage 0,
//     vocab*H/tp + 2H LM head and final norm on the last stage) fill buckets of 25 MiB / 4 B =
//     6,553,600 elements in backward order; a bucket is all-reduced once it reaches the cap, the
//     rest at the end;
//   - compute kernels per micro-batch: 10 per layer forward (2 layer norms, QKV, flash attention,
//     out projection, 2 residual adds, MLP up, GeLU, MLP down) and 14 backward (a dgrad and a wgrad
//     for each of the 4 GEMMs, flash backward, GeLU backward, 2 layer norm and 2 add backwards);
//     stage 0 adds the embedding and its backward (2), the last stage the final norm, LM head,
//     log-softmax, NLL (4) and their backwards (1 + 2 + 1 + 1 = 5); the fused AdamW step then runs
//     ceil(stage parameters / 50e6) chunk kernels (1 for every configuration here).
struct StageCounts {
    int tpAllReduces = 0;
    int ppSends = 0;
    int ppRecvs = 0;
    int dpAllReduces = 0;
    std::int64_t dpGradientElements = 0;
    int computeKernels = 0;
};

// small() with dp > 1 (tp = pp = 1, one micro-batch), per step, by hand: a layer has
// 12 x 1024^2 + 13 x 1024 = 12,596,224 gradient elements, the LM head + final norm
// 8192 x 1024 + 2 x 1024 = 8,390,656, the embedding 8,388,608. Each is at least the 6,553,600-element
// cap, so every one is its own bucket: 4 all-reduces of 41,971,712 elements in all. Kernels:
// 2 layers x 24 + 2 (embedding) + 9 (head) = 59, + 1 AdamW chunk (41,971,712 < 50e6) = 60.
constexpr StageCounts kOneStageTwoLayers{0, 0, 0, 4, 41'971'712, 60};

struct RankComms {
    std::map<std::string, int> byDesc; // process group description -> collective kernels
    std::map<CollectiveType, int> byType;
    std::int64_t dpElements = 0;
    int withoutMetadata = 0;
};

std::string groupDesc(const Rank& r, const CollectiveMeta& m) {
    std::string_view name = r.strings.str(m.processGroupName);
    for (const auto& pg : r.processGroups)
        if (pg.name == name) return pg.description;
    return "?";
}

RankComms comms(const Rank& r) {
    RankComms out;
    for (const auto& m : r.collectives) {
        if (!m.hasMetadata) ++out.withoutMetadata;
        std::string desc = groupDesc(r, m);
        ++out.byDesc[desc];
        ++out.byType[m.type];
        if (desc == "dp") out.dpElements += m.inNelems;
    }
    return out;
}

std::set<std::int64_t> streams(const Rank& r) {
    std::set<std::int64_t> s;
    for (const auto& t : r.tracks)
        if (t.isGpu()) s.insert(t.stream());
    return s;
}

// Names of the user annotations on the CPU thread that start with prefix, in time order.
std::vector<std::string> annotations(const Rank& r, std::string_view prefix) {
    std::vector<std::string> out;
    for (const auto& t : r.tracks) {
        if (t.isGpu()) continue;
        for (std::size_t i = 0; i < t.events.size(); ++i) {
            std::string_view n = r.strings.str(t.events.name[i]);
            if (t.events.kind[i] == EventKind::UserAnnotation && n.substr(0, prefix.size()) == prefix)
                out.emplace_back(n);
        }
    }
    return out;
}

// Ranks are laid out tp fastest, then dp, then pp (Megatron order): stage = rank / (tp * dp).
void checkShape(const TraceSet& set, const SynthConfig& c, const std::vector<StageCounts>& perStage) {
    QCOMPARE(static_cast<int>(perStage.size()), c.pp);
    QCOMPARE(static_cast<int>(set.ranks.size()), c.worldSize());
    QVERIFY2(set.warnings.empty(), set.warnings.empty() ? "" : set.warnings.front().text.c_str());
    for (const auto& r : set.ranks) {
        QVERIFY(r.rankFromFile);
        QCOMPARE(r.worldSize, c.worldSize());
        QCOMPARE(r.backend, std::string("nccl"));
        QCOMPARE(r.gpuOpsWithoutLaunch, std::int64_t(0));
        QVERIFY2(r.warnings.empty(), r.warnings.empty() ? "" : r.warnings.front().text.c_str());
        QCOMPARE(r.flowsByCategory.count("ac2g"), std::size_t(1));
        QVERIFY(r.eventsByKind[static_cast<int>(EventKind::CudaSync)] > 0);
        QCOMPARE(static_cast<int>(annotations(r, "ProfilerStep#").size()), c.steps);

        const StageCounts& e = perStage[static_cast<std::size_t>(r.rank / (c.tp * c.dp))];
        RankComms got = comms(r);
        QCOMPARE(got.withoutMetadata, 0);
        QCOMPARE(got.byDesc["tp"], e.tpAllReduces * c.steps);
        QCOMPARE(got.byDesc["dp"], e.dpAllReduces * c.steps);
        QCOMPARE(got.byDesc["pp_fwd"] + got.byDesc["pp_bwd"], (e.ppSends + e.ppRecvs) * c.steps);
        QCOMPARE(got.byType[CollectiveType::Send], e.ppSends * c.steps);
        QCOMPARE(got.byType[CollectiveType::Recv], e.ppRecvs * c.steps);
        QCOMPARE(got.dpElements, e.dpGradientElements * c.steps);

        std::set<std::int64_t> want{7};
        if (c.tp > 1) want.insert(20);
        if (c.dp > 1) want.insert(24);
        if (e.ppSends > 0) want.insert({28, 32});
        QCOMPARE(streams(r), want);
        std::int64_t kernels = 0;
        for (const auto& t : r.tracks)
            if (t.isGpu() && t.stream() == 7)
                for (auto k : t.events.kind)
                    kernels += k == EventKind::Kernel;
        QCOMPARE(kernels, std::int64_t(e.computeKernels) * c.steps);
    }
}

// The k-th collective kernel of a process group ends at the same time on every member.
void checkCollectivesEndTogether(const TraceSet& set) {
    std::map<std::pair<std::string, int>, std::set<TimeNs>> ends;
    for (const auto& r : set.ranks) {
        std::map<std::string, std::vector<TimeNs>> byGroup;
        for (const auto& m : r.collectives) {
            const auto& ev = r.tracks[m.kernel.track].events;
            byGroup[std::string(r.strings.str(m.processGroupName))].push_back(ev.end(m.kernel.index));
        }
        for (auto& [g, v] : byGroup) {
            std::sort(v.begin(), v.end());
            for (std::size_t k = 0; k < v.size(); ++k)
                ends[{g, static_cast<int>(k)}].insert(v[k]);
        }
    }
    QVERIFY(!ends.empty());
    for (const auto& [key, set1] : ends)
        QVERIFY2(set1.size() == 1, ("group " + key.first + " #" + std::to_string(key.second)).c_str());
}

double replayError(const TraceSet& set, double* worstRank, std::vector<std::string>* warnings) {
    ExecutionGraph g = buildExecutionGraph(set);
    SimResult r = simulate(g);
    *warnings = r.warnings.lines();
    *worstRank = 0;
    for (const auto& rs : r.ranks)
        *worstRank = std::max(*worstRank, rs.errorPct());
    return r.iterationErrorPct();
}

} // namespace

class TestSynthGenerator : public QObject {
    Q_OBJECT

private slots:
    void dataParallelShape() {
        SynthConfig c = small();
        c.dp = 4;
        c.steps = 2;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        checkShape(set, c, {kOneStageTwoLayers});
        checkCollectivesEndTogether(set);
    }

    void threeDParallelShape() {
        SynthConfig c = small();
        c.layers = 4;
        c.dp = 2;
        c.tp = 2;
        c.pp = 2;
        c.microbatches = 4;
        c.gpusPerNode = 4;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        // H = 1024, vocab 8192, tp 2: a layer has 12,596,224 / 2 = 6,298,112 gradient elements, the
        // embedding 4,194,304, LM head + final norm 4,196,352; 2 layers per stage, 4 micro-batches.
        //   stage 0: layer 1 (6,298,112, under the cap), + layer 0 = 12,596,224 -> bucket; embedding
        //            4,194,304 -> last bucket: 2 all-reduces, 16,790,528 elements;
        //            kernels (2 x 24 + 2) x 4 + 1 = 201.
        //   stage 1: head 4,196,352 + layer 3 = 10,494,464 -> bucket; layer 2 -> last bucket: 2,
        //            16,792,576 elements; kernels (2 x 24 + 9) x 4 + 1 = 229.
        //   TP: 4 x 2 layers x 4 micro-batches = 32; pipeline: 4 sends and 4 receives on both stages.
        checkShape(set, c, {{32, 4, 4, 2, 16'790'528, 201}, {32, 4, 4, 2, 16'792'576, 229}});
        checkCollectivesEndTogether(set);
        // Process groups in distributedInfo: default, tp, dp, pp_fwd, pp_bwd.
        const Rank& r0 = set.ranks[0];
        std::set<std::string> descs;
        for (const auto& pg : r0.processGroups)
            descs.insert(pg.description);
        QCOMPARE(descs, (std::set<std::string>{"default_pg", "tp", "dp", "pp_fwd", "pp_bwd"}));
    }

    // stageLayers: stages of 3 and 1 layers (the truth of pp.split); each stage's kernels and TP
    // all-reduces follow its own layers.
    void unevenStagesShape() {
        SynthConfig c = small();
        c.layers = 4;
        c.tp = 2;
        c.pp = 2;
        c.microbatches = 2;
        c.stageLayers = {3, 1};
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        //   stage 0: TP 4 x 3 layers x 2 micro-batches = 24; kernels (3 x 24 + 2) x 2 + 1 = 149
        //   stage 1: TP 4 x 1 x 2 = 8; kernels (24 + 9) x 2 + 1 = 67; 2 sends and 2 receives each.
        checkShape(set, c, {{24, 2, 2, 0, 0, 149}, {8, 2, 2, 0, 0, 67}});
        checkCollectivesEndTogether(set);
        c.stageLayers = {4, 0};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.validate());
        c.stageLayers = {2, 1};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.validate());
    }

    void pipelineScheduleIsOneFOneB() {
        QCOMPARE(oneFOneBSchedule(4, 0, 6), (std::vector<int>{0, 1, 2, 3, -1, 4, -2, 5, -3, -4, -5, -6}));
        QCOMPARE(oneFOneBSchedule(4, 3, 3), (std::vector<int>{0, -1, 1, -2, 2, -3}));
        QCOMPARE(oneFOneBSchedule(1, 0, 2), (std::vector<int>{0, -1, 1, -2}));
        QCOMPARE(oneFOneBSchedule(4, 1, 1), (std::vector<int>{0, -1}));

        // The trace follows it: stage 0 of 3 runs two warm-up forwards before its first backward.
        SynthConfig c = small();
        c.layers = 3;
        c.pp = 3;
        c.microbatches = 4;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        // One layer per stage, 4 micro-batches, no TP or DP. The middle stage talks both ways.
        //   stage 0: 4 sends, 4 receives; kernels (24 + 2) x 4 + 1 = 105
        //   stage 1: 8 sends, 8 receives; kernels 24 x 4 + 1 = 97
        //   stage 2: 4 sends, 4 receives; kernels (24 + 9) x 4 + 1 = 133
        checkShape(set, c, {{0, 4, 4, 0, 0, 105}, {0, 8, 8, 0, 0, 97}, {0, 4, 4, 0, 0, 133}});
        auto order = annotations(set.ranks[0], "");
        std::vector<std::string> steps;
        for (const auto& n : order)
            if (n.rfind("forward_step#", 0) == 0 || n.rfind("backward_step#", 0) == 0) steps.push_back(n);
        QCOMPARE(steps, (std::vector<std::string>{"forward_step#0", "forward_step#1", "forward_step#2",
                                                  "backward_step#0", "forward_step#3", "backward_step#1",
                                                  "backward_step#2", "backward_step#3"}));
        // The last stage alternates from the start.
        order = annotations(set.ranks[2], "forward_step#");
        QCOMPARE(static_cast<int>(order.size()), 4);
    }

    // The generator's own expectedComms() against hand-derived numbers (the shape checks above
    // never use it).
    void parallelismChangesTheTrace() {
        SynthConfig base = small();
        base.dp = 2;
        ExpectedComms dp2 = expectedComms(base, 0);
        QCOMPARE(dp2.tpAllReduces, 0);
        QCOMPARE(dp2.ppSends, 0);
        QVERIFY(dp2.dpAllReduces > 0);

        SynthConfig tp = base;
        tp.tp = 2;
        ExpectedComms tp2 = expectedComms(tp, 0);
        QCOMPARE(tp2.tpAllReduces, 4 * tp.layers);
        // Shards halve the gradients except the unsharded final layer norm (by hand: 2 layers x
        // 6,298,112 + embedding 4,194,304 + LM head 4,194,304 + norm 2,048 = 20,986,880; unsharded
        // 41,971,712, see kOneStageTwoLayers).
        QCOMPARE(dp2.dpGradientElements, kOneStageTwoLayers.dpGradientElements);
        QCOMPARE(tp2.dpGradientElements, std::int64_t(20'986'880));

        SynthConfig pp = base;
        pp.pp = 2;
        pp.microbatches = 3;
        QCOMPARE(expectedComms(pp, 0).ppSends, 3);                     // activations forward
        QCOMPARE(expectedComms(pp, rankOf(pp, {1, 0, 0})).ppSends, 3); // gradients back
        SynthConfig pp3 = pp;
        pp3.pp = 3;
        pp3.layers = 3;
        QCOMPARE(expectedComms(pp3, rankOf(pp3, {1, 0, 0})).ppSends, 6); // middle stage: both ways

        SynthConfig nodp = base;
        nodp.dp = 1;
        QCOMPARE(expectedComms(nodp, 0).dpAllReduces, 0);
    }

    void deterministicForASeed() {
        SynthConfig c = small();
        c.dp = 2;
        c.tp = 2;
        auto a = generateJson(c);
        auto b = generateJson(c);
        QVERIFY(a == b);
        c.seed = 7;
        auto d = generateJson(c);
        QVERIFY(a != d);
    }

    void stragglerIsSlower() {
        SynthConfig c = small();
        c.dp = 4;
        c.stragglerRank = 2;
        c.stragglerSlowdown = 2.0;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        auto computeTime = [](const Rank& r) {
            TimeNs sum = 0;
            for (const auto& t : r.tracks)
                if (t.isGpu() && t.stream() == 7)
                    for (std::size_t i = 0; i < t.events.size(); ++i)
                        if (t.events.kind[i] == EventKind::Kernel) sum += t.events.duration[i];
            return static_cast<double>(sum);
        };
        double ratio = computeTime(set.ranks[2]) / computeTime(set.ranks[1]);
        QVERIFY2(ratio > 1.8 && ratio < 2.2, qPrintable(QString::number(ratio)));
        // Everyone's gradient all-reduce waits for the straggler: same end on all ranks.
        checkCollectivesEndTogether(set);
    }

    void badConfigurationsAreRejected() {
        auto rejects = [](auto change) {
            SynthConfig c = small();
            change(c);
            try {
                c.validate();
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        QVERIFY(rejects([](SynthConfig& c) { c.dp = 0; }));
        QVERIFY(rejects([](SynthConfig& c) { c.pp = 3; })); // 2 layers
        QVERIFY(rejects([](SynthConfig& c) { c.tp = 3; })); // 16 heads
        QVERIFY(rejects([](SynthConfig& c) { c.gpu = "v100"; }));
        QVERIFY(rejects([](SynthConfig& c) { c.stragglerRank = 5; }));
        QVERIFY(rejects([](SynthConfig& c) { c.stragglerSlowdown = 0.5; }));
        QVERIFY(rejects([](SynthConfig& c) { c.gpuSpeedup = 0; }));
        QVERIFY(rejects([](SynthConfig& c) { c.classSpeedup[4] = 1000; }));
        QVERIFY(rejects([](SynthConfig& c) { c.cpuSpeedup = -1; }));
        QVERIFY(rejects([](SynthConfig& c) { c.cpuSlowRank = 1; })); // one rank
        QVERIFY(rejects([](SynthConfig& c) { c.cpuSlowdown = 0.5; }));
        QVERIFY(rejects([](SynthConfig& c) { c.rankSpread = 0.6; }));
        QVERIFY(rejects([](SynthConfig& c) { c.itemSyncs = 3; })); // 2 layers
        QVERIFY(rejects([](SynthConfig& c) { c.dataLoaderUs = -1; }));
        QVERIFY(rejects([](SynthConfig& c) { c.prewindowOps = 65; }));
        QVERIFY(!rejects([](SynthConfig&) {}));
        QVERIFY(!rejects([](SynthConfig& c) {
            c.backwardThread = true;
            c.itemSyncs = 2;
            c.prewindowOps = 8;
            c.commOverlap = false;
        }));
    }

    // A variant scales what the plain job draws, it never draws itself: a faster GPU leaves every
    // host event before the first host sync where it was, a faster host every kernel duration.
    void variantsKeepTheRandomDraws() {
        SynthConfig c = small();
        c.dp = 2;
        QTemporaryDir d1, d2, d3;
        TraceSet base = generateAndLoad(c, d1);
        SynthConfig fastGpu = c;
        fastGpu.gpuSpeedup = 2;
        TraceSet gpu = generateAndLoad(fastGpu, d2);
        SynthConfig fastCpu = c;
        fastCpu.cpuSpeedup = 2;
        TraceSet cpu = generateAndLoad(fastCpu, d3);
        for (std::size_t r = 0; r < base.ranks.size(); ++r) {
            const Track *b = nullptr, *g = nullptr;
            for (const auto& t : base.ranks[r].tracks)
                if (!t.isGpu()) b = &t;
            for (const auto& t : gpu.ranks[r].tracks)
                if (!t.isGpu()) g = &t;
            QVERIFY(b && g && b->events.size() == g->events.size());
            std::size_t same = 0;
            while (same < b->events.size() && b->events.start[same] == g->events.start[same])
                ++same;
            // Everything up to the end-of-step cudaStreamSynchronize (in the last few events).
            QVERIFY2(same + 8 > b->events.size(),
                     qPrintable(QString("%1 of %2").arg(same).arg(b->events.size())));
            auto kernels = [](const Rank& rank) {
                std::vector<TimeNs> d;
                for (const auto& t : rank.tracks)
                    if (t.isGpu() && t.stream() == 7)
                        for (std::size_t i = 0; i < t.events.size(); ++i)
                            if (t.events.kind[i] == EventKind::Kernel) d.push_back(t.events.duration[i]);
                return d;
            };
            auto kb = kernels(base.ranks[r]), kg = kernels(gpu.ranks[r]), kc = kernels(cpu.ranks[r]);
            QCOMPARE(kc, kb);
            QCOMPARE(kg.size(), kb.size());
            for (std::size_t i = 0; i < kb.size(); ++i)
                QVERIFY(std::abs(2 * kg[i] - kb[i]) <= 2);
        }
    }

    // Backward on autograd's thread: the main thread seeds the gradient and waits; the engine
    // thread runs every gradient function and DDP's buckets; the graph releases it from the main
    // thread's call (one inferred thread_start edge per rank).
    void backwardThreadShape() {
        SynthConfig c = small();
        c.dp = 2;
        c.backwardThread = true;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        // The plain two-layer job plus the seed gradient's fill kernel on the (only, last) stage.
        StageCounts counts = kOneStageTwoLayers;
        counts.computeKernels += 1;
        checkShape(set, c, {counts});
        for (const auto& r : set.ranks) {
            const Track *mainThread = nullptr, *autograd = nullptr;
            for (const auto& t : r.tracks)
                if (!t.isGpu())
                    (t.name.find("pt_autograd_0") != std::string::npos ? autograd : mainThread) = &t;
            QVERIFY(mainThread && autograd);
            auto count = [&](const Track& t, std::string_view prefix) {
                int n = 0;
                for (std::size_t i = 0; i < t.events.size(); ++i)
                    n += r.strings.str(t.events.name[i]).starts_with(prefix);
                return n;
            };
            QCOMPARE(count(*mainThread, "autograd::engine::evaluate_function"), 0);
            QVERIFY(count(*autograd, "autograd::engine::evaluate_function") > 10);
            QCOMPARE(count(*autograd, "DistributedDataParallel.reduce_bucket"), counts.dpAllReduces);
            QCOMPARE(count(*autograd, "DistributedDataParallel.finalize_backward"), 1);
            QCOMPARE(count(*mainThread, "aten::ones_like"), 1);
            QCOMPARE(count(*mainThread, "Optimizer.step"), 1);
            // The engine thread runs while the main thread waits.
            TimeNs busyFrom = autograd->events.start.front(), busyTo = autograd->lastEnd();
            for (std::size_t i = 0; i < mainThread->events.size(); ++i)
                if (mainThread->events.kind[i] != EventKind::UserAnnotation)
                    QVERIFY(mainThread->events.end(i) <= busyFrom || mainThread->events.start[i] >= busyTo);
        }
        ExecutionGraph g = buildExecutionGraph(set);
        // Per rank: the engine thread released by the main thread, and the main thread woken when
        // the engine thread hands back.
        QCOMPARE(g.stats.threadStartEdges, std::int64_t(2 * c.worldSize()));
    }

    // .item() mid-step, data loading, collectives nothing overlaps.
    void hostSyncsAndStalls() {
        SynthConfig c = small();
        c.dp = 2;
        c.steps = 2;
        c.itemSyncs = 2;
        c.dataLoaderUs = 500;
        c.commOverlap = false;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        // .item() copies are memcpys, not kernels: the counts of the plain job.
        checkShape(set, c, {kOneStageTwoLayers});
        for (const auto& r : set.ranks) {
            int syncs = 0, copies = 0, loaders = 0;
            for (const auto& t : r.tracks)
                for (std::size_t i = 0; i < t.events.size(); ++i) {
                    std::string_view n = r.strings.str(t.events.name[i]);
                    syncs += n == "cudaStreamSynchronize";
                    copies += t.events.kind[i] == EventKind::GpuMemcpy;
                    if (n == "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__") {
                        ++loaders;
                        QVERIFY(t.events.duration[i] >= 500'000 &&
                                t.events.duration[i] < 502'000); // + its end
                        QCOMPARE(t.events.kind[i], EventKind::UserAnnotation);
                    }
                }
            QCOMPARE(syncs, (c.itemSyncs + 1) * c.steps);
            QCOMPARE(copies, syncs);
            QCOMPARE(loaders, c.steps);
        }
        ExecutionGraph g = buildExecutionGraph(set);
        for (const auto& b : measuredBreakdown(set, &g)) {
            QVERIFY(b.communication > 0);
            QVERIFY2(
                b.exposedCommunication >= b.communication - 1000,
                qPrintable(QString("%1 of %2 exposed").arg(b.exposedCommunication).arg(b.communication)));
        }
    }

    // The window opens after the first K launches: those ops have no launch in the file and the
    // graph takes them as boundary conditions.
    void prewindowOps() {
        SynthConfig c = small();
        c.dp = 2;
        c.prewindowOps = 5;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        for (const auto& r : set.ranks) {
            QCOMPARE(r.gpuOpsWithoutLaunch, std::int64_t(c.prewindowOps));
            TimeNs firstCall = std::numeric_limits<TimeNs>::max(), firstOp = firstCall;
            for (const auto& t : r.tracks)
                for (std::size_t i = 0; i < t.events.size(); ++i) {
                    if (t.isGpu())
                        firstOp = std::min(firstOp, t.events.start[i]);
                    else if (t.events.kind[i] == EventKind::Runtime)
                        firstCall = std::min(firstCall, t.events.start[i]);
                }
            QVERIFY(firstOp < firstCall);
        }
        ExecutionGraph g = buildExecutionGraph(set);
        // Queue heads keep their measured start, the ops queued behind them follow (together: all).
        QCOMPARE(g.stats.prewindowOps + g.stats.prewindowQueued,
                 std::int64_t(c.prewindowOps * c.worldSize()));
        QVERIFY(g.stats.prewindowOps >= c.worldSize());
    }

    void replayIsWithinOnePercent_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("straggler");
        QTest::addColumn<QString>("variant");
        QTest::newRow("dp4") << 4 << 1 << 1 << -1 << "";
        QTest::newRow("dp4 straggler") << 4 << 1 << 1 << 1 << "";
        QTest::newRow("tp2 pp2") << 1 << 2 << 2 << -1 << "";
        QTest::newRow("dp2 tp2 pp2") << 2 << 2 << 2 << -1 << "";
        QTest::newRow("dp4 backward thread") << 4 << 1 << 1 << -1 << "backward";
        QTest::newRow("tp2 pp2 backward thread") << 1 << 2 << 2 << -1 << "backward";
        QTest::newRow("dp4 item syncs") << 4 << 1 << 1 << -1 << "item";
        QTest::newRow("dp4 data loader") << 4 << 1 << 1 << -1 << "loader";
        QTest::newRow("dp4 pre-window") << 4 << 1 << 1 << -1 << "prewindow";
        QTest::newRow("dp4 no overlap") << 4 << 1 << 1 << -1 << "serial";
        QTest::newRow("dp4 uneven") << 4 << 1 << 1 << -1 << "uneven";
        QTest::newRow("dp4 python stacks") << 4 << 1 << 1 << -1 << "python";
    }
    void replayIsWithinOnePercent() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, straggler);
        QFETCH(QString, variant);
        SynthConfig c = small();
        c.backwardThread = variant == "backward";
        c.itemSyncs = variant == "item" ? 2 : 0;
        c.dataLoaderUs = variant == "loader" ? 300 : 0;
        c.steps = variant == "loader" ? 2 : 1;
        c.prewindowOps = variant == "prewindow" ? 4 : 0;
        c.commOverlap = variant != "serial";
        c.pythonStacks = variant == "python";
        if (variant == "uneven") {
            c.rankSpread = 0.1;
            c.cpuSlowRank = 3;
            c.cpuSlowdown = 2;
        }
        c.dp = dp;
        c.tp = tp;
        c.pp = pp;
        c.microbatches = pp > 1 ? 4 : 1;
        c.stragglerRank = straggler;
        c.stragglerSlowdown = straggler >= 0 ? 1.5 : 1.0;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        if (variant == "python") { // every gap between two calls is covered
            ExecutionGraph g = buildExecutionGraph(set);
            for (const auto& w : g.ranks)
                QCOMPARE(w.unexplainedWait, TimeNs(0));
        }
        double worst = 0;
        std::vector<std::string> warnings;
        double err = replayError(set, &worst, &warnings);
        // Every collective is matched across ranks (pipelines: the simulator does not yet pair a
        // send with its recv, so those keep their measured durations, which replays exactly too).
        if (pp == 1) QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings.front().c_str());
        QVERIFY2(err < 1.0, qPrintable(QString("iteration error %1%").arg(err)));
        QVERIFY2(worst < 1.0, qPrintable(QString("worst rank error %1%").arg(worst)));
    }
};

QTEST_GUILESS_MAIN(TestSynthGenerator)
#include "test_SynthGenerator.moc"
