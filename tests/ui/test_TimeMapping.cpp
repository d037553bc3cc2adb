// Time <-> pixel maths, tick steps and duration formatting.
#include "TimeFormat.h"
#include "TimeMapping.h"

#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestTimeMapping : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<qlonglong>("start");
        QTest::addColumn<qlonglong>("end");
        QTest::addColumn<int>("width");
        QTest::addColumn<qlonglong>("t");
        QTest::addColumn<double>("x");
        QTest::newRow("1 ns per px") << 0LL << 1000LL << 1000 << 250LL << 250.0;
        QTest::newRow("10 ns per px") << 1000LL << 11000LL << 1000 << 6000LL << 500.0;
        QTest::newRow("sub-ns per px") << 0LL << 100LL << 1000 << 50LL << 500.0;
        QTest::newRow("epoch-sized start") << 1'694'128'201'545'000'000LL << 1'694'128'201'546'000'000LL
                                           << 1000 << 1'694'128'201'545'500'000LL << 500.0;
        QTest::newRow("left of window") << 1000LL << 2000LL << 100 << 0LL << -100.0;
        QTest::newRow("right edge") << 0LL << 1'000'000LL << 1600 << 1'000'000LL << 1600.0;
    }
    void roundTrip() {
        QFETCH(qlonglong, start);
        QFETCH(qlonglong, end);
        QFETCH(int, width);
        QFETCH(qlonglong, t);
        QFETCH(double, x);
        const TimeMapping m = TimeMapping::fromWindow(start, end, width);
        QCOMPARE(m.x(t), x);
        QCOMPARE(m.time(x), t);
        QCOMPARE(m.end(width), end);
        QCOMPARE(m.width(end - start), static_cast<double>(width));
    }
    void degenerateWindow() {
        const TimeMapping m = TimeMapping::fromWindow(10, 10, 0);
        QVERIFY(m.nsPerPixel > 0);
        QCOMPARE(m.x(10), 0.0);
    }
    void columnStart() {
        const TimeMapping m = TimeMapping::fromWindow(0, 1000, 300); // 3.33 ns per px
        for (int c = 0; c < 300; ++c) {
            const TimeNs t = m.columnStart(c);
            QVERIFY(m.x(t) >= c - 1e-9);
            QVERIFY(m.x(t - 1) < c);
        }
    }
    void niceSteps_data() {
        QTest::addColumn<double>("min");
        QTest::addColumn<qlonglong>("step");
        QTest::newRow("1") << 0.5 << 1LL;
        QTest::newRow("2") << 1.5 << 2LL;
        QTest::newRow("5") << 3.0 << 5LL;
        QTest::newRow("10") << 7.0 << 10LL;
        QTest::newRow("200us") << 150'000.0 << 200'000LL;
        QTest::newRow("exact") << 5000.0 << 5000LL;
    }
    void niceSteps() {
        QFETCH(double, min);
        QFETCH(qlonglong, step);
        QCOMPARE(niceStep(min), step);
    }
    void ticksInsideAndOrdered() {
        const TimeMapping m = TimeMapping::fromWindow(123'456, 9'876'543, 1200);
        const auto ticks = axisTicks(m, 1200, 16);
        QVERIFY(ticks.size() > 10);
        int majors = 0;
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            QVERIFY(ticks[i].x >= 0 && ticks[i].x <= 1200);
            if (i) QVERIFY(ticks[i].x - ticks[i - 1].x >= 16 - 1e-9);
            majors += ticks[i].major;
        }
        QVERIFY(majors >= 2);
    }
    void formatting_data() {
        QTest::addColumn<qlonglong>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << 850LL << "850 ns";
        QTest::newRow("us") << 12'500LL << "12.5 us";
        QTest::newRow("ms") << 3'210'000LL << "3.21 ms";
        QTest::newRow("s") << 1'500'000'000LL << "1.500 s";
        QTest::newRow("negative") << -2'000LL << "-2.00 us";
    }
    void formatting() {
        QFETCH(qlonglong, ns);
        QFETCH(QString, text);
        QCOMPARE(formatDuration(ns), text);
    }
    void changeWording() {
        // An unchanged baseline reads "no change", never "-0.0%".
        QCOMPARE(formatChangePct(0.0), QStringLiteral("no change"));
        QCOMPARE(formatChangePct(-0.02), QStringLiteral("no change"));
        QCOMPARE(formatChangePct(-19.3), QStringLiteral("-19.3%"));
        QCOMPARE(formatChangePct(3.2), QStringLiteral("+3.2%"));
        QCOMPARE(formatChangePct(-0.06), QStringLiteral("-0.1%"));
    }
    void tickLabels() {
        QCOMPARE(tickLabel(5'000'000, 0, 1'000'000), QStringLiteral("5 ms"));
        QCOMPARE(tickLabel(1'500, 0, 500), QStringLiteral("1.5 us"));
        QCOMPARE(tickLabel(1000, 1000, 500), QStringLiteral("0"));
    }
};

QTEST_APPLESS_MAIN(TestTimeMapping)
#include "test_TimeMapping.moc"
