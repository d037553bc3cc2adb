// The track filter box (docs/ManyRanks.md) filters the track tree as it filters the panes: on
// samples/04-dp2-tp2-pp2-2nodes (Megatron order: rank id = (pp x 2 + dp) x 2 + tp), "pp1" keeps the
// ranks of stage 1 (ids 4-7) with all their tracks; a track name ("stream 7") keeps every rank but
// only its matching tracks; clearing the box shows everything again.
#include "RankControls.h"
#include "WindowParts.h"

#include <QLineEdit>
#include <QSettings>
#include <QTreeView>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestTrackTreeFilter : public QObject {
    Q_OBJECT
    // Rows of the tree the view shows: rank rows, and track rows under each rank.
    struct Shown {
        std::vector<int> ranks;  // rank ids
        int tracks = 0;          // track rows shown
        int trackMismatches = 0; // track rows shown whose name lacks `text` under a rank that does
    };
    static Shown shown(QTreeView* tree, const TraceSet& set, const QString& text) {
        Shown out;
        const QAbstractItemModel* model = tree->model();
        for (int r = 0; r < model->rowCount(); ++r) {
            if (tree->isRowHidden(r, {})) continue;
            const int id = set.ranks[static_cast<std::size_t>(r)].rank;
            out.ranks.push_back(id);
            const QModelIndex parent = model->index(r, 0);
            for (int i = 0; i < model->rowCount(parent); ++i) {
                if (tree->isRowHidden(i, parent)) continue;
                ++out.tracks;
                const QString name = model->index(i, 0, parent).data().toString();
                if (!text.isEmpty() && id / 4 != 1 && !name.contains(text, Qt::CaseInsensitive))
                    ++out.trackMismatches;
            }
        }
        return out;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_TrackTreeFilter");
    }
    void init() { QSettings().clear(); }

    void filterHidesTreeRows() {
        MainWindow w;
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        QVERIFY(sltest::openSample(w, "04-dp2-tp2-pp2-2nodes"));
        auto* tree = part<QTreeView>(w, QStringLiteral("trackTree"));
        QLineEdit* box = part<RankControls>(w)->filterBox();
        const TraceSet& set = *w.sessions()->traceSet();
        QCOMPARE(set.ranks.size(), std::size_t{8});
        const Shown all = shown(tree, set, {});
        QCOMPARE(all.ranks.size(), std::size_t{8});

        // A place: the ranks of pipeline stage 1, each with every track.
        QTest::keyClicks(box, QStringLiteral("pp1"));
        const Shown stage = shown(tree, set, {});
        QCOMPARE(stage.ranks, (std::vector<int>{4, 5, 6, 7}));
        int stageTracks = 0;
        for (const auto& rank : set.ranks)
            if (rank.rank / 4 == 1) stageTracks += static_cast<int>(rank.tracks.size());
        QCOMPARE(stage.tracks, stageTracks);

        // A track name: every rank that has such a track, only those tracks.
        box->clear();
        QTest::keyClicks(box, QStringLiteral("stream 7"));
        const Shown streams = shown(tree, set, QStringLiteral("stream 7"));
        QCOMPARE(streams.ranks.size(), std::size_t{8});
        QVERIFY(streams.tracks > 0 && streams.tracks < all.tracks);
        QCOMPARE(streams.trackMismatches, 0);

        box->clear();
        const Shown back = shown(tree, set, {});
        QCOMPARE(back.ranks.size(), std::size_t{8});
        QCOMPARE(back.tracks, all.tracks);
    }
};

QTEST_MAIN(TestTrackTreeFilter)
#include "test_TrackTreeFilter.moc"
