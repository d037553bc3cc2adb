// File > Open Job Summary... (ui/panels/JobSummaryPanel.h, docs/Python.md): a job summarised rank by
// rank shows its rank overview (slowest first) and who waited for whom without loading the ranks;
// the ranks picked in the table open in full; a file that is no job summary gives one line.
#include "JobSummaryPanel.h"
#include "MainMenus.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "SessionController.h"
#include "StragglersPanel.h"
#include "TraceLoader.h"

#include "JobSummaryFixture.h"
#include "TestSupport.h"

#include <QDockWidget>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#include <fstream>

using namespace sl;
using namespace sl::ui;

namespace {

// What sightline.summarize(...).save(path) writes.
std::string saveJobSummary(const QTemporaryDir& dir, const std::string& folder) {
    const std::string path = dir.filePath(QStringLiteral("job.json")).toStdString();
    std::ofstream(path) << sltest::summarizeJob(folder).dump();
    return path;
}

} // namespace

class TestJobSummaryPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_JobSummaryPanel");
    }

    void showsTheJobAndOpensPickedRanks() {
        QTemporaryDir dir;
        const std::string path = saveJobSummary(dir, sltest::samplePath("01-dp8-straggler"));
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* menus = w.findChild<MainMenus*>();
        QCOMPARE(menus->openJobSummary(QString::fromStdString(path)), QString());
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("jobSummaryDock"));
        QVERIFY(dock && dock->isVisible());
        auto* panel = w.findChild<JobSummaryPanel*>();
        QTableWidget* table = panel->ranksTable();
        QCOMPARE(table->rowCount(), 8);
        // Slowest first: rank 5 (1.3x slower) on top; no set was loaded for it.
        QCOMPARE(table->item(0, 0)->data(Qt::DisplayRole).toInt(), 5);
        QVERIFY(!w.sessions()->traceSet());
        QVERIFY2(panel->headline().contains(QStringLiteral("Rank 5 made the others wait")),
                 qPrintable(panel->headline()));
        QVERIFY(panel->headline().contains(QStringLiteral("Complete")));
        QCOMPARE(panel->stragglers()->arrivals().collectives.size(), std::size_t(12));
        // Two ranks picked: they open in full as a set of two.
        QVERIFY(!panel->openButton()->isEnabled());
        table->selectionModel()->select(table->model()->index(0, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        table->selectionModel()->select(table->model()->index(3, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QVERIFY(panel->openButton()->isEnabled());
        QCOMPARE(panel->selectedPaths().size(), 2);
        QTest::mouseClick(panel->openButton(), Qt::LeftButton);
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QTRY_VERIFY_WITH_TIMEOUT(w.sessions()->traceSet() != nullptr, 10'000);
        QCOMPARE(w.sessions()->traceSet()->ranks.size(), std::size_t(2));
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
    }

    void aTraceIsNoJobSummary() {
        MainWindow w;
        w.show();
        auto* menus = w.findChild<MainMenus*>();
        const QString trace =
            QString::fromStdString(sltest::samplePath("02-dp4")) + QStringLiteral("/rank-0.json.gz");
        const QString error = menus->openJobSummary(trace);
        QVERIFY2(error.startsWith(trace + QStringLiteral(": ")), qPrintable(error));
        auto* bar = w.findChild<MessageBar*>();
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->text(), error);
        QVERIFY(!w.findChild<QDockWidget*>(QStringLiteral("jobSummaryDock"))->isVisible());
    }
};

QTEST_MAIN(TestJobSummaryPanel)
#include "test_JobSummaryPanel.moc"
