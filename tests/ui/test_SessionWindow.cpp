// Sessions in the main window on the bundled 8-rank sample samples/01-dp8-straggler (always
// present, so nothing here skips): save and open restore traces, knobs, the
// track tree, the view and the highlights; a failed load (bad trace, bad session, a session whose
// traces fail) leaves the current session exactly as it was; knobs survive re-simulation and a
// re-load of the same traces; autosave writes the window's session.
#include "Autosave.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "Screenshot.h"
#include "Session.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"

#include "TestSupport.h"

#include <QAction>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestSessionWindow : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("01-dp8-straggler")); }
    static void load(MainWindow& w, const QStringList& paths) {
        w.openTraces(paths);
        QVERIFY(w.loader()->waitForFinished(60'000));
    }
    static SimKnobs someKnobs() {
        SimKnobs k;
        k.computeSpeedup = 2;
        k.commOverlap = false;
        k.computeClassSpeedup["gemm"] = 1.5; // no widget: must survive the panel
        return k;
    }
    // Pins a GPU stream of rank 3, hides one track of rank 0, moves rank 1's last track first.
    static void arrangeTracks(MainWindow& w) {
        TrackState* t = w.trackState();
        const auto& order3 = t->order(3);
        t->setTrackPinned(3, order3.back(), true);
        t->setTrackHidden(0, t->order(0).front(), true);
        QVERIFY(t->moveTrack(1, t->order(1).size() - 1, 0));
        t->setRankExpanded(5, false);
    }
    static void compareTracks(const TrackState& a, const TrackState& b) {
        QCOMPARE(a.rankCount(), b.rankCount());
        for (std::size_t r = 0; r < a.rankCount(); ++r) {
            QCOMPARE(a.ranks()[r].order, b.ranks()[r].order);
            QCOMPARE(a.ranks()[r].hidden, b.ranks()[r].hidden);
            QCOMPARE(a.ranks()[r].pinned, b.ranks()[r].pinned);
            QCOMPARE(a.ranks()[r].expanded, b.ranks()[r].expanded);
        }
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_SessionWindow");
    }
    void saveAndOpenRestoreEverything() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("job.sightline.json"));
        MainWindow a;
        a.show();
        load(a, {sample()});
        a.knobPanel()->setKnobs(someKnobs());
        arrangeTracks(a);
        a.controller()->setWindow(a.measured()->start() + 1'000'000, a.measured()->start() + 3'000'000);
        a.criticalPathAction()->setChecked(true);
        QCOMPARE(a.saveSession(path), QString());
        QCOMPARE(a.sessionPath(), path);
        // The pinned track is the first row of both panes.
        const auto pinned = a.trackState()->order(3).back();
        QCOMPARE(a.panes()->measured()->layout().rowOf(3, static_cast<int>(pinned)), 0);
        QVERIFY(a.simRunner()->waitForIdle(60'000));

        MainWindow b;
        b.show();
        QCOMPARE(b.openSession(path), QString());
        QVERIFY(b.loader()->waitForFinished(60'000));
        QVERIFY(b.traceSet());
        QCOMPARE(b.tracePaths(), a.tracePaths());
        QCOMPARE(b.knobPanel()->knobs().toJson(), a.knobPanel()->knobs().toJson());
        compareTracks(*a.trackState(), *b.trackState());
        QCOMPARE(b.controller()->windowStart(), a.controller()->windowStart());
        QCOMPARE(b.controller()->windowEnd(), a.controller()->windowEnd());
        QVERIFY(b.criticalPathAction()->isChecked());
        QCOMPARE(b.sessionPath(), path);
        QCOMPARE(b.panes()->measured()->layout().rowOf(3, static_cast<int>(pinned)), 0);
        // The simulation ran with the session's knobs; both panes put the pinned track first.
        QVERIFY(b.simRunner()->waitForIdle(60'000));
        QCOMPARE(b.panes()->simulated()->layout().rowOf(3, static_cast<int>(pinned)), 0);
        QVERIFY(b.simulation().result);
        QVERIFY(b.simulation().result->simulatedIteration != b.simulation().result->measuredIteration);
        // Opening a session by the traces entry point (command line, drag and drop) works too.
        MainWindow c;
        c.openTraces({path});
        QVERIFY(c.loader()->waitForFinished(60'000));
        QCOMPARE(c.knobPanel()->knobs().toJson(), a.knobPanel()->knobs().toJson());
    }
    void failedLoadsLeaveTheSessionAsItWas() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        w.knobPanel()->setKnobs(someKnobs());
        arrangeTracks(w);
        QVERIFY(w.simRunner()->waitForIdle(60'000));
        const auto set = w.traceSet();
        const QStringList paths = w.tracePaths();
        const auto knobs = w.knobPanel()->knobs().toJson();
        const Session before = w.currentSession();
        const auto check = [&] {
            QCOMPARE(w.traceSet(), set);
            QCOMPARE(w.tracePaths(), paths);
            QCOMPARE(w.knobPanel()->knobs().toJson(), knobs);
            const Session now = w.currentSession();
            QCOMPARE(sessionToJson(now), sessionToJson(before));
            QVERIFY(w.messageBar()->isVisible());
            QCOMPARE(w.messageBar()->level(), MessageBar::Level::Error);
        };
        QTemporaryDir dir;
        // A bad trace file.
        const std::string bad = sltest::writeFile(dir, "broken.json", "{\"traceEvents\": [ {\"ph\": ");
        load(w, {QString::fromStdString(bad)});
        check();
        QVERIFY(w.messageBar()->text().contains(QStringLiteral("broken.json")));
        // A session file that is not one.
        const std::string junk = sltest::writeFile(dir, "junk.sightline.json", "{\"format\": 1");
        QVERIFY(!w.openSession(QString::fromStdString(junk)).isEmpty());
        check();
        QVERIFY(w.messageBar()->text().contains(QStringLiteral("junk.sightline.json")));
        // A good session whose traces fail to load: its knobs must not be applied.
        Session other;
        other.traces = {QString::fromStdString(bad)};
        other.knobs.commSpeedup = 7;
        other.criticalPath = true;
        const QString otherPath = dir.filePath(QStringLiteral("other.sightline.json"));
        QCOMPARE(writeSessionFile(otherPath, other), QString());
        QCOMPARE(w.openSession(otherPath), QString());
        QVERIFY(w.loader()->waitForFinished(60'000));
        check();
        QVERIFY(!w.criticalPathAction()->isChecked());
        QVERIFY(w.sessionPath() != otherPath);
    }
    void knobsSurviveResimulationAndReload() {
        MainWindow w;
        load(w, {sample()});
        w.knobPanel()->setKnobs(someKnobs());
        arrangeTracks(w);
        QVERIFY(w.simRunner()->waitForIdle(60'000));
        const auto knobs = w.knobPanel()->knobs().toJson();
        const Session before = w.currentSession();
        // Another simulation run.
        w.simRunner()->request(w.knobPanel()->knobs(), 0);
        QVERIFY(w.simRunner()->waitForIdle(60'000));
        QCOMPARE(w.knobPanel()->knobs().toJson(), knobs);
        // Re-load of the same traces: knobs and the track tree stay.
        const auto oldSet = w.traceSet();
        load(w, {sample()});
        QVERIFY(w.traceSet() != oldSet);
        QCOMPARE(w.knobPanel()->knobs().toJson(), knobs);
        QCOMPARE(w.trackState()->ranks()[1].order, before.tracks[1].order);
        QCOMPARE(w.trackState()->ranks()[3].pinned, before.tracks[3].pinned);
        QVERIFY(w.simRunner()->waitForIdle(60'000));
        QVERIFY(w.simulation().result);
    }
    void screenshotOfASession() {
        QTemporaryDir dir;
        Session s;
        s.traces = {sample()};
        s.knobs.computeSpeedup = 2;
        s.criticalPath = true;
        const QString path = dir.filePath(QStringLiteral("s.sightline.json"));
        QCOMPARE(writeSessionFile(path, s), QString());
        ScreenshotRequest request;
        request.output = dir.filePath(QStringLiteral("s.png"));
        request.traces = {path};
        QCOMPARE(takeScreenshot(request), QString());
        QVERIFY(QImage(request.output).width() == 1600);
        request.traces = {dir.filePath(QStringLiteral("missing.sightline.json"))};
        QVERIFY(takeScreenshot(request).contains(QStringLiteral("missing.sightline.json")));
    }
    void autosaveWritesTheWindowSession() {
        QTemporaryDir dir;
        {
            MainWindow w;
            w.enableAutosave(dir.path(), 50);
            QVERIFY(!w.autosave()->recoverable());
            load(w, {sample()});
            w.knobPanel()->setKnobs(someKnobs());
            QTRY_VERIFY(QFile::exists(w.autosave()->sessionPath()));
            QTRY_VERIFY(!w.autosave()->dirty());
            Session saved;
            QCOMPARE(readSessionFile(w.autosave()->sessionPath(), saved), QString());
            QCOMPARE(saved.knobs.toJson(), w.knobPanel()->knobs().toJson());
            QCOMPARE(saved.traces, w.tracePaths());
            // No close: as if the program crashed.
        }
        MainWindow next;
        next.enableAutosave(dir.path(), 50);
        QVERIFY(next.autosave()->recoverable());
        next.offerRestore(); // offscreen: says so in the message bar, never blocks
        QVERIFY(next.messageBar()->text().contains(QStringLiteral("recovered")));
        QCOMPARE(next.openSession(next.autosave()->recoveredPath(), false), QString());
        QVERIFY(next.loader()->waitForFinished(60'000));
        QCOMPARE(next.knobPanel()->knobs().toJson(), someKnobs().toJson());
        QVERIFY(next.sessionPath().isEmpty());
        next.close();
        QVERIFY(!QFile::exists(next.autosave()->markerPath()));
    }
};

QTEST_MAIN(TestSessionWindow)
#include "test_SessionWindow.moc"
