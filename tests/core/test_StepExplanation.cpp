// The sentences that explain a simulated step (analysis/StepExplanation.h): the headline against a
// baseline, what limits the step, why a knob barely moved it, and which knobs could not apply.
// Expected numbers are worked out by hand in the comments (times in microseconds).
#include "GraphFixture.h"

#include "analysis/CriticalPath.h"
#include "analysis/LimitingCause.h"
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

    // Card sentences held to rules (the cases a user met): ...

    // A rank that enters a hair after another is not "late" for most of the step, whatever the path
    // says: the path below calls 90% of itself rank 1's late start although rank 1 entered 1 us
    // after rank 0 ("rank 3 enters the step 18.0 us after rank 0: 88% of the step").
    void tinyShiftIsNoLateStart() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k0", 10, 1000, 1)}, 0, 2),
                trace({cpu("cudaLaunchKernel", 1, 5, 1), gpu("k1", 11, 1000, 1)}, 1, 2)});
        const SimResult replay = simulate(f.graph);
        CriticalPath path = criticalPath(f.graph, replay);
        QVERIFY(!path.segments.empty());
        // The kind that holds the path, on a rank that started 0.1% of the path late: no "starts
        // ... late" in its sentence; 10% late: said.
        for (const TimeNs lateBy : {path.length / 1000, path.length / 10}) {
            CriticalPath withLate = path;
            PathSegment lead;
            lead.node = path.segments.back().node;
            lead.end = lateBy;
            lead.label = PathLabel::LateStart;
            withLate.segments.insert(withLate.segments.begin(), lead);
            withLate.length += lateBy;
            withLate.byLabel[static_cast<std::size_t>(PathLabel::LateStart)] += lateBy;
            const std::string sentence = stepLimit(f.graph, withLate, &replay).sentence;
            QVERIFY2((sentence.find(" late") != std::string::npos) == (lateBy == path.length / 10),
                     sentence.c_str());
        }
        const NodeId rank1 = f.node("cudaLaunchKernel", 1);
        QVERIFY(rank1 != kNoNode);
        PathSegment late;
        late.node = rank1;
        late.end = 9 * path.length;
        late.label = PathLabel::LateStart;
        path.segments.insert(path.segments.begin(), late);
        path.length += late.end;
        path.byLabel[static_cast<std::size_t>(PathLabel::LateStart)] += late.end;
        const LimitingCause cause = limitingCause(f.graph, path, replay);
        QVERIFY2(cause.kind != LimitingCause::Kind::LateStart, cause.sentence.c_str());
        QVERIFY2(cause.sentence.find("enters") == std::string::npos, cause.sentence.c_str());
        // A real late entry (1 ms of a ~2 ms path) is still named.
        Fixture g;
        g.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k0", 10, 100, 1)}, 0, 2),
                trace({cpu("cudaLaunchKernel", 1000, 5, 1), gpu("k1", 1010, 1000, 1)}, 1, 2)});
        const SimResult r2 = simulate(g.graph);
        const LimitingCause named = limitingCause(g.graph, criticalPath(g.graph, r2), r2);
        QCOMPARE(named.kind, LimitingCause::Kind::LateStart);
        QVERIFY2(named.sentence.starts_with("rank 1 enters the step 1.00 ms after rank 0"),
                 named.sentence.c_str());
    }

    // Knobs that act on most of the path and still barely move it: never "only 100.0% of it".
    void mostOfThePathIsNeverOnly() {
        Fixture f;
        f.load(hostBound());
        const SimResult replay = simulate(f.graph);
        const SimKnobs k = knobsOf({"cpu.speedup=1.001"});
        const std::string why = noEffectReason(f.graph, replay, simulate(f.graph, k), k);
        QVERIFY2(!why.empty(), "cpu.speedup=1.001 moves a host-bound step by 0.1%: a reason is given");
        QVERIFY2(why.find("only") == std::string::npos, why.c_str());
        QVERIFY2(why.find("CPU work") != std::string::npos && why.find("shorten little") != std::string::npos,
                 why.c_str());
    }

    // "The step" is one ProfilerStep: a window of two says so, and its sentences say "window".
    void windowOfSeveralStepsSaysSo() {
        const LoadedSet& s = loadCached(sltest::samplePath("02-dp4"));
        QCOMPARE(windowSteps(s.graph), 2);
        QCOMPARE(stepWord(s.graph), std::string("window"));
        const SimResult r = simulate(s.graph);
        const std::string note = windowStepsNote(s.graph, r.simulatedIteration);
        QVERIFY2(note.starts_with("2 ProfilerSteps (") && note.ends_with(" each on average)"), note.c_str());
        const StepLimit limit = stepLimit(s.graph, criticalPath(s.graph, r), &r);
        QVERIFY2(limit.sentence.ends_with("% of the window"), limit.sentence.c_str());
        // One step chosen: "the step", no note.
        TraceSet one = loadTraceSet({sltest::samplePath("02-dp4")});
        GraphOptions options;
        options.step = 1;
        const ExecutionGraph g1 = buildExecutionGraph(one, options);
        QCOMPARE(windowSteps(g1), 1);
        QCOMPARE(stepWord(g1), std::string("step"));
        QVERIFY(windowStepsNote(g1, 1'000'000).empty());
        // A trace without step markers has none.
        Fixture f;
        f.load(gpuBound());
        QCOMPARE(windowSteps(f.graph), 0);
    }
};

QTEST_GUILESS_MAIN(TestStepExplanation)
#include "test_StepExplanation.moc"
