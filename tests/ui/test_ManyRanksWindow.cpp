// Many ranks in the window (docs/ManyRanks.md): the rank overview column marks the rank that made
// the others wait (samples/01-dp8-straggler: rank 5), says its answer is measured, shows the ranks'
// lines before the details are computed, names no one on a pipeline whose last stage only waits
// for the others' sends, and a click on a rank's line scrolls the panes to it; "One pane under replay" hides
// the lower pane while it shows a replay and brings it back with a knob; the filter box and the grouping edit
// the track state; a saved session brings back the grouping, the folded groups and the collapsed ranks.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "RankControls.h"
#include "RankOverview.h"
#include "ResultCard.h"
#include "ScenarioController.h"
#include "ScenariosDock.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestManyRanksWindow : public QObject {
    Q_OBJECT
    static QString sample(const char* name) { return QString::fromStdString(sltest::samplePath(name)); }
    static void open(MainWindow& w, const QString& path) {
        w.resize(1600, 1000);
        w.show();
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        w.sessions()->openTraces({path});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(sltest::settleSimulations(w));
        QCoreApplication::processEvents();
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ManyRanksWindow");
    }
    void init() { QSettings().clear(); }

    void overviewMarksTheStragglerAndScrolls() {
        MainWindow w;
        open(w, sample("01-dp8-straggler"));
        auto* overview = part<RankOverview>(w);
        QVERIFY(overview->isVisible());
        QCOMPARE(overview->order().size(), std::size_t{8});
        // Rank 5 runs 1.3x slower: every collective waits for it.
        QCOMPARE(overview->latest(), 5);
        QCOMPARE(overview->headerNote(), QStringLiteral("late: r5"));
        QVERIFY2(overview->tooltipFor(5).contains(QStringLiteral("made the others wait")),
                 qPrintable(overview->tooltipFor(5)));
        QVERIFY(overview->tooltipFor(5).contains(QStringLiteral("Measured")));
        // The card (simulated) names the same rank.
        QVERIFY(w.findChild<ResultCard*>()->text().contains(QStringLiteral("rank 5 runs 1.3x slower")));
        // A click on its line scrolls the panes to its header row.
        TimelineView* pane = w.findChild<TimelinePanes*>()->measured();
        w.sessions()->view()->setScrollY(0);
        const QRect line = overview->lineRect(5);
        QVERIFY(!line.isEmpty());
        QCOMPARE(overview->rankAt(line.center().y()), 5);
        QTest::mouseClick(overview, Qt::LeftButton, {}, line.center());
        int headerY = -1;
        for (const Row& row : pane->layout().rows())
            if (row.header() && row.rank == 5) headerY = row.y;
        QVERIFY(headerY > 0);
        const int y = w.sessions()->view()->scrollY();
        QVERIFY2(y > 0 && headerY >= y && headerY < y + pane->height(),
                 qPrintable(QStringLiteral("scroll %1, rank 5 at %2").arg(y).arg(headerY)));
    }

    // The overview used to appear with the first simulation; now its lines come with the timeline
    // (a place to click) and the header says the waits are being computed.
    void overviewBeforeTheDetails() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        w.sessions()->driver()->setAutoSimulate(false);
        w.sessions()->openTraces({sample("01-dp8-straggler")});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        auto* overview = part<RankOverview>(w);
        QTRY_VERIFY(overview->isVisible());
        QCOMPARE(overview->headerNote(), QStringLiteral("waits: computing..."));
        QCOMPARE(overview->latest(), -1);
        QCOMPARE(overview->order().size(), std::size_t{8});
        const QRect line = overview->lineRect(5);
        QVERIFY(!line.isEmpty());
        QCOMPARE(overview->rankAt(line.center().y()), 5);
        w.sessions()->driver()->computeDetails();
        QVERIFY(sltest::settleSimulations(w));
        QCoreApplication::processEvents();
        QCOMPARE(overview->headerNote(), QStringLiteral("late: r5"));
        // A later "computing" note does not hide data that is in.
        overview->setPending(w.sessions()->traceSet(), QStringLiteral("waits: computing..."));
        QCOMPARE(overview->headerNote(), QStringLiteral("late: r5"));
    }

    // 03-tp2-pp2 with GPU compute 2x: the card said "rank 3 arrives last: 51 of 65 collectives wait
    // for it" and the overview "late: r3" (the last pipeline stage, charged the waits at the
    // pipeline's transfers); neither names a rank now.
    void pipelineNamesNoStraggler() {
        MainWindow w;
        open(w, sample("03-tp2-pp2"));
        SimKnobs knobs;
        setKnob(knobs, "compute.speedup", "2");
        w.sessions()->knobs()->setKnobs(knobs);
        QVERIFY(sltest::settleSimulations(w));
        QCoreApplication::processEvents();
        const QString card = w.findChild<ResultCard*>()->text();
        QVERIFY2(card.contains(QStringLiteral("What limits this window")),
                 qPrintable(card)); // 2 ProfilerSteps
        QVERIFY2(!card.contains(QStringLiteral("arrives last")) && !card.contains(QStringLiteral("slower")),
                 qPrintable(card));
        auto* overview = part<RankOverview>(w);
        QVERIFY(overview->isVisible());
        QCOMPARE(overview->headerNote(), QStringLiteral("late: none"));
    }

    void onePaneUnderReplay() {
        MainWindow w;
        open(w, sample("02-dp4"));
        TimelineView* simulated = w.findChild<TimelinePanes*>()->simulated();
        QVERIFY(simulated->isVisible());
        auto* box = w.findChild<ScenariosDock*>()->onePaneBox();
        box->setChecked(true);
        QVERIFY(!simulated->isVisible()); // a replay: the same as the measured pane
        QVERIFY(w.findChild<TimelinePanes*>()->measured()->note().startsWith(QStringLiteral("One pane")));
        SimKnobs knobs;
        setKnob(knobs, "compute.speedup", "2");
        w.sessions()->knobs()->setKnobs(knobs);
        QVERIFY(sltest::settleSimulations(w));
        QCoreApplication::processEvents();
        QVERIFY(simulated->isVisible()); // a what-if: both panes
        box->setChecked(false);
        QVERIFY(simulated->isVisible());
    }

    void controlsEditTheTrackState() {
        MainWindow w;
        open(w, sample("04-dp2-tp2-pp2-2nodes"));
        auto* controls = part<RankControls>(w);
        TrackState* tracks = w.sessions()->tracks();
        QTest::keyClicks(controls->filterBox(), QStringLiteral("pp1"));
        QCOMPARE(tracks->filter(), QStringLiteral("pp1"));
        controls->groupingBox()->setCurrentIndex(controls->groupingBox()->findData(int(RankGrouping::Stage)));
        QCOMPARE(tracks->grouping(), RankGrouping::Stage);
        controls->compactBox()->setChecked(true);
        QVERIFY(tracks->compactRows());
        // And back: a state set elsewhere (a session) shows in the controls.
        tracks->setRankView({RankGrouping::Node, {}, false, QString()});
        QCOMPARE(controls->filterBox()->text(), QString());
        QCOMPARE(controls->groupingBox()->currentData().toInt(), int(RankGrouping::Node));
        QVERIFY(!controls->compactBox()->isChecked());
    }

    void sessionKeepsTheRankView() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("groups.sightline.json"));
        {
            MainWindow w;
            open(w, sample("04-dp2-tp2-pp2-2nodes"));
            TrackState* tracks = w.sessions()->tracks();
            tracks->setGrouping(RankGrouping::Node);
            tracks->setGroupCollapsed(1, true);
            tracks->setRankExpanded(0, false);
            QCOMPARE(w.sessions()->document()->saveSession(file), QString());
        }
        MainWindow w;
        open(w, file); // the session, with its traces
        TrackState* tracks = w.sessions()->tracks();
        QCOMPARE(tracks->grouping(), RankGrouping::Node);
        QVERIFY(tracks->groupCollapsed(1));
        QVERIFY(!tracks->rankExpanded(0));
        QVERIFY(tracks->rankExpanded(1));
        // Another set: its own defaults.
        w.sessions()->openTraces({sample("02-dp4")});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QCOMPARE(tracks->grouping(), RankGrouping::None);
        QVERIFY(tracks->rankExpanded(0));
    }
};

QTEST_MAIN(TestManyRanksWindow)
#include "test_ManyRanksWindow.moc"
