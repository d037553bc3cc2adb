// The sentences that explain a simulated step (analysis/StepExplanation.h): the headline against a
// baseline, what limits the step, why a knob barely moved it, and which knobs could not apply.
// Expected numbers are worked out by hand in the comments (times in microseconds).
#include "GraphFixture.h"

#include "analysis/CriticalPath.h"
#include "analysis/StepExplanation.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

using namespace sl;
using namespace slgraph;

namespace {
// Host-bound: 2 ms of CPU work between two 5 us kernels (the path is almost all CPU).
QList<QByteArray> hostBound() {
    return {trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 5, 1),
                   cpu("aten::heavy_cpu_work", 10, 2000, -1, 1, "cpu_op"),
                   cpu("cudaLaunchKernel", 2015, 5, 2), gpu("k2", 2025, 5, 2)})};
}
// GPU-bound: one 1000 us kernel behind a device sync.
QList<QByteArray> gpuBound() {
    return {trace(
        {cpu("cudaLaunchKernel", 0, 5, 1), gpu("k", 10, 1000, 1), cpu("cudaDeviceSynchronize", 6, 1006, 2)})};
}
} // namespace

class TestStepExplanation : public QObject {
    Q_OBJECT
private slots:
    void headline() {
        // (16.10 - 19.95) / 19.95 = -19.298% -> -19.3%; 19.95 / 16.10 = 1.2391 -> 1.24x.
        QCOMPARE(resultHeadline(19'950'000, 16'100'000),
                 std::string("19.95 ms -> 16.10 ms (-19.3%, 1.24x faster)"));
        // (12 - 10) / 10 = +20%; 12 / 10 = 1.20x slower.
        QCOMPARE(resultHeadline(10'000'000, 12'000'000),
                 std::string("10.00 ms -> 12.00 ms (+20.0%, 1.20x slower)"));
        QCOMPARE(resultHeadline(850'000, 850'000), std::string("850.0 us -> 850.0 us (no change)"));
        // 19.00 -> 19.01 ms: +0.05%, and a ratio of 1.0005 that would print as 1.00x is left out.
        QCOMPARE(resultHeadline(19'000'000, 19'010'000), std::string("19.00 ms -> 19.01 ms (+0.1%)"));
        // Under 0.05%: "no change", never "-0.0%".
        QCOMPARE(resultHeadline(20'000'000, 19'992'000), std::string("20.00 ms -> 19.99 ms (no change)"));
        QCOMPARE(resultHeadline(0, 5), std::string());
        QCOMPARE(formatStepTime(1'234'000'000), std::string("1.234 s"));
    }

    void hostBoundLimitAndNoEffect() {
        Fixture f;
        f.load(hostBound());
        const SimResult replay = simulate(f.graph);
        const CriticalPath path = criticalPath(f.graph, replay);
        const StepLimit limit = stepLimit(f.graph, path);
        // 2000 us of cpu_op plus two 5 us launch calls out of a ~2030 us path: CPU, above 95%.
        QCOMPARE(limit.label, PathLabel::Cpu);
        QCOMPARE(limit.rankId, f.set.ranks[0].rank);
        QVERIFY2(limit.sharePct > 95.0 && limit.sharePct <= 100.0,
                 qPrintable(QString::number(limit.sharePct)));
        QVERIFY2(limit.sentence.rfind("CPU work on rank ", 0) == 0, limit.sentence.c_str());
        QVERIFY2(limit.sentence.find("% of the step") != std::string::npos, limit.sentence.c_str());

        SimKnobs k;
        setKnobAssignment(k, "compute.speedup=2");
        const SimResult fast = simulate(f.graph, k);
        // Halving two 5 us kernels moves a 2 ms step by at most 2.5 us (0.12%): below 0.5%.
        const std::string why = noEffectReason(f.graph, replay, fast, k);
        QVERIFY2(why.find("bound by CPU work on rank 0") != std::string::npos, why.c_str());
        QVERIFY2(why.find("GPU compute is not on the critical path") != std::string::npos, why.c_str());
        // The replay itself has nothing to explain.
        QVERIFY(noEffectReason(f.graph, replay, replay, SimKnobs{}).empty());
    }

    void gpuBoundMovesSoNoReason() {
        Fixture f;
        f.load(gpuBound());
        const SimResult replay = simulate(f.graph);
        SimKnobs k;
        setKnobAssignment(k, "compute.speedup=2");
        const SimResult fast = simulate(f.graph, k);
        // The 1000 us kernel becomes 500 us: about -50%, far above the 0.5% threshold.
        QVERIFY(noEffectReason(f.graph, replay, fast, k).empty());
        const StepLimit limit = stepLimit(f.graph, criticalPath(f.graph, replay));
        QCOMPARE(limit.label, PathLabel::GpuCompute);
        // One rank, one clock: the path spans the whole iteration.
        const std::string both = pathVersusIteration(criticalPath(f.graph, replay), replay);
        QVERIFY2(both.find("spans the whole step") != std::string::npos, both.c_str());
    }

    // dp.degree=8 on the four ranks of 02-dp4, added rank 6 (a copy of rank 2) twice as slow: the
    // path's GPU compute runs on rank 6, which the sentence named after its source, rank 2.
    void addedRankTimeCountsForTheAddedRank() {
        const LoadedSet& s = loadCached(sltest::samplePath("02-dp4"));
        const SimResult r =
            simulate(s.graph, knobsOf({"dp.degree=8", "straggler.rank=6", "straggler.slowdown=2"}));
        const CriticalPath path = criticalPath(s.graph, r);
        const StepLimit limit = stepLimit(s.graph, path, &r);
        QCOMPARE(limit.label, PathLabel::GpuCompute);
        QCOMPARE(limit.rankId, 6);
        QVERIFY2(limit.sentence.starts_with("GPU compute on rank 6"), limit.sentence.c_str());
    }

    void knobNotesByKey() {
        // Decided by the kind and the knob an occurrence names, never by the words of its line.
        Warnings w;
        w.addForKnob("dp.scale", Warn::DpScaleNoCollectives, "dp.scale: found none");
        w.addForKnob("comm.model", Warn::AlphaBetaNoSize, "3 kernels unsized");
        w.addForKnob("comm.model", Warn::AlphaBetaCalibrated, "calibrated: informs only, nothing ignored");
        w.addForKnob("gpu.target", Warn::GpuTargetUnknown, "no such GPU");
        w.add(Warn::GpuOpOverlap, "dp.scale: a warning of no knob that says it was ignored");
        w.add(Warn::KnobNoEffect, "a kind that could apply but names no knob");
        const auto notes = knobNotes(w);
        QCOMPARE(notes.size(), std::size_t(3));
        QCOMPARE(notes.at("dp.scale"), std::string("dp.scale: found none"));
        QCOMPARE(notes.at("comm.model"), std::string("3 kernels unsized"));
        QCOMPARE(notes.at("gpu.target"), std::string("no such GPU"));
        // From a real run: the single-rank trace has no data-parallel collective for dp.scale.
        Fixture f;
        f.load(gpuBound());
        SimKnobs k;
        setKnobAssignment(k, "dp.scale=4");
        const SimResult r = simulate(f.graph, k);
        const auto real = knobNotes(r.warnings);
        QVERIFY2(real.count("dp.scale"),
                 r.warnings.empty() ? "no warnings" : r.warnings.front().text.c_str());
        // ... so dp.scale barely moves it, and the reason starts with that note.
        const std::string why = noEffectReason(f.graph, simulate(f.graph), r, k);
        QVERIFY2(why.rfind("dp.scale:", 0) == 0, why.c_str());
    }
};

QTEST_GUILESS_MAIN(TestStepExplanation)
#include "test_StepExplanation.moc"
