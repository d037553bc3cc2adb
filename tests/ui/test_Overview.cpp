// The overview strip: the whole trace's GPU activity with the panes' window framed; a click moves the
// window there (same width), the wheel zooms; it follows the label column's width.
#include "MainWindow.h"
#include "OverviewStrip.h"
#include "SimRunner.h"
#include "TimelinePanes.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"

#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestOverview : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Overview");
    }

    void busyAndNavigation() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(4, 2, 500),
                                   {QStringLiteral("/synthetic/overview")});
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        OverviewStrip* strip = part<TimelinePanes>(w)->overview();
        QVERIFY(strip->isVisible());
        // Back-to-back kernels: the GPUs are busy most of the time.
        double mean = 0;
        for (float v : strip->busy()) {
            QVERIFY(v >= 0.0f && v <= 1.0f);
            mean += v;
        }
        mean /= OverviewStrip::kBuckets;
        QVERIFY2(mean > 0.5, qPrintable(QString::number(mean)));
        // Zoom in, then click at 3/4 of the strip: the window centres there, same width.
        ViewController* c = w.sessions()->view();
        c->fitRange(w.sessions()->measured()->start(), w.sessions()->measured()->start() + 100'000);
        const TimeNs d = c->windowDuration();
        const double x =
            strip->xOf(w.sessions()->measured()->start() +
                       (w.sessions()->measured()->end() - w.sessions()->measured()->start()) * 3 / 4);
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(static_cast<int>(x), strip->height() / 2));
        QCOMPARE(c->windowDuration(), d);
        const TimeNs centre = c->windowStart() + d / 2;
        QVERIFY(std::abs(centre - strip->timeAt(x)) < d / 10);
        // The frame's edges are the window's.
        QVERIFY(strip->xOf(c->windowStart()) < x && strip->xOf(c->windowEnd()) > x - 1);
        // It follows the label column.
        c->setGutterWidth(300);
        QCOMPARE(strip->xOf(w.sessions()->measured()->start()), 300.0);
    }
};

QTEST_MAIN(TestOverview)
#include "test_Overview.moc"
