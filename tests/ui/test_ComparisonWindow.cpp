// File > Open Comparison Run...'s window on its own (ComparisonWindow.h): the bundled 4-rank sample
// against itself (every delta zero, 100% aligned, sortable tables, the replay held against it), a
// generated GPU-2x pair with compute.speedup=2 (the prediction tab), an unreadable run (one line),
// and Save Report.
#include "BackgroundJob.h"
#include "ComparisonWindow.h"

#include "ComparisonPair.h"
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QThreadPool>
#include <QtTest>

#include <memory>

using namespace sl;
using namespace sl::ui;

namespace {

struct Open {
    std::shared_ptr<TraceSet> set;
    std::shared_ptr<const ExecutionGraph> graph;
    std::shared_ptr<const SimResult> sim;
};

Open openRun(const std::string& path, const SimKnobs& knobs = {}) {
    Open o;
    o.set = std::make_shared<TraceSet>(loadTraceSet({path}));
    auto g = std::make_shared<ExecutionGraph>(buildExecutionGraph(*o.set));
    o.sim = std::make_shared<const SimResult>(simulate(*g, knobs));
    o.graph = g;
    return o;
}

bool waitDone(ComparisonWindow& w) {
    QSignalSpy spy(&w, &ComparisonWindow::done);
    return w.finished() || spy.wait(60000);
}

} // namespace

class TestComparisonWindow : public QObject {
    Q_OBJECT

private slots:
    void sampleAgainstItself() {
        const std::string s = sltest::samplePath("02-dp4");
        const Open o = openRun(s);
        ComparisonWindow w(o.graph, o.sim, {}, {QString::fromStdString(s)}, {QString::fromStdString(s)});
        QVERIFY(waitDone(w));
        QVERIFY2(w.error().isEmpty(), qPrintable(w.error()));
        QVERIFY2(w.verdictText().contains("no GPU time changed"), qPrintable(w.verdictText()));
        QCOMPARE(w.report()["alignment"]["aligned_pct"].get<double>(), 100.0);
        for (const char* tab : {"Ranks", "Classes", "Kernels", "CPU ops", "Predicted vs actual"})
            QVERIFY2(w.table(tab), tab);
        QTableWidget* ranks = w.table("Ranks");
        QCOMPARE(ranks->rowCount(), 4);
        // iteration before == after on every rank.
        for (int r = 0; r < 4; ++r)
            QCOMPARE(ranks->item(r, 1)->data(Qt::DisplayRole).toDouble(),
                     ranks->item(r, 2)->data(Qt::DisplayRole).toDouble());
        QTableWidget* kernels = w.table("Kernels");
        QVERIFY(kernels->rowCount() > 3);
        QVERIFY(kernels->isSortingEnabled());
        for (int r = 0; r < kernels->rowCount(); ++r)
            QCOMPARE(kernels->item(r, 3)->data(Qt::DisplayRole).toDouble(), 0.0);
        // Sorting by "before" puts the largest first, as numbers (not as text).
        kernels->sortByColumn(1, Qt::DescendingOrder);
        for (int r = 1; r < kernels->rowCount(); ++r)
            QVERIFY(kernels->item(r - 1, 1)->data(Qt::DisplayRole).toDouble() >=
                    kernels->item(r, 1)->data(Qt::DisplayRole).toDouble());
        // The replay against the same run: a small error.
        QVERIFY(w.report()["prediction"]["iteration"]["error_pct"].get<double>() < 5.0);

        QTemporaryDir dir;
        const QString html = dir.filePath("cmp.html");
        QCOMPARE(w.saveReport(html), QString());
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("Before and after"));
        QVERIFY(!w.saveReport(dir.filePath("cmp.txt")).isEmpty());
        QVERIFY(!w.saveReport(dir.filePath("no/such/dir/cmp.csv")).isEmpty());
    }

    void predictionOfAFasterGpu() {
        QTemporaryDir dir;
        const std::string a = dir.filePath("a").toStdString(), b = dir.filePath("b").toStdString();
        auto c = sltest::ComparisonPair::job();
        sl::synth::generate(c, a, 2);
        c.gpuSpeedup = 2;
        sl::synth::generate(c, b, 2);
        SimKnobs knobs;
        setKnobAssignment(knobs, "compute.speedup=2");
        const Open o = openRun(a, knobs);
        ComparisonWindow w(o.graph, o.sim, knobs, {QString::fromStdString(a)}, {QString::fromStdString(b)});
        QVERIFY(waitDone(w));
        QVERIFY2(w.error().isEmpty(), qPrintable(w.error()));
        QVERIFY2(w.verdictText().contains("gemm -50.0%"), qPrintable(w.verdictText()));
        QTableWidget* p = w.table("Predicted vs actual");
        QVERIFY(p);
        QCOMPARE(p->item(0, 0)->text(), QString("iteration (job)"));
        QVERIFY(p->item(0, 4)->data(Qt::DisplayRole).toDouble() < 1.0);  // with the knob
        QVERIFY(p->item(0, 5)->data(Qt::DisplayRole).toDouble() > 15.0); // assuming no change
    }

    // Closing the window mid-load: its BackgroundJob cancels the load and waits for it, so nothing
    // of it is left running, on the job pool or on Qt's global pool.
    void closedMidLoadLeavesNothingRunning() {
        const std::string s = sltest::samplePath("02-dp4");
        const Open o = openRun(s);
        auto* w = new ComparisonWindow(o.graph, o.sim, {}, {QString::fromStdString(s)},
                                       {QString::fromStdString(sltest::samplePath("04-dp2-tp2-pp2-2nodes"))});
        QVERIFY(!w->finished());
        delete w;
        QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(jobPool()->activeThreadCount(), 0, 10'000);
    }

    void unreadableRunSaysSoInOneLine() {
        const std::string s = sltest::samplePath("02-dp4");
        const Open o = openRun(s);
        QTemporaryDir dir;
        const QString broken =
            QString::fromStdString(sltest::writeFile(dir, "broken.json", "{\"traceEvents\": [ {"));
        ComparisonWindow w(o.graph, o.sim, {}, {QString::fromStdString(s)}, {broken});
        QVERIFY(waitDone(w));
        QVERIFY(w.error().startsWith("error: "));
        QVERIFY(w.error().contains("broken.json"));
        QVERIFY(!w.error().contains('\n'));
        QCOMPARE(w.tabs()->count(), 0);
        QVERIFY(!w.saveReport(dir.filePath("x.html")).isEmpty());
    }
};

QTEST_MAIN(TestComparisonWindow)
#include "test_ComparisonWindow.moc"
