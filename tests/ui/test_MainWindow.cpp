// The main window on a real 8-rank trace: loading, both panes, selection shared by the panes,
// find, range statistics, a failed load that keeps the previous trace, and the simulated pane.
#include "DetailsPanel.h"
#include "FindBar.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "RangeStatsModel.h"
#include "RangeStatsWorker.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "ViewController.h"

#include "TestSupport.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestMainWindow : public QObject {
    Q_OBJECT
    static QString dlrm() { return sltest::tracesDir() + "/dlrm-8rank-v100/kineto"; }
    static void load(MainWindow& w, const QStringList& paths) {
        w.openTraces(paths);
        QVERIFY(w.loader()->waitForFinished(60'000));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_MainWindow");
    }
    void loadsRealTrace() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        w.show();
        load(w, {dlrm()});
        QVERIFY(w.traceSet());
        QCOMPARE(w.traceSet()->ranks.size(), std::size_t{8});
        QVERIFY(w.panes()->measured()->data());
        QVERIFY(w.panes()->measured()->layout().rows().size() >= 8);
        QVERIFY(w.controller()->windowStart() <= w.measured()->start());
        QVERIFY(w.controller()->windowEnd() >= w.measured()->end());
        QVERIFY(w.simRunner()->waitForIdle(60'000));
        QVERIFY(w.panes()->simulated()->data());
        QVERIFY(w.simulation().result);
    }
    void selectionIsSharedByPanes() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        load(w, {dlrm()});
        QVERIFY(w.simRunner()->waitForIdle(60'000));
        TimelineView* pane = w.panes()->measured();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Click in the middle of the first GPU row of rank 0.
        const RowLayout& layout = pane->layout();
        int y = -1;
        for (const Row& row : layout.rows())
            if (!row.header() && w.traceSet()->ranks[0].tracks[static_cast<std::size_t>(row.track)].isGpu()) {
                y = row.y + RowLayout::laneY(0) + RowLayout::kLaneHeight / 2;
                break;
            }
        QVERIFY(y >= 0);
        // Find an x over an event of that row by scanning.
        EventId hit;
        for (int x = pane->eventArea().left() + 2; x < pane->eventArea().right() && !hit.valid(); x += 2) {
            QTest::mouseClick(pane, Qt::LeftButton, {}, QPoint(x, y));
            hit = w.selection()->event();
        }
        QVERIFY(hit.valid());
        // The simulated pane draws the same selection: it finds the event at the same place.
        QVERIFY(!TimelineRenderer::eventRect(*w.panes()->simulated()->data(),
                                             w.panes()->simulated()->layout(), w.controller()->mapping(), hit)
                     .isEmpty());
        QVERIFY(w.details()->toPlainText().contains(QStringLiteral("Simulated start")));
        // F fits the selected event.
        QTest::keyClick(pane, Qt::Key_F);
        const auto& t = w.measured()->track(static_cast<std::size_t>(hit.rank), hit.ref.track);
        QVERIFY(w.controller()->windowStart() <= t.start[hit.ref.index]);
        QVERIFY(w.controller()->windowEnd() >= t.end(hit.ref.index));
        QVERIFY(w.controller()->windowDuration() < (w.measured()->end() - w.measured()->start()) / 2);
        // W zooms in, S zooms out, A/D pan.
        const TimeNs d = w.controller()->windowDuration();
        QTest::keyClick(pane, Qt::Key_S);
        QVERIFY(w.controller()->windowDuration() > d);
        const TimeNs s0 = w.controller()->windowStart();
        QTest::keyClick(pane, Qt::Key_D);
        QVERIFY(w.controller()->windowStart() > s0);
        QTest::keyClick(pane, Qt::Key_Escape);
        QVERIFY(!w.selection()->event().valid());
    }
    void findByName() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        w.show();
        load(w, {dlrm()});
        w.findBar()->activate();
        w.findBar()->field()->setText(QStringLiteral("ncclKernel_AllReduce"));
        QSignalSpy found(w.findBar(), &FindBar::found);
        w.findBar()->findNext();
        QCOMPARE(found.count(), 1);
        const EventId first = w.selection()->event();
        QVERIFY(first.valid());
        QVERIFY(w.traceSet()->ranks[static_cast<std::size_t>(first.rank)].name(first.ref).starts_with(
            "ncclKernel_AllReduce"));
        QCOMPARE(w.findBar()->search().count(), std::size_t{8 * 3});
        w.findBar()->findNext();
        QVERIFY(!(w.selection()->event() == first));
        w.findBar()->findPrevious();
        QCOMPARE(w.selection()->event(), first);
    }
    void rangeStatistics() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        w.show();
        load(w, {dlrm()});
        w.selection()->setRange(w.measured()->start(), w.measured()->end());
        // Computed in a worker: the table fills when it is done.
        QVERIFY(w.rangeWorker()->waitForIdle(60'000));
        QVERIFY(w.rangeStats()->rowCount() > 10);
        std::int64_t count = 0;
        for (const auto& r : w.rangeStats()->table().rows)
            count += r.measured.count;
        QVERIFY(count > 0);
        QVERIFY(count <= w.traceSet()->eventCount());
        w.selection()->clearRange();
        QCOMPARE(w.rangeStats()->rowCount(), 0);
    }
    void errorKeepsPreviousTrace() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        w.show();
        load(w, {dlrm()});
        const auto before = w.traceSet();
        QTemporaryDir dir;
        const std::string bad = sltest::writeFile(dir, "broken.json", "{\"traceEvents\": [ {\"ph\": ");
        load(w, {QString::fromStdString(bad)});
        QCOMPARE(w.traceSet(), before);
        QVERIFY(w.messageBar()->isVisible());
        QCOMPARE(w.messageBar()->level(), MessageBar::Level::Error);
        QVERIFY(w.messageBar()->text().contains(QStringLiteral("broken.json")));
        load(w, {QStringLiteral("/no/such/trace.json")});
        QCOMPARE(w.traceSet(), before);
        QVERIFY(w.messageBar()->text().contains(QStringLiteral("/no/such/trace.json")));
    }
    void cancelKeepsPreviousTrace() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        load(w, {dlrm()});
        const auto before = w.traceSet();
        QSignalSpy cancelled(w.loader(), &TraceLoader::cancelled);
        QSignalSpy loaded(w.loader(), &TraceLoader::loaded);
        w.openTraces({dlrm()});
        w.loader()->cancel();
        QVERIFY(w.loader()->waitForFinished(60'000));
        // Either the cancel arrived in time, or the load had already finished.
        QCOMPARE(cancelled.count() + loaded.count(), 1);
        if (cancelled.count()) QCOMPARE(w.traceSet(), before);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_MainWindow.moc"
