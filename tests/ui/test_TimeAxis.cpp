// The time axis's labels (ui/timeline/TimeAxis): at round values (a 1-2-5 step after the origin)
// that never overlap, whatever the zoom and width; "14 ms15 ms16 ms" was the bug.
#include "TimeAxis.h"
#include "TimeFormat.h"

#include <QFont>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QtTest>

#include <cmath>

using namespace sl;
using namespace sl::ui;

class TestTimeAxis : public QObject {
    Q_OBJECT
    static bool isNice(TimeNs step) {
        if (step <= 0) return false;
        while (step % 10 == 0)
            step /= 10;
        return step == 1 || step == 2 || step == 5;
    }

private slots:
    void labelsRoundAndApart() {
        const QFontMetrics fm(QGuiApplication::font());
        const TimeNs origin = 1'000'000'123;
        int checked = 0;
        for (const int width : {300, 517, 800, 1203, 2400}) {
            // Windows from 2 us to 40 s, at odd starts.
            for (double duration = 2'000; duration < 4e10; duration *= 1.37) {
                const TimeNs start = origin + static_cast<TimeNs>(duration * 0.731);
                const TimeMapping m =
                    TimeMapping::fromWindow(start, start + static_cast<TimeNs>(duration), width);
                const auto labels = TimeAxis::labels(m, width, origin, fm);
                QVERIFY2(labels.size() >= 2 || width < 400,
                         qPrintable(QStringLiteral("%1 labels at %2 px, %3 ns")
                                        .arg(labels.size())
                                        .arg(width)
                                        .arg(duration)));
                for (std::size_t i = 0; i < labels.size(); ++i) {
                    QVERIFY(labels[i].right <= width);
                    QVERIFY(labels[i].x >= -0.5);
                    if (i == 0) continue;
                    // Apart: a gap between one label's end and the next's start.
                    QVERIFY2(labels[i].x + 3 >= labels[i - 1].right + 4,
                             qPrintable(labels[i - 1].text + QStringLiteral(" | ") + labels[i].text));
                    // Round: evenly spaced at a 1-2-5 step after the origin.
                    const TimeNs step = labels[i].time - labels[i - 1].time;
                    QVERIFY2(isNice(step), qPrintable(QString::number(step)));
                    QCOMPARE((labels[i].time - origin) % step, TimeNs{0});
                    QVERIFY(labels[i].text != labels[i - 1].text);
                }
                ++checked;
            }
        }
        QVERIFY(checked > 100);
    }

    void millisecondsDoNotCollide() {
        // The case from the issue: about 20 ms on a 1000 px pane gave "14 ms15 ms16 ms".
        const QFontMetrics fm(QGuiApplication::font());
        const TimeMapping m = TimeMapping::fromWindow(0, 20'000'000, 1000);
        const auto labels = TimeAxis::labels(m, 1000, 0, fm);
        QVERIFY(labels.size() >= 4);
        for (std::size_t i = 1; i < labels.size(); ++i)
            QVERIFY(labels[i].x + 3 > labels[i - 1].right);
        QVERIFY(labels[1].text.endsWith(QStringLiteral(" ms")));
    }

    void majorStepsDivideByTheMinor() {
        for (double nsPerPx : {0.3, 7.0, 123.0, 4'567.0, 98'765.0}) {
            TimeMapping m;
            m.nsPerPixel = nsPerPx;
            for (const int room : {0, 40, 90, 250}) {
                const AxisSteps s = axisSteps(m, 16, room);
                QVERIFY(isNice(s.minor) && isNice(s.major));
                QCOMPARE(s.major % s.minor, TimeNs{0});
                if (room > 0) QVERIFY(static_cast<double>(s.major) / nsPerPx >= room);
            }
        }
    }
};

QTEST_MAIN(TestTimeAxis)
#include "test_TimeAxis.moc"
