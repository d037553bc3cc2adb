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
        QVERIFY(f.hasWarning("had a cycle"));
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
