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
#include "WindowParts.h"

#include "TestSupport.h"

#include "SampleCounts.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestMainWindow : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("01-dp8-straggler")); }
    static void load(MainWindow& w, const QStringList& paths) {
        w.sessions()->openTraces(paths);
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
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
        QVERIFY(w.sessions()->traceSet());
        QCOMPARE(w.sessions()->traceSet()->ranks.size(), std::size_t{8});
        QVERIFY(part<TimelinePanes>(w)->measured()->data());
        QVERIFY(part<TimelinePanes>(w)->measured()->layout().rows().size() >= 8);
        QVERIFY(w.sessions()->view()->windowStart() <= w.sessions()->measured()->start());
        QVERIFY(w.sessions()->view()->windowEnd() >= w.sessions()->measured()->end());
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QVERIFY(part<TimelinePanes>(w)->simulated()->data());
        QVERIFY(w.sessions()->simulation().result);
    }
    void selectionIsSharedByPanes() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        load(w, {sample()});
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        TimelineView* pane = part<TimelinePanes>(w)->measured();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Click in the middle of the first GPU row of rank 0.
        const RowLayout& layout = pane->layout();
        int y = -1;
        for (const Row& row : layout.rows())
            if (!row.header() &&
                w.sessions()->traceSet()->ranks[0].tracks[static_cast<std::size_t>(row.track)].isGpu()) {
                y = row.y + RowLayout::laneY(0) + RowLayout::kLaneHeight / 2;
                break;
            }
        QVERIFY(y >= 0);
        // Find an x over an event of that row by scanning.
        EventId hit;
        for (int x = pane->eventArea().left() + 2; x < pane->eventArea().right() && !hit.valid(); x += 2) {
            QTest::mouseClick(pane, Qt::LeftButton, {}, QPoint(x, y));
            hit = w.sessions()->selection()->event();
        }
        QVERIFY(hit.valid());
        // The simulated pane draws the same selection: it finds the event at the same place.
        QVERIFY(!TimelineRenderer::eventRect(*part<TimelinePanes>(w)->simulated()->data(),
                                             part<TimelinePanes>(w)->simulated()->layout(),
                                             w.sessions()->view()->mapping(), hit)
                     .isEmpty());
        QVERIFY(part<DetailsPanel>(w)->toPlainText().contains(QStringLiteral("Simulated start")));
        // F fits the selected event.
        QTest::keyClick(pane, Qt::Key_F);
        const auto& t = w.sessions()->measured()->track(static_cast<std::size_t>(hit.rank), hit.ref.track);
        QVERIFY(w.sessions()->view()->windowStart() <= t.start[hit.ref.index]);
        QVERIFY(w.sessions()->view()->windowEnd() >= t.end(hit.ref.index));
        QVERIFY(w.sessions()->view()->windowDuration() <
                (w.sessions()->measured()->end() - w.sessions()->measured()->start()) / 2);
        // W zooms in, S zooms out, A/D pan.
        const TimeNs d = w.sessions()->view()->windowDuration();
        QTest::keyClick(pane, Qt::Key_S);
        QVERIFY(w.sessions()->view()->windowDuration() > d);
        const TimeNs s0 = w.sessions()->view()->windowStart();
        QTest::keyClick(pane, Qt::Key_D);
        QVERIFY(w.sessions()->view()->windowStart() > s0);
        QTest::keyClick(pane, Qt::Key_Escape);
        QVERIFY(!w.sessions()->selection()->event().valid());
    }
    void findByName() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        part<FindBar>(w)->activate();
        part<FindBar>(w)->field()->setText(QStringLiteral("ncclDevKernel_AllReduce"));
        QSignalSpy found(part<FindBar>(w), &FindBar::found);
        part<FindBar>(w)->findNext();
        QCOMPARE(found.count(), 1);
        const EventId first = w.sessions()->selection()->event();
        QVERIFY(first.valid());
        QVERIFY(
            w.sessions()->traceSet()->ranks[static_cast<std::size_t>(first.rank)].name(first.ref).starts_with(
                "ncclDevKernel_AllReduce"));
        // Every all-reduce kernel of the 8 ranks, counted in the raw files.
        const std::int64_t kernels =
            sltest::countRawEvents(sample().toStdString(), [](const nlohmann::json& e) {
                return e.value("cat", "") == "kernel" &&
                       e.value("name", "").find("ncclDevKernel_AllReduce") != std::string::npos;
            });
        QVERIFY(kernels >= 8);
        QCOMPARE(static_cast<std::int64_t>(part<FindBar>(w)->search().count()), kernels);
        part<FindBar>(w)->findNext();
        QVERIFY(!(w.sessions()->selection()->event() == first));
        part<FindBar>(w)->findPrevious();
        QCOMPARE(w.sessions()->selection()->event(), first);
    }
    void rangeStatistics() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        w.sessions()->selection()->setRange(w.sessions()->measured()->start(),
                                            w.sessions()->measured()->end());
        // Computed in a worker: the table fills when it is done.
        QVERIFY(part<RangeStatsPanel>(w)->worker()->waitForIdle(60'000));
        QVERIFY(part<RangeStatsPanel>(w)->model()->rowCount() > 10);
        // The whole trace is in the range: every complete ("ph": "X") event of the raw files is
        // counted once, under its own name.
        std::int64_t count = 0, launches = 0;
        for (const auto& r : part<RangeStatsPanel>(w)->model()->table().rows) {
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
        w.sessions()->selection()->clearRange();
        QCOMPARE(part<RangeStatsPanel>(w)->model()->rowCount(), 0);
    }
    void errorKeepsPreviousTrace() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        const auto before = w.sessions()->traceSet();
        QTemporaryDir dir;
        const std::string bad = sltest::writeFile(dir, "broken.json", "{\"traceEvents\": [ {\"ph\": ");
        load(w, {QString::fromStdString(bad)});
        QCOMPARE(w.sessions()->traceSet(), before);
        QVERIFY(part<MessageBar>(w)->isVisible());
        QCOMPARE(part<MessageBar>(w)->level(), MessageBar::Level::Error);
        QVERIFY(part<MessageBar>(w)->text().contains(QStringLiteral("broken.json")));
        load(w, {QStringLiteral("/no/such/trace.json")});
        QCOMPARE(w.sessions()->traceSet(), before);
        QVERIFY(part<MessageBar>(w)->text().contains(QStringLiteral("/no/such/trace.json")));
    }
    void cancelKeepsPreviousTrace() {
        MainWindow w;
        load(w, {sample()});
        const auto before = w.sessions()->traceSet();
        QSignalSpy cancelled(w.sessions()->loader(), &TraceLoader::cancelled);
        QSignalSpy loaded(w.sessions()->loader(), &TraceLoader::loaded);
        w.sessions()->openTraces({sample()});
        w.sessions()->loader()->cancel();
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        // Either the cancel arrived in time, or the load had already finished.
        QCOMPARE(cancelled.count() + loaded.count(), 1);
        if (cancelled.count()) QCOMPARE(w.sessions()->traceSet(), before);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_MainWindow.moc"
