// The window shows the measured timeline as soon as the events are parsed and computes the details
// (execution graph, simulation, critical path, charts) afterwards, with the progress bar and its
// cancel button; a cancel keeps the timeline and the user's view, and Compute details (or a knob
// change) completes them later (docs/Loader.md, "GUI: timeline first, details later").
#include "KnobPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimRunner.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {
QString sample() {
    return QDir::cleanPath(QString::fromStdString(sltest::samplePath("02-dp4")));
}

// Waits until the details phase is no longer running (finished or cancelled) and the runner idle.
bool waitForDetails(MainWindow& w, int timeoutMs = 60'000) {
    SessionController* s = w.sessions();
    QElapsedTimer clock;
    clock.start();
    while ((s->driver()->details() == SimulationDriver::Details::Running || s->simRunner()->busy()) &&
           clock.elapsed() < timeoutMs)
        QTest::qWait(10);
    return s->driver()->details() != SimulationDriver::Details::Running && !s->simRunner()->busy();
}

bool progressShown(MainWindow& w) {
    return !part<QProgressBar>(w, QStringLiteral("progress"))->isHidden() &&
           !part<QPushButton>(w, QStringLiteral("progressCancel"))->isHidden();
}
} // namespace

class TestTimelineFirst : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void loaderIndexesTheTimelineInItsWorker() {
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.start({sample()});
        QVERIFY(loader.waitForFinished(60'000));
        QCOMPARE(loaded.count(), 1);
        const auto set = loaded.at(0).at(0).value<std::shared_ptr<const TraceSet>>();
        const auto measured = loaded.at(0).at(2).value<std::shared_ptr<const TimelineData>>();
        QVERIFY(set);
        QVERIFY(measured);
        QCOMPARE(&measured->set(), set.get());
        QCOMPARE(measured->eventCount(), set->eventCount());
    }

    void timelinePaintsBeforeTheDetails() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        SessionController* s = w.sessions();
        QStringList order;
        int boxes = -1;
        bool simulatedYet = true, progressDuring = false;
        QString stageLabel;
        TraceLoader* loader = s->loader();
        std::shared_ptr<const TimelineData> fromLoader;
        connect(loader, &TraceLoader::loaded, &w,
                [&](auto, auto, std::shared_ptr<const TimelineData> m) { fromLoader = m; });
        connect(s, &SessionController::shown, &w, [&] {
            order << QStringLiteral("timeline");
            // The measured pane paints its events now, with no simulation yet.
            TimelineView* view = part<TimelinePanes>(w)->measured();
            view->grab();
            boxes = view->lastStats().boxes;
            simulatedYet = s->simulation().result != nullptr;
        });
        connect(s->driver(), &SimulationDriver::detailsStarted, &w, [&] {
            order << QStringLiteral("details started");
            progressDuring = progressShown(w);
        });
        connect(s->driver(), &SimulationDriver::detailsProgress, &w, [&](const QString&, double) {
            if (stageLabel.isEmpty()) stageLabel = part<QLabel>(w, QStringLiteral("progressLabel"))->text();
        });
        connect(s->driver(), &SimulationDriver::simulationShown, &w,
                [&] { order << QStringLiteral("simulated"); });
        connect(s->driver(), &SimulationDriver::detailsFinished, &w,
                [&] { order << QStringLiteral("details finished"); });
        s->openTraces({sample()});
        QVERIFY(loader->waitForFinished(60'000));
        QVERIFY(waitForDetails(w));
        QCOMPARE(order, (QStringList{QStringLiteral("timeline"), QStringLiteral("details started"),
                                     QStringLiteral("simulated"), QStringLiteral("details finished")}));
        QVERIFY(boxes > 0);
        QVERIFY(!simulatedYet);
        QVERIFY(progressDuring);
        QVERIFY2(stageLabel.startsWith(QStringLiteral("Details: ")), qPrintable(stageLabel));
        // The pane shows the loader's timeline (not one indexed again on the UI thread).
        QVERIFY(fromLoader);
        QCOMPARE(s->measured(), fromLoader);
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Done);
        QVERIFY(s->simulation().result);
        QVERIFY(!progressShown(w));
    }

    // Cancel while the worker runs (after started) or before it starts (right after shown): the
    // timeline and the view stay, nothing of the simulation arrives, the window says what is missing;
    // Compute details completes them.
    void cancelKeepsTheTimelineAndComputeResumes_data() {
        QTest::addColumn<bool>("whileRunning");
        QTest::newRow("before the worker starts") << false;
        QTest::newRow("while the worker runs") << true;
    }
    void cancelKeepsTheTimelineAndComputeResumes() {
        QFETCH(bool, whileRunning);
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        SessionController* s = w.sessions();
        TimeNs viewStart = 0, viewEnd = 0;
        const auto cancel = [&] {
            // The user zoomed in before cancelling.
            const TimeNs span = s->measured()->end() - s->measured()->start();
            viewStart = s->measured()->start() + span / 4;
            viewEnd = viewStart + span / 8;
            s->view()->setWindow(viewStart, viewEnd);
            QVERIFY(progressShown(w));
            part<QPushButton>(w, QStringLiteral("progressCancel"))->click();
        };
        QMetaObject::Connection c =
            whileRunning ? connect(s->simRunner(), &SimRunner::started, &w, cancel, Qt::SingleShotConnection)
                         : connect(s->driver(), &SimulationDriver::detailsStarted, &w, cancel,
                                   Qt::SingleShotConnection);
        QSignalSpy cancelled(s->driver(), &SimulationDriver::detailsCancelled);
        QSignalSpy simulated(s->driver(), &SimulationDriver::simulationShown);
        s->openTraces({sample()});
        QVERIFY(s->loader()->waitForFinished(60'000));
        QVERIFY(waitForDetails(w));
        QTest::qWait(50); // a result on its way would arrive now
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(simulated.count(), 0);
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Cancelled);
        QVERIFY(!s->simulation().result);
        QVERIFY(!progressShown(w));
        // The timeline and the user's view are kept.
        TimelineView* measured = part<TimelinePanes>(w)->measured();
        QCOMPARE(measured->data(), s->measured());
        measured->grab();
        QVERIFY(measured->lastStats().boxes > 0);
        QCOMPARE(s->view()->windowStart(), viewStart);
        QCOMPARE(s->view()->windowEnd(), viewEnd);
        QVERIFY(!part<TimelinePanes>(w)->simulated()->data());
        // The window says what is missing and offers to compute it.
        auto* bar = part<MessageBar>(w);
        QVERIFY(!bar->isHidden());
        QVERIFY2(bar->text().startsWith(QStringLiteral("Details cancelled")), qPrintable(bar->text()));
        QVERIFY(!bar->actionButton()->isHidden());
        QSignalSpy finished(s->driver(), &SimulationDriver::detailsFinished);
        bar->actionButton()->click();
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Running);
        QVERIFY(progressShown(w));
        QVERIFY(waitForDetails(w));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Done);
        QVERIFY(s->simulation().result);
        QVERIFY(part<TimelinePanes>(w)->simulated()->data());
        QCOMPARE(s->view()->windowStart(), viewStart);
        QCOMPARE(s->view()->windowEnd(), viewEnd);
        disconnect(c);
    }

    void knobChangeAfterCancelComputesTheDetails() {
        MainWindow w;
        SessionController* s = w.sessions();
        connect(s->driver(), &SimulationDriver::detailsStarted, s->driver(), &SimulationDriver::cancelDetails,
                Qt::SingleShotConnection);
        s->openTraces({sample()});
        QVERIFY(s->loader()->waitForFinished(60'000));
        QVERIFY(waitForDetails(w));
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Cancelled);
        SimKnobs knobs = s->knobs()->knobs();
        knobs.computeSpeedup = 2.0;
        s->knobs()->setKnobs(knobs);
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Running);
        QVERIFY(waitForDetails(w));
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Done);
        QVERIFY(s->simulation().result);
    }

    // A new set while the details of the old one run: no cancel message, the new set's details run.
    void switchingSetsRestartsTheDetails() {
        MainWindow w;
        SessionController* s = w.sessions();
        QSignalSpy cancelled(s->driver(), &SimulationDriver::detailsCancelled);
        // The second set opens the moment the first set's details start: a fast machine can
        // finish the small sample's details within one turn of the event loop, so waiting for the
        // loader and then switching would not test a switch during the details.
        bool switchedWhileRunning = false;
        connect(
            s->driver(), &SimulationDriver::detailsStarted, s,
            [&] {
                switchedWhileRunning = s->driver()->details() == SimulationDriver::Details::Running;
                s->openTraces({QDir::cleanPath(QString::fromStdString(sltest::samplePath("03-tp2-pp2")))});
            },
            Qt::SingleShotConnection);
        s->openTraces({sample()});
        QVERIFY(s->loader()->waitForFinished(60'000));
        QVERIFY(switchedWhileRunning);
        QTRY_VERIFY_WITH_TIMEOUT(!s->tracePaths().isEmpty() &&
                                     s->tracePaths().front().endsWith(QStringLiteral("03-tp2-pp2")),
                                 60'000);
        QVERIFY(waitForDetails(w));
        QCOMPARE(cancelled.count(), 0);
        QCOMPARE(s->driver()->details(), SimulationDriver::Details::Done);
        QCOMPARE(&s->simulation().timeline->set(), s->traceSet().get());
    }
};

QTEST_MAIN(TestTimelineFirst)
#include "test_TimelineFirst.moc"
