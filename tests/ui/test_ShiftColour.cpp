// Where simulation and measurement differ: the shift scale (bins worked out by hand), and the
// simulated pane of the bundled sample samples/02-dp4 with a 2x faster GPU coloured by shift: events
// move earlier, so the "earlier" end of the scale grows, while under replay the middle colour
// (no shift) dominates.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "ScenarioController.h"
#include "TimelinePanes.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QAction>
#include <QImage>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestShiftColour : public QObject {
    Q_OBJECT
    static void settle(MainWindow& w) {
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
            QVERIFY(w.findChild<ScenarioController*>()->runner()->waitForIdle(60'000));
        }
    }
    // Pixels of the pane's picture in shift bins [from, to), below the legend (top 40 px).
    static int pixelsInBins(const QImage& full, int from, int to) {
        const QImage img = full.copy(0, 40, full.width(), full.height() - 40);
        std::vector<QRgb> colours;
        for (int b = from; b < to; ++b)
            colours.push_back(shiftColour(b).rgb());
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                if (std::find(colours.begin(), colours.end(), img.pixel(x, y) | 0xff000000u) != colours.end())
                    ++n;
        return n;
    }

private slots:
    void bins() {
        // 9 bins, the middle (4) for no shift; +-scale saturates at the ends; half the scale is
        // round(0.5 x 4) = 2 bins from the middle.
        QCOMPARE(shiftBin(0, 1000), 4);
        QCOMPARE(shiftBin(1000, 1000), 8);
        QCOMPARE(shiftBin(-1000, 1000), 0);
        QCOMPARE(shiftBin(500, 1000), 6);
        QCOMPARE(shiftBin(-500, 1000), 2);
        QCOMPARE(shiftBin(50'000, 1000), 8);
        QCOMPARE(shiftBin(700, 0), 4);
        QCOMPARE(shiftColour(4), QColor(0xd9, 0xd9, 0xd9));
        QCOMPARE(shiftColour(0), QColor(0x21, 0x66, 0xac));
        QCOMPARE(shiftColour(8), QColor(0xb2, 0x18, 0x2b));
    }

    void fasterGpuShowsEarlierColours() {
        MainWindow w;
        w.resize(1400, 1100); // panes as tall as the window had them before the knob panel scrolled
        w.show();
        w.sessions()->openTraces({QString::fromStdString(sltest::samplePath("02-dp4"))});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
        auto* shift = w.findChild<QAction*>(QStringLiteral("shiftColourAction"));
        QVERIFY(shift);
        shift->setChecked(true);
        TimelineView* pane = part<TimelinePanes>(w)->simulated();
        QVERIFY(pane->shiftScale() >= 1000);
        // Replay: the sample replays its iteration within 0.1 us, so almost every event keeps its
        // measured start: the middle colour outweighs both ends of the scale tenfold.
        QImage replay = pane->grab().toImage();
        const int replayEnds = pixelsInBins(replay, 0, 2) + pixelsInBins(replay, 7, 9);
        QVERIFY(pixelsInBins(replay, 4, 5) > 10 * replayEnds);
        SimKnobs k;
        k.computeSpeedup = 2;
        w.sessions()->knobs()->setKnobs(k);
        settle(w);
        QImage fast = pane->grab().toImage();
        // Halved kernels pull later work earlier: the "much earlier" end of the scale grows
        // several-fold, and nothing moves later.
        QVERIFY2(pixelsInBins(fast, 0, 2) > 3 * std::max(1, pixelsInBins(replay, 0, 2)),
                 qPrintable(QString::number(pixelsInBins(fast, 0, 2))));
        QCOMPARE(pixelsInBins(fast, 7, 9), 0);
        // Off again: normal colours.
        shift->setChecked(false);
        QCOMPARE(pane->shiftScale(), TimeNs(0));
    }
};

QTEST_MAIN(TestShiftColour)
#include "test_ShiftColour.moc"
