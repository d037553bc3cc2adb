// The host split in two (sim/CpuRegions.h, docs/ARCHITECTURE.md "Host work"): which CPU ops are CPU
// compute and which are launch and dispatch, the knobs' values and errors, a host.compute that finds
// no compute says so, and cpu.speedup[<regex>] below 1 slows its region down instead of being
// skipped. The oracle cases (a generated run on a slower or faster host) are in test_Oracle.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "report/SimulationReport.h"
#include "sim/CpuRegions.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

using namespace sl;
using namespace sl::synth;
using slsynth::generateAndLoad;

class TestHostWork : public QObject {
    Q_OBJECT

private slots:
    void computeOrDispatch_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("launches");
        QTest::addColumn<bool>("insideLaunchingOp");
        QTest::addColumn<bool>("compute");
        const int op = static_cast<int>(EventKind::CpuOp), py = static_cast<int>(EventKind::PythonFunction),
                  ann = static_cast<int>(EventKind::UserAnnotation);
        QTest::newRow("aten op on CPU tensors") << op << "aten::to" << false << false << true;
        QTest::newRow("aten op that launches") << op << "aten::addmm" << true << false << false;
        QTest::newRow("view inside linear") << op << "aten::t" << false << true << false;
        QTest::newRow("CPU op inside a launching op") << op << "aten::copy_" << false << true << false;
        QTest::newRow("a view alone is dispatch") << op << "aten::view" << false << false << false;
        QTest::newRow("allocation is dispatch") << op << "aten::empty" << false << false << false;
        QTest::newRow("numpy") << py << "<built-in function array>" << false << false << true;
        QTest::newRow("decode") << py << "decord/video_reader.py(201): get_batch" << false << false << true;
        QTest::newRow("framework python")
            << py << "torch/nn/modules/module.py(1527): _call_impl" << false << false << false;
        QTest::newRow("python that launches") << py << "model.py(12): forward" << true << false << false;
        QTest::newRow("data loader") << op << "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
                                     << true << false << true;
        QTest::newRow("user annotation without GPU work") << ann << "preprocess" << false << false << true;
        QTest::newRow("profiler step") << ann << "ProfilerStep#3" << false << false << false;
        QTest::newRow("optimizer annotation")
            << ann << "Optimizer.zero_grad#AdamW.zero_grad" << false << false << false;
    }
    void computeOrDispatch() {
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(bool, launches);
        QFETCH(bool, insideLaunchingOp);
        QFETCH(bool, compute);
        QCOMPARE(
            isHostComputeOp(static_cast<EventKind>(kind), name.toStdString(), launches, insideLaunchingOp),
            compute);
    }

    void knobValuesAndErrors() {
        SimKnobs k;
        setKnob(k, "host.compute", "0.5");
        setKnob(k, "host.dispatch", "1.2");
        QCOMPARE(k.hostCompute, 0.5);
        QCOMPARE(k.hostDispatch, 1.2);
        QVERIFY(!k.isReplay());
        QCOMPARE(k.toJson()["host.compute"].get<double>(), 0.5);
        for (const char* bad : {"0", "-1", "abc", ""})
            QVERIFY_THROWS_EXCEPTION(KnobError, setKnob(k, "host.compute", bad));
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnob(k, "host.dispatch", "0"));
        // cpu.speedup[<regex>] takes any factor above 0, slow-downs included.
        setKnob(k, "cpu.speedup[decode]", "0.5");
        QCOMPARE(k.cpuRegionSpeedup.back().second, 0.5);
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnob(k, "cpu.speedup[decode]", "0"));
    }

    // The generated job's only CPU compute is its in-process data loading: without it, host.compute
    // has nothing to act on and says so; with it, a slower host compute lengthens the step by the
    // loading's extra time.
    void computeFoundOrNamedAsMissing() {
        SynthConfig c;
        c.layers = 1;
        c.hidden = 1024;
        c.heads = 8;
        c.seq = 256;
        c.vocab = 4096;
        c.dp = 1;
        c.steps = 2;
        auto plain = generateAndLoad(c);
        SimKnobs k;
        setKnob(k, "host.compute", "0.5");
        const SimResult r = simulate(plain->graph, k, {false});
        QVERIFY(r.warnings.has(Warn::HostComputeNone));
        const SimResult replay = simulate(plain->graph, {}, {false});
        QCOMPARE(r.simulatedIteration, replay.simulatedIteration);

        c.dataLoaderUs = 2000;
        auto loading = generateAndLoad(c);
        const SimResult base = simulate(loading->graph, {}, {false});
        const SimResult slow = simulate(loading->graph, k, {false});
        QVERIFY(!slow.warnings.has(Warn::HostComputeNone));
        // The second step's 2 ms of loading lies inside the window: 2 ms more at half the speed.
        const double extra = static_cast<double>(slow.simulatedIteration - base.simulatedIteration) / 1000.0;
        QVERIFY2(extra > 1800 && extra < 2300, qPrintable(QString("%1 us more").arg(extra)));
        // The same slow-down named by a regex.
        SimKnobs byName;
        setKnob(byName, "cpu.speedup[DataLoader]", "0.5");
        const SimResult named = simulate(loading->graph, byName, {false});
        QCOMPARE(named.simulatedIteration, slow.simulatedIteration);
    }

    // gpu.target swaps the GPU, not the server: on a host-bound job the result names the share of
    // the critical path that is host work kept as traced, and stops naming it once the host knobs
    // describe the target's CPU.
    void gpuTargetNamesTheHostItKeeps() {
        SynthConfig c;
        c.layers = 2;
        c.hidden = 256;
        c.heads = 4;
        c.seq = 128;
        c.vocab = 1024;
        c.dp = 1;
        c.recordShapes = true;
        auto job = generateAndLoad(c);
        const SimResult replay = simulate(job->graph, {}, {false});
        SimKnobs k;
        setKnob(k, "gpu.target", "MI300X");
        const SimResult pred = simulate(job->graph, k, {false});
        const nlohmann::json j = simulationResultJson(job->graph, pred, k, &replay);
        const double share = j["gpu_swap"]["host_share_of_critical_path_pct"].get<double>();
        QVERIFY2(share > 50.0, qPrintable(QString::number(share)));
        QCOMPARE(j["gpu_swap"]["host_knobs_set"].get<bool>(), false);
        QVERIFY(j["warning_stats"].dump().find("gpu_target_host_as_traced") != std::string::npos);
        setKnob(k, "host.dispatch", "1.2");
        const SimResult withHost = simulate(job->graph, k, {false});
        const nlohmann::json j2 = simulationResultJson(job->graph, withHost, k, &replay);
        QCOMPARE(j2["gpu_swap"]["host_knobs_set"].get<bool>(), true);
        QVERIFY(j2["warning_stats"].dump().find("gpu_target_host_as_traced") == std::string::npos);
        QVERIFY(withHost.simulatedIteration < pred.simulatedIteration); // a faster launch path
    }
};

QTEST_APPLESS_MAIN(TestHostWork)
#include "test_HostWork.moc"
