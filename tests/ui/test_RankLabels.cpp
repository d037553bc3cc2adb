// Rank labels carry the rank's place in the parallel grid: on samples/04-dp2-tp2-pp2-2nodes every
// rank reads "Rank N  dpD tpT ppP  <device>" with the place the structure recognition gives it; on
// the dp-only straggler sample only "dpD"; a single rank has no place. The track tree shows the
// same label.
#include "RankLabels.h"
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
        for (std::size_t r = 0; r < set.ranks.size(); ++r) {
            const RankPlace& p = s.places[r];
            const QString expected = QStringLiteral("Rank %1  dp%2 tp%3 pp%4")
                                         .arg(set.ranks[r].rank)
                                         .arg(p.dp)
                                         .arg(p.tp)
                                         .arg(p.pp);
            QVERIFY2(rankLabel(set, r).startsWith(expected), qPrintable(rankLabel(set, r)));
            QVERIFY(!rankLabel(set, r).contains(QStringLiteral("NVIDIA")));
        }
        // Different ranks, different places.
        QVERIFY(rankPlaces(set)[0] != rankPlaces(set)[1]);
    }

    void dataParallelOnlyAndSingleRank() {
        const TraceSet set = loadTraceSet({sltest::samplePath("01-dp8-straggler")});
        std::size_t r5 = 0;
        while (set.ranks[r5].rank != 5)
            ++r5;
        QVERIFY2(rankLabel(set, r5).startsWith(QStringLiteral("Rank 5  dp5  ")),
                 qPrintable(rankLabel(set, r5)));
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
        QCOMPARE(rankPlaces(one).size(), std::size_t{1});
        QVERIFY(rankPlaces(one)[0].isEmpty());
        QVERIFY(!rankLabel(one, 0).contains(QStringLiteral("dp")));
    }
};

QTEST_MAIN(TestRankLabels)
#include "test_RankLabels.moc"
