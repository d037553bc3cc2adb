// SessionController on its own (no MainWindow): loading a bundled sample, the two-step switch, the
// simulation, the modified flag and title, session files, bad input, and the exports.
#include "DeltaTable.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "ResultCard.h"
#include "ScenarioController.h"
#include "ScenariosDock.h"
#include "Selection.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"
#include "WindowText.h"

#include "TestSupport.h"
#include "TimeFormat.h"
#include "sim/Knobs.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

#include <filesystem>

using namespace sl;
using namespace sl::ui;

namespace {
// The controller with the views its scenarios need (what MainWindow builds around it).
struct Rig {
    SessionController s;
    KnobPanel knobs;
    ResultCard card;
    DeltaTable table;
    ScenarioList list;
    ScenariosDock dock{&list};
    TimelinePanes panes{s.view(), s.selection(), s.tracks()};
    ScenarioController scenarios{
        &list, new ScenarioRunner(&s), {&knobs, &card, &table, &dock, &panes, s.highlights(), s.simRunner()}};
    Rig() { s.setScenarios(&scenarios, &knobs); }
};

QString sample() {
    return QDir::cleanPath(QString::fromStdString(sltest::samplePath("02-dp4")));
}

// The rank files of the sample, counted from the folder (not by the loader).
std::size_t rankFiles() {
    std::size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(sample().toStdString()))
        n += entry.path().filename().string().ends_with(".json.gz");
    return n;
}
} // namespace

class TestSessionController : public QObject {
    Q_OBJECT
    static void load(Rig& r, const QStringList& paths) {
        r.s.openTraces(paths);
        QVERIFY(r.s.loader()->waitForFinished(60'000));
        QVERIFY(r.s.simRunner()->waitForIdle(60'000));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_SessionController");
    }

    void loadsInTwoSteps() {
        Rig r;
        QSignalSpy started(&r.s, &SessionController::loadStarted);
        QSignalSpy loading(&r.s, &SessionController::loadingChanged);
        QSignalSpy letGo(&r.s, &SessionController::aboutToSwitch);
        QSignalSpy switched(&r.s, &SessionController::switched);
        QSignalSpy shown(&r.s, &SessionController::shown);
        QSignalSpy simulated(r.s.driver(), &SimulationDriver::simulationShown);
        load(r, {sample()});
        QCOMPARE(started.count(), 1);
        QCOMPARE(started[0][0].toString(), QStringLiteral("Loading 02-dp4..."));
        QCOMPARE(loading.count(), 2);
        QCOMPARE(loading[0][0].toBool(), true);
        QCOMPARE(loading[1][0].toBool(), false);
        QCOMPARE(letGo.count(), 1);
        QCOMPARE(switched.count(), 1);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown[0][0].toStringList(), QStringList{sample()});
        QVERIFY(r.s.traceSet());
        QCOMPARE(r.s.traceSet()->ranks.size(), rankFiles());
        QCOMPARE(r.s.tracks()->rankCount(), rankFiles());
        QCOMPARE(r.s.tracePaths(), QStringList{sample()});
        QCOMPARE(simulated.count(), 1);
        QVERIFY(r.s.simulation().result);
        // Scenarios: the baseline was simulated, so the pane says which scenario it shows.
        QCOMPARE(r.list.count(), 1);
        QVERIFY(statusTextFor(r.s).startsWith(QStringLiteral("%1 ranks, ").arg(rankFiles())));
        QVERIFY(statusTextFor(r.s).contains(QStringLiteral("iteration: measured")));
        // A fresh set is not modified; its title names the folder and the path.
        QVERIFY(!r.s.document()->modified());
        QCOMPARE(windowTitleFor(r.s), QStringLiteral("samples/02-dp4[*] - Sightline"));

        // Loading again: when the views are told to let go, the selection of the old set is
        // already gone and the old set is still the one held (switched brings the new one).
        r.s.selection()->setRange(r.s.measured()->start(), r.s.measured()->end());
        const auto old = r.s.traceSet();
        bool rangeAtLetGo = true;
        bool oldAtLetGo = false;
        connect(&r.s, &SessionController::aboutToSwitch, this, [&] {
            rangeAtLetGo = r.s.selection()->hasRange();
            oldAtLetGo = r.s.traceSet() == old;
        });
        load(r, {sample()});
        QVERIFY(!rangeAtLetGo);
        QVERIFY(oldAtLetGo);
        QVERIFY(r.s.traceSet() != old);
        QCOMPARE(switched.count(), 2);
    }

    void editsMarkModified() {
        Rig r;
        QSignalSpy title(r.s.document(), &SessionDocument::titleChanged);
        r.s.document()->markDirty(); // no set: nothing to modify
        QVERIFY(!r.s.document()->modified());
        QCOMPARE(title.count(), 0);
        load(r, {sample()});
        QVERIFY(!r.s.document()->modified());
        title.clear();
        const TimeNs start = r.s.view()->windowStart(), end = r.s.view()->windowEnd();
        r.s.view()->setWindow(start, start + (end - start) / 2);
        QVERIFY(r.s.document()->modified());
        QCOMPARE(title.count(), 1);
        r.s.tracks()->setRankExpanded(0, !r.s.tracks()->rankExpanded(0));
        QCOMPARE(title.count(), 1); // already modified: no second signal
        // A selection, a new simulation or a highlight toggle (a way of looking) is no edit.
        QTemporaryDir dir;
        QVERIFY(r.s.document()->saveSession(dir.filePath(QStringLiteral("edits.sightline.json"))).isEmpty());
        QVERIFY(!r.s.document()->modified());
        r.s.selection()->setEvent({0, {0, 0}});
        r.s.simRunner()->request(r.s.knobs()->knobs(), 0);
        QVERIFY(r.s.simRunner()->waitForIdle(60'000));
        QVERIFY(!r.s.document()->modified());
        r.s.highlights()->setExposed(!r.s.highlights()->exposed());
        QVERIFY(!r.s.document()->modified());
    }

    // dp.degree=8 on 02-dp4 with added rank 6 twice as slow: the status bar's simulated GPU span is
    // the job's longest, the straggler's, not the loaded ranks' (which end before its optimizer).
    void gpuSpanCoversTheAddedRanks() {
        Rig r;
        load(r, {sample()});
        SimKnobs k;
        setKnobAssignment(k, "dp.degree=8");
        setKnobAssignment(k, "straggler.rank=6");
        setKnobAssignment(k, "straggler.slowdown=2");
        r.s.simRunner()->request(k, 0);
        QVERIFY(r.s.simRunner()->waitForIdle(60'000));
        const SimResult& res = *r.s.simulation().result;
        QCOMPARE(res.addedRanks.count(), std::size_t{4});
        TimeNs loaded = 0, job = 0;
        for (const RankSimSummary& rank : res.ranks)
            loaded = std::max(loaded, rank.simulatedGpuEnd - rank.simulatedGpuStart);
        job = loaded;
        for (const RankSimSummary& rank : res.addedRanks.summary)
            job = std::max(job, rank.simulatedGpuEnd - rank.simulatedGpuStart);
        QVERIFY2(job > loaded, "the straggler's GPU span is the longest");
        const QString text = statusTextFor(r.s);
        QVERIFY2(text.contains(QStringLiteral(" -> %1  |").arg(formatDuration(job))), qPrintable(text));
    }

    void sessionRoundTrip() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a.sightline.json"));
        Rig r;
        load(r, {sample()});
        const TimeNs start = r.s.view()->windowStart(), end = r.s.view()->windowEnd();
        const TimeNs quarter = (end - start) / 4;
        r.s.view()->setWindow(start + quarter, start + 2 * quarter);
        r.s.highlights()->setCriticalPath(true);
        QVERIFY(r.s.document()->modified());
        QCOMPARE(r.s.document()->saveSession(), QStringLiteral("No session file chosen"));
        QSignalSpy saved(r.s.document(), &SessionDocument::saved);
        QCOMPARE(r.s.document()->saveSession(file), QString());
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved[0][0].toString(), QFileInfo(file).absoluteFilePath());
        QVERIFY(!r.s.document()->modified());
        QCOMPARE(windowTitleFor(r.s), QStringLiteral("a.sightline.json[*] - Sightline"));

        // The same traces: applied at once, without a load.
        r.s.view()->fitAll();
        r.s.highlights()->setCriticalPath(false);
        QSignalSpy started(&r.s, &SessionController::loadStarted);
        QCOMPARE(r.s.openSession(file), QString());
        QCOMPARE(started.count(), 0);
        QCOMPARE(r.s.view()->windowStart(), start + quarter);
        QCOMPARE(r.s.view()->windowEnd(), start + 2 * quarter);
        QVERIFY(r.s.highlights()->criticalPath());

        // A fresh controller: the traces load first, then the view is applied.
        Rig other;
        QCOMPARE(other.s.openSession(file), QString());
        QVERIFY(!other.s.traceSet()); // nothing changes until the traces have loaded
        QVERIFY(other.s.loader()->waitForFinished(60'000));
        QCOMPARE(other.s.tracePaths(), QStringList{sample()});
        QCOMPARE(other.s.view()->windowStart(), start + quarter);
        QVERIFY(other.s.highlights()->criticalPath());
        QCOMPARE(other.s.document()->sessionPath(), QFileInfo(file).absoluteFilePath());
    }

    void badInput() {
        QTemporaryDir dir;
        Rig r;
        QSignalSpy failed(&r.s, &SessionController::loadFailed);
        QSignalSpy message(&r.s, &SessionController::message);
        // A session file that is not JSON: an error naming the problem, nothing loads.
        const std::string bad = sltest::writeFile(dir, QStringLiteral("bad.sightline.json"), "{not json");
        QVERIFY(!r.s.openSession(QString::fromStdString(bad)).isEmpty());
        QCOMPARE(message.count(), 1);
        QCOMPARE(message[0][1].value<MessageBar::Level>(), MessageBar::Level::Error);
        QVERIFY(!r.s.traceSet());
        // A missing file: failed, with no good ranks to offer.
        r.s.openTraces({dir.filePath(QStringLiteral("missing.json"))});
        QVERIFY(r.s.loader()->waitForFinished(60'000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed[0][2].toBool(), false);
        QVERIFY(!r.s.traceSet());
        // A folder of two ranks with one broken file: the good rank is offered, and opens alone.
        QDir(dir.path()).mkdir(QStringLiteral("set"));
        sltest::writeFile(dir, QStringLiteral("set/rank0.json"), sltest::tinyRankTrace(0, 2));
        sltest::writeFile(dir, QStringLiteral("set/rank1.json"), "{\"traceEvents\": [");
        const QString set = dir.filePath(QStringLiteral("set"));
        r.s.openTraces({set});
        QVERIFY(r.s.loader()->waitForFinished(60'000));
        QCOMPARE(failed.count(), 2);
        QCOMPARE(failed[1][2].toBool(), true);
        r.s.openGoodRanks(failed[1][1].toStringList());
        QVERIFY(r.s.loader()->waitForFinished(60'000));
        QVERIFY(r.s.traceSet());
        QCOMPARE(r.s.traceSet()->ranks.size(), std::size_t{1});
        QVERIFY(!r.s.traceSet()->warnings.empty()); // the bad file is named there
    }

    void exports() {
        QTemporaryDir dir;
        Rig r;
        QSignalSpy message(&r.s, &SessionController::message);
        const QString json = dir.filePath(QStringLiteral("report.json"));
        QCOMPARE(r.s.exportReport(json), QStringLiteral("No simulation to report yet"));
        QCOMPARE(r.s.exportSimulatedTrace(dir.filePath(QStringLiteral("sim.json"))),
                 QStringLiteral("No simulation to export yet"));
        QCOMPARE(message.count(), 2);
        load(r, {sample()});
        QCOMPARE(r.s.exportReport(json), QString());
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!report.isEmpty());
        // One scenario (the baseline) simulated: the table has it once it is up to date.
        QTRY_VERIFY_WITH_TIMEOUT(!r.scenarios.runner()->busy(), 60'000);
        const nlohmann::json table = r.s.scenarioTableJson();
        QCOMPARE(table.size(), std::size_t{1});
        QCOMPARE(table[0]["vs_baseline_pct"].get<double>(), 0.0);
        const QString trace = dir.filePath(QStringLiteral("sim.json"));
        QCOMPARE(r.s.exportSimulatedTrace(trace), QString());
        QVERIFY(QFileInfo(trace).size() > 0);
    }
};

QTEST_MAIN(TestSessionController)
#include "test_SessionController.moc"
