// Charts rendered at slide size (ui/export/ChartRender.h, docs/Exports.md) and Copy Image, on the
// bundled samples/02-dp4: File > Save Chart as Image writes the chart in front at 1600x900 or more
// (the Breakdown chart of the Charts dock, or the sweep's plot when the Sweep tab is in front with a
// sweep in it, which the old grab of the dock's tab missed), as PNG, SVG (parsed) or PDF; Copy
// Timeline Image and Copy Chart Image put the pictures on the clipboard.
#include "ChartRender.h"
#include "MainWindow.h"
#include "SessionController.h"
#include "SweepView.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QDockWidget>
#include <QGuiApplication>
#include <QImage>
#include <QXmlStreamReader>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestChartRender : public QObject {
    Q_OBJECT

    static void openSample(MainWindow& w) { QVERIFY(sltest::openSample(w, "02-dp4")); }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ChartRender");
    }

    void chartAtSlideSize() {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(!w.saveChartImage(dir.filePath("none.png")).isEmpty()); // nothing simulated yet
        openSample(w);
        QChartView* front = w.chartOnScreen();
        QVERIFY(front);
        QVERIFY(front->width() < 1600); // the dock's chart is small on screen
        QCOMPARE(w.saveChartImage(dir.filePath("c.png")), QString());
        const QImage image(dir.filePath("c.png"));
        QVERIFY2(image.width() >= 1600 && image.height() >= 900,
                 qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
        // The chart keeps its size on screen.
        QCOMPARE(front->chart()->size().toSize(), front->viewport()->size());
        QCOMPARE(w.saveChartImage(dir.filePath("c.svg")), QString());
        QFile svg(dir.filePath("c.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QXmlStreamReader xml(text);
        while (!xml.atEnd())
            xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(text.contains(front->chart()->title().toUtf8()));
        QCOMPARE(w.saveChartImage(dir.filePath("c.pdf")), QString());
        QFile pdf(dir.filePath("c.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(w.saveChartImage(dir.filePath("c.bmpx")).contains("unknown image format"));
    }

    // The Sweep tab in front with a sweep: its plot is the chart saved.
    void sweepInFrontIsSaved() {
        QTemporaryDir dir;
        MainWindow w;
        openSample(w);
        auto* sweepDock = w.findChild<QDockWidget*>(QStringLiteral("sweepDock"));
        QVERIFY(sweepDock);
        sweepDock->raise();
        QCoreApplication::processEvents();
        auto* sweep = w.findChild<SweepView*>();
        QVERIFY(sweep->run(QStringLiteral("dp.degree"), {4, 8}));
        QVERIFY(sweep->waitForIdle(60'000));
        QCOMPARE(w.chartOnScreen(), sweep->chart());
        QCOMPARE(w.saveChartImage(dir.filePath("s.svg")), QString());
        QFile svg(dir.filePath("s.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("vs dp.degree"));
        // The HTML report carries the sweep's plot after the scenarios' timelines.
        QCOMPARE(w.sessions()->exportReport(dir.filePath("r.html")), QString());
        QFile html(dir.filePath("r.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.contains(
            "<figcaption><b>Sweep</b> &middot; Iteration, exposed communication and throughput vs "
            "dp.degree</figcaption><svg"));
    }

    void copyImages() {
        MainWindow w;
        openSample(w);
        QGuiApplication::clipboard()->clear();
        QCOMPARE(w.sessions()->copyTimelineFigure({1920, 1080}), QString());
        QCOMPARE(QGuiApplication::clipboard()->image().size(), QSize(1920, 1080));
        QCOMPARE(w.copyChartImage(), QString());
        const QImage chart = QGuiApplication::clipboard()->image();
        QVERIFY(chart.width() >= 1600 && chart.height() >= 900);
    }
};

QTEST_MAIN(TestChartRender)
#include "test_ChartRender.moc"
