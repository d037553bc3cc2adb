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
#include "SessionDocument.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QAction>
#include <QMessageBox>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestSessionWindow : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("01-dp8-straggler")); }
    static void load(MainWindow& w, const QStringList& paths) {
        w.sessions()->openTraces(paths);
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
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
        TrackState* t = w.sessions()->tracks();
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
        a.sessions()->knobs()->setKnobs(someKnobs());
        arrangeTracks(a);
        a.sessions()->view()->setWindow(a.sessions()->measured()->start() + 1'000'000,
                                        a.sessions()->measured()->start() + 3'000'000);
        a.menus()->criticalPathAction()->setChecked(true);
        QCOMPARE(a.sessions()->document()->saveSession(path), QString());
        QCOMPARE(a.sessions()->document()->sessionPath(), path);
        // The pinned track is the first row of both panes.
        const auto pinned = a.sessions()->tracks()->order(3).back();
        QCOMPARE(part<TimelinePanes>(a)->measured()->layout().rowOf(3, static_cast<int>(pinned)), 0);
        QVERIFY(a.sessions()->simRunner()->waitForIdle(60'000));

        MainWindow b;
        b.show();
        QCOMPARE(b.sessions()->openSession(path), QString());
        QVERIFY(b.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(b.sessions()->traceSet());
        QCOMPARE(b.sessions()->tracePaths(), a.sessions()->tracePaths());
        QCOMPARE(b.sessions()->knobs()->knobs().toJson(), a.sessions()->knobs()->knobs().toJson());
        compareTracks(*a.sessions()->tracks(), *b.sessions()->tracks());
        QCOMPARE(b.sessions()->view()->windowStart(), a.sessions()->view()->windowStart());
        QCOMPARE(b.sessions()->view()->windowEnd(), a.sessions()->view()->windowEnd());
        QVERIFY(b.menus()->criticalPathAction()->isChecked());
        QCOMPARE(b.sessions()->document()->sessionPath(), path);
        QCOMPARE(part<TimelinePanes>(b)->measured()->layout().rowOf(3, static_cast<int>(pinned)), 0);
        // The simulation ran with the session's knobs; both panes put the pinned track first.
        QVERIFY(b.sessions()->simRunner()->waitForIdle(60'000));
        QCOMPARE(part<TimelinePanes>(b)->simulated()->layout().rowOf(3, static_cast<int>(pinned)), 0);
        QVERIFY(b.sessions()->simulation().result);
        QVERIFY(b.sessions()->simulation().result->simulatedIteration !=
                b.sessions()->simulation().result->measuredIteration);
        // Opening a session by the traces entry point (command line, drag and drop) works too.
        MainWindow c;
        c.sessions()->openTraces({path});
        QVERIFY(c.sessions()->loader()->waitForFinished(60'000));
        QCOMPARE(c.sessions()->knobs()->knobs().toJson(), a.sessions()->knobs()->knobs().toJson());
    }
    void failedLoadsLeaveTheSessionAsItWas() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        w.sessions()->knobs()->setKnobs(someKnobs());
        arrangeTracks(w);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        const auto set = w.sessions()->traceSet();
        const QStringList paths = w.sessions()->tracePaths();
        const auto knobs = w.sessions()->knobs()->knobs().toJson();
        const Session before = w.sessions()->document()->currentSession();
        const auto check = [&] {
            QCOMPARE(w.sessions()->traceSet(), set);
            QCOMPARE(w.sessions()->tracePaths(), paths);
            QCOMPARE(w.sessions()->knobs()->knobs().toJson(), knobs);
            const Session now = w.sessions()->document()->currentSession();
            QCOMPARE(sessionToJson(now), sessionToJson(before));
            QVERIFY(part<MessageBar>(w)->isVisible());
            QCOMPARE(part<MessageBar>(w)->level(), MessageBar::Level::Error);
        };
        QTemporaryDir dir;
        // A bad trace file.
        const std::string bad = sltest::writeFile(dir, "broken.json", "{\"traceEvents\": [ {\"ph\": ");
        load(w, {QString::fromStdString(bad)});
        check();
        QVERIFY(part<MessageBar>(w)->text().contains(QStringLiteral("broken.json")));
        // A session file that is not one.
        const std::string junk = sltest::writeFile(dir, "junk.sightline.json", "{\"format\": 1");
        QVERIFY(!w.sessions()->openSession(QString::fromStdString(junk)).isEmpty());
        check();
        QVERIFY(part<MessageBar>(w)->text().contains(QStringLiteral("junk.sightline.json")));
        // A good session whose traces fail to load: its knobs must not be applied.
        Session other;
        other.traces = {QString::fromStdString(bad)};
        other.knobs.commSpeedup = 7;
        other.criticalPath = true;
        const QString otherPath = dir.filePath(QStringLiteral("other.sightline.json"));
        QCOMPARE(writeSessionFile(otherPath, other), QString());
        QCOMPARE(w.sessions()->openSession(otherPath), QString());
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        check();
        QVERIFY(!w.menus()->criticalPathAction()->isChecked());
        QVERIFY(w.sessions()->document()->sessionPath() != otherPath);
    }
    void knobsSurviveResimulationAndReload() {
        MainWindow w;
        load(w, {sample()});
        w.sessions()->knobs()->setKnobs(someKnobs());
        arrangeTracks(w);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        const auto knobs = w.sessions()->knobs()->knobs().toJson();
        const Session before = w.sessions()->document()->currentSession();
        // Another simulation run.
        w.sessions()->simRunner()->request(w.sessions()->knobs()->knobs(), 0);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QCOMPARE(w.sessions()->knobs()->knobs().toJson(), knobs);
        // Re-load of the same traces: knobs and the track tree stay.
        const auto oldSet = w.sessions()->traceSet();
        load(w, {sample()});
        QVERIFY(w.sessions()->traceSet() != oldSet);
        QCOMPARE(w.sessions()->knobs()->knobs().toJson(), knobs);
        QCOMPARE(w.sessions()->tracks()->ranks()[1].order, before.tracks[1].order);
        QCOMPARE(w.sessions()->tracks()->ranks()[3].pinned, before.tracks[3].pinned);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QVERIFY(w.sessions()->simulation().result);
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
            w.sessions()->document()->enableAutosave(dir.path(), 50);
            QVERIFY(!w.sessions()->document()->autosave()->recoverable());
            load(w, {sample()});
            w.sessions()->knobs()->setKnobs(someKnobs());
            QTRY_VERIFY(QFile::exists(w.sessions()->document()->autosave()->sessionPath()));
            QTRY_VERIFY(!w.sessions()->document()->autosave()->dirty());
            Session saved;
            QCOMPARE(readSessionFile(w.sessions()->document()->autosave()->sessionPath(), saved), QString());
            QCOMPARE(saved.knobs.toJson(), w.sessions()->knobs()->knobs().toJson());
            QCOMPARE(saved.traces, w.sessions()->tracePaths());
            // No close: as if the program crashed.
        }
        MainWindow next;
        next.sessions()->document()->enableAutosave(dir.path(), 50);
        QVERIFY(next.sessions()->document()->autosave()->recoverable());
        next.offerRestore(); // a window-modal question, never blocks
        QVERIFY(next.findChild<QMessageBox*>(QStringLiteral("restoreQuestion")));
        QCOMPARE(
            next.sessions()->openSession(next.sessions()->document()->autosave()->recoveredPath(), false),
            QString());
        QVERIFY(next.sessions()->loader()->waitForFinished(60'000));
        QCOMPARE(next.sessions()->knobs()->knobs().toJson(), someKnobs().toJson());
        QVERIFY(next.sessions()->document()->sessionPath().isEmpty());
        next.close();
        QVERIFY(!QFile::exists(next.sessions()->document()->autosave()->markerPath()));
    }
};

QTEST_MAIN(TestSessionWindow)
#include "test_SessionWindow.moc"
