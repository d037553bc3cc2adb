// Each set's track layout remembered between runs without a session (docs/ManyRanks.md, "Saved";
// ui/model/RankViewMemory.h): the grouping, the folded groups, compact rows and the collapsed
// ranks come back when the same set is opened again, after another set and in a new run; the
// filter does not. Every test stores into a settings file of its own (a temporary folder), so no
// test depends on an earlier run, and a controller that was not asked to remember keeps defaults.
#include "RankViewMemory.h"
#include "WindowParts.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

namespace {
std::unique_ptr<QSettings> settingsIn(const QTemporaryDir& dir) {
    return std::make_unique<QSettings>(dir.filePath(QStringLiteral("memory.ini")), QSettings::IniFormat);
}
QString sample(const char* name) {
    return QString::fromStdString(sltest::samplePath(name));
}
} // namespace

class TestRankViewMemory : public QObject {
    Q_OBJECT
    static void open(MainWindow& w, const QString& path) {
        w.sessions()->openTraces({path});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(sltest::settleSimulations(w));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_RankViewMemory");
    }

    void storeAndRecall() {
        QTemporaryDir dir;
        RankViewMemory memory(settingsIn(dir));
        TrackState::RankState rank;
        rank.expanded = false;
        rank.order = {1, 0};
        rank.hidden = {false, true};
        rank.pinned = {false, false};
        rank.nested = {true, false};
        const TrackState::RankView view{RankGrouping::Stage, {1}, true, QStringLiteral("dp1")};
        const QStringList paths{dir.filePath(QStringLiteral("set"))};
        memory.store(paths, {rank}, view);
        std::vector<TrackState::RankState> tracks;
        TrackState::RankView back;
        // The same folder however it is written.
        QVERIFY(memory.recall({dir.filePath(QStringLiteral("./set/"))}, tracks, back));
        QCOMPARE(tracks.size(), std::size_t{1});
        QCOMPARE(tracks[0].expanded, false);
        QCOMPARE(tracks[0].order, (std::vector<std::size_t>{1, 0}));
        QCOMPARE(tracks[0].hidden, (std::vector<bool>{false, true}));
        QCOMPARE(back.grouping, RankGrouping::Stage);
        QCOMPARE(back.collapsedGroups, std::vector<int>{1});
        QVERIFY(back.compact);
        QVERIFY(back.filter.isEmpty()); // never remembered
        QVERIFY(!memory.recall({dir.filePath(QStringLiteral("other"))}, tracks, back));
        // The most recent sets only: the first of kSets + 1 is forgotten.
        for (int i = 0; i < RankViewMemory::kSets; ++i)
            memory.store({dir.filePath(QStringLiteral("set%1").arg(i))}, {rank}, view);
        QVERIFY(!memory.recall(paths, tracks, back));
        QVERIFY(memory.recall({dir.filePath(QStringLiteral("set0"))}, tracks, back));
    }

    void reopenedSetComesBackAsLeft() {
        QTemporaryDir dir;
        const QString set = sample("04-dp2-tp2-pp2-2nodes");
        {
            MainWindow w;
            w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
            w.sessions()->rememberRankViews(settingsIn(dir));
            open(w, set);
            TrackState* tracks = w.sessions()->tracks();
            QCOMPARE(tracks->grouping(), RankGrouping::None);
            tracks->setGrouping(RankGrouping::Stage);
            tracks->setGroupCollapsed(1, true);
            tracks->setRankExpanded(2, false);
            tracks->setFilter(QStringLiteral("tp1"));
            // Another set: its own defaults; then the first again, as it was left but the filter.
            open(w, sample("02-dp4"));
            QCOMPARE(tracks->grouping(), RankGrouping::None);
            QVERIFY(tracks->rankExpanded(2));
            open(w, set);
            QCOMPARE(tracks->grouping(), RankGrouping::Stage);
            QVERIFY(tracks->groupCollapsed(1));
            QVERIFY(!tracks->groupCollapsed(0));
            QVERIFY(!tracks->rankExpanded(2));
            QVERIFY(tracks->rankExpanded(3));
            QVERIFY(tracks->filter().isEmpty());
            tracks->setGrouping(RankGrouping::Replica);
        }
        // A new run (the window went, it stored the set on its way out).
        {
            MainWindow w;
            w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
            w.sessions()->rememberRankViews(settingsIn(dir));
            open(w, set);
            QCOMPARE(w.sessions()->tracks()->grouping(), RankGrouping::Replica);
            QVERIFY(!w.sessions()->tracks()->rankExpanded(2));
        }
        // Not asked to remember: the defaults.
        {
            MainWindow w;
            w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
            open(w, set);
            QCOMPARE(w.sessions()->tracks()->grouping(), RankGrouping::None);
            QVERIFY(w.sessions()->tracks()->rankExpanded(2));
        }
    }
};

QTEST_MAIN(TestRankViewMemory)
#include "test_RankViewMemory.moc"
