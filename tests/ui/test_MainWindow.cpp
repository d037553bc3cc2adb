// The main window on the bundled 8-rank sample samples/01-dp8-straggler (always present, so these
// never skip): loading, both panes, selection shared by the panes, find, range statistics, a failed
// load that keeps the previous trace, and the simulated pane. Expected counts come from the raw
// sample files (SampleCounts.h), never from the loader under test.
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

#include "SampleCounts.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestMainWindow : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("01-dp8-straggler")); }
    static void load(MainWindow& w, const QStringList& paths) {
        w.openTraces(paths);
        QVERIFY(w.loader()->waitForFinished(60'000));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_MainWindow");
    }
    void loadsSample() {
        MainWindow w;
        w.show();
        load(w, {sample()});
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
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        load(w, {sample()});
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
        MainWindow w;
        w.show();
        load(w, {sample()});
        w.findBar()->activate();
        w.findBar()->field()->setText(QStringLiteral("ncclDevKernel_AllReduce"));
        QSignalSpy found(w.findBar(), &FindBar::found);
        w.findBar()->findNext();
        QCOMPARE(found.count(), 1);
        const EventId first = w.selection()->event();
        QVERIFY(first.valid());
        QVERIFY(w.traceSet()->ranks[static_cast<std::size_t>(first.rank)].name(first.ref).starts_with(
            "ncclDevKernel_AllReduce"));
        // Every all-reduce kernel of the 8 ranks, counted in the raw files.
        const std::int64_t kernels =
            sltest::countRawEvents(sample().toStdString(), [](const nlohmann::json& e) {
                return e.value("cat", "") == "kernel" &&
                       e.value("name", "").find("ncclDevKernel_AllReduce") != std::string::npos;
            });
        QVERIFY(kernels >= 8);
        QCOMPARE(static_cast<std::int64_t>(w.findBar()->search().count()), kernels);
        w.findBar()->findNext();
        QVERIFY(!(w.selection()->event() == first));
        w.findBar()->findPrevious();
        QCOMPARE(w.selection()->event(), first);
    }
    void rangeStatistics() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        w.selection()->setRange(w.measured()->start(), w.measured()->end());
        // Computed in a worker: the table fills when it is done.
        QVERIFY(w.rangeWorker()->waitForIdle(60'000));
        QVERIFY(w.rangeStats()->rowCount() > 10);
        // The whole trace is in the range: every complete ("ph": "X") event of the raw files is
        // counted once, under its own name.
        std::int64_t count = 0, launches = 0;
        for (const auto& r : w.rangeStats()->table().rows) {
            count += r.measured.count;
            if (r.name == QLatin1String("cudaLaunchKernel")) launches = r.measured.count;
        }
        const std::string dir = sample().toStdString();
        QCOMPARE(count, sltest::countRawEvents(
                            dir, [](const nlohmann::json& e) { return e.value("ph", "") == "X"; }));
        QCOMPARE(launches, sltest::countRawEvents(dir, [](const nlohmann::json& e) {
                     return e.value("ph", "") == "X" && e.value("name", "") == "cudaLaunchKernel";
                 }));
        QVERIFY(launches > 0);
        w.selection()->clearRange();
        QCOMPARE(w.rangeStats()->rowCount(), 0);
    }
    void errorKeepsPreviousTrace() {
        MainWindow w;
        w.show();
        load(w, {sample()});
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
        MainWindow w;
        load(w, {sample()});
        const auto before = w.traceSet();
        QSignalSpy cancelled(w.loader(), &TraceLoader::cancelled);
        QSignalSpy loaded(w.loader(), &TraceLoader::loaded);
        w.openTraces({sample()});
        w.loader()->cancel();
        QVERIFY(w.loader()->waitForFinished(60'000));
        // Either the cancel arrived in time, or the load had already finished.
        QCOMPARE(cancelled.count() + loaded.count(), 1);
        if (cancelled.count()) QCOMPARE(w.traceSet(), before);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_MainWindow.moc"
