// Replay of real traces: per-rank iteration error, kernel start error, collective matching, and
// the simulated timeline the GUI draws. Measured iteration times were checked independently with
// a Python script over the raw JSON (first start to last end of the runtime / driver calls and GPU
// ops: the events the graph models).
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace sl;

class TestSimulator : public QObject {
    Q_OBJECT
private slots:
    void replayRealTraces_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("rankIndex");
        QTest::addColumn<double>("measuredUs"); // -1: not checked
        // Kernel start error p90 bound, in percent of the iteration (pre-window ops excluded).
        // Starts come from causes, so these can fail. On the sampled trace the GPU streams wait
        // for work that was sampled out of the file: those waits are unexplained GPU waits, kept
        // as measured on the ops' launch edges and reported (unexplained_gpu_wait_us).
        QTest::addColumn<double>("p90Pct");
        QTest::newRow("dlrm rank 0") << "dlrm-8rank-v100/kineto" << 0 << 13394.0 << 0.5;
        QTest::newRow("dlrm rank 1") << "dlrm-8rank-v100/kineto" << 1 << 18913.0 << 0.5;
        QTest::newRow("cuda-sync multistream")
            << "single-rank/a100-cuda-sync-multistream.json.gz" << 0 << 19897.0 << 0.5;
        QTest::newRow("rtx2080ti linear") << "single-rank/rtx2080ti-linear.json.gz" << 0 << 1995459.0 << 0.5;
        QTest::newRow("a100 nccl metadata")
            << "single-rank/a100-nccl-metadata-rank0of2.json.gz" << 0 << -1.0 << 0.5;
        QTest::newRow("a100 simple add") << "single-rank/a100-simple-add.json.gz" << 0 << -1.0 << 0.5;
        QTest::newRow("h100 before fix") << "single-rank/h100-cuda-sync-before-fix.json" << 0 << -1.0 << 0.5;
        QTest::newRow("h100 after fix") << "single-rank/h100-cuda-sync-after-fix.json" << 0 << -1.0 << 0.5;
        QTest::newRow("sampled 2 of 128") << "sampled-2of128" << 1 << -1.0 << 0.5;
    }
    void replayRealTraces() {
        SL_REQUIRE_TRACES();
        QFETCH(QString, path);
        QFETCH(int, rankIndex);
        QFETCH(double, measuredUs);
        QFETCH(double, p90Pct);
        TraceSet set = loadTraceSet({sltest::tracePath(qPrintable(path))});
        ExecutionGraph g = buildExecutionGraph(set);
        SimResult r = simulate(g);
        QVERIFY(r.complete);
        for (const auto& s : r.ranks)
            QVERIFY2(s.errorPct() < 1.0 && s.gpuSpanErrorPct() < 1.0,
                     qPrintable(
                         QString("iteration %1%, GPU span %2%").arg(s.errorPct()).arg(s.gpuSpanErrorPct())));
        QVERIFY2(r.kernelStartError.within1PctShare > 0.95,
                 qPrintable(QString::number(r.kernelStartError.within1PctShare)));
        if (measuredUs >= 0)
            QCOMPARE(nsToUs(r.ranks[static_cast<std::size_t>(rankIndex)].measured()), measuredUs);
        QVERIFY2(r.kernelStartError.p90Us * 1000.0 <
                     p90Pct / 100.0 * static_cast<double>(r.measuredIteration),
                 qPrintable(QString::number(r.kernelStartError.p90Us)));
        // Every node got a time, and the timeline is aligned with the event columns.
        for (const auto& nt : r.nodes)
            QVERIFY(nt.start >= 0 && nt.end >= nt.start);
        for (std::size_t ri = 0; ri < set.ranks.size(); ++ri)
            for (std::size_t ti = 0; ti < set.ranks[ri].tracks.size(); ++ti)
                QCOMPARE(r.timeline.track(ri, ti).start.size(), set.ranks[ri].tracks[ti].events.size());
    }

    void dlrmCollectivesAndStep() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        ExecutionGraph g = buildExecutionGraph(set);
        QCOMPARE(g.stats.collectivesMatched, std::int64_t(8)); // 5 SendRecv + 3 AllReduce per rank
        QCOMPARE(g.stats.edgesByKind[static_cast<int>(EdgeKind::Collective)], std::int64_t(8 * 8 * 7));
        for (const auto& c : g.collectives)
            QCOMPARE(c.members.size(), std::size_t(8));

        GraphOptions opt;
        opt.step = 10;
        ExecutionGraph step = buildExecutionGraph(set, opt);
        SimResult r = simulate(step);
        for (const auto& s : r.ranks)
            QVERIFY(s.errorPct() < 1.0);
        // ProfilerStep#10 on rank 0 lasts 14455 us; its modelled nodes (calls in the step, the GPU
        // ops they launch) span 13231 us.
        QCOMPARE(nsToUs(r.ranks[0].measured()), 13231.0);

        // What-if: faster compute never makes the iteration slower; a straggler does.
        SimKnobs fast;
        fast.computeSpeedup = 2;
        SimKnobs slow;
        slow.stragglerRank = 3;
        slow.stragglerSlowdown = 1.5;
        SimResult base = simulate(g);
        // DLRM at this batch size is host-bound (kernels of a few us, the GPU mostly idle): a
        // faster GPU cannot shorten it, a faster host can.
        QVERIFY(simulate(g, fast).simulatedIteration <= base.simulatedIteration);
        QVERIFY(simulate(g, slow).simulatedIteration > base.simulatedIteration);
        SimKnobs host;
        host.cpuSpeedup = 2;
        QVERIFY(static_cast<double>(simulate(g, host).simulatedIteration) <
                0.95 * static_cast<double>(base.simulatedIteration));
    }

    // The 44 cudaStreamWaitEvent per DLRM rank carry no ids and their cudaEventRecord is not
    // traced: pairing them with the ops they wait for is what brings the replay under 1%. Without
    // it, timing inference has to find the NCCL <-> compute stream waits on its own.
    void dlrmEventWaitsMatter() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        ExecutionGraph g = buildExecutionGraph(set);
        QVERIFY(g.stats.waitEventEdges >= 8 * 30);
        SimResult r = simulate(g);
        GraphOptions noWaits;
        noWaits.inferEventWaits = false;
        ExecutionGraph h = buildExecutionGraph(set, noWaits);
        SimResult rh = simulate(h);
        double worstWith = 0, worstWithout = 0;
        for (std::size_t i = 0; i < r.ranks.size(); ++i) {
            worstWith = std::max(worstWith, r.ranks[i].errorPct());
            worstWithout = std::max(worstWithout, rh.ranks[i].errorPct());
        }
        QVERIFY2(worstWith < 0.5, qPrintable(QString::number(worstWith)));
        // Without the pairing, timing inference (with the window calibrated per rank) recovers
        // most waits, but fewer: more kernels start off their measured time.
        QVERIFY(h.stats.inferredCrossStream > g.stats.inferredCrossStream);
        QVERIFY2(
            r.kernelStartError.p90Us <= rh.kernelStartError.p90Us,
            qPrintable(QString("%1 vs %2").arg(r.kernelStartError.p90Us).arg(rh.kernelStartError.p90Us)));
        QVERIFY2(worstWithout < 1.0, qPrintable(QString::number(worstWithout)));
    }

    void knobsParse() {
        SimKnobs k;
        QVERIFY(k.isReplay());
        setKnobAssignment(k, "compute.speedup=2");
        setKnobAssignment(k, "kernel.speedup[gemm]=1.5");
        setKnobAssignment(k, "comm.overlap=false");
        QCOMPARE(k.computeSpeedup, 2.0);
        QCOMPARE(k.kernelSpeedup.size(), std::size_t(1));
        QVERIFY(!k.commOverlap);
        QVERIFY(!k.isReplay());
        applyKnobsJson(k, nlohmann::json::parse(R"({"cpu": {"speedup": 3}, "straggler.rank": 2})"));
        QCOMPARE(k.cpuSpeedup, 3.0);
        QCOMPARE(k.stragglerRank, 2);
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "compute.speedup=0"));
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "no.such=1"));
        try {
            setKnobAssignment(k, "no.such=1");
        } catch (const KnobError& e) { // the message lists the valid keys
            QVERIFY(std::string(e.what()).find("valid keys: compute.speedup") != std::string::npos);
            QVERIFY(std::string(e.what()).find("dp.scale") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "kernel.speedup[(]=2"));
    }

    void cancellation() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        ExecutionGraph g = buildExecutionGraph(set);
        std::atomic<bool> cancel{true};
        SimOptions opt;
        opt.cancel = &cancel;
        QVERIFY(!simulate(g, {}, opt).complete);
    }

    // The setup before the schedule checks the flag too (docs/ARCHITECTURE.md, "GUI": closing the
    // window mid-run): the sample grown to dp.degree=4096 (2.2 M nodes; the setup edits, the
    // layout and the scheduler's 100 MB of per-node state take about 0.15 s) stops before its
    // layout when the flag is up, and a flag raised while the run sets up stops it soon after.
    void cancellationInTheSetup() {
        TraceSet set = loadTraceSet({sltest::samplePath("02-dp4")});
        ExecutionGraph g = buildExecutionGraph(set);
        SimKnobs k;
        setKnobAssignment(k, "dp.degree=4096");
        std::atomic<bool> cancel{true};
        SimOptions opt;
        opt.cancel = &cancel;
        const SimResult stopped = simulate(g, k, opt);
        QVERIFY(!stopped.complete);
        QVERIFY(stopped.addedRanks.empty()); // stopped before the job's layout
        // Raised 10 ms into a run: how long the run goes on after it (qInfo; under a second).
        cancel = false;
        std::chrono::steady_clock::time_point raised;
        std::thread raiser([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            raised = std::chrono::steady_clock::now();
            cancel = true;
        });
        const SimResult late = simulate(g, k, opt);
        const auto returned = std::chrono::steady_clock::now();
        raiser.join();
        QVERIFY(!late.complete);
        const double ms = std::chrono::duration<double, std::milli>(returned - raised).count();
        qInfo("dp.degree=4096: returned %.1f ms after the cancel flag was raised", ms);
        QVERIFY2(ms < 1000, qPrintable(QString::number(ms)));
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "test_Simulator.moc"
