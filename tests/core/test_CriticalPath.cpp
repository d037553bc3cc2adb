// Critical path: hand-computed expectations on small hand-made traces (one rank, and two ranks
// where the path crosses through a collective), and on the cuda_sync sample of HTA, where the path
// ends in the device synchronize that waits for the kernel launched after the event wait.
#include "GraphFixture.h"

#include "analysis/CriticalPath.h"
#include "sim/Simulator.h"

#include <map>

using namespace sl;
using namespace slgraph;

namespace {

TimeNs label(const CriticalPath& cp, PathLabel l) {
    return cp.byLabel[static_cast<std::size_t>(l)];
}

void checkContiguous(const CriticalPath& cp) {
    TimeNs sum = 0;
    for (std::size_t i = 0; i < cp.segments.size(); ++i) {
        QVERIFY(cp.segments[i].end > cp.segments[i].start);
        sum += cp.segments[i].end - cp.segments[i].start;
    }
    QCOMPARE(sum, cp.length);
}

} // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT
private slots:
    // launch(10) -> k1 [20,120] -> cudaDeviceSynchronize returns at 122 (2 us tail) -> 8 us
    // unexplained wait -> launch(130) -> k2 [140,150]. Launch latency 10 us (both idle-stream launches).
    void singleRankByHand() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), cpu("cudaDeviceSynchronize", 20, 102, 2),
                       cpu("cudaLaunchKernel", 130, 5, 3), gpu("k1", 20, 100, 1), gpu("k2", 140, 10, 3)})});
        SimResult r = simulate(f.graph);
        CriticalPath cp = criticalPath(f.graph, r);
        checkContiguous(cp);
        QCOMPARE(cp.length, us(140)); // 10 .. 150, the simulated iteration
        QCOMPARE(cp.length, r.ranks[0].simulated());
        QCOMPARE(label(cp, PathLabel::GpuCompute), us(110));
        QCOMPARE(label(cp, PathLabel::LaunchLatency), us(20));
        QCOMPARE(label(cp, PathLabel::Sync), us(2));
        // Nothing (no cpu_op) covers the 8 us between the sync and the next launch.
        QCOMPARE(label(cp, PathLabel::UnexplainedWait), us(8));
        QCOMPARE(label(cp, PathLabel::Cpu), us(0));
        QCOMPARE(cp.segments.front().node, f.node("k1"));
        QCOMPARE(cp.segments.front().label, PathLabel::LaunchLatency);
        QCOMPARE(cp.segments.back().node, f.node("k2"));
        QCOMPARE(cp.topNodes.front().first.node, f.node("k1"));
        QCOMPARE(cp.topNodes.front().second, us(100));

        // Twice as fast GPU: the compute share of the path halves, the path shortens by 55 us.
        SimKnobs k;
        k.computeSpeedup = 2;
        CriticalPath fast = criticalPath(f.graph, simulate(f.graph, k));
        QCOMPARE(label(fast, PathLabel::GpuCompute), us(55));
        QCOMPARE(fast.length, us(85));
    }

    // CPU time is named by the innermost op that ran, not by the call that ends the gap. forward
    // (python) [0,45] holds aten::linear [0,40], which holds aten::addmm [5,25] and the launch of k1
    // [10,15]; then nothing is recorded for 17,995 us until cudaEventRecord [18040,18045], a 5 us
    // unrecorded gap and the launch of k2 [18050,18055] (k2 [18065,18075]).
    void byNameNamesTheOpThatRan() {
        Fixture f;
        f.load(
            {trace({cpu("model.py(12): forward", 0, 45, 101, 1, "python_function"),
                    cpu("aten::linear", 0, 40, 102, 1, "cpu_op"), cpu("aten::addmm", 5, 20, 103, 1, "cpu_op"),
                    cpu("cudaLaunchKernel", 10, 5, 1), cpu("cudaEventRecord", 18040, 5, 2),
                    cpu("cudaLaunchKernel", 18050, 5, 3), gpu("k1", 20, 10, 1), gpu("k2", 18065, 10, 3)})});
        SimResult r = simulate(f.graph);
        CriticalPath cp = criticalPath(f.graph, r);
        checkContiguous(cp);
        auto byName = [&](const CriticalPath& p) {
            std::map<std::string, std::pair<TimeNs, PathLabel>> m;
            for (const auto& sh : criticalPathByName(f.graph, p))
                m[sh.name] = {sh.time, sh.label};
            return m;
        };
        auto names = byName(cp);
        // The 17,995 + 5 us that no op covers are unexplained, not cudaEventRecord's or the launch's.
        QCOMPARE(names["unexplained_wait"].first, us(18000));
        QCOMPARE(names["unexplained_wait"].second, PathLabel::UnexplainedWait);
        QCOMPARE(criticalPathByName(f.graph, cp).front().name, std::string("unexplained_wait"));
        QCOMPARE(names["cudaEventRecord"].first, us(5));
        QCOMPARE(names["cudaEventRecord"].second, PathLabel::Cpu);
        // Before the first call [0,10]: linear then addmm (late start); after it [15,45]: addmm
        // [15,25], linear [25,40], forward [40,45].
        QCOMPARE(names["aten::addmm"].first, us(15));
        QCOMPARE(names["aten::linear"].first, us(20));
        QCOMPARE(names["model.py(12): forward"].first, us(5));
        QCOMPARE(names["model.py(12): forward"].second, PathLabel::Cpu);
        // The rank's root follows its first profiled event (forward at 0): the ops before the first
        // call are CPU work, nothing is a late start.
        QCOMPARE(label(cp, PathLabel::LateStart), TimeNs(0));
        QCOMPARE(label(cp, PathLabel::UnexplainedWait), us(18000));
        // The gap's pieces lie in measured order on the path, each carrying its op.
        std::vector<std::string> gap;
        for (const auto& s : cp.segments)
            if (s.start >= us(15) && s.end <= us(18040))
                gap.push_back(std::string(pathSegmentName(f.graph, s)));
        QCOMPARE(gap, (std::vector<std::string>{"aten::addmm", "aten::linear", "model.py(12): forward",
                                                "unexplained_wait"}));
        for (const auto& s : cp.segments)
            if (s.label == PathLabel::Cpu && s.edge != kNoEdge) QVERIFY(s.op.valid());

        // Twice as fast a host: the named CPU work between calls halves, the unexplained wait stays.
        SimKnobs k;
        k.cpuSpeedup = 2;
        CriticalPath fast = criticalPath(f.graph, simulate(f.graph, k));
        checkContiguous(fast);
        auto fastNames = byName(fast);
        QCOMPARE(fastNames["unexplained_wait"].first, us(18000));
        QCOMPARE(fastNames["aten::addmm"].first, us(2.5) + us(5)); // half of 5 before the call + half of 10
        QCOMPARE(fastNames["model.py(12): forward"].first, us(2.5));
    }

    // Two ranks, one all-reduce. Rank 1 is a straggler (x2): rank 0's collective ends when rank 1
    // arrives (110) plus its transfer (60), so its path continues on rank 1: CPU work
    // [0,10] + [10,100], launch latency [100,110], then the transfer [110,170] on rank 0.
    void crossesRanksThroughCollective() {
        const char* nccl = kAllReduceKernel;
        Fixture f;
        f.load(twoRankAllReduce());
        SimKnobs k;
        k.stragglerRank = 1;
        k.stragglerSlowdown = 2;
        SimResult r = simulate(f.graph, k);
        NodeId end0 = lastNodeOfRank(f.graph, r, 0);
        QCOMPARE(end0, f.node(nccl, 0));
        CriticalPath cp = criticalPathFrom(f.graph, r, end0);
        checkContiguous(cp);
        QCOMPARE(cp.length, us(170));
        QCOMPARE(label(cp, PathLabel::GpuComm), us(60));
        QCOMPARE(label(cp, PathLabel::LaunchLatency), us(10));
        // [0,10] the first call, [10,100] the straggler's gap before its second call (nothing
        // covers it: an unexplained wait, slowed down with the rest of the straggler's host).
        QCOMPARE(label(cp, PathLabel::Cpu) + label(cp, PathLabel::UnexplainedWait), us(100));
        QCOMPARE(f.graph.nodes[cp.segments.front().node].rank, 1u); // begins on the straggler
        QCOMPARE(f.graph.nodes[cp.segments.back().node].rank, 0u);
        // Without the straggler rank 1 still arrives last (60 > 20): the path still runs through
        // rank 1's launch, and its length is the replayed 120 us.
        SimResult base = simulate(f.graph);
        CriticalPath cpb = criticalPathFrom(f.graph, base, lastNodeOfRank(f.graph, base, 0));
        checkContiguous(cpb);
        QCOMPARE(cpb.length, us(120));
        QCOMPARE(f.graph.nodes[cpb.segments.front().node].rank, 1u);
    }

    // HTA sample: a kernel on stream 24 waits (cudaStreamWaitEvent, cuda_sync identity) for
    // stream 20, whose kernel finished 19 ms earlier: the wait does not bind. The host sleeps
    // ~18.5 ms, launches the sgemm on stream 24 (15 us launch latency), and the final
    // cudaDeviceSynchronize returns 13 us after it ends. The path is the whole iteration.
    void cudaSyncSample() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("single-rank/a100-cuda-sync-multistream.json.gz")});
        ExecutionGraph g = buildExecutionGraph(set);
        SimResult r = simulate(g);
        CriticalPath cp = criticalPath(g, r);
        checkContiguous(cp);
        // The path starts at the trace's first event, the rank's root follows it: the 33 us before
        // the first modelled call (python and cpu_op events) are CPU work on the path, outside the
        // iteration (first to last modelled node); nothing is a late start.
        QCOMPARE(cp.length, us(19930));
        QCOMPARE(label(cp, PathLabel::LateStart), TimeNs(0));
        QCOMPARE(cp.length - us(33), r.ranks[0].simulated());
        QVERIFY(cp.segments.size() >= 3);
        const auto& last = cp.segments[cp.segments.size() - 1];
        const auto& kernel = cp.segments[cp.segments.size() - 2];
        const auto& launch = cp.segments[cp.segments.size() - 3];
        QCOMPARE(QString::fromStdString(std::string(g.nodeName(last.node))),
                 QString("cudaDeviceSynchronize"));
        QCOMPARE(last.label, PathLabel::Sync);
        QCOMPARE(last.end - last.start, us(13));
        QCOMPARE(kernel.label, PathLabel::GpuCompute);
        QCOMPARE(kernel.end - kernel.start, us(123));
        QCOMPARE(launch.label, PathLabel::LaunchLatency);
        QCOMPARE(launch.end - launch.start, g.ranks[0].typicalLaunchLatency);
        QCOMPARE(label(cp, PathLabel::GpuCompute), us(123));
        // Host-bound program: the host sleeps ~18.5 ms between calls with no cpu_op around it.
        QVERIFY(label(cp, PathLabel::UnexplainedWait) > us(18000));
        QVERIFY(label(cp, PathLabel::Cpu) + label(cp, PathLabel::UnexplainedWait) > us(19000));
    }

    // The 8-rank DLRM step: one path across ranks, contiguous, as long as the job's simulated
    // iteration measured from the first rank's first event.
    void dlrmAcrossRanks() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        ExecutionGraph g = buildExecutionGraph(set);
        SimResult r = simulate(g);
        CriticalPath cp = criticalPath(g, r);
        checkContiguous(cp);
        QCOMPARE(cp.length, r.nodes[r.lastNode].end - g.ranks[0].origin);
        QVERIFY(label(cp, PathLabel::Cpu) > cp.length / 2); // host-bound at this batch size
        for (std::uint32_t rank = 0; rank < set.ranks.size(); ++rank) {
            CriticalPath p = criticalPathFrom(g, r, lastNodeOfRank(g, r, rank));
            checkContiguous(p);
            QVERIFY(p.length > 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "test_CriticalPath.moc"
