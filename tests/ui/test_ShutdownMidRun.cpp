// Closing the window while its background jobs run (docs/ARCHITECTURE.md, "GUI"): a simulation of the
// bundled sample samples/02-dp4 grown to dp.degree=4096 (about a second to simulate on one core) is
// cancelled and waited for when the window goes, far quicker than the run would take, and nothing of
// the window's jobs is left on the job pool afterwards; the same for a load that is still reading.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "SessionController.h"
#include "SimRunner.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include "sim/KnobRegistry.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

namespace {
SimKnobs grown(int replicas) {
    SimKnobs k;
    setKnobAssignment(k, "dp.degree=" + std::to_string(replicas));
    return k;
}
} // namespace

class TestShutdownMidRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ShutdownMidRun");
    }

    void closeWhileSimulating() {
        auto* w = new MainWindow;
        QVERIFY(sltest::openSample(*w, "02-dp4", 1200, 800));
        SimRunner* sim = w->sessions()->simRunner();
        // The run's length to the end, for the comparison below.
        // Long enough (about 1-2 s) that closing mid-run stands out from a loaded machine's noise (a
        // 0.2 s run once closed in 0.18 s under a parallel test run).
        sim->request(grown(32768), 0);
        QVERIFY(sim->waitForIdle(120'000));
        const double fullSeconds = w->sessions()->simulation().seconds;
        QVERIFY(w->sessions()->simulation().result->addedRanks.count() > 0);
        QVERIFY(sltest::settleSimulations(*w));
        // Another value: the graph is kept, so the run goes straight to simulating.
        bool simulating = false;
        connect(sim, &SimRunner::stage, this,
                [&](const QString& what, double) { simulating = simulating || what == "simulating"; });
        sim->request(grown(32767), 0);
        QElapsedTimer wait;
        wait.start();
        while (!simulating && wait.elapsed() < 60'000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QVERIFY(simulating);
        QVERIFY(sim->busy());
        QElapsedTimer clock;
        clock.start();
        w->close();
        delete w;
        const double closeSeconds = static_cast<double>(clock.elapsed()) / 1000.0;
        qInfo("full run %.3f s, closing mid-run %.3f s", fullSeconds, closeSeconds);
        // The run saw its flag: the window went well before the simulation would have ended.
        QVERIFY2(
            closeSeconds < fullSeconds / 2,
            qPrintable(QStringLiteral("closing took %1 s, the run %2 s").arg(closeSeconds).arg(fullSeconds)));
        QCOMPARE(jobPool()->activeThreadCount(), 0);
        QCoreApplication::processEvents();
    }

    void closeWhileLoading() {
        auto* w = new MainWindow;
        QSignalSpy started(w->sessions()->loader(), &TraceLoader::progress);
        w->sessions()->openTraces({QString::fromStdString(sltest::samplePath("04-dp2-tp2-pp2-2nodes"))});
        QVERIFY(w->sessions()->loader()->busy());
        QVERIFY(started.count() > 0);
        w->close();
        delete w;
        QCOMPARE(jobPool()->activeThreadCount(), 0);
        QCoreApplication::processEvents();
    }
};

QTEST_MAIN(TestShutdownMidRun)
#include "test_ShutdownMidRun.moc"
