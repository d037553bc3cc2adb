// The sweep view on the bundled sample samples/02-dp4 (always present): each point's iteration and
// mean exposed communication equal what `sightline-cli simulate --json` prints for that knob value
// (the mean taken here over the CLI's ranks[].exposed_comm_us), the chart gets one point per value,
// a bad value is refused with the knob's name, and cancel stops a sweep.
#include "SweepView.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"

#include "TestSupport.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace sl;
using namespace sl::ui;

class TestSweepView : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("02-dp4")); }
    // Sweeps `values` of `key` on the sample (set and graph held by the view) to the end.
    static void sweep(SweepView& view, const QString& key, const std::vector<double>& values) {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        view.setGraph(set, std::make_shared<const ExecutionGraph>(buildExecutionGraph(*set)));
        QVERIFY(view.run(key, values));
        QVERIFY(view.waitForIdle(120'000));
    }

private slots:
    void pointsMatchTheCli() {
        SweepView view;
        sweep(view, QStringLiteral("compute.speedup"), {1, 2, 4});
        QCOMPARE(view.points().size(), std::size_t(3));
        for (const SweepPoint& p : view.points()) {
            QVERIFY(p.done);
            const sltest::CliRun run =
                sltest::runCli({QStringLiteral("simulate"), sample(), QStringLiteral("--json"),
                                QStringLiteral("--set"), QStringLiteral("compute.speedup=%1").arg(p.value)});
            QCOMPARE(run.code, 0);
            const nlohmann::json j = nlohmann::json::parse(run.out.toStdString());
            // The CLI prints microseconds with two or three decimals: within 10 ns.
            QVERIFY(std::abs(static_cast<double>(p.iteration) -
                             j["iteration"]["simulated_us"].get<double>() * 1000) <= 10.0);
            double sum = 0;
            for (const auto& r : j["ranks"])
                sum += r["exposed_comm_us"].get<double>();
            QVERIFY(std::abs(p.exposedMeanUs - sum / static_cast<double>(j["ranks"].size())) <= 0.01);
        }
        // A faster GPU never makes this GPU-bound step longer.
        QVERIFY(view.points()[1].iteration < view.points()[0].iteration);
        QVERIFY(view.points()[2].iteration <= view.points()[1].iteration);
        // Two lines, three points each, x = the knob values; a third marks the current scenario's
        // value (replay: 1).
        const auto series = view.chart()->chart()->series();
        QCOMPARE(series.size(), 3);
        auto* mark = qobject_cast<QLineSeries*>(series[2]);
        QCOMPARE(mark->name(), QStringLiteral("current scenario (compute.speedup = 1)"));
        QCOMPARE(mark->at(0).x(), 1.0);
        // Round ticks: the y axis starts at 0 and ends on a round number of ms.
        auto* y = qobject_cast<QValueAxis*>(view.chart()->chart()->axes(Qt::Vertical).front());
        QVERIFY(y);
        QCOMPARE(y->min(), 0.0);
        QCOMPARE(std::fmod(y->max(), 1.0), 0.0);
        auto* line = qobject_cast<QLineSeries*>(series[0]);
        QCOMPARE(line->count(), 3);
        QCOMPARE(line->at(1).x(), 2.0);
        QCOMPARE(line->at(1).y(), static_cast<double>(view.points()[1].iteration) / 1e6);
    }

    void countsOnALogAxis() {
        // Replica counts: 4, 8, 16 spread evenly on a base-2 axis; "as traced" is no value to mark.
        SweepView view;
        sweep(view, QStringLiteral("dp.degree"), {4, 8, 16});
        auto* x = qobject_cast<QLogValueAxis*>(view.chart()->chart()->axes(Qt::Horizontal).front());
        QVERIFY(x);
        QCOMPARE(x->base(), 2.0);
        // Iteration, exposed communication, and throughput with its ideal line (docs/Scaling.md).
        QCOMPARE(view.chart()->chart()->series().size(), 4);
    }

    void knobsNamedAsInThePanel() {
        SweepView view;
        auto* box = view.findChild<QComboBox*>(QStringLiteral("sweepKnob"));
        QVERIFY(box);
        const int i = box->findData(QStringLiteral("comm.gpus_per_node"));
        QVERIFY(i >= 0);
        QCOMPARE(box->itemText(i), QStringLiteral("GPUs per node (comm.gpus_per_node)"));
    }

    void badValueAndCancel() {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        auto graph = std::make_shared<const ExecutionGraph>(buildExecutionGraph(*set));
        SweepView view;
        QVERIFY(!view.run(QStringLiteral("compute.speedup"), {2})); // no graph yet
        view.setGraph(set, graph);
        QVERIFY(!view.run(QStringLiteral("compute.speedup"), {-1}));
        QVERIFY2(view.message().contains(QStringLiteral("compute.speedup")), qPrintable(view.message()));
        QVERIFY(!view.run(QStringLiteral("compute.speedup"), {}));
        QVERIFY(view.run(QStringLiteral("comm.speedup"), {1, 2, 3, 4, 5, 6, 7, 8}));
        view.cancel();
        QVERIFY(!view.busy());
        QVERIFY(view.message().contains(QStringLiteral("cancelled")));
        // Results of the cancelled sweep that still arrive change nothing.
        QTest::qWait(500);
        QVERIFY(!view.busy());
    }
};

QTEST_MAIN(TestSweepView)
#include "test_SweepView.moc"
