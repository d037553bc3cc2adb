// The plan view (ui/panels/PlanView.h, docs/Layouts.md "In the window"): on a generated transformer
// job at (dp 4, tp 2) the rows are the core planner's rows for the same GPU count in the same order
// (the numbers `sightline-cli plan` prints), the chart has one bar per predicted layout, best first,
// and the table's model passes QAbstractItemModelTester; bad numbers and a trace without transformer
// layers are refused with one line; pipeline degrees to try add pp.degree rows; a cancelled plan leaves no
// rows; in the window, the Plan tab in front is the chart saved, and the HTML report carries it. The sweep of
// tp.degree is on a log axis.
#include "LayoutPlanModel.h"
#include "MainWindow.h"
#include "PlanView.h"
#include "ResultCard.h"
#include "SessionController.h"
#include "SweepView.h"
#include "WindowParts.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "synth/Generator.h"

#include "core/SynthFixture.h"

#include "TestSupport.h"

#include <QAbstractItemModelTester>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QHorizontalStackedBarSeries>
#include <QLineEdit>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

namespace {

// The layout oracles' job at (dp 4, tp 2): 8 GPUs of one node, two micro-batches per replica.
struct Generated {
    QTemporaryDir dir;
    std::shared_ptr<const TraceSet> set;
    std::shared_ptr<const ExecutionGraph> graph;
};

std::unique_ptr<Generated> transformerJob() {
    auto g = std::make_unique<Generated>();
    synth::generate(slsynth::layoutJob(4, 2), g->dir.path().toStdString(), 2);
    g->set = std::make_shared<const TraceSet>(loadTraceSet({g->dir.path().toStdString()}));
    g->graph = std::make_shared<const ExecutionGraph>(buildExecutionGraph(*g->set));
    return g;
}

QHorizontalStackedBarSeries* barsOf(const PlanView& view) {
    const auto series = view.chart()->chart()->series();
    return series.size() == 1 ? qobject_cast<QHorizontalStackedBarSeries*>(series.front()) : nullptr;
}

// The layouts' axis (the vertical one: one bar per layout, best at the top).
QBarCategoryAxis* layoutAxis(const PlanView& view) {
    const auto axes = view.chart()->chart()->axes(Qt::Vertical);
    return axes.isEmpty() ? nullptr : qobject_cast<QBarCategoryAxis*>(axes.front());
}

} // namespace

class TestPlanView : public QObject {
    Q_OBJECT
    std::unique_ptr<Generated> job_;

private slots:
    void initTestCase() { job_ = transformerJob(); }

    void rowsAreThePlannersRows() {
        PlanView view;
        QAbstractItemModelTester tester(const_cast<LayoutPlanModel*>(view.model()),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setGraph(job_->set, job_->graph);
        // The traced job's GPU count is the first question.
        QCOMPARE(view.gpusEdit()->text(), QStringLiteral("8"));
        QSignalSpy finished(&view, &PlanView::finished);
        QVERIFY(view.run(8));
        QVERIFY(view.waitForIdle(120'000));
        QCOMPARE(finished.size(), 1);
        const LayoutPlan expected = planLayouts(*job_->graph, 8);
        const LayoutPlan& shown = view.model()->plan();
        QCOMPARE(shown.rows.size(), expected.rows.size());
        QCOMPARE(shown.rows.size(), std::size_t(4)); // tp 1, 2, 4, 8
        for (std::size_t i = 0; i < shown.rows.size(); ++i) {
            QCOMPARE(shown.rows[i].tp, expected.rows[i].tp);
            QCOMPARE(shown.rows[i].dp, expected.rows[i].dp);
            QCOMPARE(shown.rows[i].step, expected.rows[i].step);
            QVERIFY(shown.rows[i].error.empty());
        }
        // Best first: tokens per second never grow down the fitting rows.
        for (std::size_t i = 1; i < shown.rows.size(); ++i)
            if (shown.rows[i].fits == shown.rows[i - 1].fits)
                QVERIFY(shown.rows[i].tokensPerSecond <= shown.rows[i - 1].tokensPerSecond);
        // The table: the layout's name and the step in ms; raw numbers under Qt::UserRole.
        const LayoutPlanModel* m = view.model();
        QCOMPARE(m->rowCount(), 4);
        // The global batch kept: each replica runs its share (8 micro-batches over dp), named.
        QVERIFY(m->microbatchesVary());
        QCOMPARE(m->data(m->index(0, LayoutPlanModel::Layout)).toString(),
                 QStringLiteral("dp %1 · tp %2 · pp 1 · %3 mb")
                     .arg(shown.rows[0].dp)
                     .arg(shown.rows[0].tp)
                     .arg(8 / shown.rows[0].dp));
        QCOMPARE(m->data(m->index(0, LayoutPlanModel::Step), Qt::UserRole).toLongLong(),
                 static_cast<qlonglong>(shown.rows[0].step));
        QCOMPARE(m->data(m->index(0, LayoutPlanModel::Step)).toString(),
                 QString::number(static_cast<double>(shown.rows[0].step) / 1e6, 'f', 3));
        // A layout that changes tp says what it modelled.
        for (int r = 0; r < m->rowCount(); ++r)
            if (shown.rows[static_cast<std::size_t>(r)].tp != 2)
                QVERIFY(
                    m->data(m->index(r, 0), Qt::ToolTipRole).toString().startsWith("Modelled, not measured"));
        // The chart: one bar per layout, the table's first at the top (the category axis counts from
        // the bottom), coloured by whether it fits.
        QHorizontalStackedBarSeries* bars = barsOf(view);
        QVERIFY(bars);
        QCOMPARE(bars->count(), 2);
        QBarCategoryAxis* layouts = layoutAxis(view);
        QVERIFY(layouts);
        QCOMPARE(layouts->count(), 4);
        QVERIFY(!layouts->truncateLabels()); // "…" beside a dozen bars otherwise
        QCOMPARE(layouts->at(3), QStringLiteral("%1×%2×1").arg(shown.rows[0].dp).arg(shown.rows[0].tp));
        const QBarSet* fits = bars->barSets().at(0);
        const QBarSet* exceeds = bars->barSets().at(1);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(fits->at(3 - i) + exceeds->at(3 - i),
                     shown.rows[static_cast<std::size_t>(i)].tokensPerSecond);
        QVERIFY(view.message().contains(QStringLiteral("4 of 4 layouts of 8 GPUs predicted")));
        QVERIFY(view.message().contains(QStringLiteral("best: ") +
                                        LayoutPlanModel::layoutName(shown.rows[0], false)));
    }

    void microbatchesPerReplica() {
        PlanView view;
        view.setGraph(job_->set, job_->graph);
        view.microbatchesEdit()->setText(QStringLiteral("2, 4"));
        QMetaObject::invokeMethod(view.microbatchesEdit(), "returnPressed");
        QVERIFY(view.busy());
        QVERIFY(view.waitForIdle(120'000));
        QCOMPARE(view.model()->rowCount(), 8); // 4 layouts x 2 counts
        QVERIFY(view.model()->microbatchesVary());
        QVERIFY(view.model()->data(view.model()->index(0, 0)).toString().endsWith(" mb"));
        // Two bars of one layout: the count names them apart.
        QBarCategoryAxis* layouts = layoutAxis(view);
        QVERIFY(layouts);
        QVERIFY(layouts->at(0).endsWith(QStringLiteral(" mb")));
    }

    // Pipeline degrees to try: pp 2 rows beside pp 1's (pp.degree splits the 4 layers over 2
    // stages), each predicted, and the rows are the planner's for the same lists.
    void pipelineDegrees() {
        PlanView view;
        view.setGraph(job_->set, job_->graph);
        view.pipelineDegreesEdit()->setText(QStringLiteral("1, 2"));
        QMetaObject::invokeMethod(view.pipelineDegreesEdit(), "returnPressed");
        QVERIFY(view.busy());
        QVERIFY(view.waitForIdle(120'000));
        const LayoutPlan expected = planLayouts(*job_->graph, 8, {}, {}, {}, {1, 2});
        const LayoutPlan& shown = view.model()->plan();
        QCOMPARE(shown.rows.size(), expected.rows.size());
        int pp2 = 0;
        for (std::size_t i = 0; i < shown.rows.size(); ++i) {
            QCOMPARE(shown.rows[i].pp, expected.rows[i].pp);
            QCOMPARE(shown.rows[i].tp, expected.rows[i].tp);
            QCOMPARE(shown.rows[i].step, expected.rows[i].step);
            if (shown.rows[i].pp == 2 && shown.rows[i].error.empty()) ++pp2;
        }
        QVERIFY(pp2 >= 3); // tp 1, 2, 4 with 2 stages on 8 GPUs
        QBarCategoryAxis* layouts = layoutAxis(view);
        QVERIFY(layouts);
        QVERIFY(layouts->categories().filter(QRegularExpression(QStringLiteral("^\\d+×\\d+×2$"))).size() ==
                pp2);
        // Asked for: no "as traced" note.
        QVERIFY(!view.message().contains(QStringLiteral("pipeline degree as traced")));
    }

    void badInputIsOneLine() {
        PlanView view;
        QVERIFY(!view.run(8)); // nothing open
        QVERIFY(view.message().startsWith(QStringLiteral("Open a trace first")));
        view.setGraph(job_->set, job_->graph);
        view.gpusEdit()->setText(QStringLiteral("eight"));
        QMetaObject::invokeMethod(view.gpusEdit(), "returnPressed");
        QVERIFY(!view.busy());
        QCOMPARE(view.message(), QStringLiteral("GPUs: \"eight\" is not a whole number of at least 1"));
        view.gpusEdit()->setText(QStringLiteral("8"));
        view.microbatchesEdit()->setText(QStringLiteral("4, 0"));
        QMetaObject::invokeMethod(view.gpusEdit(), "returnPressed");
        QVERIFY(!view.busy());
        QCOMPARE(view.message(), QStringLiteral("Micro-batches: \"0\" is not a whole number of at least 1"));
        view.microbatchesEdit()->clear();
        view.pipelineDegreesEdit()->setText(QStringLiteral("two"));
        QMetaObject::invokeMethod(view.gpusEdit(), "returnPressed");
        QVERIFY(!view.busy());
        QCOMPARE(view.message(),
                 QStringLiteral("Pipeline degrees: \"two\" is not a whole number of at least 1"));
        QVERIFY(!view.run(0));
        QCOMPARE(view.message(), QStringLiteral("GPUs must be at least 1."));
        // A trace without transformer layers (the bundled data-parallel sample).
        auto sample = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        PlanView other;
        other.setGraph(sample, std::make_shared<const ExecutionGraph>(buildExecutionGraph(*sample)));
        QVERIFY(other.run(4));
        QVERIFY(other.waitForIdle(60'000));
        QCOMPARE(other.model()->rowCount(), 0);
        QVERIFY(!other.message().isEmpty());
        QVERIFY(!other.message().contains(QLatin1Char('\n')));
        QVERIFY2(other.message().contains(QStringLiteral("no transformer layers recognised")),
                 qPrintable(other.message()));
    }

    void cancelLeavesNoRows() {
        PlanView view;
        view.setGraph(job_->set, job_->graph);
        QSignalSpy finished(&view, &PlanView::finished);
        QVERIFY(view.run(8));
        view.cancel();
        QCOMPARE(view.message(), QStringLiteral("Plan cancelled."));
        QVERIFY(view.waitForIdle(120'000));
        QCOMPARE(view.model()->rowCount(), 0);
        QCOMPARE(finished.size(), 1);
        QVERIFY(!barsOf(view));
    }

    // The sweep over the layout counts the plan enumerates spreads them evenly, as other counts.
    void sweepOfTensorParallelDegreeOnALogAxis() {
        SweepView view;
        view.setGraph(job_->set, job_->graph);
        QVERIFY(view.run(QStringLiteral("tp.degree"), {1, 2, 4}));
        QVERIFY(view.waitForIdle(120'000));
        for (const SweepPoint& p : view.points())
            QVERIFY(p.done);
        auto* x = qobject_cast<QLogValueAxis*>(view.chart()->chart()->axes(Qt::Horizontal).front());
        QVERIFY(x);
        QCOMPARE(x->base(), 2.0);
    }

    // A value the simulator refuses says why in the status line; another set's graph clears it.
    void sweepSaysWhyAValueFailed() {
        SweepView view;
        const QString idle = view.message();
        view.setGraph(job_->set, job_->graph);
        QVERIFY(view.run(QStringLiteral("tp.degree"), {2, 3}));
        QVERIFY(view.waitForIdle(120'000));
        QVERIFY2(view.message().contains(QStringLiteral("1 of 2 values simulated")),
                 qPrintable(view.message()));
        QVERIFY2(view.message().contains(QStringLiteral("tp.degree = 3 failed: tp.degree=3")),
                 qPrintable(view.message()));
        auto sample = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        view.setGraph(sample, std::make_shared<const ExecutionGraph>(buildExecutionGraph(*sample)));
        QCOMPARE(view.message(), idle);
    }

    // In the window: the Plan tab in front with a plan is the chart saved, and the report has it.
    void planInFrontIsSavedAndReported() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_PlanView");
        QTemporaryDir dir;
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.sessions()->openTraces({job_->dir.path()});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(sltest::settleSimulations(w));
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("planDock"));
        QVERIFY(dock);
        dock->raise();
        QCoreApplication::processEvents();
        auto* plan = w.findChild<PlanView*>();
        QVERIFY(plan);
        QCOMPARE(plan->gpusEdit()->text(), QStringLiteral("8"));
        QVERIFY(plan->run(8));
        QVERIFY(plan->waitForIdle(120'000));
        QCOMPARE(plan->model()->rowCount(), 4);
        QCOMPARE(w.chartOnScreen(), plan->chart());
        QCOMPARE(w.saveChartImage(dir.filePath("p.svg")), QString());
        QFile svg(dir.filePath("p.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("Tokens per second by layout, 8 GPUs"));
        QCOMPARE(w.sessions()->exportReport(dir.filePath("r.html")), QString());
        QFile html(dir.filePath("r.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(
            html.readAll().contains("<figcaption><b>Plan</b> &middot; Tokens per second by layout, 8 GPUs"));
        // A layout knob: the card's Layout line names the job it predicts before what it modelled.
        SimKnobs pipeline;
        pipeline.ppDegree = 2;
        pipeline.tpDegree = 1;
        w.sessions()->knobs()->setKnobs(pipeline);
        QVERIFY(sltest::settleSimulations(w));
        const QString card = w.findChild<ResultCard*>()->text();
        QVERIFY2(card.contains(QStringLiteral("Layout: dp 4 × tp 1 × pp 2 = 8 GPUs; modelled, not measured")),
                 qPrintable(card));
    }
};

QTEST_MAIN(TestPlanView)
#include "test_PlanView.moc"
