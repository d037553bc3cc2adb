// Rank labels carry the rank's place in the parallel grid: on samples/04-dp2-tp2-pp2-2nodes every
// rank reads "Rank N  dpD tpT ppP  <device>" with the place the structure recognition gives it; on
// the dp-only straggler sample only "dpD"; a single rank has no place. The track tree shows the
// same label.
#include "RankLabels.h"
#include "TimelineData.h"
#include "TrackState.h"
#include "TrackTreeModel.h"

#include "TestSupport.h"
#include "io/KinetoLoader.h"
#include "structure/Structure.h"

#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestRankLabels : public QObject {
    Q_OBJECT
private slots:
    void placesFromTheStructure() {
        const TraceSet set = loadTraceSet({sltest::samplePath("04-dp2-tp2-pp2-2nodes")});
        const ParallelStructure s = recognizeStructure(set, nullptr, false);
        QVERIFY(s.recognised);
        QCOMPARE(s.dp * s.tp * s.pp, 8);
        const RankLabels labels(set);
        for (std::size_t r = 0; r < set.ranks.size(); ++r) {
            const RankPlace& p = s.places[r];
            const QString expected = QStringLiteral("Rank %1  dp%2 tp%3 pp%4")
                                         .arg(set.ranks[r].rank)
                                         .arg(p.dp)
                                         .arg(p.tp)
                                         .arg(p.pp);
            QVERIFY2(labels.label(r).startsWith(expected), qPrintable(labels.label(r)));
            QVERIFY(!labels.label(r).contains(QStringLiteral("NVIDIA")));
            QCOMPARE(labels.coordinates()[r].pp, p.pp);
        }
        // Different ranks, different places.
        QVERIFY(labels.places()[0] != labels.places()[1]);
        QCOMPARE(labels.label(set.ranks.size()), QString()); // no such rank
    }

    void dataParallelOnlyAndSingleRank() {
        const TraceSet set = loadTraceSet({sltest::samplePath("01-dp8-straggler")});
        std::size_t r5 = 0;
        while (set.ranks[r5].rank != 5)
            ++r5;
        const RankLabels labels(set);
        QVERIFY2(labels.label(r5).startsWith(QStringLiteral("Rank 5  dp5  ")), qPrintable(labels.label(r5)));
        // The track tree names the rank the same way.
        auto shared =
            std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("01-dp8-straggler")}));
        TrackState state;
        state.reset(*shared);
        TrackTreeModel model(&state);
        model.setTraceSet(shared);
        const QString first = model.data(model.index(0, TrackTreeModel::NameColumn)).toString();
        QVERIFY2(first.startsWith(QStringLiteral("Rank ")) && first.contains(QStringLiteral("  dp")),
                 qPrintable(first));

        const TraceSet one = loadTraceSet({(sltest::samplePath("01-dp8-straggler") + "/rank-0.json.gz")});
        const RankLabels oneLabels(one);
        QCOMPARE(oneLabels.places().size(), std::size_t{1});
        QVERIFY(oneLabels.places()[0].isEmpty());
        QVERIFY(!oneLabels.label(0).contains(QStringLiteral("dp")));
    }

    // Whoever shows a set owns its labels (no cache shared between sets): the timeline's data made
    // for a set carries them, and the track tree follows the set it is given, two sets alive at once.
    void ownersKeepTheLabelsOfTheirSet() {
        auto grid =
            std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("04-dp2-tp2-pp2-2nodes")}));
        auto dp = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("01-dp8-straggler")}));
        const auto gridData = TimelineData::measured(grid);
        const auto dpData = TimelineData::measured(dp);
        const RankLabels gridLabels(*grid), dpLabels(*dp);
        QCOMPARE(gridData->rankLabels().size(), grid->ranks.size());
        QCOMPARE(dpData->rankLabels().size(), dp->ranks.size());
        for (std::size_t r = 0; r < grid->ranks.size(); ++r)
            QCOMPARE(gridData->rankLabels().label(r), gridLabels.label(r));
        for (std::size_t r = 0; r < dp->ranks.size(); ++r) {
            QCOMPARE(dpData->rankLabels().label(r), dpLabels.label(r));
            QVERIFY(!dpData->rankLabels().places()[r].contains(QStringLiteral("tp")));
        }
        QVERIFY(gridData->rankLabels().places()[0].contains(QStringLiteral("tp")));
        TrackState state;
        state.reset(*grid);
        TrackTreeModel model(&state);
        model.setTraceSet(grid);
        QCOMPARE(model.data(model.index(0, TrackTreeModel::NameColumn)).toString(), gridLabels.label(0));
        state.reset(*dp);
        model.setTraceSet(dp);
        QCOMPARE(model.data(model.index(0, TrackTreeModel::NameColumn)).toString(), dpLabels.label(0));
    }
};

QTEST_MAIN(TestRankLabels)
#include "test_RankLabels.moc"
