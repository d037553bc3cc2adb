// Sessions remember the comparison run (docs/Compare.md, ComparisonController.h): its files are
// written to the session file (relative to it) and read back; opening the session shows the run in
// the lower pane again; a session whose comparison run is missing says so in one line and opens
// everything else.
#include "BackgroundJob.h"
#include "ComparisonController.h"
#include "ComparisonPair.h"
#include "Session.h"
#include "SessionDocument.h"
#include "TimelineView.h"
#include "WindowParts.h"

#include <QFile>
#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestComparisonSession : public QObject {
    Q_OBJECT
    sltest::ComparisonPair pair_;

private slots:
    // The load runs as the controller's BackgroundJob on the job pool, never on Qt's global pool:
    // closing the run mid-load cancels it, nothing of it is shown afterwards.
    void closedWhileLoadingShowsNothing() {
        MainWindow w;
        w.show();
        w.sessions()->openTraces({pair_.before});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        sltest::settle(w);
        ComparisonController* c = w.sessions()->comparison();
        QSignalSpy shown(c, &ComparisonController::shown);
        c->open({pair_.after}, false);
        QVERIFY(c->busy());
        c->close();
        QVERIFY(!c->busy());
        // Qt's own pool is not the comparison's: Qt's image code lends it threads for a few ms while
        // the window paints (seen 0-4 ms under a parallel test run), so it is given that long.
        QTRY_COMPARE_WITH_TIMEOUT(QThreadPool::globalInstance()->activeThreadCount(), 0, 1'000);
        QTRY_COMPARE_WITH_TIMEOUT(jobPool()->activeThreadCount(), 0, 10'000);
        QCoreApplication::processEvents();
        QCOMPARE(shown.count(), 0);
        QVERIFY(!c->run());
        QVERIFY(c->paths().isEmpty());
    }

    void jsonKeepsTheRunRelativeToTheSession() {
        Session s;
        s.traces = {pair_.before};
        s.comparison = {pair_.after};
        const QByteArray json = sessionToJson(s);
        QVERIFY(json.contains("\"comparison\""));
        Session back;
        QCOMPARE(sessionFromJson(json, back), QString());
        QCOMPARE(back.comparison, s.comparison);
        // Relative paths resolve against the session's folder; a malformed entry is an error.
        Session rel;
        QCOMPARE(
            sessionFromJson(
                R"({"format":"sightline-session","version":1,"traces":["before"],"comparison":["after"]})",
                rel, pair_.dir.path()),
            QString());
        QCOMPARE(rel.comparison, QStringList{pair_.after});
        Session bad;
        QVERIFY(!sessionFromJson(
                     R"({"format":"sightline-session","version":1,"traces":["a"],"comparison":"after"})", bad)
                     .isEmpty());
        // No comparison run: no key (older readers see the same file as before).
        Session none;
        none.traces = {pair_.before};
        QVERIFY(!sessionToJson(none).contains("comparison"));
    }

    void savedAndRestored() {
        const QString file = pair_.dir.filePath("cmp.sightline.json");
        {
            MainWindow w;
            w.sessions()->openTraces({pair_.before});
            QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
            sltest::settle(w);
            QCOMPARE(w.sessions()->comparison()->openNow({pair_.after}), QString());
            QCOMPARE(w.sessions()->document()->currentSession().comparison, QStringList{pair_.after});
            QCOMPARE(w.sessions()->document()->saveSession(file), QString());
        }
        MainWindow w;
        w.show();
        QSignalSpy done(w.sessions()->comparison(), &ComparisonController::finished);
        QCOMPARE(w.sessions()->openSession(file), QString());
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        sltest::settle(w);
        QVERIFY(done.count() > 0 || done.wait(60'000));
        QVERIFY(w.sessions()->comparison()->run());
        QCOMPARE(w.sessions()->comparison()->paths(), QStringList{pair_.after});
        QVERIFY(part<TimelinePanes>(w)->comparisonShown());
        QCOMPARE(part<TimelinePanes>(w)->comparison()->data()->set().ranks.size(), std::size_t{2});
        // Another set: the run was compared with the old one and goes.
        w.sessions()->openTraces({QString::fromStdString(sltest::samplePath("02-dp4"))});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(!w.sessions()->comparison()->run());
        QVERIFY(w.sessions()->document()->currentSession().comparison.isEmpty());
        QVERIFY(!part<TimelinePanes>(w)->comparisonShown());
    }

    void missingRunIsOneLineAndTheRestOpens() {
        const QString file = pair_.dir.filePath("missing.sightline.json");
        Session s;
        s.traces = {pair_.before};
        s.comparison = {pair_.dir.filePath("gone/after")};
        s.criticalPath = true;
        QCOMPARE(writeSessionFile(file, s), QString());
        MainWindow w;
        QSignalSpy messages(w.sessions(), &SessionController::message);
        QCOMPARE(w.sessions()->openSession(file), QString());
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        sltest::settle(w);
        QStringList lines;
        for (const auto& m : messages)
            if (m.at(0).toString().contains("comparison run")) lines << m.at(0).toString();
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines[0].contains("gone/after"));
        QVERIFY(!lines[0].contains('\n'));
        QVERIFY(w.sessions()->traceSet());
        QVERIFY(w.sessions()->highlights()->criticalPath());
        QVERIFY(!w.sessions()->comparison()->run());
        QVERIFY(!part<TimelinePanes>(w)->comparisonShown());
    }
};

QTEST_MAIN(TestComparisonSession)
#include "test_ComparisonSession.moc"
