// The data-loader model (sim/DataLoaderModel.h): worker processes share the machine's cores with
// the main thread, and the main thread keeps its per-batch pin-memory work. Oracle tests: a job
// generated with in-process loading (A) and again with four workers on K cores (B); B predicted from
// A with data.workers=4 data.cores=K within 2%, while a model that ignores the cores, or the main
// thread's work, misses B by more than 2%.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "sim/DataLoaderModel.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace sl;
using namespace sl::synth;
using slsynth::errPct;
using slsynth::generateAndLoad;

namespace {

constexpr double kTolerancePct = 2.0;

// Two steps of a two-layer 4096-wide transformer on four H100s (the rest of a step: about 22 ms),
// each step loading a batch for `loadUs` and pinning it for `pinUs` on the main thread.
SynthConfig loading(double loadUs, double pinUs) {
    SynthConfig c;
    c.layers = 2;
    c.dp = 4;
    c.steps = 2;
    c.dataLoaderUs = loadUs;
    c.dataMainUs = pinUs;
    return c;
}

SimResult predict(const slsynth::Loaded& a, const std::vector<std::string>& knobs) {
    SimKnobs k;
    for (const auto& s : knobs)
        setKnobAssignment(k, s);
    return simulate(a.graph, k);
}

// The worst error of a prediction against B's measured iteration and per-rank iterations.
double worstError(const SimResult& pred, const slsynth::Loaded& b) {
    const SimResult truth = simulate(b.graph, SimKnobs{});
    double worst =
        errPct(static_cast<double>(pred.simulatedIteration), static_cast<double>(truth.measuredIteration));
    for (std::size_t r = 0; r < pred.ranks.size() && r < truth.ranks.size(); ++r)
        worst = std::max(worst, errPct(static_cast<double>(pred.ranks[r].simulated()),
                                       static_cast<double>(truth.ranks[r].measured())));
    return worst;
}

} // namespace

class TestDataLoaderModel : public QObject {
    Q_OBJECT
private slots:
    // N workers and the main thread on K cores: N while they fit, N x K / (N + 1) beyond.
    void workersShareTheCores() {
        QCOMPARE(workerParallelism(4, 0), 4.0);
        QCOMPARE(workerParallelism(4, 5), 4.0);
        QCOMPARE(workerParallelism(4, 64), 4.0);
        QCOMPARE(workerParallelism(4, 2), 1.6);
        QCOMPARE(workerParallelism(4, 1), 0.8);
        QCOMPARE(workerParallelism(0, 8), 0.0);
        QVERIFY(isMainProcessDataWorkName("aten::pin_memory"));
        QVERIFY(isMainProcessDataWorkName("torch/utils/data/_utils/collate.py(141): default_collate"));
        QVERIFY(isMainProcessDataWorkName("aten::stack"));
        QVERIFY(!isMainProcessDataWorkName("aten::div"));
    }

    // 60 ms of loading per batch on four workers that share 2 cores with the main thread: the pool
    // makes a batch every 37.5 ms, longer than the rest of the step plus the 5 ms of pinning, so
    // the step follows the pool. On free cores (data.cores ignored) a batch would come every 15 ms.
    // A model that does not see the pinning (the same trace with the pin time counted as loading)
    // divides it among the workers too, and misses by the 5 ms / 1.6 it adds to every batch.
    void poolOnSharedCoresPredictsTheWorkerRun() {
        auto a = generateAndLoad(loading(60000, 5000));
        SynthConfig bc = loading(60000, 5000);
        bc.dataWorkers = 4;
        bc.dataCores = 2;
        auto b = generateAndLoad(bc);
        const double err = worstError(predict(*a, {"data.workers=4", "data.cores=2"}), *b);
        QVERIFY2(err < kTolerancePct, qPrintable(QString("worst error %1%").arg(err)));
        const double freeCores = worstError(predict(*a, {"data.workers=4"}), *b);
        QVERIFY2(freeCores > kTolerancePct, qPrintable(QString("cores ignored: %1%").arg(freeCores)));
        auto blind = generateAndLoad(loading(65000, 0));
        const double noMainWork = worstError(predict(*blind, {"data.workers=4", "data.cores=2"}), *b);
        QVERIFY2(noMainWork > kTolerancePct, qPrintable(QString("main work ignored: %1%").arg(noMainWork)));
        QVERIFY2(noMainWork > 2 * err, qPrintable(QString("%1% vs %2%").arg(noMainWork).arg(err)));
        qInfo("shared cores: worst error %.2f%%; cores ignored %.2f%%; main work ignored %.2f%%", err,
              freeCores, noMainWork);
    }

    // 3 ms of loading on four workers with free cores keep pace (a batch every 0.75 ms); the step is
    // the rest plus the 2 ms the main thread still pins per batch. Without the pinning in view the
    // whole 5 ms would vanish.
    void mainThreadKeepsItsPinWork() {
        auto a = generateAndLoad(loading(3000, 2000));
        SynthConfig bc = loading(3000, 2000);
        bc.dataWorkers = 4;
        auto b = generateAndLoad(bc);
        const double err = worstError(predict(*a, {"data.workers=4", "data.cores=64"}), *b);
        QVERIFY2(err < kTolerancePct, qPrintable(QString("worst error %1%").arg(err)));
        auto blind = generateAndLoad(loading(5000, 0));
        const double noMainWork = worstError(predict(*blind, {"data.workers=4", "data.cores=64"}), *b);
        QVERIFY2(noMainWork > kTolerancePct, qPrintable(QString("main work ignored: %1%").arg(noMainWork)));
        qInfo("pin work kept: worst error %.2f%%; main work ignored %.2f%%", err, noMainWork);
    }

    // data.cores unknown: the number is the free-cores end and the range reaches the pool on the one
    // core the generated trace shows busy (its main thread), stated in the result; with data.cores
    // set there is no range.
    void unknownCoresGiveARange() {
        auto a = generateAndLoad(loading(60000, 5000));
        const SimResult unknown = predict(*a, {"data.workers=4"});
        QVERIFY(unknown.dataLoader.applies);
        QCOMPARE(unknown.dataLoader.busyCores, 1);
        QCOMPARE(unknown.dataLoader.freeCoresIteration, unknown.simulatedIteration);
        QVERIFY(unknown.dataLoader.busyCoresIteration > unknown.simulatedIteration);
        const SimResult oneCore = predict(*a, {"data.workers=4", "data.cores=1"});
        QCOMPARE(unknown.dataLoader.busyCoresIteration, oneCore.simulatedIteration);
        QVERIFY(unknown.dataLoader.note.find("the workers on free cores (the number shown)") !=
                std::string::npos);
        QVERIFY(!oneCore.dataLoader.applies);
        // Where the pool keeps pace on the busy cores too, both ends agree, and the result says so.
        auto fast = generateAndLoad(loading(3000, 2000));
        const SimResult keepsPace = predict(*fast, {"data.workers=4"});
        QVERIFY(keepsPace.dataLoader.applies);
        QCOMPARE(keepsPace.dataLoader.busyCoresIteration, keepsPace.simulatedIteration);
        QVERIFY(keepsPace.dataLoader.note.find("the pool keeps pace either way") != std::string::npos);
        // data.cores alone qualifies nothing, and a value out of range is a knob error.
        QVERIFY(predict(*a, {"data.cores=8"}).warnings.has(Warn::KnobNoEffect));
        SimKnobs k;
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "data.cores=5000"));
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "data.cores=-2"));
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "data.cores=two"));
    }
};

QTEST_GUILESS_MAIN(TestDataLoaderModel)
#include "test_DataLoaderModel.moc"
