#include "PlanView.h"
#include "SimulationModel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace sl::ui {

namespace {

// A whole number of at least 1 from a field, or 0 (the caller says what is wrong).
int positiveInt(const QString& text) {
    bool ok = false;
    const int v = text.trimmed().toInt(&ok);
    return ok && v >= 1 ? v : 0;
}

// A field's comma-separated whole numbers of at least 1; the first part that is not one in `bad`.
std::vector<int> positiveInts(const QString& text, QString& bad) {
    std::vector<int> out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const int v = positiveInt(part);
        if (v == 0) {
            bad = part.trimmed();
            return {};
        }
        out.push_back(v);
    }
    return out;
}

// A bar's label: "4×2×1" (dp × tp × pp, the axis says so), ", 2 mb" when the plan tried several
// micro-batch counts per layout (else the layout alone names the bar); the table beside it spells
// the layout out.
QString barLabel(const LayoutRow& r, bool withMicrobatches) {
    QString label = QStringLiteral("%1×%2×%3").arg(r.dp).arg(r.tp).arg(r.pp);
    if (withMicrobatches) label += QStringLiteral(", %1 mb").arg(r.microbatches);
    return label;
}

} // namespace

PlanView::PlanView(QWidget* parent)
    : ChartJobPanel(
          tr("Predicts every data x tensor x pipeline layout of the GPUs from this trace, best first."),
          tr("Plan cancelled."), parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* row = new QHBoxLayout;
    gpus_ = new QLineEdit(this);
    gpus_->setObjectName(QStringLiteral("planGpus"));
    gpus_->setToolTip(tr("GPUs of the job to lay out (DP x TP x PP)"));
    gpus_->setMaximumWidth(90);
    microbatches_ = new QLineEdit(this);
    microbatches_->setObjectName(QStringLiteral("planMicrobatches"));
    microbatches_->setPlaceholderText(tr("as traced (global batch kept)"));
    microbatches_->setToolTip(
        tr("Micro-batches per replica to try with each layout, separated by commas; empty keeps the "
           "traced global batch"));
    pipelines_ = new QLineEdit(this);
    pipelines_->setObjectName(QStringLiteral("planPipelineDegrees"));
    pipelines_->setPlaceholderText(tr("as traced"));
    pipelines_->setToolTip(tr("Pipeline degrees to try (pp.degree: the layers split evenly over that many "
                              "stages), separated by commas, e.g. 1, 2, 4; empty keeps the traced one"));
    run_ = new QPushButton(tr("Plan layouts"), this);
    row->addWidget(new QLabel(tr("GPUs"), this));
    row->addWidget(gpus_);
    row->addWidget(new QLabel(tr("Micro-batches"), this));
    row->addWidget(microbatches_, 1);
    row->addWidget(new QLabel(tr("Pipeline degrees"), this));
    row->addWidget(pipelines_, 1);
    row->addWidget(run_);
    row->addWidget(cancelButton());
    layout->addLayout(row);
    layout->addLayout(statusRow());
    auto* split = new QSplitter(Qt::Horizontal, this);
    chart()->chart()->legend()->setAlignment(Qt::AlignBottom);
    split->addWidget(chart());
    table_ = new QTableView(split);
    table_->setObjectName(QStringLiteral("planTable"));
    table_->setModel(&model_);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setStretchLastSection(true);
    split->addWidget(table_);
    // The chart and the table share the row's width (the empty chart's size hint would leave it a
    // sliver); the table's seven columns take a little more.
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({400, 600});
    table_->resizeColumnsToContents();
    layout->addWidget(split, 1);
    connect(run_, &QPushButton::clicked, this, &PlanView::startFromFields);
    connect(gpus_, &QLineEdit::returnPressed, this, &PlanView::startFromFields);
    connect(microbatches_, &QLineEdit::returnPressed, this, &PlanView::startFromFields);
    connect(pipelines_, &QLineEdit::returnPressed, this, &PlanView::startFromFields);
    // What the planner refuses (no transformer layers, a count that makes no layout) is one line.
    // A plan shown before is of other numbers: it goes.
    connect(&job(), &BackgroundJob::failed, this, [this](const QString& error) {
        model_.clear();
        redraw();
        runEnded(error);
    });
    redraw();
}

void PlanView::setGraph(std::shared_ptr<const TraceSet> set, std::shared_ptr<const ExecutionGraph> graph) {
    if (graph == graph_) return;
    // A re-simulation of the same set keeps the plan (it came from the same trace); another set
    // clears it.
    const bool sameSet = set && set == set_;
    cancel();
    set_ = std::move(set);
    graph_ = std::move(graph);
    if (!sameSet) {
        model_.clear();
        redraw();
        showIdleMessage();
        // The traced job's GPU count as a first question, until the user typed one.
        if (set_ && !gpus_->isModified()) gpus_->setText(QString::number(set_->ranks.size()));
    }
}

void PlanView::startFromFields() {
    const int gpus = positiveInt(gpus_->text());
    if (gpus == 0) {
        setMessage(tr("GPUs: \"%1\" is not a whole number of at least 1").arg(gpus_->text().trimmed()));
        return;
    }
    QString bad;
    const std::vector<int> microbatches = positiveInts(microbatches_->text(), bad);
    if (!bad.isEmpty()) {
        setMessage(tr("Micro-batches: \"%1\" is not a whole number of at least 1").arg(bad));
        return;
    }
    const std::vector<int> pipelines = positiveInts(pipelines_->text(), bad);
    if (!bad.isEmpty()) {
        setMessage(tr("Pipeline degrees: \"%1\" is not a whole number of at least 1").arg(bad));
        return;
    }
    run(gpus, microbatches, pipelines);
}

bool PlanView::run(int gpus, const std::vector<int>& microbatches, const std::vector<int>& pipelineDegrees) {
    if (!graph_) {
        setMessage(tr("Open a trace first: the plan is predicted from its execution graph."));
        return false;
    }
    if (gpus < 1) {
        setMessage(tr("GPUs must be at least 1."));
        return false;
    }
    cancel();
    triedMicrobatches_ = !microbatches.empty();
    // The layouts are counted by the planner: busy until it ends.
    runStarted(tr("Predicting the layouts of %n GPU(s)...", nullptr, gpus), 0);
    job().start(
        // The set is held with the graph: the graph reads it (ExecutionGraph::trace).
        [set = set_, graph = graph_, base = base_, gpus, microbatches,
         pipelineDegrees](const JobControl& control) {
            (void)set;
            SweepOptions options;
            options.cancel = control.cancelFlag();
            return planLayouts(*graph, gpus, base, microbatches, options, pipelineDegrees);
        },
        [this](LayoutPlan plan) { planDone(std::move(plan)); });
    return true;
}

void PlanView::planDone(LayoutPlan plan) {
    const auto predicted =
        std::count_if(plan.rows.begin(), plan.rows.end(), [](const LayoutRow& r) { return r.error.empty(); });
    QString text = tr("%1 of %2 layouts of %3 GPUs predicted (%4, %5 GB per GPU)")
                       .arg(predicted)
                       .arg(plan.rows.size())
                       .arg(plan.gpus)
                       .arg(QString::fromStdString(plan.gpu))
                       .arg(plan.gpuMemoryGB);
    if (predicted > 0) {
        const LayoutRow& best = plan.rows.front();
        text += tr("; best: %1 at %2 tokens/s%3")
                    .arg(LayoutPlanModel::layoutName(best, false))
                    .arg(best.tokensPerSecond, 0, 'f', 0)
                    .arg(best.fits ? QString() : tr(", but no layout fits the GPU's memory"));
    }
    for (const auto& note : plan.notes)
        text += QStringLiteral(". ") + QString::fromStdString(note);
    model_.setPlan(std::move(plan));
    table_->resizeColumnsToContents();
    redraw();
    runEnded(text);
}

void PlanView::redraw() {
    clearChart();
    QChart* plot = chart()->chart();
    const LayoutPlan& plan = model_.plan();
    plot->setTitle(plan.rows.empty() ? QString() : tr("Tokens per second by layout, %1 GPUs").arg(plan.gpus));
    if (plan.rows.empty()) return;
    // One horizontal bar per predicted layout, best at the top (a ranking reads down, and the
    // layouts' names stay whole beside their bars however many there are); a stacked pair of sets so
    // each bar takes the colour of whether the layout's memory fits, with one legend entry each.
    // A category axis counts from the bottom: the plan's order is appended last to first.
    auto* fits = new QBarSet(tr("fits the GPU's memory"));
    fits->setColor(QColor(0x1c7ed6));
    auto* exceeds = new QBarSet(tr("exceeds the GPU's memory"));
    exceeds->setColor(QColor(0xadb5bd));
    QStringList names;
    double top = 0;
    const bool mb = triedMicrobatches_;
    for (auto it = plan.rows.rbegin(); it != plan.rows.rend(); ++it) {
        const LayoutRow& r = *it;
        if (!r.error.empty()) continue;
        names << barLabel(r, mb);
        *fits << (r.fits ? r.tokensPerSecond : 0.0);
        *exceeds << (r.fits ? 0.0 : r.tokensPerSecond);
        top = std::max(top, r.tokensPerSecond);
    }
    if (names.isEmpty()) return;
    auto* series = new QHorizontalStackedBarSeries;
    series->append(fits);
    series->append(exceeds);
    plot->addSeries(series);
    auto* layouts = new QBarCategoryAxis;
    layouts->append(names);
    layouts->setTitleText(mb ? tr("dp × tp × pp, micro-batches") : tr("dp × tp × pp"));
    // Qt elides a category whose label is taller than its share of the axis ("…" beside every bar
    // of a dozen layouts in the bottom row's plot); the names are short, so they are drawn whole.
    layouts->setTruncateLabels(false);
    auto* rate = new QValueAxis;
    rate->setTitleText(tr("tokens/s"));
    rate->setLabelFormat(QStringLiteral("%.0f"));
    rate->setRange(0, top > 0 ? top * 1.1 : 1);
    rate->applyNiceNumbers();
    plot->addAxis(layouts, Qt::AlignLeft);
    plot->addAxis(rate, Qt::AlignBottom);
    series->attachAxis(layouts);
    series->attachAxis(rate);
}

void PlanView::followSimulation(const SimulationModel* model) {
    connect(model, &SimulationModel::changed, this, [this, model](const SimOutput& output) {
        setGraph(model->traceSet(), output.graph);
        setBaseKnobs(output.knobs); // the knobs the shown run ran with
    });
}

} // namespace sl::ui
