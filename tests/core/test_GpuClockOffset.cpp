// The GPU clock offset of a rank and the pre-window queues it reveals, on tiny hand-made ROCm-style
// traces (times in microseconds; docs/ARCHITECTURE.md, "GPU clock offset"). On the real ROCm traces
// GPU timestamps sit a few microseconds after the host call that waited for them returned: the
// graph reads them less that offset, so those calls wait for the GPU and move with it.
#include "GraphFixture.h"

#include "analysis/TraceInfo.h"
#include "sim/Simulator.h"

using namespace sl;
using namespace slgraph;

namespace {

constexpr double kLate = 3; // how far the GPU clock of these traces runs ahead (us)

QString hip(const char* name, double ts, double dur, int corr) {
    return cpu(name, ts, dur, corr);
}
QString kernel(const char* name, double trueStart, double dur, int corr, int stream = 7) {
    return gpu(name, trueStart + kLate, dur, corr, stream);
}
QString copyToHost(double trueStart, double dur, int corr) {
    return QString(R"x({"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Host)","pid":0,"tid":7,)x"
                   R"x("ts":%1,"dur":%2,"args":{"correlation":%3,"stream":7,"device":0}})x")
        .arg(trueStart + kLate)
        .arg(dur)
        .arg(corr);
}

// A kernel of 1000 us read back by a blocking copy, a second kernel waited for by
// hipDeviceSynchronize, and a last short kernel. Both waits return the moment their GPU work ends
// (host clock), so the GPU's recorded ends sit 3 us after the calls returned.
QByteArray rocmStep() {
    return trace({hip("hipLaunchKernel", 0, 5, 1), kernel("k1", 10, 1000, 1),
                  hip("hipMemcpyWithStream", 6, 1014, 2), copyToHost(1010, 10, 2),
                  hip("hipLaunchKernel", 1025, 5, 3), kernel("k2", 1035, 1000, 3),
                  hip("hipDeviceSynchronize", 1031, 1004, 4), hip("hipLaunchKernel", 2040, 5, 5),
                  kernel("k3", 2050, 10, 5)});
}

SimResult run(const Fixture& f, std::initializer_list<const char*> knobs = {}) {
    return simulate(f.graph, knobsOf(knobs));
}

GraphOptions withoutClockCorrection() {
    GraphOptions opt;
    opt.correctGpuClock = false;
    return opt;
}

} // namespace

class TestGpuClockOffset : public QObject {
    Q_OBJECT
private slots:
    // The copy and the sync each show the GPU 3 us ahead: the offset is found from those two pairs,
    // both calls wait for the GPU (SyncCall), launch latencies are 10 us (not 13), the replay
    // matches and a twice faster GPU takes 1000 us off the step.
    void rocmWaitsFollowTheGpu() {
        Fixture f;
        f.load({rocmStep()});
        const RankWindow& w = f.graph.ranks[0];
        QCOMPARE(w.gpuClockOffset, us(kLate));
        QCOMPARE(w.gpuClockOffsetPairs, std::int64_t(2));
        QVERIFY(f.hasWarning(Warn::GpuClockOffsetApplied));
        QCOMPARE(f.graph.measuredEnd(f.node("k1")), us(1010)); // on the host clock
        QCOMPARE(f.graph.nodes[f.node("hipMemcpyWithStream")].kind, NodeKind::SyncCall);
        QCOMPARE(f.graph.nodes[f.node("hipDeviceSynchronize")].kind, NodeKind::SyncCall);
        QCOMPARE(w.typicalLaunchLatency, us(10));

        const SimResult replay = run(f);
        QCOMPARE(replay.ranks[0].simulated(), replay.ranks[0].measured());
        QCOMPARE(replay.ranks[0].measured(), us(2060));
        const SimResult fast = run(f, {"compute.speedup=2"});
        // k1 ends at 510, the copy at 515 (or 520 where copies keep their time), k2 runs 530-1030,
        // k3 1045-1050.
        QVERIFY2(fast.ranks[0].simulated() >= us(1050) && fast.ranks[0].simulated() <= us(1055),
                 qPrintable(QString::number(fast.ranks[0].simulated())));

        // Read as recorded, neither call waits for the GPU: both stay fixed CPU time, and the
        // faster GPU changes the step by no more than k3's 5 us.
        Fixture raw;
        raw.load({rocmStep()}, withoutClockCorrection());
        QCOMPARE(raw.graph.ranks[0].gpuClockOffset, TimeNs(0));
        QCOMPARE(raw.graph.nodes[raw.node("hipMemcpyWithStream")].kind, NodeKind::CpuCall);
        QCOMPARE(raw.graph.nodes[raw.node("hipDeviceSynchronize")].kind, NodeKind::CpuCall);
        const SimResult rawFast = run(raw, {"compute.speedup=2"});
        const SimResult rawReplay = run(raw);
        QVERIFY(rawReplay.ranks[0].simulated() - rawFast.ranks[0].simulated() <= us(5));
    }

    // On the host clock nothing runs ahead (CUDA-like: every GPU op ends before the call that
    // waited for it returns): no offset, no warning, the trace's times as they are.
    void noEvidenceNoOffset() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 1000, 1),
                       cpu("cudaDeviceSynchronize", 6, 1006, 2)})});
        QCOMPARE(f.graph.ranks[0].gpuClockOffset, TimeNs(0));
        QCOMPARE(f.graph.ranks[0].gpuClockOffsetPairs, std::int64_t(1));
        QVERIFY(!f.hasWarning(Warn::GpuClockOffsetApplied));
        QCOMPARE(f.graph.measuredEnd(f.node("k1")), us(1010));
    }

    // 50 kernels queued before the window (no launch in the file) and a hipDeviceSynchronize that
    // waits for them: the queue had started before the sync began, so it must have ended before
    // the sync returned; the GPU's recorded end 3 us after the return is the clock. The sync is a
    // wait (it moves with the GPU), never 1 ms of CPU work.
    void syncOnPrewindowQueueIsAWait() {
        QStringList ev;
        for (int i = 0; i < 50; ++i)
            ev << kernel("queued", 21.0 * i, 20, 100000 + i);
        ev << hip("hipDeviceSynchronize", 5, 1044, 1) << hip("hipLaunchKernel", 1055, 5, 2)
           << kernel("k", 1065, 10, 2);
        Fixture f;
        f.load({trace(ev)});
        QCOMPARE(f.graph.ranks[0].gpuClockOffset, us(kLate));
        QCOMPARE(f.graph.ranks[0].prewindowOps + f.graph.ranks[0].prewindowQueued, std::int64_t(50));
        const NodeId sync = f.node("hipDeviceSynchronize");
        QCOMPARE(f.graph.nodes[sync].kind, NodeKind::SyncCall);
        const SimResult replay = run(f);
        QCOMPARE(replay.nodes[sync].end, us(1049));
        const SimResult fast = run(f, {"compute.speedup=2"});
        // 50 x 10 us of work and 49 x 1 us gaps: the sync returns at 549 us.
        QCOMPARE(fast.nodes[sync].end, us(549));

        Fixture raw;
        raw.load({trace(ev)}, withoutClockCorrection());
        QCOMPARE(raw.graph.nodes[raw.node("hipDeviceSynchronize")].kind, NodeKind::CpuCall);
    }

    // A queue head launched before the window that starts 5 us after the kernel on another stream
    // of its device ended was held by it: it follows that kernel (an inferred cross-stream edge), and
    // with the GPU twice as fast it starts 500 us earlier. A head after an idle GPU keeps its
    // measured start.
    void prewindowHeadFollowsAnotherStream() {
        auto events = [](double headStart) {
            return QStringList{cpu("cudaLaunchKernel", 0, 5, 1), gpu("producer", 10, 1000, 1, 7),
                               gpu("head", headStart, 100, 900, 9),
                               gpu("behind", headStart + 101, 100, 901, 9)};
        };
        Fixture f;
        f.load({trace(events(1015))});
        const RankWindow& w = f.graph.ranks[0];
        QCOMPARE(w.prewindowFollowing, std::int64_t(1));
        QCOMPARE(w.prewindowOps, std::int64_t(0));
        QCOMPARE(w.prewindowQueued, std::int64_t(1));
        const NodeId head = f.node("head");
        QCOMPARE(f.graph.nodes[head].release, TimeNs(0));
        bool follows = false;
        for (std::uint32_t id : f.graph.inEdges(head)) {
            const GraphEdge& e = f.graph.edges[id];
            follows |= e.kind == EdgeKind::CrossStream && e.inferred && e.from == f.node("producer");
        }
        QVERIFY(follows);
        const SimResult replay = run(f);
        QCOMPARE(replay.nodes[head].start, us(1015));
        QCOMPARE(replay.ranks[0].simulated(), replay.ranks[0].measured());
        const SimResult fast = run(f, {"compute.speedup=2"});
        QCOMPARE(fast.nodes[head].start, us(515));

        Fixture idle;
        idle.load({trace(events(1500))});
        QCOMPARE(idle.graph.ranks[0].prewindowFollowing, std::int64_t(0));
        QCOMPARE(idle.graph.ranks[0].prewindowOps, std::int64_t(1));
        const SimResult idleFast = run(idle, {"compute.speedup=2"});
        QCOMPARE(idleFast.nodes[idle.node("head")].start, us(1500));
    }

    // `info` reports the offset and its pairs per rank.
    void infoReportsTheOffset() {
        Fixture f;
        f.load({rocmStep()});
        const nlohmann::json j = traceInfoJson(f.set, &f.graph);
        QCOMPARE(j["ranks"][0]["gpu_clock_offset_us"].get<double>(), kLate);
        QCOMPARE(j["ranks"][0]["gpu_clock_offset_pairs"].get<std::int64_t>(), std::int64_t(2));
    }

    // The shared ROCm traces: no pair shows their GPU clock ahead (every wait ends after its GPU
    // work), so nothing is shifted.
    void sharedRocmTracesHaveNoOffset() {
        SL_REQUIRE_TRACES();
        for (const char* file :
             {"single-rank/mi300x-xdit-flux-rank0.json.gz", "single-rank/torch-compile-triton.json.gz"}) {
            const LoadedSet& s = loadCached(sltest::tracePath(file));
            QVERIFY2(s.graph.ranks[0].gpuClockOffsetPairs > 0, file);
            QCOMPARE(s.graph.ranks[0].gpuClockOffset, TimeNs(0));
        }
    }
};

QTEST_GUILESS_MAIN(TestGpuClockOffset)
#include "test_GpuClockOffset.moc"
