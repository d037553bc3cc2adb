// File > Export Report as a background job (docs/ARCHITECTURE.md, "Reports"): the menu's export
// returns at once and the window keeps running; the file comes later, built from the simulation the
// window shows (its knobs) and the scenarios simulated so far, and the window says where it went.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QFile>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace sl;
using namespace sl::ui;

class TestReportExportJob : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ReportExportJob");
    }

    void exportRunsInTheBackground() {
        MainWindow w;
        QVERIFY(sltest::openSample(w, "02-dp4", 1280, 720));
        SimKnobs fast;
        fast.computeSpeedup = 2;
        w.sessions()->knobs()->setKnobs(fast);
        QVERIFY(sltest::settleSimulations(w));
        QVERIFY(w.sessions()->simulation().knobs == fast); // the result carries the knobs it ran with

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.json"));
        QSignalSpy exported(w.sessions(), &SessionController::exported);
        QString error = QStringLiteral("not yet");
        QVERIFY(w.sessions()->startReportExport(path, [&error](const QString& e) { error = e; }));
        // Nothing is announced before the event loop runs again: the report is built off the UI thread.
        QCOMPARE(exported.count(), 0);
        QCOMPARE(error, QStringLiteral("not yet"));
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 60'000);
        QCOMPARE(error, QString());
        QCOMPARE(exported.at(0).at(1).toString(), path);

        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const nlohmann::json report = nlohmann::json::parse(f.readAll().toStdString());
        QCOMPARE(report["knobs"]["compute.speedup"].get<double>(), 2.0);
        QCOMPARE(report["changed_knobs"], nlohmann::json::array({"compute.speedup"}));
        QCOMPARE(report["scenarios"].size(), std::size_t{2}); // the baseline and the what-if
        QCOMPARE(report["iteration"]["simulated_us"].get<double>(),
                 report["scenarios"][1]["iteration_us"].get<double>());
        // The what-if against the replay the baseline scenario had simulated.
        QVERIFY(report.contains("knob_effect"));
        QVERIFY(!report["limit"].get<std::string>().empty());
    }
};

QTEST_MAIN(TestReportExportJob)
#include "test_ReportExportJob.moc"
