// Throughput and scaling efficiency in the window (docs/Scaling.md) on the bundled samples/02-dp4
// (4 data-parallel replicas): the result card and the scenario table of a dp.degree=32 scenario say
// what `sightline-cli simulate --json` says (iteration.throughput_vs_baseline, scaling_efficiency),
// and the sweep over dp.degree plots the throughput against its first value with the ideal line.
#include "DeltaTable.h"
#include "MainWindow.h"
#include "ResultCard.h"
#include "SweepView.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "KnobPanel.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"

#include "TestSupport.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace sl;
using namespace sl::ui;

class TestThroughputViews : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("02-dp4")); }
    static nlohmann::json cli(const QStringList& sets) {
        QStringList args{QStringLiteral("simulate"), sample(), QStringLiteral("--json")};
        for (const QString& s : sets)
            args << QStringLiteral("--set") << s;
        const sltest::CliRun run = sltest::runCli(args);
        if (run.code != 0) qFatal("sightline-cli failed: %s", run.err.constData());
        return nlohmann::json::parse(run.out.toStdString());
    }
    static void sweep(SweepView& view, const QString& key, const std::vector<double>& values) {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        view.setGraph(set, std::make_shared<const ExecutionGraph>(buildExecutionGraph(*set)));
        QVERIFY(view.run(key, values));
        QVERIFY(view.waitForIdle(120'000));
    }
    static QLineSeries* seriesNamed(SweepView& view, const QString& prefix) {
        for (QAbstractSeries* s : view.chart()->chart()->series())
            if (s->name().startsWith(prefix)) return qobject_cast<QLineSeries*>(s);
        return nullptr;
    }

    static void open(MainWindow& w) {
        w.show();
        w.sessions()->openTraces({sample()});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(sltest::settleSimulations(w));
    }
    static void setKnobs(MainWindow& w, const SimKnobs& k) {
        w.sessions()->knobs()->setKnobs(k);
        QVERIFY(sltest::settleSimulations(w));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ThroughputViews");
    }

    // dp.degree=32: the card's throughput line and the table's columns, as the CLI prints them.
    void cardAndTable() {
        MainWindow w;
        open(w);
        SimKnobs k;
        k.dpDegree = 32;
        setKnobs(w, k);
        const nlohmann::json j = cli({QStringLiteral("dp.degree=32")});
        const double ratio = j["iteration"]["throughput_vs_baseline"].get<double>();
        const double eff = j["iteration"]["scaling_efficiency"].get<double>();
        QVERIFY2(ratio > 6 && ratio < 8, qPrintable(QString::number(ratio)));
        auto* card = w.findChild<ResultCard*>();
        const QString expected =
            QStringLiteral("Throughput: %1").arg(QString::fromStdString(j["iteration"]["throughput_note"]));
        QVERIFY2(card->text().contains(expected), qPrintable(card->text() + " / " + expected));
        QVERIFY(card->text().contains(QStringLiteral("8x the samples per step")));
        auto* table = w.findChild<DeltaTable*>()->model();
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 2, 30'000);
        QCOMPARE(table->value(table->jobRow(1), DeltaTableModel::Throughput), ratio);
        QCOMPARE(table->value(table->jobRow(1), DeltaTableModel::Efficiency), 100.0 * eff);
        QCOMPARE(table->index(table->jobRow(1), DeltaTableModel::Throughput).data().toString(),
                 QStringLiteral("%1x").arg(ratio, 0, 'f', 2));
        // The baseline does the baseline's work: no throughput to compare.
        QVERIFY(std::isnan(table->value(table->jobRow(0), DeltaTableModel::Throughput)));
    }

    // The sweep over replicas: throughput x first value (8 x step(4) / step(32) at 32) and the
    // ideal line (the replica ratio), on a right axis.
    void sweepWithIdealLine() {
        SweepView view;
        sweep(view, QStringLiteral("dp.degree"), {4, 8, 32});
        QLineSeries* achieved = seriesNamed(view, QStringLiteral("Throughput"));
        QLineSeries* ideal = seriesNamed(view, QStringLiteral("Ideal throughput"));
        QVERIFY(achieved && ideal);
        QCOMPARE(achieved->count(), 3);
        const auto& p = view.points();
        const double expected =
            8.0 * static_cast<double>(p[0].iteration) / static_cast<double>(p[2].iteration);
        QVERIFY(std::abs(achieved->at(2).y() - expected) < 1e-9);
        QCOMPARE(achieved->at(0).y(), 1.0);
        QCOMPARE(ideal->at(1).y(), 2.0);
        QCOMPARE(ideal->at(2).y(), 8.0);
        QCOMPARE(view.chart()->chart()->axes(Qt::Vertical).size(), 2);
        // Counts: throughput on a base-2 log axis as the replicas are (linear scaling is a line).
        auto* right = qobject_cast<QLogValueAxis*>(view.chart()->chart()->axes(Qt::Vertical).back());
        QVERIFY(right);
        QCOMPARE(right->base(), 2.0);
        // A knob that does not change the work: no throughput series.
        SweepView plain;
        sweep(plain, QStringLiteral("compute.speedup"), {1, 2});
        QVERIFY(!seriesNamed(plain, QStringLiteral("Throughput")));
        // Iteration, exposed communication and the current scenario's mark (compute.speedup = 1).
        QCOMPARE(plain.chart()->chart()->series().size(), 3);
    }

    // The batch given (batch.samples, Job setup): the baseline stays the baseline and shows samples/s
    // on its card and in the table, as simulate --json does; dp.degree=32 on top says 8x the samples
    // per step in samples/s too. The sweep's throughput axis is then in samples/s.
    void absoluteThroughput() {
        MainWindow w;
        open(w);
        SimKnobs k;
        k.batchSamples = 256;
        setKnobs(w, k);
        QCOMPARE(w.sessions()->scenarios()->list()->count(), 1); // the batch is no what-if
        const nlohmann::json base = cli({QStringLiteral("batch.samples=256")});
        const double perSecond = base["iteration"]["samples_per_s"].get<double>();
        QVERIFY(std::abs(perSecond * base["iteration"]["simulated_us"].get<double>() * 1e-6 - 256.0) < 0.01);
        auto* card = w.findChild<ResultCard*>();
        QTRY_VERIFY_WITH_TIMEOUT(
            card->text().contains(
                QStringLiteral("Throughput: %1")
                    .arg(QString::fromStdString(base["iteration"]["rate_note"].get<std::string>()))),
            30'000);
        auto* table = w.findChild<DeltaTable*>()->model();
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 1, 30'000);
        QCOMPARE(table->value(table->jobRow(0), DeltaTableModel::Samples), perSecond);
        k.dpDegree = 32;
        setKnobs(w, k);
        QCOMPARE(w.sessions()->scenarios()->list()->count(), 2);
        // Named by its what-if, not by the batch.
        QCOMPARE(w.sessions()->scenarios()->list()->at(1).name, QStringLiteral("dp x32"));
        const nlohmann::json wide =
            cli({QStringLiteral("batch.samples=256"), QStringLiteral("dp.degree=32")});
        QCOMPARE(wide["iteration"]["samples_per_step"].get<double>(), 2048.0);
        QTRY_VERIFY_WITH_TIMEOUT(
            card->text().contains(QString::fromStdString(wide["iteration"]["rate_note"].get<std::string>())),
            30'000);
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 2, 30'000);
        QCOMPARE(table->value(table->jobRow(1), DeltaTableModel::Samples),
                 wide["iteration"]["samples_per_s"].get<double>());

        // The sweep: samples/s at each value, 256 x the samples over the step.
        SweepView view;
        SimKnobs batch;
        batch.batchSamples = 256;
        view.setBaseKnobs(batch);
        sweep(view, QStringLiteral("dp.degree"), {4, 8});
        QLineSeries* achieved = seriesNamed(view, QStringLiteral("Throughput (samples/s)"));
        QVERIFY(achieved);
        const auto& p = view.points();
        QVERIFY(std::abs(achieved->at(0).y() - 256.0 / (static_cast<double>(p[0].iteration) * 1e-9)) < 1e-6);
        QVERIFY(std::abs(achieved->at(1).y() - 512.0 / (static_cast<double>(p[1].iteration) * 1e-9)) < 1e-6);
        // Work that does not change: samples/s still, with no ideal line.
        SweepView plain;
        plain.setBaseKnobs(batch);
        sweep(plain, QStringLiteral("compute.speedup"), {1, 2});
        QVERIFY(seriesNamed(plain, QStringLiteral("Throughput (samples/s)")));
        QVERIFY(!seriesNamed(plain, QStringLiteral("Ideal throughput")));
    }
};

QTEST_MAIN(TestThroughputViews)
#include "test_ThroughputViews.moc"
