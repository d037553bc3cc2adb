// What limits the step, named by rank and event: the straggler sample (rank 5 runs 1.3x slower and
// the collectives wait for it), the DLRM step (rank 7 enters 7.5 ms after rank 1, then loads data
// before its first GPU call), and the fallback to the path's largest kind on a sample without either.
// On a generated 64-rank job (dp 8 x tp 4 x pp 2) the path crosses many ranks and the straggler
// holds only a fifth of it: the card still names it, and names nobody when there is none. A
// straggler among the ranks dp.degree adds is named by its own id, not by the rank it copies.
#include "GraphFixture.h"
#include "SynthFixture.h"

#include "analysis/LimitingCause.h"
#include "analysis/StepExplanation.h"

using namespace sl;
using namespace slgraph;

namespace {

LimitingCause causeOf(const ExecutionGraph& g, const SimKnobs& knobs = {}) {
    const SimResult r = simulate(g, knobs);
    return limitingCause(g, criticalPath(g, r), r);
}

// dp 8 x tp 4 x pp 2, eight GPUs per node (the job `sightline-cli generate --dp 8 --tp 4 --pp 2`
// writes), with rank 37 (stage 1, replica 1) running its kernels 1.5x longer.
synth::SynthConfig job64(int straggler) {
    synth::SynthConfig c;
    c.dp = 8;
    c.tp = 4;
    c.pp = 2;
    c.stragglerRank = straggler;
    c.stragglerSlowdown = straggler >= 0 ? 1.5 : 1.0;
    return c;
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

    // 64 ranks: the path runs through rank 37 (19%) until the replicas' gradient all-reduce, which
    // holds most of it (73%, on rank 16). The card named only that all-reduce ("communication
    // kernels on rank 16"), never the rank the others waited for.
    void generated64NamesTheStraggler() {
        const auto l = slsynth::generateAndLoad(job64(37));
        QCOMPARE(l->set.ranks.size(), std::size_t{64});
        const LimitingCause c = causeOf(l->graph);
        qInfo("64 ranks, straggler 37: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 37);
        QVERIFY2(c.slowdown > 1.4 && c.slowdown < 1.6, qPrintable(QString::number(c.slowdown)));
        // Most of the collectives it joins where someone waited wait for it.
        QVERIFY2(c.collectivesLast * 2 > c.collectivesWaited,
                 qPrintable(QStringLiteral("%1 of %2").arg(c.collectivesLast).arg(c.collectivesWaited)));
        QVERIFY2(c.sentence.starts_with("rank 37 runs 1.5x slower than the others"), c.sentence.c_str());
        // It holds part of the path; what holds most of it is said as well.
        QVERIFY2(c.sharePct > 10 && c.sharePct < 50, qPrintable(QString::number(c.sharePct)));
        QVERIFY2(c.sentence.find("% is communication kernels on rank") != std::string::npos,
                 c.sentence.c_str());
    }

    // The same job without a straggler: no rank is named as the one the others wait for.
    void generated64WithoutStragglerNamesNoRank() {
        const auto l = slsynth::generateAndLoad(job64(-1));
        const LimitingCause c = causeOf(l->graph);
        qInfo("64 ranks, no straggler: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::PathKind);
        // Nor on a pipeline sample: its last stage arrives last at most transfers without being slow.
        QCOMPARE(causeOf(loadCached(sltest::samplePath("03-tp2-pp2")).graph).kind,
                 LimitingCause::Kind::PathKind);
    }

    // dp.degree=8 on four loaded ranks with the straggler on added rank 6 (a copy of rank 2): the
    // card named rank 2, the source whose nodes rank 6 runs.
    void addedRankStragglerIsNamedByItsOwnId() {
        const LoadedSet& s = loadCached(sltest::samplePath("02-dp4"));
        const SimResult r =
            simulate(s.graph, knobsOf({"dp.degree=8", "straggler.rank=6", "straggler.slowdown=2"}));
        QCOMPARE(r.addedRanks.count(), std::size_t{4});
        const LimitingCause c = limitingCause(s.graph, criticalPath(s.graph, r), r);
        qInfo("02-dp4, dp.degree=8, straggler 6: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 6);
        QVERIFY2(c.slowdown > 1.8, qPrintable(QString::number(c.slowdown)));
        QVERIFY2(c.sentence.starts_with("rank 6 "), c.sentence.c_str());
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
