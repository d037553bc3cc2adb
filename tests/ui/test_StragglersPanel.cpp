// The Stragglers panel on the bundled straggler sample samples/01-dp8-straggler: the rank table
// puts rank 5 first (it made the others wait; nobody else did), the heat map shows its lateness as
// the deepest cell of the first collective, and a click on a cell selects that collective's kernel
// on that rank and reveals it in both panes (its rank opened).
#include "MainWindow.h"
#include "StragglersPanel.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QMouseEvent>
#include <QTableWidget>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestStragglersPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_StragglersPanel");
    }

    void rank5FirstAndAClickJumps() {
        MainWindow w;
        w.show();
        w.sessions()->openTraces({QString::fromStdString(sltest::samplePath("01-dp8-straggler"))});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        auto* panel = w.findChild<StragglersPanel*>();
        QVERIFY(panel);
        const CollectiveArrivals& a = panel->arrivals();
        QCOMPARE(a.collectives.size(), std::size_t{12});
        QTableWidget* table = panel->table();
        QCOMPARE(table->rowCount(), 8);
        QCOMPARE(table->item(0, 0)->data(Qt::DisplayRole).toInt(), 5);
        QVERIFY(table->item(0, 1)->data(Qt::DisplayRole).toDouble() > 1.0); // ms made others wait
        QCOMPARE(table->item(1, 1)->data(Qt::DisplayRole).toDouble(), 0.0); // nobody else
        QVERIFY2(panel->summary().startsWith(QStringLiteral("Rank 5 made the others wait")),
                 qPrintable(panel->summary()));

        // The heat map: rank 5's cell of the first collective is the deepest red of that column.
        ArrivalHeatMap* heat = panel->heatMap();
        QImage image(heat->size(), QImage::Format_ARGB32);
        heat->render(&image);
        std::uint32_t rank5 = 0;
        while (a.ranks[rank5].rankId != 5)
            ++rank5;
        const QRect late = heat->cellRect(static_cast<int>(rank5), 0);
        const int lateGreen = QColor(image.pixel(late.center())).green();
        for (int r = 0; r < 8; ++r)
            if (r != static_cast<int>(rank5))
                QVERIFY(QColor(image.pixel(heat->cellRect(r, 0).center())).green() > lateGreen);

        // A click on that cell selects rank 5's kernel of the first collective and opens rank 5.
        QCOMPARE(heat->cellAt(late.center()), std::make_pair(static_cast<int>(rank5), 0));
        QTest::mouseClick(heat, Qt::LeftButton, {}, late.center());
        const EventId expected = panel->eventAt(static_cast<int>(rank5), 0);
        QVERIFY(expected.valid());
        QCOMPARE(expected.rank, static_cast<int>(rank5));
        QCOMPARE(w.sessions()->selection()->event(), expected);
        QVERIFY(w.sessions()->tracks()->rankExpanded(rank5));
        // A rank row jumps to the collective it was latest at (the same one here).
        w.sessions()->selection()->setEvent({});
        emit table->cellActivated(0, 0);
        QCOMPARE(w.sessions()->selection()->event().rank, static_cast<int>(rank5));
    }
};

QTEST_MAIN(TestStragglersPanel)
#include "test_StragglersPanel.moc"
