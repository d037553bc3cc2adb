// The shared zoom-and-scroll controller: zoom keeps the anchor, pan, fit, clamping, signals.
#include "ViewController.h"

#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestViewController : public QObject {
    Q_OBJECT
private slots:
    void fitsBoundsOnSet() {
        ViewController c;
        c.setViewportWidth(1000);
        c.setBounds(1'000'000, 2'000'000);
        QVERIFY(c.windowStart() < 1'000'000);
        QVERIFY(c.windowEnd() > 2'000'000);
        QVERIFY(c.windowDuration() < 1'100'000);
    }
    void zoomKeepsAnchor_data() {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("x");
        QTest::newRow("in at left") << 2.0 << 100.0;
        QTest::newRow("in at centre") << 1.3 << 500.0;
        QTest::newRow("out at right") << 0.8 << 900.0;
        QTest::newRow("deep in") << 50.0 << 333.0;
    }
    void zoomKeepsAnchor() {
        QFETCH(double, factor);
        QFETCH(double, x);
        ViewController c;
        c.setViewportWidth(1000);
        c.setBounds(0, 10'000'000);
        c.setWindow(2'000'000, 6'000'000);
        const TimeNs before = c.mapping().time(x);
        const auto duration = static_cast<double>(c.windowDuration());
        c.zoomAt(factor, x);
        QVERIFY(static_cast<double>(std::abs(c.mapping().time(x) - before)) <= c.mapping().nsPerPixel + 1);
        QVERIFY(std::abs(static_cast<double>(c.windowDuration()) - duration / factor) <= duration * 0.01);
    }
    void zoomLimits() {
        ViewController c;
        c.setViewportWidth(1000);
        c.setBounds(0, 1'000'000);
        for (int i = 0; i < 100; ++i)
            c.zoom(3.0);
        QCOMPARE(c.windowDuration(), ViewController::kMinWindowNs);
        for (int i = 0; i < 100; ++i)
            c.zoom(1 / 3.0);
        QVERIFY(c.windowDuration() <= 1'200'000);
    }
    void panMovesByPixels() {
        ViewController c;
        c.setViewportWidth(1000);
        c.setBounds(0, 10'000'000);
        c.setWindow(4'000'000, 5'000'000); // 1000 ns per px
        c.panPixels(100);
        QCOMPARE(c.windowStart(), 4'100'000);
        QCOMPARE(c.windowEnd(), 5'100'000);
        c.panPixels(-200);
        QCOMPARE(c.windowStart(), 3'900'000);
    }
    void panStopsAtBounds() {
        ViewController c;
        c.setViewportWidth(1000);
        c.setBounds(0, 1'000'000);
        c.setWindow(0, 100'000);
        c.panPixels(1e9);
        QVERIFY(c.windowEnd() <= 1'000'000 + 100'000);
        c.panPixels(-1e9);
        QVERIFY(c.windowStart() >= -100'000);
        QCOMPARE(c.windowDuration(), 100'000);
    }
    void fitRangeAddsMargin() {
        ViewController c;
        c.setViewportWidth(800);
        c.setBounds(0, 10'000'000);
        c.fitRange(3'000'000, 4'000'000);
        QVERIFY(c.windowStart() < 3'000'000 && c.windowStart() > 2'900'000);
        QVERIFY(c.windowEnd() > 4'000'000 && c.windowEnd() < 4'100'000);
    }
    void signalsOnlyOnChange() {
        ViewController c;
        c.setViewportWidth(1000);
        c.setBounds(0, 1'000'000);
        QSignalSpy spy(&c, &ViewController::windowChanged);
        c.setWindow(c.windowStart(), c.windowEnd());
        QCOMPARE(spy.count(), 0);
        c.zoom(2);
        QCOMPARE(spy.count(), 1);
        QSignalSpy scroll(&c, &ViewController::scrollYChanged);
        c.setScrollY(40);
        c.setScrollY(40);
        c.setScrollY(-5);
        QCOMPARE(scroll.count(), 2);
        QCOMPARE(c.scrollY(), 0);
    }
};

QTEST_APPLESS_MAIN(TestViewController)
#include "test_ViewController.moc"
