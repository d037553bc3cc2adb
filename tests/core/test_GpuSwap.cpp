// gpu.target (sim/GpuSwap.h): oracle pairs from the generator, the same job (same seed, so the same
// random draws) on A100 and on H100, recorded with shapes. The A100 trace predicts the H100 run;
// replaying it without the knob must miss that run (so an ignored knob fails), the target equal to
// the source reproduces the replay exactly, a host-bound job stays nearly unchanged as it does on
// the real H100 run, and unknown devices and names give warnings and errors, not crashes.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "report/HtmlReport.h"
#include "report/SimulationReport.h"
#include "sim/GpuSwap.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <cmath>
#include <memory>

using namespace sl;
using namespace sl::synth;
using slsynth::errPct;
using slsynth::generateAndLoad;
using slsynth::Loaded;

namespace {

// The synthetic GPUs' link: the generator's per-GPU bus bandwidth, set to half of each datasheet's
// bidirectional NVLink figure (A100 600 GB/s, H100 900 GB/s), so the pair differs in the link too.
SynthConfig onGpu(SynthConfig c, const char* gpu) {
    c.gpu = gpu;
    c.intraNodeGBps = std::string(gpu) == "a100" ? 300 : 450;
    return c;
}

// GPU-bound: two layers of a 4096-wide transformer, sequence 2048, four GPUs of one node.
SynthConfig gpuBound() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 4096;
    c.heads = 32;
    c.seq = 2048;
    c.vocab = 32000;
    c.dp = 4;
    c.recordShapes = true;
    return c;
}

// Host-bound: kernels far shorter than the host's launch path.
SynthConfig hostBound() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 256;
    c.heads = 4;
    c.seq = 128;
    c.vocab = 1024;
    c.dp = 4;
    c.recordShapes = true;
    return c;
}

SimKnobs target(const char* name) {
    SimKnobs k;
    setKnob(k, "gpu.target", name);
    return k;
}

bool hasWarning(const SimResult& r, Warn kind) {
    return r.warnings.has(kind);
}

} // namespace

class TestGpuSwap : public QObject {
    Q_OBJECT

    std::unique_ptr<Loaded> a100_, h100_;

private slots:
    void initTestCase() {
        a100_ = generateAndLoad(onGpu(gpuBound(), "a100"));
        h100_ = generateAndLoad(onGpu(gpuBound(), "h100"));
    }

    void predictsTheH100RunFromTheA100Trace() {
        const SimResult replay = simulate(a100_->graph, {}, {false});
        const SimResult h100 = simulate(h100_->graph, {}, {false});
        const SimResult pred = simulate(a100_->graph, target("H100"), {false});
        QVERIFY(pred.gpuSwap && pred.gpuSwap->active());
        QCOMPARE(pred.gpuSwap->source->name, std::string("A100-80GB"));
        QCOMPARE(pred.gpuSwap->target->name, std::string("H100-SXM"));
        const double measured = static_cast<double>(h100.measuredIteration);
        const double ignored = errPct(static_cast<double>(replay.simulatedIteration), measured);
        const double err = errPct(static_cast<double>(pred.simulatedIteration), measured);
        qInfo("A100 replay %.0f us, H100 measured %.0f us, predicted %.0f us: error %.2f%% (knob ignored: "
              "%.1f%%)",
              static_cast<double>(replay.simulatedIteration) / 1000.0, measured / 1000.0,
              static_cast<double>(pred.simulatedIteration) / 1000.0, err, ignored);
        QVERIFY2(ignored > 20.0, "the pair must differ, or the test cannot fail");
        QVERIFY2(err < 3.0, qPrintable(QString("iteration error %1%").arg(err)));
        // Every rank, not only the slowest.
        for (std::size_t r = 0; r < pred.ranks.size(); ++r) {
            const double e = errPct(static_cast<double>(pred.ranks[r].simulated()),
                                    static_cast<double>(h100.ranks[r].measured()));
            QVERIFY2(e < 3.0, qPrintable(QString("rank %1: %2%").arg(r).arg(e)));
        }
        // GEMMs have their shapes in this trace (AdamW's TensorList has none).
        const auto& gemm = pred.gpuSwap->classes[static_cast<std::size_t>(KernelClass::Gemm)];
        QVERIFY(gemm.kernels > 0 && gemm.withShapes == gemm.kernels);
        // GEMMs are compute-bound: their speedup is the BF16 peak ratio 989.4 / 312 = 3.17.
        QVERIFY2(std::abs(gemm.speedup() - 989.4 / 312.0) < 0.05,
                 qPrintable(QString::number(gemm.speedup())));
        // simulate --json / report carry it: the per-class table and the HTML section.
        const nlohmann::json j = simulationResultJson(a100_->graph, pred, target("H100"));
        QCOMPARE(j["gpu_swap"]["target"].get<std::string>(), std::string("H100-SXM"));
        QCOMPARE(j["gpu_swap"]["link_ratio"].get<double>(), 1.5); // NVLink 900 / 600 GB/s
        bool gemmRow = false;
        for (const auto& r : j["gpu_swap"]["by_class"])
            gemmRow = gemmRow || (r["class"] == "gemm" && r["kernels"].get<std::int64_t>() == gemm.kernels);
        QVERIFY(gemmRow);
        Report report;
        report.numbers = j;
        const std::string html = htmlReport(report);
        QVERIFY(html.find("On another GPU: A100-80GB &rarr; H100-SXM") != std::string::npos);
        QVERIFY(!simulationResultJson(a100_->graph, replay, {}).contains("gpu_swap"));
    }

    void targetEqualToSourceIsTheReplay() {
        const SimResult replay = simulate(a100_->graph, {}, {false});
        const SimResult same = simulate(a100_->graph, target("A100-80GB"), {false});
        QVERIFY(same.gpuSwap);
        QCOMPARE(same.simulatedIteration, replay.simulatedIteration);
        QCOMPARE(same.nodes.size(), replay.nodes.size());
        for (std::size_t i = 0; i < same.nodes.size(); ++i) {
            QCOMPARE(same.nodes[i].start, replay.nodes[i].start);
            QCOMPARE(same.nodes[i].end, replay.nodes[i].end);
        }
    }

    void hostBoundRunStaysNearlyUnchanged() {
        auto a = generateAndLoad(onGpu(hostBound(), "a100"));
        auto h = generateAndLoad(onGpu(hostBound(), "h100"));
        const SimResult replay = simulate(a->graph, {}, {false});
        const SimResult h100 = simulate(h->graph, {}, {false});
        const SimResult pred = simulate(a->graph, target("H100"), {false});
        const double measured = static_cast<double>(h100.measuredIteration);
        const double change = errPct(static_cast<double>(pred.simulatedIteration),
                                     static_cast<double>(replay.simulatedIteration));
        const double err = errPct(static_cast<double>(pred.simulatedIteration), measured);
        qInfo("host-bound: A100 %.0f us, H100 measured %.0f us, predicted %.0f us (change %.2f%%, error "
              "%.2f%%)",
              static_cast<double>(replay.simulatedIteration) / 1000.0, measured / 1000.0,
              static_cast<double>(pred.simulatedIteration) / 1000.0, change, err);
        const double truth = errPct(measured, static_cast<double>(replay.simulatedIteration));
        QVERIFY2(truth < 5.0, qPrintable(QString("the job is not host-bound: H100 moved it %1%").arg(truth)));
        QVERIFY2(change < 5.0, qPrintable(QString("host-bound iteration moved %1%").arg(change)));
        QVERIFY2(err < 2.0, qPrintable(QString("error %1%").arg(err)));
    }

    void withoutShapesClassRatiosAndAWarning() {
        SynthConfig c = onGpu(gpuBound(), "a100");
        c.recordShapes = false;
        c.layers = 1;
        auto a = generateAndLoad(c);
        const SimResult pred = simulate(a->graph, target("H100"), {false});
        QVERIFY(pred.gpuSwap);
        QVERIFY(pred.gpuSwap->withoutShapes > 0);
        QVERIFY(hasWarning(pred, Warn::GpuTargetNoShapes));
        // Without shapes GEMMs take the matrix-peak ratio of BF16 (the default type): 989.4 / 312.
        const auto& gemm = pred.gpuSwap->classes[static_cast<std::size_t>(KernelClass::Gemm)];
        QCOMPARE(gemm.withShapes, std::int64_t(0));
        QVERIFY2(std::abs(gemm.speedup() - 989.4 / 312.0) < 0.05,
                 qPrintable(QString::number(gemm.speedup())));
    }

    void unknownDevicesAndNames() {
        SimKnobs k;
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnob(k, "gpu.target", "Z9000"));
        setKnob(k, "gpu.target", "B200");
        QCOMPARE(k.gpuTarget, std::string("B200"));
        QVERIFY(!k.isReplay());
        // A trace whose device is not in the table: a warning asking for gpu.source, nothing re-timed.
        TraceSet set;
        set.ranks.push_back(loadKinetoBytes(sltest::tinyRankTrace(0, 1).toStdString(), "tiny.json"));
        set.ranks[0].devices.push_back({0, "NVIDIA GeForce RTX 2080 Ti", 11'000'000'000, 7, 5, 68});
        ExecutionGraph g = buildExecutionGraph(set);
        const SimResult replay = simulate(g);
        const SimResult r = simulate(g, target("H100"));
        QVERIFY(!r.gpuSwap);
        QVERIFY(hasWarning(r, Warn::GpuTargetUnknown));
        QCOMPARE(r.simulatedIteration, replay.simulatedIteration);
        // Named by gpu.source, the 30 us kernel (no shapes: the memory-bandwidth ratio of an
        // unknown class, V100 900 GB/s -> H100 3350 GB/s) runs 30 x 900 / 3350 = 8.06 us.
        setKnob(k, "gpu.target", "H100");
        setKnob(k, "gpu.source", "V100");
        const SimResult named = simulate(g, k);
        QVERIFY(named.gpuSwap);
        TimeNs kernelTime = 0;
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            if (g.nodes[i].kind == NodeKind::GpuOp) kernelTime = named.nodes[i].end - named.nodes[i].start;
        QCOMPARE(kernelTime, TimeNs(std::llround(30000.0 * 900.0 / 3350.0)));
    }

    void planOnARealTrace() {
        SL_REQUIRE_TRACES();
        // DLRM on 8 V100s, with shapes: to H100 every GPU op gets a factor, host copies keep theirs.
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        ExecutionGraph g = buildExecutionGraph(set);
        GpuSwap s = planGpuSwap(g, "H100", "", KernelClassifier{});
        QCOMPARE(s.source->name, std::string("V100"));
        QCOMPARE(s.linkRatio, 3.0); // NVLink 900 / 300 GB/s
        std::int64_t faster = 0, ops = 0;
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            if (g.nodes[i].kind != NodeKind::GpuOp) continue;
            ++ops;
            QVERIFY(s.nodeFactor[i] > 0 && s.nodeFactor[i] <= 1.0);
            faster += s.nodeFactor[i] < 1.0 ? 1 : 0;
        }
        QVERIFY2(faster * 2 > ops, qPrintable(QString("%1 of %2 GPU ops faster").arg(faster).arg(ops)));
        const SimResult replay = simulate(g, {}, {false});
        const SimResult pred = simulate(g, target("H100"), {false});
        qInfo("DLRM V100 -> H100: %.0f -> %.0f us", static_cast<double>(replay.simulatedIteration) / 1000.0,
              static_cast<double>(pred.simulatedIteration) / 1000.0);
        QVERIFY(pred.simulatedIteration <= replay.simulatedIteration);
    }
};

QTEST_APPLESS_MAIN(TestGpuSwap)
#include "test_GpuSwap.moc"
