// Execution graph: every edge kind on small hand-made traces, with the simulated effect of a knob
// that shows the dependency is real (times in the fixtures are microseconds).
#include "GraphFixture.h"

#include "sim/Simulator.h"

using namespace sl;
using namespace slgraph;

class TestExecutionGraph : public QObject {
    Q_OBJECT
private slots:
    void launchThreadAndStreamOrder() {
        Fixture f;
        f.load({trace({cpu("aten::mm", 8, 20, -1, 1, "cpu_op"), cpu("cudaLaunchKernel", 10, 5, 1),
                       cpu("cudaLaunchKernel", 20, 5, 2), gpu("kA", 30, 100, 1), gpu("kB", 130, 50, 2)})});
        QCOMPARE(f.graph.nodes.size(), std::size_t(4));
        QCOMPARE(f.edges(EdgeKind::ThreadOrder), 1);
        QCOMPARE(f.edges(EdgeKind::Launch), 2);
        QCOMPARE(f.edges(EdgeKind::StreamOrder), 1);
        QCOMPARE(f.graph.ranks[0].typicalLaunchLatency, us(20));

        SimResult replay = simulate(f.graph);
        // The iteration spans modelled nodes only: the cpu_op at 8 us does not pin its start.
        QCOMPARE(replay.ranks[0].measured(), us(170));
        QCOMPARE(replay.ranks[0].simulated(), us(170));
        QCOMPARE(replay.nodes[f.node("kB")].start, us(130));
        QCOMPARE(replay.kernelStartError.maxUs, 0.0);
        // The cpu_op is not a node: it keeps its place on the thread.
        QCOMPARE(replay.timeline.track(0, 0).start.size(), std::size_t(3));

        SimKnobs k;
        k.computeSpeedup = 2;
        SimResult fast = simulate(f.graph, k);
        QCOMPARE(fast.nodes[f.node("kA")].end, us(80));
        QCOMPARE(fast.nodes[f.node("kB")].start, us(80)); // stream order, launch long done
        QCOMPARE(fast.nodes[f.node("kB")].end, us(105));
        const auto& e = f.graph.edges[fast.nodes[f.node("kB")].startBoundBy];
        QCOMPARE(e.kind, EdgeKind::StreamOrder);
    }

    void crossStream_data() {
        QTest::addColumn<bool>("identity");
        QTest::addColumn<double>("expectedStart");
        QTest::newRow("cuda_sync identity") << true << 71.0; // the 1 us gap after the wait is kept
        QTest::newRow("inferred from timing") << false << 71.0;
    }
    void crossStream() {
        QFETCH(bool, identity);
        QFETCH(double, expectedStart);
        QStringList ev = {cpu("cudaLaunchKernel", 10, 5, 1),
                          cpu("cudaEventRecord", 16, 2, 2),
                          cpu("cudaStreamWaitEvent", 19, 2, 3),
                          cpu("cudaLaunchKernel", 22, 5, 4),
                          gpu("k1", 20, 100, 1, 7),
                          gpu("k2", 121, 10, 4, 20)};
        if (identity)
            ev << R"({"ph":"X","cat":"cuda_sync","name":"Stream Wait Event","pid":0,"tid":20,"ts":22,"dur":0,"args":{"correlation":3,"stream":20,"wait_on_stream":7,"wait_on_cuda_event_record_corr_id":2,"device":0,"cuda_sync_kind":"Stream Wait Event"}})";
        Fixture f;
        f.load({trace(ev)});
        QCOMPARE(f.edges(EdgeKind::CrossStream), 1);
        bool inferred = false;
        for (const auto& e : f.graph.edges)
            if (e.kind == EdgeKind::CrossStream) {
                inferred = e.inferred;
                QCOMPARE(e.from, f.node("k1"));
                QCOMPARE(e.to, f.node("k2"));
            }
        QCOMPARE(inferred, !identity);
        QCOMPARE(simulate(f.graph).nodes[f.node("k2")].start, us(121));
        SimKnobs k;
        k.computeSpeedup = 2;
        SimResult fast = simulate(f.graph, k);
        QCOMPARE(fast.nodes[f.node("k2")].start, us(expectedStart));
        QCOMPARE(f.graph.edges[fast.nodes[f.node("k2")].startBoundBy].kind, EdgeKind::CrossStream);
    }

    // k3 starts 200 us after its launch for no recorded reason (idle stream, no other
    // dependency): the 180 us beyond the rank's launch latency (median over idle-stream launches:
    // 20 us) are an unexplained GPU wait, kept as measured and reported. No other stream ran, so the
    // residual rides on both the launch and the stream-order edge (the device's last op, k2): the op
    // moves with whichever comes later. A launch-latency knob replaces the latency, never the wait.
    void replayDoesNotCopyMeasuredStarts() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), cpu("cudaLaunchKernel", 200, 5, 2),
                       cpu("cudaLaunchKernel", 300, 5, 3), gpu("k1", 30, 10, 1), gpu("k2", 220, 10, 2),
                       gpu("k3", 500, 10, 3)})});
        QCOMPARE(f.graph.ranks[0].typicalLaunchLatency, us(20));
        for (const auto& e : f.graph.edges)
            if (e.kind == EdgeKind::Launch)
                QCOMPARE(e.delay - e.wait, us(20)); // one per-rank value
            else if (e.kind == EdgeKind::StreamOrder)
                QCOMPARE(e.delay - e.wait, TimeNs(0));
        QCOMPARE(f.graph.ranks[0].unexplainedGpuWait, us(180));
        SimResult r = simulate(f.graph);
        QCOMPARE(r.nodes[f.node("k3")].start, us(500));
        QCOMPARE(r.ranks[0].simulated(), r.ranks[0].measured());
        SimKnobs k;
        k.launchLatencyUs = 5;
        QCOMPARE(simulate(f.graph, k).nodes[f.node("k3")].start, us(485)); // 300 + 5 + 180
    }

    // A GPU-bound iteration: three long kernels queued back to back. compute.speedup=2 halves the
    // GPU part (an encoded idle gap or measured start would keep the iteration fixed).
    void computeSpeedupShrinksGpuBoundIteration() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 2, 1), cpu("cudaLaunchKernel", 12, 2, 2),
                       cpu("cudaLaunchKernel", 14, 2, 3), gpu("k1", 30, 1000, 1), gpu("k2", 1030, 1000, 2),
                       gpu("k3", 2030, 1000, 3)})});
        SimResult base = simulate(f.graph);
        QCOMPARE(base.ranks[0].simulated(), base.ranks[0].measured()); // 10 .. 3030
        SimKnobs k;
        k.computeSpeedup = 2;
        SimResult fast = simulate(f.graph, k);
        QCOMPARE(fast.ranks[0].simulated(), us(1520)); // 10 .. 30 + 1500
        QVERIFY(fast.simulatedIteration < base.simulatedIteration);
    }

    // cudaStreamWaitEvent without cuda_sync identity and without a traced cudaEventRecord (NCCL
    // records its events itself): the waiting stream is the one of the next op the thread
    // launches; the source is the last op launched on another stream before the wait.
    void streamWaitEventWithoutRecord() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), cpu("cudaStreamWaitEvent", 19, 2, 3),
                       cpu("cudaLaunchKernel", 22, 5, 4), gpu("k1", 20, 100, 1, 7),
                       gpu("k2", 121, 10, 4, 20)})});
        QCOMPARE(f.graph.stats.waitEventEdges, std::int64_t(1));
        QCOMPARE(f.graph.stats.inferredCrossStream, std::int64_t(0));
        QCOMPARE(f.edges(EdgeKind::CrossStream), 1);
        QCOMPARE(f.graph.ranks[0].crossStreamDelay, us(1));
        SimKnobs k;
        k.computeSpeedup = 2;
        QCOMPARE(simulate(f.graph, k).nodes[f.node("k2")].start, us(71));

        // Ablation: without the wait pairing, the timing inference still finds the edge (an op on
        // another stream ended right before k2 started).
        GraphOptions noWaits;
        noWaits.inferEventWaits = false;
        ExecutionGraph g = buildExecutionGraph(f.set, noWaits);
        QCOMPARE(g.stats.waitEventEdges, std::int64_t(0));
        QCOMPARE(g.stats.inferredCrossStream, std::int64_t(1));
        // Without any inference k2's wait is unexplained (89 us after its launch and latency): kept
        // as measured and reported, so a faster GPU no longer moves it.
        GraphOptions none;
        none.inferCrossStream = false;
        ExecutionGraph h = buildExecutionGraph(f.set, none);
        NodeId k2 = kNoNode;
        for (NodeId n = 0; n < h.nodes.size(); ++n)
            if (h.nodeName(n) == "k2") k2 = n;
        QCOMPARE(h.ranks[0].unexplainedGpuWait, us(89));
        QCOMPARE(simulate(h, k).nodes[k2].start, us(121));
    }

    // Every spelling of a device-wide wait is one (the graph asks trace/RuntimeApi, never the name).
    void hostSync_data() {
        QTest::addColumn<QString>("call");
        for (const char* name : {"cudaDeviceSynchronize", "cudaThreadSynchronize", "cuCtxSynchronize",
                                 "hipDeviceSynchronize", "cudaDeviceSynchronize_v3020"})
            QTest::newRow(name) << QString(name);
    }
    void hostSync() {
        QFETCH(QString, call);
        const std::string name = call.toStdString();
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), cpu(name.c_str(), 20, 102, 2),
                       cpu("cudaLaunchKernel", 130, 5, 3), gpu("k1", 20, 100, 1), gpu("k2", 140, 10, 3)})});
        QCOMPARE(f.edges(EdgeKind::Sync), 1);
        NodeId sync = f.node(name.c_str());
        QCOMPARE(f.graph.nodes[sync].kind, NodeKind::SyncCall);
        QCOMPARE(f.graph.nodes[sync].duration, us(2)); // the wait is simulated, not replayed
        SimResult replay = simulate(f.graph);
        QCOMPARE(replay.nodes[sync].end, us(122));
        QCOMPARE(replay.ranks[0].simulated(), us(140));
        SimKnobs k;
        k.computeSpeedup = 2;
        SimResult fast = simulate(f.graph, k);
        QCOMPARE(fast.nodes[sync].end, us(72));
        QCOMPARE(f.graph.edges[fast.nodes[sync].endBoundBy].kind, EdgeKind::Sync);
        QCOMPARE(fast.nodes[f.node("k2")].start, us(90));
        QCOMPARE(fast.ranks[0].simulated(), us(85));
    }

    void collectives() {
        const char* nccl = kAllReduceKernel;
        Fixture f;
        f.load(twoRankAllReduce());
        QCOMPARE(f.graph.stats.collectivesMatched, std::int64_t(1));
        QCOMPARE(f.edges(EdgeKind::Collective), 2);
        NodeId c0 = f.node(nccl, 0), c1 = f.node(nccl, 1);
        QCOMPARE(f.graph.nodes[c0].duration, us(60)); // transfer = end - latest arrival
        SimResult replay = simulate(f.graph);
        QCOMPARE(replay.nodes[c0].end, us(120));
        QCOMPARE(replay.nodes[c1].end, us(120));
        QCOMPARE(replay.ranks[0].errorPct(), 0.0);

        // Rank 1 becomes a straggler: rank 0 waits for it inside the collective.
        SimKnobs k;
        k.stragglerRank = 1;
        k.stragglerSlowdown = 2;
        SimResult slow = simulate(f.graph, k);
        QCOMPARE(slow.nodes[c1].start, us(110));
        QCOMPARE(slow.nodes[c0].end, us(170));
        QCOMPARE(f.graph.edges[slow.nodes[c0].endBoundBy].kind, EdgeKind::Collective);
        QCOMPARE(f.graph.edges[slow.nodes[c0].endBoundBy].from, c1);

        SimKnobs comm;
        comm.commSpeedup = 2;
        QCOMPARE(simulate(f.graph, comm).nodes[c0].end, us(90));
    }

    void collectiveMismatchAndMissingPeers() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1),
                       gpu("ncclKernel_AllReduce_RING_LL_Sum_float", 20, 100, 1, 20)},
                      0, 2),
                trace({cpu("cudaLaunchKernel", 10, 5, 1),
                       gpu("ncclKernel_AllGather_RING_LL_Sum_float", 20, 90, 1, 20)},
                      1, 2)});
        QCOMPARE(f.graph.stats.collectivesMatched, std::int64_t(0));
        QVERIFY(f.hasWarning(Warn::CollectiveUnmatched));
        QCOMPARE(simulate(f.graph).ranks[1].simulated(), simulate(f.graph).ranks[1].measured());

        Fixture lone;
        lone.load({trace({cpu("cudaLaunchKernel", 10, 5, 1),
                          gpu("ncclKernel_AllReduce_RING_LL_Sum_float", 20, 100, 1, 20)},
                         0, 4)});
        QVERIFY(lone.hasWarning(Warn::CollectivePeersMissing));
        QCOMPARE(lone.graph.nodes[lone.node("ncclKernel_AllReduce_RING_LL_Sum_float")].duration, us(100));
    }

    // all_to_allv sends different amounts from each rank: still one collective. An all-reduce whose
    // sizes differ is not.
    void uneven_data() {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("collective");
        QTest::addColumn<bool>("matched");
        QTest::newRow("all_to_allv") << "ncclDevKernel_SendRecv(ncclDevComm*)"
                                     << "all_to_allv" << true;
        QTest::newRow("allreduce") << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"
                                   << "allreduce" << false;
    }
    void uneven() {
        QFETCH(QString, kernel);
        QFETCH(QString, collective);
        QFETCH(bool, matched);
        auto coll = [&](int nelems) {
            return QString(R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":20,"ts":20,"dur":100,)"
                           R"("args":{"correlation":1,"stream":20,"device":0,"Collective name":"%2",)"
                           R"("In msg nelems":%3,"Out msg nelems":%3,"Group size":2,"dtype":"Float",)"
                           R"("Process Group Name":"0","Process Group Ranks":"[0, 1]"}})")
                .arg(kernel, collective)
                .arg(nelems);
        };
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), coll(1000)}, 0, 2),
                trace({cpu("cudaLaunchKernel", 10, 5, 1), coll(3000)}, 1, 2)});
        QCOMPARE(f.graph.stats.collectivesMatched, std::int64_t(matched ? 1 : 0));
        QCOMPARE(f.hasWarning(Warn::CollectiveUnmatched), !matched);
        if (matched) QCOMPARE(f.graph.collectives.front().bytes, std::int64_t(3000 * 4));
    }

    void repairsInconsistentTraces() {
        Fixture f; // a kernel before its launch, and two overlapping kernels on one stream
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), cpu("cudaLaunchKernel", 20, 5, 2),
                       gpu("k1", 5, 50, 1), gpu("k2", 40, 30, 2)})});
        QVERIFY(f.hasWarning(Warn::LaunchLatencyClamped));
        QVERIFY(f.hasWarning(Warn::OverlapSerialized));
        SimResult r = simulate(f.graph);
        QVERIFY(r.complete);
        QVERIFY(r.nodes[f.node("k2")].end >= r.nodes[f.node("k1")].end);
    }

    void stepWindow() {
        Fixture f;
        GraphOptions opt;
        opt.step = 3;
        f.load(
            {trace({cpu("ProfilerStep#2", 0, 40, -1, 1, "user_annotation"), cpu("cudaLaunchKernel", 10, 5, 1),
                    cpu("ProfilerStep#3", 40, 40, -1, 1, "user_annotation"),
                    cpu("cudaLaunchKernel", 50, 5, 2), gpu("k1", 20, 30, 1), gpu("k2", 60, 30, 2)})},
            opt);
        QCOMPARE(f.graph.nodes.size(), std::size_t(2));
        QVERIFY(f.graph.ranks[0].hasStep);
        QCOMPARE(f.graph.ranks[0].measuredEnd - f.graph.ranks[0].measuredStart, us(50));
        SimResult r = simulate(f.graph);
        QCOMPARE(r.ranks[0].measured(), us(40)); // the launch at 50 to k2's end at 90
        QCOMPARE(r.ranks[0].simulated(), us(40));
        QCOMPARE(r.timeline.track(0, 0).start[0], TimeNs(-1)); // ProfilerStep#2: outside the window

        opt.step = 7;
        QVERIFY_THROWS_EXCEPTION(GraphError, buildExecutionGraph(f.set, opt));
        // The error names the file it concerns as a field, not only inside its text.
        try {
            buildExecutionGraph(f.set, opt);
        } catch (const GraphError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(f.set.ranks[0].sourcePath));
            QCOMPARE(QString::fromStdString(e.message()),
                     QString("ProfilerStep#7 not found (the trace has no such step)"));
            QCOMPARE(QString(e.what()), QString::fromStdString(e.file() + ": " + e.message()));
        }
    }

    void validationRejectsCyclesAndNegativeDelays() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), gpu("k1", 20, 30, 1)})});
        f.graph.validate();
        ExecutionGraph g = f.graph;
        g.edges.push_back({f.node("k1"), f.node("cudaLaunchKernel"), EdgeKind::ThreadOrder, false, 0});
        g.buildAdjacency();
        QVERIFY_THROWS_EXCEPTION(GraphError, g.validate());
        ExecutionGraph h = f.graph;
        h.edges[0].delay = -5;
        QVERIFY_THROWS_EXCEPTION(GraphError, h.validate());
    }
};

QTEST_GUILESS_MAIN(TestExecutionGraph)
#include "test_ExecutionGraph.moc"
