// What limits the step, named by rank and event: the straggler sample (rank 5 runs 1.3x slower and
// the collectives wait for it), the DLRM step (rank 7 enters 7.5 ms after rank 1, then loads data
// before its first GPU call), and the fallback to the path's largest kind on a sample without either.
#include "GraphFixture.h"

#include "analysis/LimitingCause.h"
#include "analysis/StepExplanation.h"

using namespace sl;
using namespace slgraph;

namespace {

LimitingCause causeOf(const ExecutionGraph& g, const SimKnobs& knobs = {}) {
    const SimResult r = simulate(g, knobs);
    return limitingCause(g, criticalPath(g, r), r);
}

} // namespace

class TestLimitingCause : public QObject {
    Q_OBJECT
private slots:
    void stragglerSampleNamesTheSlowRank() {
        const LoadedSet& s = loadCached(sltest::samplePath("01-dp8-straggler"));
        const LimitingCause c = causeOf(s.graph);
        qInfo("01-dp8-straggler: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 5);
        QVERIFY2(c.slowdown > 1.2 && c.slowdown < 1.4, qPrintable(QString::number(c.slowdown)));
        QVERIFY(c.collectivesWaited > 0);
        QCOMPARE(c.collectivesLast, c.collectivesWaited);
        QVERIFY2(c.sentence.starts_with(
                     "rank 5 runs 1.3x slower than the others and every collective waits for it"),
                 c.sentence.c_str());
        // The old sentence named the 65 us late start instead.
        QVERIFY(c.sentence.find("late") == std::string::npos);
    }

    // Under straggler.rank=2 (x2) the cause follows the knob: rank 2 now holds the path.
    void followsTheKnobs() {
        const LoadedSet& s = loadCached(sltest::samplePath("02-dp4"));
        SimKnobs k;
        k.stragglerRank = 2;
        k.stragglerSlowdown = 2;
        const LimitingCause c = causeOf(s.graph, k);
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 2);
        QVERIFY2(c.slowdown > 1.8, qPrintable(QString::number(c.slowdown)));
    }

    void dlrmRank7EntersLate() {
        SL_REQUIRE_TRACES();
        const LoadedSet& s = loadCached(sltest::tracePath("dlrm-8rank-v100/kineto"));
        const LimitingCause c = causeOf(s.graph);
        qInfo("DLRM: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::LateStart);
        QCOMPARE(c.rankId, 7);
        QCOMPARE(c.earliestRankId, 1);
        QVERIFY(c.enteredAfter > 7'400'000 && c.enteredAfter < 7'700'000);
        QVERIFY(c.beforeFirstCall > 1'000'000 && c.beforeFirstCall < 1'400'000);
        QVERIFY2(c.beforeOp.find("DataLoader") != std::string::npos, c.beforeOp.c_str());
        QVERIFY2(c.sentence.starts_with("rank 7 enters the step 7.5"), c.sentence.c_str());
        QVERIFY2(c.sentence.find("loading data") != std::string::npos, c.sentence.c_str());
        QVERIFY(c.sharePct > 35 && c.sharePct < 50);
    }

    // Neither a late start nor one rank the others wait for: the kind holding most of the path.
    void fallsBackToThePathKind() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), gpu("k1", 20, 100, 1)})});
        const LimitingCause c = causeOf(f.graph);
        QCOMPARE(c.kind, LimitingCause::Kind::PathKind);
        const SimResult r = simulate(f.graph);
        QCOMPARE(c.sentence, stepLimit(f.graph, criticalPath(f.graph, r)).sentence);
        QVERIFY(limitingCause(f.graph, CriticalPath{}, r).sentence.empty());
    }
};

QTEST_GUILESS_MAIN(TestLimitingCause)
#include "test_LimitingCause.moc"
