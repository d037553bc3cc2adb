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
#include <QLineSeries>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace sl;
using namespace sl::ui;

class TestSweepView : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("02-dp4")); }

private slots:
    void pointsMatchTheCli() {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        auto graph = std::make_shared<const ExecutionGraph>(buildExecutionGraph(*set));
        SweepView view;
        view.setGraph(set, graph);
        QVERIFY(view.run(QStringLiteral("compute.speedup"), {1, 2, 4}));
        QVERIFY(view.waitForIdle(120'000));
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
        // Two lines, three points each, x = the knob values.
        const auto series = view.chart()->chart()->series();
        QCOMPARE(series.size(), 2);
        auto* line = qobject_cast<QLineSeries*>(series[0]);
        QCOMPARE(line->count(), 3);
        QCOMPARE(line->at(1).x(), 2.0);
        QCOMPARE(line->at(1).y(), static_cast<double>(view.points()[1].iteration) / 1e6);
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
