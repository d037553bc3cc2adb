// File > Save Timeline / Save Chart as Image: one part of the window alone (for slides), PNG or SVG,
// the timeline image with the result card above the panes; on the bundled sample so it always runs.
#include "TestSupport.h"

#include "ChartsPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "SimRunner.h"
#include "SimulationDriver.h"
#include "WindowParts.h"
#include "io/KinetoLoader.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QInputDialog>
#include <QTabWidget>
#include <QTimer>

using namespace sl;
using namespace sl::ui;

class TestImageExports : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ImageExports");
    }

    void nothingOpenIsAnError() {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(!w.saveTimelineImage(dir.filePath("t.png")).isEmpty());
        QVERIFY(!w.saveChartImage(dir.filePath("c.png")).isEmpty());
        QVERIFY(!QFile::exists(dir.filePath("t.png")));
    }

    void timelineAndChartAlone() {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        const SimOutput sim = SimRunner::runNow(set, {});
        QTemporaryDir dir;
        MainWindow w;
        w.sessions()->driver()->setAutoSimulate(false);
        w.resize(1400, 900);
        w.show();
        w.sessions()->showTraceSet(set);
        w.sessions()->driver()->showSimulation(sim);
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        QCOMPARE(w.saveTimelineImage(dir.filePath("t.png")), QString());
        const QImage timeline(dir.filePath("t.png"));
        QVERIFY(!timeline.isNull());
        // The timeline alone is narrower than the window (the docks are left out) but not empty.
        QVERIFY(timeline.width() < w.grab().width());
        QVERIFY(timeline.width() > 200 && timeline.height() > 200);

        QCOMPARE(w.saveTimelineImage(dir.filePath("t.svg")), QString());
        QFile svg(dir.filePath("t.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));

        auto* charts = w.findChild<ChartsPanel*>();
        QVERIFY(charts);
        QCOMPARE(w.saveChartImage(dir.filePath("c.png")), QString());
        const QImage chart(dir.filePath("c.png"));
        QVERIFY(!chart.isNull());
        // The current tab's chart rendered at slide size (ui/export/ChartRender.h), not grabbed at the
        // dock's size (test_ChartRender checks which chart and the formats).
        QVERIFY(charts->tabs()->currentWidget()->width() < 1600);
        QCOMPARE(chart.size(), QSize(1600, 900));

        QVERIFY(!w.saveTimelineImage(dir.filePath("no/such/dir/t.png")).isEmpty());
    }

    // File > Export Figure with a typed size that is not one says so in the window instead of
    // closing without a figure.
    void typedSizeThatIsNotOneIsSaid() {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        MainWindow w;
        w.sessions()->driver()->setAutoSimulate(false);
        w.show();
        w.sessions()->showTraceSet(set);
        auto* action = w.findChild<QAction*>(QStringLiteral("exportFigureAction"));
        QVERIFY(action);
        // The figure kind (the first one), then the size typed as a file name.
        int answered = 0;
        std::function<void()> answer = [&] {
            auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            if (!dialog) {
                QTimer::singleShot(20, answer);
                return;
            }
            if (++answered == 2) dialog->setTextValue(QStringLiteral("figure.png"));
            dialog->accept();
            if (answered < 2) QTimer::singleShot(20, answer);
        };
        QTimer::singleShot(20, answer);
        action->trigger();
        QCOMPARE(answered, 2);
        auto* bar = w.findChild<MessageBar*>();
        QVERIFY(bar);
        QCOMPARE(bar->level(), MessageBar::Level::Error);
        QVERIFY2(bar->text().contains(QStringLiteral("\"figure.png\" is not a size")),
                 qPrintable(bar->text()));
    }
};

QTEST_MAIN(TestImageExports)
#include "test_ImageExports.moc"
