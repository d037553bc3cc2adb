// The charts dock's roofline tab (ui/panels/RooflineChart.h): a generated A100 job recorded with
// shapes puts its kernels under the A100's roofs, no point above the datasheet peaks; a trace with
// no known GPU says how to name it.
#include "TestSupport.h"

#include "KernelRoofline.h"
#include "RooflineChart.h"
#include "io/KinetoLoader.h"
#include "synth/Generator.h"

#include <QChart>
#include <QScatterSeries>

using namespace sl;

class TestRooflineChart : public QObject {
    Q_OBJECT

private slots:
    void kernelsUnderTheRoofs() {
        synth::SynthConfig c;
        c.gpu = "a100";
        c.layers = 1;
        c.hidden = 1024;
        c.heads = 8;
        c.seq = 512;
        c.vocab = 4096;
        c.dp = 2;
        c.recordShapes = true;
        QTemporaryDir dir;
        synth::generate(c, dir.path().toStdString(), 1);
        auto set = std::make_shared<const TraceSet>(loadTraceSet({dir.path().toStdString()}));
        ui::RooflineChart chart;
        chart.setTraceSet(set);
        chart.rebuild();
        QVERIFY2(chart.note().contains("A100-80GB"), qPrintable(chart.note()));
        QVERIFY(chart.kernels());
        QVERIFY(chart.kernels()->count() > 5);
        // A100 datasheet: 312 TFLOP/s BF16 dense, 2039 GB/s: no kernel beats the roof at its intensity.
        for (const QPointF& p : chart.kernels()->points())
            QVERIFY2(p.y() <= std::min(312.0, p.x() * 2.039) * 1.0001,
                     qPrintable(QString("%1, %2").arg(p.x()).arg(p.y())));
        chart.setTraceSet(nullptr);
        chart.rebuild();
        QVERIFY(!chart.kernels());
        // The details panel's figures for one GEMM kernel: its op, FLOPs, intensity, the bound.
        ui::KernelRoofline details;
        const Rank& rank = set->ranks[0];
        QString gemm, cpuCall;
        for (std::uint32_t t = 0; t < rank.tracks.size() && gemm.isEmpty(); ++t)
            for (std::uint32_t i = 0; i < rank.tracks[t].events.size(); ++i) {
                const std::string_view name = rank.name({t, i});
                if (rank.tracks[t].isGpu() && name.find("gemm") != std::string_view::npos) {
                    gemm = details.html(*set, 0, {t, i});
                    break;
                }
                if (!rank.tracks[t].isGpu() && cpuCall.isNull()) cpuCall = details.html(*set, 0, {t, i});
            }
        QVERIFY2(gemm.contains("aten::addmm") || gemm.contains("aten::mm"), qPrintable(gemm));
        QVERIFY2(gemm.contains("GFLOP") && gemm.contains("compute"), qPrintable(gemm));
        QVERIFY(cpuCall.isEmpty()); // CPU events get nothing
    }

    void unknownGpu() {
        auto set = std::make_shared<TraceSet>();
        set->ranks.push_back(loadKinetoBytes(sltest::tinyRankTrace(0, 1).toStdString(), "tiny.json"));
        ui::RooflineChart chart;
        chart.setTraceSet(set);
        chart.rebuild();
        QVERIFY2(chart.note().contains("gpu.source=NAME"), qPrintable(chart.note()));
        QVERIFY(!chart.kernels());
    }
};

QTEST_MAIN(TestRooflineChart)
#include "test_RooflineChart.moc"
