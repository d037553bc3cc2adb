// Ranks added by dp.degree are simulated each on its own (docs/AddedRanks.md), and any rank of the
// simulated job can vary (sim/RankVariation.h): a straggler among the added ranks, straggler.ranks,
// node.slowdown and jitter. The oracle: generate 128 ranks with a straggler at rank 100, and the
// same job at 64 ranks without it; predict the first from the second with dp.degree=128 and the
// straggler on added rank 100. It fails when added ranks mirror their source (the straggler would
// change nothing) or when a knob naming an absent rank is ignored.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"
#include "sim/Knobs.h"
#include "sim/RankVariation.h"
#include "sim/Simulator.h"

#include <algorithm>
#include <string>

using namespace sl;
using namespace sl::synth;
using slsynth::errPct;
using slsynth::generateAndLoad;

namespace {

// Compute-heavy data parallelism: four 4096-wide layers, eight GPUs per node and a fast network
// (400 GB/s per GPU), so a straggler's slower kernels show in the step.
SynthConfig job(int dp) {
    SynthConfig c;
    c.layers = 4;
    c.hidden = 4096;
    c.heads = 32;
    c.seq = 2048;
    c.vocab = 32000;
    c.dp = dp;
    c.interNodeGBps = 400;
    return c;
}

SimKnobs knobsOf(std::initializer_list<const char*> assignments) {
    SimKnobs k;
    for (const char* a : assignments)
        setKnobAssignment(k, a);
    return k;
}

double usOf(TimeNs t) {
    return static_cast<double>(t) / 1e3;
}

std::size_t addedIndexOf(const SimResult& r, int rankId) {
    const auto& ids = r.addedRanks.rankId;
    return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), rankId) - ids.begin());
}

} // namespace

class TestAddedRanks : public QObject {
    Q_OBJECT

private slots:
    void stragglerAmongAddedRanksOracle() {
        SynthConfig a = job(64);
        SynthConfig b = job(128);
        b.stragglerRank = 100;
        b.stragglerSlowdown = 1.3;
        auto la = generateAndLoad(a);
        auto lb = generateAndLoad(b);
        const SimResult measured = simulate(lb->graph);
        const SimKnobs k = knobsOf({"dp.degree=128", "straggler.rank=100", "straggler.slowdown=1.3"});
        const SimResult pred = simulate(la->graph, k);
        QCOMPARE(pred.setup.world, 128);
        QCOMPARE(pred.addedRanks.count(), std::size_t{64});
        const double iterErr = errPct(static_cast<double>(pred.simulatedIteration),
                                      static_cast<double>(measured.measuredIteration));
        qInfo("iteration: predicted %.1f us, measured %.1f us (%.2f%%)", usOf(pred.simulatedIteration),
              usOf(measured.measuredIteration), iterErr);
        QVERIFY2(iterErr < 2.0, qPrintable(QString::number(iterErr)));

        // Rank 100's own breakdown (an added rank: its own times of rank 36's program).
        const std::size_t a100 = addedIndexOf(pred, 100);
        QVERIFY(a100 < pred.addedRanks.count());
        QCOMPARE(pred.setup.ranks[pred.addedRanks.setupIndex[a100]].rank, 100);
        const RankBreakdown p = addedRanksBreakdown(la->graph, pred)[a100];
        const auto meas = measuredBreakdown(lb->set, &lb->graph);
        const auto m =
            *std::find_if(meas.begin(), meas.end(), [](const RankBreakdown& r) { return r.rank == 100; });
        const double computeErr = errPct(static_cast<double>(p.compute), static_cast<double>(m.compute));
        const double commErr =
            errPct(static_cast<double>(p.communication), static_cast<double>(m.communication));
        qInfo("rank 100: compute %.1f vs %.1f us (%.2f%%), communication %.1f vs %.1f us (%.2f%%)",
              usOf(p.compute), usOf(m.compute), computeErr, usOf(p.communication), usOf(m.communication),
              commErr);
        QVERIFY2(computeErr < 2.0, qPrintable(QString::number(computeErr)));
        QVERIFY2(commErr < 2.0, qPrintable(QString::number(commErr)));
        // Every other rank waits for rank 100: its communication is short, theirs long.
        const RankBreakdown other = addedRanksBreakdown(la->graph, pred)[addedIndexOf(pred, 101)];
        QVERIFY(other.communication > p.communication);

        // Mirrored added ranks would give the job without the straggler: far off.
        const SimResult mirror = simulate(la->graph, knobsOf({"dp.degree=128"}));
        const double mirrorErr = errPct(static_cast<double>(mirror.simulatedIteration),
                                        static_cast<double>(measured.measuredIteration));
        qInfo("without the straggler: %.2f%% off", mirrorErr);
        QVERIFY(mirrorErr > 2.0 * iterErr && mirrorErr > 5.0);

        // The critical path ends on the added straggler's... and runs through it.
        const CriticalPath cp = criticalPath(la->graph, pred);
        bool through100 = false;
        for (const auto& s : cp.segments)
            through100 = through100 || (s.added >= 0 && pred.rankId(la->graph, s.ref()) == 100);
        QVERIFY(through100);
        QVERIFY(std::abs(cp.length - pred.simulatedIteration) < pred.simulatedIteration / 50);
    }

    void addedRanksWithoutVariationMatchTheirSource() {
        auto l = generateAndLoad(job(8));
        const SimResult r = simulate(l->graph, knobsOf({"dp.degree=16"}));
        QCOMPARE(r.addedRanks.count(), std::size_t{8});
        for (std::size_t a = 0; a < r.addedRanks.count(); ++a) {
            const RankSimSummary& own = r.addedRanks.summary[a];
            const RankSimSummary& src = r.ranks[r.addedRanks.source[a]];
            QCOMPARE(own.simulatedStart, src.simulatedStart);
            QCOMPARE(own.simulatedEnd, src.simulatedEnd);
        }
    }

    void absentRanksAreErrors_data() {
        QTest::addColumn<QString>("knob");
        QTest::addColumn<QString>("says");
        QTest::newRow("straggler.rank") << "straggler.rank=99999"
                                        << "straggler.rank=99999: the simulated job has "
                                           "no such rank (8 ranks: 0..7)";
        QTest::newRow("straggler.ranks") << "straggler.ranks=6..9"
                                         << "straggler.ranks: 8..9 are not in the "
                                            "simulated job (8 ranks: 0..7)";
        QTest::newRow("node.slowdown") << "node.slowdown[3]=1.5"
                                       << "node.slowdown[3]: the simulated job has nodes "
                                          "0..0";
    }
    void absentRanksAreErrors() {
        QFETCH(QString, knob);
        QFETCH(QString, says);
        auto l = generateAndLoad(job(8));
        SimKnobs k;
        setKnobAssignment(k, knob.toStdString());
        k.stragglerSlowdown = 1.5;
        try {
            (void)simulate(l->graph, k);
            QFAIL("no error");
        } catch (const KnobError& e) {
            QVERIFY2(QString(e.what()).startsWith(says), e.what());
        }
        // With dp.degree the job has the added ranks too.
        setKnobAssignment(k, "dp.degree=16");
        if (knob.startsWith("straggler.ranks")) (void)simulate(l->graph, k); // 8..9 exist now
    }

    void rankListsAndNodes() {
        SimKnobs k;
        setKnobAssignment(k, "straggler.ranks=3, 7,10..12,20-21");
        QCOMPARE(k.stragglerRanks, (std::vector<int>{3, 7, 10, 11, 12, 20, 21}));
        QCOMPARE(k.toJson()["straggler.ranks"].get<std::string>(), std::string("3, 7, 10..12, 20..21"));
        SimKnobs back;
        applyKnobsJson(back, k.toJson());
        QCOMPARE(back.stragglerRanks, k.stragglerRanks);
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "straggler.ranks=5..2"));
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "straggler.ranks=x"));
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "node.slowdown[a]=2"));
        QVERIFY_THROWS_EXCEPTION(KnobError, setKnobAssignment(k, "node.slowdown[1]=0.5"));

        // A slow node (GPUs 8..15 with 8 per node) holds the job as a straggler on each of its ranks.
        SynthConfig c = job(16);
        c.gpusPerNode = 8;
        auto l = generateAndLoad(c);
        const SimResult plain = simulate(l->graph);
        const SimResult node = simulate(l->graph, knobsOf({"node.slowdown[1]=1.3"}));
        const SimResult listed =
            simulate(l->graph, knobsOf({"straggler.ranks=8..15", "straggler.slowdown=1.3"}));
        QVERIFY(usOf(node.simulatedIteration) > usOf(plain.simulatedIteration) * 1.05);
        QCOMPARE(node.simulatedIteration, listed.simulatedIteration);
    }

    void jitter() {
        QCOMPARE(jitterFactor(1, 5, 0), 1.0);
        QCOMPARE(jitterFactor(7, 5, 10), jitterFactor(7, 5, 10));
        QVERIFY(jitterFactor(7, 5, 10) != jitterFactor(8, 5, 10));
        for (int r = 0; r < 1000; ++r) {
            const double f = jitterFactor(3, r, 10);
            QVERIFY(f >= 0.9 && f <= 1.1);
        }
        // The generator's uneven ranks (each rank's kernels x 1 +- spread) against jitter.pct on the
        // even job: the slowest of 64 draws sets the step in both.
        SynthConfig even = job(64);
        SynthConfig uneven = even;
        uneven.rankSpread = 0.1;
        auto le = generateAndLoad(even);
        auto lu = generateAndLoad(uneven);
        const double measured = static_cast<double>(simulate(lu->graph).measuredIteration);
        const SimResult s1 = simulate(le->graph, knobsOf({"jitter.pct=10", "jitter.seed=1"}));
        const SimResult s1again = simulate(le->graph, knobsOf({"jitter.pct=10", "jitter.seed=1"}));
        const SimResult s2 = simulate(le->graph, knobsOf({"jitter.pct=10", "jitter.seed=2"}));
        const SimResult none = simulate(le->graph);
        QCOMPARE(s1.simulatedIteration, s1again.simulatedIteration);
        QVERIFY(s1.simulatedIteration != s2.simulatedIteration);
        const double err = errPct(static_cast<double>(s1.simulatedIteration), measured);
        const double errNone = errPct(static_cast<double>(none.simulatedIteration), measured);
        qInfo("jitter 10%%: predicted %.1f us vs generated %.1f us (%.2f%%); without jitter %.2f%% off",
              usOf(s1.simulatedIteration), measured / 1e3, err, errNone);
        QVERIFY2(err < 2.0, qPrintable(QString::number(err)));
        QVERIFY(errNone > 2.0 * err);
    }

    // A node of the job and its 64-bit key (AddedRankTimes::heldBy, the critical path's per-node
    // sums) go both ways, for a loaded rank's node (added == -1) and an added rank's.
    void nodeKeysRoundTrip() {
        for (const SimNodeRef r :
             {SimNodeRef{0, -1}, SimNodeRef{7, 0}, SimNodeRef{0xfffffffeu, 4095}, SimNodeRef{123456, -1}})
            QCOMPARE(AddedRankTimes::unkey(AddedRankTimes::key(r)), r);
        QVERIFY(AddedRankTimes::key({5, -1}) != AddedRankTimes::key({5, 0}));
    }
};

QTEST_GUILESS_MAIN(TestAddedRanks)
#include "test_AddedRanks.moc"
