// Causal replay on tiny hand-made traces (times in microseconds): only each rank's root and the GPU
// ops launched before the window keep their measured starts; every other node moves with its
// causes. One test per repair of the graph, each with the knob that proves the dependency is real.
#include "GraphFixture.h"

#include "analysis/CriticalPath.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

using namespace sl;
using namespace slgraph;

namespace {

SimResult run(const Fixture& f, std::initializer_list<const char*> knobs = {}) {
    SimKnobs k;
    for (const char* a : knobs)
        setKnobAssignment(k, a);
    return simulate(f.graph, k);
}

} // namespace

class TestCausalReplay : public QObject {
    Q_OBJECT
private slots:
    // Thread 1 launches 990 us of GPU work and waits for it in cudaDeviceSynchronize; thread 2
    // (started by the main thread, e.g. a communication thread) launches at 1030 us, 28 us after
    // the sync returned. With the GPU twice as fast, the sync returns at 507 us and thread 2
    // follows it: its launch at 535 us, the whole job ends at 550 us instead of 1050 us.
    void laterThreadFollowsItsCause() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 990, 1),
                       cpu("cudaDeviceSynchronize", 6, 996, 2), cpu("cudaLaunchKernel", 1030, 5, 3, 2),
                       gpu("k2", 1040, 10, 3)})});
        QCOMPARE(f.edges(EdgeKind::ThreadStart), 1);
        NodeId late = f.node("cudaLaunchKernel");
        for (NodeId n = 0; n < f.graph.nodes.size(); ++n)
            if (f.graph.nodeName(n) == "cudaLaunchKernel" && f.graph.measuredStart(n) == us(1030)) late = n;
        QCOMPARE(f.graph.nodes[late].release, TimeNs(0)); // no absolute release
        SimResult replay = run(f);
        QCOMPARE(replay.nodes[late].start, us(1030));
        QCOMPARE(replay.ranks[0].simulated(), replay.ranks[0].measured());
        SimResult fast = run(f, {"compute.speedup=2"});
        QCOMPARE(fast.nodes[f.node("cudaDeviceSynchronize")].end, us(507));
        QCOMPARE(fast.nodes[late].start, us(535));
        QCOMPARE(f.graph.edges[fast.nodes[late].startBoundBy].kind, EdgeKind::ThreadStart);
        QCOMPARE(fast.ranks[0].simulated(), us(550)); // k2 (5 us) ends at 550 instead of 1050
    }

    // GPU work running when the profiler started (no launch call in the file): released at its
    // measured start, counted, out of the start-error figures, and faster under a faster GPU, so
    // the sync that waits for it shrinks too.
    void preWindowOpsAreBoundaryConditions() {
        Fixture f;
        f.load({trace({gpu("previous_step_kernel", 0, 400, 900), gpu("prev2", 450, 400, 901),
                       cpu("cudaDeviceSynchronize", 20, 832, 1), cpu("cudaLaunchKernel", 860, 5, 2),
                       gpu("k", 870, 10, 2)})});
        QCOMPARE(f.graph.ranks[0].prewindowOps, std::int64_t(2));
        NodeId prev2 = f.node("prev2");
        QVERIFY(f.graph.nodes[prev2].prewindow);
        QCOMPARE(f.graph.nodes[prev2].release, us(450)); // each, not chained back to back
        SimResult replay = run(f);
        QCOMPARE(replay.nodes[prev2].start, us(450));
        QCOMPARE(replay.kernelStartError.count, std::int64_t(1)); // only k
        QCOMPARE(replay.nodes[f.node("cudaDeviceSynchronize")].end, us(852));
        SimResult fast = run(f, {"compute.speedup=2"});
        QCOMPARE(fast.nodes[prev2].end, us(650));
        QCOMPARE(fast.nodes[f.node("cudaDeviceSynchronize")].end, us(652));
    }

    // 400 kernels were queued before the profiler started (no launch in the file) and ran back to
    // back: only the head keeps its measured start, the others follow it in stream order with their
    // measured back-to-back gap, so a faster GPU moves them all (and the sync that waits for them).
    void queuedBeforeWindowFollowsItsHead() {
        QStringList ev;
        for (int i = 0; i < 400; ++i)
            ev << gpu("queued", 11.0 * i, 10, 100000 + i);
        ev << cpu("cudaDeviceSynchronize", 5, 4396, 1) << cpu("cudaLaunchKernel", 4410, 5, 2)
           << gpu("k", 4420, 10, 2);
        Fixture f;
        f.load({trace(ev)});
        QCOMPARE(f.graph.ranks[0].prewindowOps, std::int64_t(1));
        QCOMPARE(f.graph.ranks[0].prewindowQueued, std::int64_t(399));
        SimResult replay = run(f);
        QCOMPARE(replay.ranks[0].simulated(), replay.ranks[0].measured());
        SimResult fast = run(f, {"compute.speedup=2"});
        // 400 x 5 us of work and 399 x 1 us gaps: the sync returns at about 2399 us, not 4401.
        const NodeId sync = f.node("cudaDeviceSynchronize");
        QVERIFY2(fast.nodes[sync].end < us(2450), qPrintable(QString::number(fast.nodes[sync].end)));
        QVERIFY(fast.nodes[sync].end > us(2390));
    }

    // The rank's root is its first profiled event: 2 ms of CPU ops (loading a batch) before the
    // first launch are CPU work that cpu.speedup shortens, and only the time before the rank's first
    // event is a late start (rank 1 enters the step 500 us after rank 0).
    void cpuOpsBeforeFirstLaunchAreWork() {
        auto rankEvents = [](double offset) {
            return QStringList{cpu("data_load", offset, 2000, -1, 1, "cpu_op"),
                               cpu("cudaLaunchKernel", offset + 2000, 5, 1), gpu("k", offset + 2010, 100, 1)};
        };
        Fixture f;
        f.load({trace(rankEvents(0), 0, 2), trace(rankEvents(500), 1, 2)});
        const NodeId k1 = f.node("k", 1);
        SimResult replay = run(f);
        QCOMPARE(replay.nodes[k1].start, us(2510));
        CriticalPath cp = criticalPath(f.graph, replay);
        QCOMPARE(cp.byLabel[static_cast<int>(PathLabel::LateStart)], us(500));
        QCOMPARE(cp.byLabel[static_cast<int>(PathLabel::Cpu)], us(2000));
        SimResult fast = run(f, {"cpu.speedup=2"});
        QCOMPARE(fast.nodes[k1].start, us(500 + 1000 + 10));
        QCOMPARE(f.graph.ranks[1].unexplainedWait, TimeNs(0));
    }

    // A CUDA graph launch runs 20 kernels that carry its correlation: they follow the launch (and
    // each other), none is a pre-window op, and a faster GPU shortens the whole graph.
    void graphKernelsFollowTheirLaunch() {
        QStringList ev{cpu("cudaGraphLaunch", 10, 20, 5)};
        for (int i = 0; i < 20; ++i)
            ev << gpu("graph_kernel", 40 + 11.0 * i, 10, 5);
        Fixture f;
        f.load({trace(ev)});
        QCOMPARE(f.graph.ranks[0].graphKernels, std::int64_t(20));
        // No DataLoader ops here: data.workers says it found nothing to re-time.
        const SimResult noData = run(f, {"data.workers=4"});
        QCOMPARE(noData.warnings.size(), std::size_t(1));
        QCOMPARE(noData.warnings.count(Warn::DataKnobsNoLoader), std::int64_t(1));
        QCOMPARE(f.graph.ranks[0].prewindowOps, std::int64_t(0));
        SimResult replay = run(f);
        QCOMPARE(replay.ranks[0].simulated(), replay.ranks[0].measured());
        SimResult fast = run(f, {"compute.speedup=2"});
        QCOMPARE(fast.ranks[0].simulatedEnd, us(40 + 20 * 5 + 19 * 1));
    }

    // A device-to-host copy starts 300 us after the compute stream's kernel ended, with no event
    // record in the file (beyond the cross-stream window): it waits for that kernel plus a measured
    // residual, so with the GPU twice as fast it starts 25 ms earlier instead of staying put.
    void deviceToHostCopyWaitsForTheDevice() {
        auto copy = [](double ts, double dur, int corr) {
            return QString(
                       R"x({"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Pinned)","pid":0,)x"
                       R"x("tid":20,"ts":%1,"dur":%2,"args":{"correlation":%3,"stream":20,"device":0}})x")
                .arg(ts)
                .arg(dur)
                .arg(corr);
        };
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("compute", 10, 50000, 1, 7),
                       cpu("cudaMemcpyAsync", 20, 5, 2), copy(50310, 20, 2),
                       cpu("cudaStreamSynchronize", 30, 50310, 3)})});
        QCOMPARE(f.graph.ranks[0].deviceWaits, std::int64_t(1));
        const NodeId c = f.node("Memcpy DtoH (Device -> Pinned)");
        SimResult replay = run(f);
        QCOMPARE(replay.nodes[c].start, us(50310));
        SimResult fast = run(f, {"compute.speedup=2"});
        QCOMPARE(fast.nodes[c].start, us(25310));
        QCOMPARE(f.graph.edges[fast.nodes[c].startBoundBy].kind, EdgeKind::CrossStream);
    }

    // One rank of a 4-rank job: its first all-reduce waited 2 ms for the absent peers, the second
    // not at all. With peers.model=follow (the default) the peers keep their 2 ms skew behind this
    // rank, so a faster GPU moves the whole step; with peers.model=measured they arrive when they
    // did; a straggler on this rank leaves them where they were.
    void missingPeersFollowTheJob() {
        Fixture f;
        f.load(rankWithLatePeers());
        QCOMPARE(f.graph.stats.phantomCollectives, std::int64_t(2));
        SimResult replay = run(f);
        QCOMPARE(replay.ranks[0].simulatedEnd, us(3210));
        SimResult follow = run(f, {"compute.speedup=2"});
        QCOMPARE(follow.ranks[0].simulatedEnd, us(2710));
        SimResult measured = run(f, {"compute.speedup=2", "peers.model=measured"});
        QCOMPARE(measured.ranks[0].simulatedEnd, us(3210));
        SimResult straggler = run(f, {"straggler.rank=0", "straggler.slowdown=2"});
        QCOMPARE(straggler.ranks[0].simulatedEnd, us(3210));
        CriticalPath cp = criticalPath(f.graph, replay);
        QCOMPARE(cp.byLabel[static_cast<int>(PathLabel::CollectiveWait)], us(2000));
    }

    // A step that loads two batches in the main process (4 ms each) around 1 ms of GPU work. With
    // data.workers=2 a batch comes every 2 ms once the pool is busy: each wait is 2 ms minus the
    // ~1 ms of GPU work between the waits (the first in steady state: the step before it as long as
    // the one after it). data.workers=8: no wait at all. data.speedup=2 halves both.
    void dataWaitsFollowAWorkerPool() {
        const char* next = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
        Fixture f;
        f.load({trace({cpu(next, 0, 4000, -1, 1, "user_annotation"), cpu("cudaLaunchKernel", 4000, 5, 1),
                       gpu("k1", 4010, 1000, 1), cpu("cudaStreamSynchronize", 4005, 1007, 2),
                       cpu(next, 5012, 4000, -1, 1, "user_annotation"), cpu("cudaLaunchKernel", 9012, 5, 3),
                       gpu("k2", 9022, 1000, 3), cpu("cudaStreamSynchronize", 9017, 1007, 4)})});
        const NodeId k2 = f.node("k2");
        SimResult replay = run(f);
        QCOMPARE(replay.nodes[k2].end, us(10022));
        SimResult two = run(f, {"data.workers=2"});
        // Each wait: 2000 us per batch minus the 1012 us between the two.
        QCOMPARE(two.nodes[k2].end, us(10022 - 4000 + 988 - 4000 + 988));
        SimResult eight = run(f, {"data.workers=8"});
        QCOMPARE(eight.nodes[k2].end, us(10022 - 8000));
        SimResult faster = run(f, {"data.speedup=2"});
        QCOMPARE(faster.nodes[k2].end, us(10022 - 4000));
        QVERIFY(eight.warnings.empty());
    }

    // A stream waits for an event (no cuda_sync identity) recorded 20 us before the waiting op
    // starts: the wait is found within the calibrated window, and the waiting op follows the
    // producer when the producer gets faster.
    void eventWaitTwentyMicrosecondsAfterProducer() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), cpu("cudaLaunchKernel", 22, 5, 4),
                       gpu("producer", 20, 100, 1, 7), gpu("consumer", 140, 10, 4, 20)})});
        QCOMPARE(f.edges(EdgeKind::CrossStream), 1);
        SimResult fast = run(f, {"compute.speedup=2"});
        const auto& bound = f.graph.edges[fast.nodes[f.node("consumer")].startBoundBy];
        QCOMPARE(bound.kind, EdgeKind::CrossStream);
        QVERIFY(fast.nodes[f.node("consumer")].start < us(100));
    }

    // One rank of a two-rank job: its all-reduce waited 50 us for the absent peer, then
    // transferred for 50 us (the fastest instance). The peer is a phantom arriving when it did:
    // replay ends at the measured time; a faster network shortens only the transfer part.
    void missingPeerIsAPhantom() {
        auto coll = [](double ts, double dur, int corr) {
            return QString(R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":20,"ts":%2,"dur":%3,)"
                           R"("args":{"correlation":%4,"stream":20,"device":0,"Collective name":"allreduce",)"
                           R"("In msg nelems":1000,"Out msg nelems":1000,"Group size":2,"dtype":"Float",)"
                           R"("Process Group Name":"0","Process Group Ranks":"[0, 1]"}})")
                .arg(kAllReduceKernel)
                .arg(ts)
                .arg(dur)
                .arg(corr);
        };
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), coll(20, 100, 1),
                       cpu("cudaLaunchKernel", 200, 5, 2), coll(210, 50, 2)},
                      0, 2)});
        QCOMPARE(f.graph.stats.phantomCollectives, std::int64_t(2));
        NodeId first = f.node(kAllReduceKernel);
        QCOMPARE(f.graph.nodes[first].duration, us(50));
        SimResult replay = run(f);
        QCOMPARE(replay.nodes[first].end, us(120));
        QCOMPARE(replay.nodes[first].endBoundBy, kPhantomPeers);
        SimResult fast = run(f, {"comm.speedup=2"});
        QCOMPARE(fast.nodes[first].end, us(95)); // arrival at 70 + 25
        CriticalPath cp = criticalPathFrom(f.graph, replay, first);
        std::int64_t wait = cp.byLabel[static_cast<int>(PathLabel::CollectiveWait)];
        QCOMPARE(wait, us(50));
    }

    // The first cuDNN launch loads modules for 3 s; its kernel starts when the call returns. The
    // excess over the API's median call is CPU work of the call: a faster host shortens it.
    void longFirstLaunch() {
        QStringList ev;
        int corr = 1;
        double t = 0;
        for (int i = 0; i < 9; ++i, t += 20, ++corr) {
            ev << cpu("cudaLaunchKernel", t, 5, corr) << gpu("small", t + 10, 5, corr);
        }
        ev << cpu("cudaLaunchKernel", t, 3'000'005, corr) << gpu("cudnn_first", t + 3'000'005, 5, corr);
        Fixture f;
        f.load({trace(ev)});
        SimResult replay = run(f);
        NodeId k = f.node("cudnn_first");
        QVERIFY(std::abs(replay.nodes[k].start - f.graph.measuredStart(k)) <= us(10));
        SimResult fast = run(f, {"cpu.speedup=2"});
        QVERIFY(fast.nodes[k].start < f.graph.measuredStart(k) - us(1'000'000));
    }

    // Kernels queued behind each other start a few microseconds after their predecessor: the
    // stream's back-to-back gap is estimated and carried by every stream-order edge.
    void backToBackGaps() {
        QStringList ev;
        for (int i = 0; i < 8; ++i)
            ev << cpu("cudaLaunchKernel", 1 + 6 * i, 5, i + 1) << gpu("k", 10 + 23 * i, 20, i + 1);
        Fixture f;
        f.load({trace(ev)});
        SimResult replay = run(f);
        QCOMPARE(replay.kernelStartError.maxUs, 0.0);
        QCOMPARE(replay.ranks[0].simulated(), replay.ranks[0].measured());
        for (const auto& e : f.graph.edges)
            if (e.kind == EdgeKind::StreamOrder) QCOMPARE(e.delay, us(3));
    }

    // Time between calls is CPU work where a cpu_op covers it, an unexplained wait otherwise:
    // cpu.speedup shrinks only the work; cpu.speedup[<regex>]=inf removes a region entirely.
    void cpuGapsAndRegions() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 5, 1),
                       cpu("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 10, 400, -1, 1,
                           "user_annotation"),
                       cpu("cudaLaunchKernel", 1005, 5, 2), gpu("k2", 1015, 5, 2)})});
        QCOMPARE(f.graph.ranks[0].unexplainedWait, us(600)); // 5..10 and 410..1005
        SimResult replay = run(f);
        QCOMPARE(replay.ranks[0].simulated(), us(1020));
        SimResult fastCpu = run(f, {"cpu.speedup=2"});
        // 400 us of work and the 5 us calls halved: 2.5 + 5 + 200 + 595 + 10 (launch) + 5.
        QCOMPARE(fastCpu.nodes[f.node("k2")].end, us(817.5));
        SimResult noLoader = run(f, {"cpu.speedup[DataLoader]=inf"});
        QCOMPARE(noLoader.nodes[f.node("k2")].end, us(620));
        CriticalPath cp = criticalPath(f.graph, replay);
        QCOMPARE(cp.byLabel[static_cast<int>(PathLabel::UnexplainedWait)], us(600));
    }

    // Two kernels that each fill the device (2 blocks per SM) on two streams ran one after the
    // other; a third, small one ran beside them. The full ones stay apart when the first gets
    // faster; the small one is free to overlap.
    void fullDeviceKernelsDoNotOverlap() {
        auto kernel = [](const char* name, double ts, double dur, int corr, int stream, double perSm) {
            return QString(R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":%2,"ts":%3,"dur":%4,)"
                           R"("args":{"correlation":%5,"stream":%2,"device":0,"blocks per SM":%6}})")
                .arg(name)
                .arg(stream)
                .arg(ts)
                .arg(dur)
                .arg(corr)
                .arg(perSm);
        };
        Fixture f;
        GraphOptions noTiming; // only the SM rule may tie the streams together
        noTiming.inferCrossStream = false;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), cpu("cudaLaunchKernel", 6, 5, 2),
                       kernel("gemm_a", 10, 100, 1, 7, 2.0), kernel("gemm_b", 110, 100, 2, 20, 2.0)})},
               noTiming);
        QCOMPARE(f.graph.stats.smContentionEdges, std::int64_t(1));
        SimResult fast = run(f, {"kernel.speedup[gemm_a]=2"});
        QCOMPARE(fast.nodes[f.node("gemm_b")].start, us(60));
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), cpu("cudaLaunchKernel", 6, 5, 2),
                       kernel("gemm_a", 10, 100, 1, 7, 2.0), kernel("small_b", 110, 100, 2, 20, 0.1)})},
               noTiming);
        QCOMPARE(f.graph.stats.smContentionEdges, std::int64_t(0));
    }

    // Two ranks issue two collectives of different process groups in opposite orders on one stream:
    // matching them makes a cycle, so the uncertain edges go. Inferred thread releases go with them:
    // the second thread's first call keeps its measured start and the replay stays exact.
    void cycleDropsInferredThreadEdgesToo() {
        auto coll = [](const char* pg, double ts, double dur, int corr) {
            return QString(R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":20,"ts":%2,"dur":%3,)"
                           R"("args":{"correlation":%4,"stream":20,"device":0,"Collective name":"allreduce",)"
                           R"("In msg nelems":1000,"Out msg nelems":1000,"Group size":2,"dtype":"Float",)"
                           R"("Process Group Name":"%5","Process Group Ranks":"[0, 1]"}})")
                .arg(kAllReduceKernel)
                .arg(ts)
                .arg(dur)
                .arg(corr)
                .arg(pg);
        };
        Fixture f;
        f.load(
            {trace({cpu("cudaLaunchKernel", 0, 5, 1), cpu("cudaLaunchKernel", 6, 5, 2), coll("p", 10, 50, 1),
                    coll("q", 60, 50, 2), cpu("cudaLaunchKernel", 300, 5, 3, 2), gpu("late", 310, 5, 3)},
                   0, 2),
             trace({cpu("cudaLaunchKernel", 0, 5, 1), cpu("cudaLaunchKernel", 6, 5, 2), coll("q", 10, 50, 1),
                    coll("p", 60, 50, 2)},
                   1, 2)});
        QVERIFY(f.hasWarning(Warn::GraphCycleDropped));
        QCOMPARE(f.graph.stats.threadStartEdges, std::int64_t(0));
        QCOMPARE(f.graph.ranks[0].threadsReleasedAtMeasured, std::int64_t(1));
        SimResult replay = run(f);
        QVERIFY(replay.complete);
        QCOMPARE(replay.ranks[0].simulated(), replay.ranks[0].measured());
    }

    // A host sync inside a removed region no longer waits (cpu.speedup[aten::item]=inf).
    void removedSyncNoLongerWaits() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 500, 1),
                       cpu("aten::item", 6, 510, -1, 1, "cpu_op"), cpu("cudaStreamSynchronize", 8, 504, 2),
                       cpu("cudaLaunchKernel", 520, 5, 3), gpu("k2", 530, 5, 3, 20)})});
        NodeId sync = f.node("cudaStreamSynchronize");
        QCOMPARE(f.graph.nodes[sync].kind, NodeKind::SyncCall);
        SimResult replay = run(f);
        QCOMPARE(replay.nodes[f.node("k2")].start, us(530));
        SimResult gone = run(f, {"cpu.speedup[aten::item]=inf"});
        QVERIFY(gone.nodes[f.node("k2")].start < us(50));
    }
};

QTEST_GUILESS_MAIN(TestCausalReplay)
#include "test_CausalReplay.moc"
