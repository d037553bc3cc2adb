// A prediction held against the run that was made (analysis/PredictionCheck.h): a generated job
// (A) and the job after one physical change (B). A simulated with the knob that stands for the change
// must land close to B's measured iteration, per rank, per class and per kernel; A with the knob left
// out must miss B by much more, and the worst-predicted kernels come first.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "analysis/PredictionCheck.h"
#include "analysis/RunComparison.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace sl;
using namespace sl::synth;
using slsynth::generateAndLoad;

namespace {

SynthConfig job() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 2048;
    c.heads = 16;
    c.seq = 1024;
    c.vocab = 8192;
    c.dp = 4;
    return c;
}

PredictionCheck predict(const slsynth::Loaded& a, const slsynth::Loaded& b,
                        const std::vector<std::string>& knobs) {
    SimKnobs k;
    for (const auto& kv : knobs)
        setKnobAssignment(k, kv);
    const RunComparison cmp = compareRuns(a.graph, b.graph);
    const SimResult res = simulate(a.graph, k);
    return checkPrediction(cmp, a.graph, res, b.graph);
}

const PredictedRow* classRow(const PredictionCheck& p, const std::string& key) {
    for (const auto& r : p.byClass)
        if (r.key == key) return &r;
    return nullptr;
}

} // namespace

class TestPredictionCheck : public QObject {
    Q_OBJECT

private slots:
    void fasterGpuWithAndWithoutTheKnob() {
        auto a = generateAndLoad(job());
        SynthConfig cb = job();
        cb.gpuSpeedup = 2;
        auto b = generateAndLoad(cb);
        const PredictionCheck with = predict(*a, *b, {"compute.speedup=2"});
        const PredictionCheck without = predict(*a, *b, {});
        QVERIFY2(with.iterationErrorPct() < 1.0, qPrintable(QString::number(with.iterationErrorPct())));
        QVERIFY2(with.worstRankErrorPct() < 1.0, qPrintable(QString::number(with.worstRankErrorPct())));
        QVERIFY2(without.iterationErrorPct() > 15.0,
                 qPrintable(QString::number(without.iterationErrorPct())));
        QCOMPARE(with.ranks.size(), std::size_t{4});
        for (const char* cls : {"gemm", "elementwise"}) {
            const PredictedRow* r = classRow(with, cls);
            QVERIFY2(r && r->errorPct() < 1.0, cls);
            QVERIFY(std::abs(r->unchangedErrorPct() - 100.0) < 1.0); // before is twice the actual
            QVERIFY(classRow(without, cls)->errorPct() > 90.0);
        }
        // Every aligned kernel is predicted within 1%; without the knob the GEMMs are the worst.
        QVERIFY(!with.byKernel.empty());
        for (const auto& r : with.byKernel)
            if (r.key.find("nccl") == std::string::npos) QVERIFY2(r.errorPct() < 1.0, r.key.c_str());
        QVERIFY(without.byKernel.front().errorPct() > 50.0);
        for (std::size_t i = 1; i < without.byKernel.size(); ++i)
            QVERIFY(std::llabs(without.byKernel[i - 1].error()) >= std::llabs(without.byKernel[i].error()));
    }

    void stragglerWithAndWithoutTheKnob() {
        auto a = generateAndLoad(job());
        SynthConfig cb = job();
        cb.stragglerRank = 2;
        cb.stragglerSlowdown = 1.5;
        auto b = generateAndLoad(cb);
        const PredictionCheck with = predict(*a, *b, {"straggler.rank=2", "straggler.slowdown=1.5"});
        const PredictionCheck without = predict(*a, *b, {});
        QVERIFY2(with.worstRankErrorPct() < 3.0, qPrintable(QString::number(with.worstRankErrorPct())));
        QVERIFY2(without.worstRankErrorPct() > 10.0,
                 qPrintable(QString::number(without.worstRankErrorPct())));
        QVERIFY(with.iterationErrorPct() < without.iterationErrorPct() / 4);
    }

    // More layers through the setup edit model.layers: the added ops count in their class.
    void moreLayersCountsAddedOpsInTheirClass() {
        auto a = generateAndLoad(job());
        SynthConfig cb = job();
        cb.layers = 3;
        auto b = generateAndLoad(cb);
        const PredictionCheck with = predict(*a, *b, {"model.layers=3"});
        const PredictionCheck without = predict(*a, *b, {});
        QVERIFY2(
            with.iterationErrorPct() < without.iterationErrorPct() / 2,
            qPrintable(QString("%1 vs %2").arg(with.iterationErrorPct()).arg(without.iterationErrorPct())));
        const PredictedRow* gemm = classRow(with, "gemm");
        QVERIFY(gemm && gemm->predicted > gemm->before);
        QVERIFY2(gemm->errorPct() < 5.0, qPrintable(QString::number(gemm->errorPct())));
        // Per kernel too: the clones count under their source kernel's name.
        const PredictedRow& worst = with.byKernel.front();
        QVERIFY2(worst.errorPct() < 5.0,
                 qPrintable(QString::fromStdString(worst.key) + " " + QString::number(worst.errorPct())));
        QVERIFY(without.byKernel.front().errorPct() > 15.0);
    }
};

QTEST_GUILESS_MAIN(TestPredictionCheck)
#include "test_PredictionCheck.moc"
