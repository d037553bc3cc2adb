// Oracle tests of the what-if knobs. For every knob: generate a job (A), generate it again with the
// physical change the knob stands for (B: a faster GPU, a faster link, a straggler, no overlap, more
// data-parallel ranks, a faster CPU region...), predict B from A's trace with the knob, and require
// the prediction to match B's measured iteration, per-rank iteration and per-rank compute /
// communication time within 2% (and, where the host must follow the GPU, the autograd thread's
// start and every host sync's end within 2% of the iteration). Each case also requires that A
// replayed without the knob misses B by more than 2%, and that the knob at least halves the
// iteration error, so a knob that is ignored fails its case. Where the simulator cannot meet 2%,
// the case is an expected failure that says why, with the numbers.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "analysis/Breakdown.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace sl;
using namespace sl::synth;
using slsynth::errPct;
using slsynth::generateAndLoad;
using slsynth::Loaded;

namespace {

constexpr double kTolerancePct = 2.0;

// GPU-bound: two layers of a 4096-wide transformer, sequence 2048, on four H100s of one node.
SynthConfig gpuBound() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 4096;
    c.heads = 32;
    c.seq = 2048;
    c.vocab = 32000;
    c.dp = 4;
    return c;
}

// Host-bound: a small model whose kernels are shorter than the host's launch path.
SynthConfig hostBound() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 1024;
    c.heads = 16;
    c.seq = 512;
    c.vocab = 8192;
    c.dp = 4;
    return c;
}

struct Case {
    std::function<SynthConfig()> a;           // the generated job
    std::function<void(SynthConfig&)> change; // the physical change: B = change(a())
    std::vector<std::string> knobs;           // the knob that predicts B from A
    bool checkComm = true;                    // per-rank communication time is compared too
    bool markers = false;                     // the autograd thread's start and the host syncs' ends too
    std::string expectFail;                   // non-empty: the simulator misses 2% (why, with numbers)
};

std::map<std::string, Case>& cases() {
    static std::map<std::string, Case> all;
    return all;
}

// Times on a rank that a knob must move, relative to the rank's first modelled node: the first
// call of autograd's thread and the end of every cudaStreamSynchronize, in trace order. With a
// timeline, the simulated times of the same events.
std::vector<double> markers(const Rank& rank, TimeNs rankStart,
                            const std::vector<TrackTimes>* sim = nullptr) {
    std::vector<double> out;
    for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
        const Track& t = rank.tracks[ti];
        if (t.isGpu()) continue;
        const bool autograd = t.name.find("pt_autograd") != std::string::npos;
        bool first = true;
        for (std::size_t i = 0; i < t.events.size(); ++i) {
            if (t.events.kind[i] != EventKind::Runtime) continue;
            std::string_view name = rank.strings.str(t.events.name[i]);
            TimeNs s = sim ? (*sim)[ti].start[i] : t.events.start[i];
            TimeNs e = sim ? (*sim)[ti].end(i) : t.events.end(i);
            if (autograd && first) out.push_back(static_cast<double>(s - rankStart));
            first = false;
            if (name == "cudaStreamSynchronize") out.push_back(static_cast<double>(e - rankStart));
        }
    }
    return out;
}

// Worst error (%) of a prediction against B: iteration, per-rank iteration, per-rank compute and
// communication, markers (as % of the rank's iteration). `what` names the worst figure.
struct Comparison {
    double worst = 0;
    std::string what;
    double markerWorst = 0; // markers alone
    void add(double e, const std::string& name) {
        if (e > worst || what.empty()) {
            worst = e;
            what = name;
        }
    }
};

Comparison compare(const Loaded& a, const SimResult& pred, const Loaded& b, const SimResult& bReplay,
                   const Case& c) {
    Comparison cmp;
    cmp.add(
        errPct(static_cast<double>(pred.simulatedIteration), static_cast<double>(bReplay.measuredIteration)),
        "iteration");
    auto predBd = simulatedBreakdown(a.set, pred.timeline);
    auto measBd = measuredBreakdown(b.set, &b.graph);
    for (std::size_t ra = 0; ra < a.set.ranks.size(); ++ra) {
        const int id = a.set.ranks[ra].rank;
        std::size_t rb = 0;
        while (rb < b.set.ranks.size() && b.set.ranks[rb].rank != id)
            ++rb;
        if (rb == b.set.ranks.size()) continue;
        const auto& ps = pred.ranks[ra];
        const auto& ms = bReplay.ranks[rb];
        const std::string r = "rank " + std::to_string(id);
        cmp.add(errPct(static_cast<double>(ps.simulated()), static_cast<double>(ms.measured())),
                r + " iteration");
        cmp.add(errPct(static_cast<double>(predBd[ra].compute), static_cast<double>(measBd[rb].compute)),
                r + " compute");
        if (c.checkComm)
            cmp.add(errPct(static_cast<double>(predBd[ra].communication),
                           static_cast<double>(measBd[rb].communication)),
                    r + " communication");
        if (c.markers) {
            auto pm = markers(a.set.ranks[ra], ps.simulatedStart, &pred.timeline.ranks[ra]);
            auto mm = markers(b.set.ranks[rb], ms.measuredStart);
            if (pm.size() != mm.size()) {
                cmp.add(100, r + " markers differ in number");
                continue;
            }
            for (std::size_t k = 0; k < pm.size(); ++k) {
                double e = 100.0 * std::abs(pm[k] - mm[k]) / static_cast<double>(ms.measured());
                cmp.markerWorst = std::max(cmp.markerWorst, e);
                cmp.add(e, r + " marker " + std::to_string(k));
            }
        }
    }
    return cmp;
}

std::string us(TimeNs ns) {
    return QString::number(static_cast<double>(ns) / 1000.0, 'f', 1).toStdString();
}

void addCase(const char* name, std::function<SynthConfig()> a, std::function<void(SynthConfig&)> change,
             std::vector<std::string> knobs, bool checkComm = true, bool markers = false,
             std::string expectFail = {}) {
    Case& c = cases()[name];
    c.a = std::move(a);
    c.change = std::move(change);
    c.knobs = std::move(knobs);
    c.checkComm = checkComm;
    c.markers = markers;
    c.expectFail = std::move(expectFail);
    QTest::newRow(name) << QString(name);
}

} // namespace

class TestOracle : public QObject {
    Q_OBJECT
private slots:
    void knobPredictsThePhysicalChange_data() {
        QTest::addColumn<QString>("name");
        // A GPU twice as fast in every respect (roofline peaks, HBM, kernel floor).
        addCase("compute.speedup", gpuBound, [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"});
        // A GEMM library three times as fast.
        addCase("compute.speedup.gemm", gpuBound, [](SynthConfig& c) { c.classSpeedup[0] = 3; },
                {"compute.speedup.gemm=3"});
        // Every collective 4x faster (bandwidth x4 and latency / 4: what comm.speedup means).
        addCase("comm.speedup", gpuBound,
                [](SynthConfig& c) {
                    c.intraNodeGBps *= 4;
                    c.latencyUs /= 4;
                },
                {"comm.speedup=4"});
        // NVLink 4x faster, predicted by the alpha-beta model with the new bandwidth.
        addCase("comm.model=alpha-beta", gpuBound, [](SynthConfig& c) { c.intraNodeGBps *= 4; },
                {"comm.model=alpha-beta", "comm.intra_node_GBps=1800", "comm.latency_us=10"});
        // The same link change across nodes (two GPUs per node: the DP group spans two nodes).
        addCase(
            "comm.model=alpha-beta inter-node",
            [] {
                SynthConfig c = gpuBound();
                c.gpusPerNode = 2;
                return c;
            },
            [](SynthConfig& c) { c.interNodeGBps *= 4; },
            {"comm.model=alpha-beta", "comm.inter_node_GBps=200", "comm.intra_node_GBps=450",
             "comm.latency_us=10"});
        // A faster GPU on a tensor- and pipeline-parallel job (1F1B, four micro-batches).
        addCase(
            "compute.speedup tp2 pp2",
            [] {
                SynthConfig c = gpuBound();
                c.dp = 1;
                c.tp = 2;
                c.pp = 2;
                c.microbatches = 4;
                return c;
            },
            [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"});
        // Rank 2's GPU and host run 1.5x slower (the knob slows every duration of the rank).
        addCase("straggler", gpuBound,
                [](SynthConfig& c) {
                    c.stragglerRank = 2;
                    c.stragglerSlowdown = 1.5;
                    c.cpuSlowRank = 2;
                    c.cpuSlowdown = 1.5;
                },
                {"straggler.rank=2", "straggler.slowdown=1.5"});
        // Only rank 2's GPU is slower (the generator's straggler); its host keeps pace.
        addCase("straggler (GPU only)", gpuBound,
                [](SynthConfig& c) {
                    c.stragglerRank = 2;
                    c.stragglerSlowdown = 1.5;
                },
                {"straggler.rank=2", "straggler.slowdown=1.5"});
        // Collectives that nothing overlaps: the compute stream waits for each one.
        addCase("comm.overlap=false", gpuBound, [](SynthConfig& c) { c.commOverlap = false; },
                {"comm.overlap=false"});
        // Twice the data-parallel ranks (4 -> 8 on one node): larger all-reduce groups.
        addCase("dp.scale", gpuBound, [](SynthConfig& c) { c.dp = 8; }, {"dp.scale=2"});
        addCase("dp.scale alpha-beta", gpuBound, [](SynthConfig& c) { c.dp = 8; },
                {"dp.scale=2", "comm.model=alpha-beta", "comm.intra_node_GBps=450", "comm.latency_us=10"});
        // Four times the data-parallel ranks: the group spans two nodes of eight GPUs.
        addCase("dp.scale across nodes alpha-beta", gpuBound, [](SynthConfig& c) { c.dp = 16; },
                {"dp.scale=4", "comm.model=alpha-beta", "comm.intra_node_GBps=450", "comm.inter_node_GBps=50",
                 "comm.latency_us=10"});
        // The data loader twice as fast.
        addCase(
            "cpu.speedup[DataLoader]=2",
            [] {
                SynthConfig c = gpuBound();
                c.steps = 2;
                c.dataLoaderUs = 3000;
                return c;
            },
            [](SynthConfig& c) { c.dataLoaderUs = 1500; }, {"cpu.speedup[^enumerate\\(DataLoader\\)]=2"});
        // The data loader's 3 ms on the main thread, gone (worker processes): the window is two
        // steps, so the second step's loading lies between the rank's first and last calls.
        addCase(
            "cpu.speedup[DataLoader]=inf",
            [] {
                SynthConfig c = gpuBound();
                c.steps = 2;
                c.dataLoaderUs = 3000;
                return c;
            },
            [](SynthConfig& c) { c.dataLoaderUs = 0; }, {"cpu.speedup[^enumerate\\(DataLoader\\)]=inf"});
        // The same 3 ms of loading in four worker processes that keep pace (data.workers: a batch
        // every 0.75 ms, well inside the rest of the step, so the host no longer waits).
        addCase(
            "data.workers=4",
            [] {
                SynthConfig c = gpuBound();
                c.steps = 2;
                c.dataLoaderUs = 3000;
                return c;
            },
            [](SynthConfig& c) { c.dataWorkers = 4; }, {"data.workers=4"});
        // Batches that load twice as fast in the main process (data.speedup).
        addCase(
            "data.speedup=2",
            [] {
                SynthConfig c = gpuBound();
                c.steps = 2;
                c.dataLoaderUs = 3000;
                return c;
            },
            [](SynthConfig& c) { c.dataLoaderUs = 1500; }, {"data.speedup=2"});
        // The data loader twice as slow (a slower decode): cpu.speedup[] below 1 is a slow-down.
        addCase(
            "cpu.speedup[DataLoader]=0.5",
            [] {
                SynthConfig c = gpuBound();
                c.steps = 2;
                c.dataLoaderUs = 3000;
                return c;
            },
            [](SynthConfig& c) { c.dataLoaderUs = 6000; }, {"cpu.speedup[^enumerate\\(DataLoader\\)]=0.5"});
        // Another server: its CPU compute (the in-process data loading) 1.5x slower, its launch and
        // dispatch path 1.25x faster (host.compute, host.dispatch).
        addCase(
            "host.compute=0.67",
            [] {
                SynthConfig c = gpuBound();
                c.steps = 2;
                c.dataLoaderUs = 3000;
                return c;
            },
            [](SynthConfig& c) { c.hostComputeSpeedup = 1.0 / 1.5; }, {"host.compute=0.6666667"});
        addCase("host.dispatch=1.25", hostBound, [](SynthConfig& c) { c.hostDispatchSpeedup = 1.25; },
                {"host.dispatch=1.25"});
        addCase(
            "host.dispatch=0.8 with Python stacks",
            [] {
                SynthConfig c = hostBound();
                c.pythonStacks = true;
                return c;
            },
            [](SynthConfig& c) { c.hostDispatchSpeedup = 0.8; }, {"host.dispatch=0.8"});
        addCase(
            "host.dispatch + host.compute",
            [] {
                SynthConfig c = hostBound();
                c.steps = 2;
                c.dataLoaderUs = 3000;
                return c;
            },
            [](SynthConfig& c) {
                c.hostDispatchSpeedup = 1.25;
                c.hostComputeSpeedup = 0.5;
            },
            {"host.dispatch=1.25", "host.compute=0.5"});
        // A host twice as fast on a host-bound job.
        addCase("cpu.speedup", hostBound, [](SynthConfig& c) { c.cpuSpeedup = 2; }, {"cpu.speedup=2"});
        // The same with the Python between modules in the profile (python_function ranges).
        addCase(
            "cpu.speedup with Python stacks",
            [] {
                SynthConfig c = hostBound();
                c.pythonStacks = true;
                return c;
            },
            [](SynthConfig& c) { c.cpuSpeedup = 2; }, {"cpu.speedup=2"});
        // Blocking .item() calls mid-step under a faster GPU: the syncs must end earlier.
        addCase(
            "item syncs + compute.speedup",
            [] {
                SynthConfig c = gpuBound();
                c.itemSyncs = 2;
                return c;
            },
            [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"}, true, true);
        // Backward on autograd's thread, released after a .item() at the end of the forward: the
        // thread must start earlier under a faster GPU.
        addCase(
            "backward thread + compute.speedup",
            [] {
                SynthConfig c = gpuBound();
                c.backwardThread = true;
                c.itemSyncs = 1;
                return c;
            },
            [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"}, true, true);
        // Two micro-batches (gradient accumulation): the engine thread wakes twice per step, each
        // time after the .item() at the end of a forward.
        addCase(
            "backward thread x2 + compute.speedup",
            [] {
                SynthConfig c = gpuBound();
                c.backwardThread = true;
                c.itemSyncs = 1;
                c.microbatches = 2;
                return c;
            },
            [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"}, true, true);
        // The same host speedup with backward on autograd's thread.
        addCase(
            "backward thread + cpu.speedup",
            [] {
                SynthConfig c = hostBound();
                c.backwardThread = true;
                return c;
            },
            [](SynthConfig& c) { c.cpuSpeedup = 2; }, {"cpu.speedup=2"}, true, true);
        // Uneven ranks (per-rank GPU speed +-10%, rank 1's host 3x slower) under a faster GPU.
        addCase(
            "uneven ranks + compute.speedup",
            [] {
                SynthConfig c = gpuBound();
                c.rankSpread = 0.1;
                c.cpuSlowRank = 1;
                c.cpuSlowdown = 3;
                return c;
            },
            [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"});
        // The window opens after the first launch (12 launches) of the step: those kernels are
        // boundary conditions, and the .item() after the last layer waits for them too.
        addCase(
            "pre-window kernel (1) + compute.speedup",
            [] {
                SynthConfig c = gpuBound();
                c.prewindowOps = 1;
                c.itemSyncs = 1;
                return c;
            },
            [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"}, true, true);
        addCase(
            "pre-window kernels (12) + compute.speedup",
            [] {
                SynthConfig c = gpuBound();
                c.prewindowOps = 12;
                c.itemSyncs = 1;
                return c;
            },
            [](SynthConfig& c) { c.gpuSpeedup = 2; }, {"compute.speedup=2"}, true, true);
    }

    // One rank of a job loaded alone (its peers are phantoms): generate the 4-rank job twice, the
    // second on a GPU twice as fast, and predict the second's rank 0 from the first's rank 0 alone.
    // With peers.model=follow the missing peers speed up with the rank (they run the same program
    // on the same hardware); with peers.model=measured they arrive when they did, and the
    // prediction misses.
    void missingPeersFollowTheJob() {
        const SynthConfig configA = gpuBound();
        SynthConfig configB = configA;
        configB.gpuSpeedup = 2;
        auto loadRank0 = [](const SynthConfig& c, QTemporaryDir& dir) {
            generate(c, dir.path().toStdString(), 2);
            auto l = std::make_unique<Loaded>();
            l->set = loadTraceSet({(dir.path() + "/rank-0.json").toStdString()});
            l->graph = buildExecutionGraph(l->set);
            return l;
        };
        QTemporaryDir dirA, dirB;
        auto a = loadRank0(configA, dirA);
        auto b = loadRank0(configB, dirB);
        QVERIFY(a->graph.stats.phantomCollectives > 0);
        SimKnobs follow, measured;
        setKnobAssignment(follow, "compute.speedup=2");
        measured = follow;
        setKnobAssignment(measured, "peers.model=measured");
        const SimResult predFollow = simulate(a->graph, follow);
        const SimResult predMeasured = simulate(a->graph, measured);
        const SimResult bReplay = simulate(b->graph);
        const double target = static_cast<double>(bReplay.measuredIteration);
        const double errFollow = errPct(static_cast<double>(predFollow.simulatedIteration), target);
        const double errMeasured = errPct(static_cast<double>(predMeasured.simulatedIteration), target);
        qInfo("rank 0 alone: B measured %s us; follow %s us (%.2f%%), measured peers %s us (%.2f%%)",
              us(bReplay.measuredIteration).c_str(), us(predFollow.simulatedIteration).c_str(), errFollow,
              us(predMeasured.simulatedIteration).c_str(), errMeasured);
        QVERIFY2(errMeasured > kTolerancePct,
                 qPrintable(QString("measured peers only %1% off").arg(errMeasured)));
        QVERIFY2(errFollow <= kTolerancePct, qPrintable(QString("follow %1% off").arg(errFollow)));
    }

    void knobPredictsThePhysicalChange() {
        QFETCH(QString, name);
        const Case& c = cases().at(name.toStdString());
        SynthConfig configA = c.a();
        SynthConfig configB = configA;
        c.change(configB);
        auto a = generateAndLoad(configA);
        auto b = generateAndLoad(configB);
        SimKnobs knobs;
        for (const auto& k : c.knobs)
            setKnobAssignment(knobs, k);
        SimResult pred = simulate(a->graph, knobs);
        SimResult ignored = simulate(a->graph);
        SimResult bReplay = simulate(b->graph);
        QVERIFY(pred.complete && ignored.complete && bReplay.complete);
        QVERIFY2(pred.warnings.empty(), pred.warnings.empty() ? "" : pred.warnings.front().text.c_str());

        Comparison withKnob = compare(*a, pred, *b, bReplay, c);
        Comparison without = compare(*a, ignored, *b, bReplay, c);
        const double iterIgnored = errPct(static_cast<double>(ignored.simulatedIteration),
                                          static_cast<double>(bReplay.measuredIteration));
        TimeNs unexplained = 0;
        for (const auto& w : a->graph.ranks)
            unexplained = std::max(unexplained, w.unexplainedWait);
        qInfo("%s: B measured %s us, predicted %s us (%.2f%%), knob ignored %s us (%.2f%%); worst error "
              "%.2f%% (%s), markers %.2f%%; ignored: worst %.2f%% (%s), markers %.2f%%; A's unexplained "
              "wait up to %s us",
              qPrintable(name), us(bReplay.measuredIteration).c_str(), us(pred.simulatedIteration).c_str(),
              errPct(static_cast<double>(pred.simulatedIteration),
                     static_cast<double>(bReplay.measuredIteration)),
              us(ignored.simulatedIteration).c_str(), iterIgnored, withKnob.worst, withKnob.what.c_str(),
              withKnob.markerWorst, without.worst, without.what.c_str(), without.markerWorst,
              us(unexplained).c_str());

        // The knob matters here: A replayed as it is misses B (and the host events that must move
        // do not, by more than 2% of the iteration).
        QVERIFY2(iterIgnored > kTolerancePct,
                 qPrintable(QString("ignoring the knob is only %1% off").arg(iterIgnored)));
        if (c.markers)
            QVERIFY2(without.markerWorst > kTolerancePct,
                     qPrintable(QString("the host syncs and threads stay within %1% without the knob")
                                    .arg(without.markerWorst)));
        // Where 2% is out of reach the knob still moves the prediction towards B.
        const double iterPredicted = errPct(static_cast<double>(pred.simulatedIteration),
                                            static_cast<double>(bReplay.measuredIteration));
        QVERIFY2(
            iterPredicted < 0.5 * iterIgnored,
            qPrintable(
                QString("iteration %1% off with the knob, %2% without").arg(iterPredicted).arg(iterIgnored)));
        if (!c.expectFail.empty()) QEXPECT_FAIL("", c.expectFail.c_str(), Abort);
        QVERIFY2(withKnob.worst <= kTolerancePct,
                 qPrintable(
                     QString("%1: %2% off").arg(QString::fromStdString(withKnob.what)).arg(withKnob.worst)));
    }
};

QTEST_GUILESS_MAIN(TestOracle)
#include "test_Oracle.moc"
