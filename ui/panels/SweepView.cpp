#include "SweepView.h"
#include "SimulationModel.h"

#include "KnobLabels.h"

#include "analysis/Sweep.h"
#include "sim/KnobRegistry.h"
#include "sim/KnobText.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sl::ui {

SweepView::SweepView(QWidget* parent)
    : ChartJobPanel(tr("Simulates each value on top of the current scenario's knobs."),
                    tr("Sweep cancelled."), parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* row = new QHBoxLayout;
    knob_ = new QComboBox(this);
    knob_->setObjectName(QStringLiteral("sweepKnob"));
    // Numeric knobs of the registry, by their GUI label (the key in the tooltip).
    for (const KnobSpec& spec : knobSpecs()) {
        if (spec.type != KnobType::Factor && spec.type != KnobType::Number && spec.type != KnobType::Integer)
            continue;
        const QString label = knobLabel(spec); // as the knob panel names it
        knob_->addItem(QStringLiteral("%1 (%2)").arg(label, QString::fromStdString(spec.key)),
                       QString::fromStdString(spec.key));
    }
    values_ = new QLineEdit(QStringLiteral("1, 1.5, 2, 3, 4"), this);
    values_->setObjectName(QStringLiteral("sweepValues"));
    values_->setToolTip(tr("Values to simulate, separated by commas"));
    run_ = new QPushButton(tr("Run sweep"), this);
    row->addWidget(new QLabel(tr("Knob"), this));
    row->addWidget(knob_, 2);
    row->addWidget(new QLabel(tr("Values"), this));
    row->addWidget(values_, 2);
    row->addWidget(run_);
    row->addWidget(cancelButton());
    layout->addLayout(row);
    layout->addLayout(statusRow());
    // The legend at the side: the bottom dock row is wide and short, so the height goes to the plot.
    chart()->chart()->legend()->setAlignment(Qt::AlignRight);
    layout->addWidget(chart(), 1);
    connect(run_, &QPushButton::clicked, this, &SweepView::startFromFields);
    connect(values_, &QLineEdit::returnPressed, this, &SweepView::startFromFields);
    // The default knob: the GPU compute speed-up, the first question people ask.
    const int gpu = knob_->findData(QStringLiteral("compute.speedup"));
    if (gpu >= 0) knob_->setCurrentIndex(gpu);
}

void SweepView::setGraph(std::shared_ptr<const TraceSet> set, std::shared_ptr<const ExecutionGraph> graph) {
    if (graph == graph_) return;
    cancel();
    const bool otherSet = set != set_;
    set_ = std::move(set);
    graph_ = std::move(graph);
    points_.clear();
    redraw();
    // What the status line said was of the old set's sweep.
    if (otherSet) showIdleMessage();
}

void SweepView::startFromFields() {
    std::vector<double> values;
    for (const QString& part : values_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok) {
            setMessage(tr("\"%1\" is not a number").arg(part.trimmed()));
            return;
        }
        values.push_back(v);
    }
    run(knob_->currentData().toString(), values);
}

bool SweepView::run(const QString& key, const std::vector<double>& values) {
    if (!graph_) {
        setMessage(tr("Open a trace first: the sweep runs on its execution graph."));
        return false;
    }
    if (values.empty()) {
        setMessage(tr("Give at least one value."));
        return false;
    }
    // Every knob setting is checked before anything runs: a bad value names itself.
    std::vector<SimKnobs> knobs;
    for (double v : values) {
        SimKnobs k = base_;
        try {
            setKnob(k, key.toStdString(), knobNumberText(v, KnobNumberStyle::Readable));
        } catch (const KnobError& e) {
            setMessage(QString::fromUtf8(e.what()));
            return false;
        }
        knobs.push_back(std::move(k));
    }
    cancel();
    key_ = key;
    points_.assign(values.size(), {});
    for (std::size_t i = 0; i < values.size(); ++i)
        points_[i].value = values[i];
    runStarted(tr("Simulating %n value(s) of %1...", nullptr, static_cast<int>(values.size())).arg(key),
               static_cast<int>(values.size()));
    // The core's sweep (analysis/Sweep.h, as `sightline-cli sweep` runs it): each point is drawn as
    // it ends, the run's end says how many were simulated.
    job().start(
        // The set is held with the graph: the graph reads it (ExecutionGraph::trace).
        [set = set_, graph = graph_, knobs = std::move(knobs), values, this](const JobControl& control) {
            (void)set;
            SweepOptions options;
            options.cancel = control.cancelFlag();
            options.onRun = [&](std::size_t i, const SweepRun& run) {
                SweepPoint p = pointOf(values[i], run);
                control.post([this, i, p] { pointDone(i, p); });
            };
            std::vector<SweepPoint> points;
            const std::vector<SweepRun> runs = runSweep(*graph, knobs, options);
            for (std::size_t i = 0; i < runs.size(); ++i)
                points.push_back(pointOf(values[i], runs[i]));
            return points;
        },
        [this](std::vector<SweepPoint> points) { sweepDone(std::move(points)); });
    return true;
}

SweepPoint SweepView::pointOf(double value, const SweepRun& run) {
    SweepPoint p;
    p.value = value;
    // A value the simulator refused (the values were checked above) is left out of the chart; the
    // status line says why.
    if (run.error) {
        try {
            std::rethrow_exception(run.error);
        } catch (const std::exception& e) {
            p.error = QString::fromUtf8(e.what());
        }
    }
    if (!run.done) return p;
    p.iteration = run.iteration;
    p.exposedMeanUs = run.exposed.meanNs / 1000.0;
    p.work = run.work;
    p.done = true;
    return p;
}

void SweepView::pointDone(std::size_t i, const SweepPoint& p) {
    points_[i] = p;
    stepDone();
    redraw();
}

void SweepView::sweepDone(std::vector<SweepPoint> points) {
    points_ = std::move(points);
    redraw();
    const auto done =
        std::count_if(points_.begin(), points_.end(), [](const SweepPoint& q) { return q.done; });
    QString text = tr("%1: %2 of %3 values simulated on top of the current scenario's knobs.")
                       .arg(key_)
                       .arg(done)
                       .arg(points_.size());
    const auto failed =
        std::find_if(points_.begin(), points_.end(), [](const SweepPoint& q) { return !q.error.isEmpty(); });
    if (failed != points_.end())
        text += tr(" %1 = %2 failed: %3").arg(key_).arg(failed->value).arg(failed->error);
    runEnded(text);
}

std::vector<std::pair<double, Throughput>> sweepThroughput(const std::vector<SweepPoint>& points,
                                                           bool always) {
    std::vector<const SweepPoint*> done;
    for (const SweepPoint& p : points)
        if (p.done) done.push_back(&p);
    std::sort(done.begin(), done.end(),
              [](const SweepPoint* a, const SweepPoint* b) { return a->value < b->value; });
    std::vector<std::pair<double, Throughput>> out;
    if (done.size() < 2) return out;
    bool changes = false;
    for (const SweepPoint* p : done)
        changes = changes || throughputFrom(done.front()->work, 1, p->work, 1).applies;
    if (!changes && !always) return out;
    for (const SweepPoint* p : done) {
        Throughput t = throughputFrom(done.front()->work, done.front()->iteration, p->work, p->iteration);
        if (!t.applies) { // the first point itself (or the same work): ratio of the steps
            t.throughputRatio = p->iteration > 0 ? static_cast<double>(done.front()->iteration) /
                                                       static_cast<double>(p->iteration)
                                                 : 1.0;
            t.efficiency = t.throughputRatio;
        }
        out.push_back({p->value, t});
    }
    return out;
}

void SweepView::redraw() {
    clearChart();
    QChart* plot = chart()->chart();
    plot->setTitle(key_.isEmpty() ? QString() : tr("Iteration and exposed communication vs %1").arg(key_));
    auto* iteration = new QLineSeries;
    iteration->setName(tr("Iteration (ms)"));
    auto* exposed = new QLineSeries;
    exposed->setName(tr("Exposed communication, mean over ranks (ms)"));
    double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest(), top = 0;
    std::vector<SweepPoint> sorted;
    for (const SweepPoint& p : points_)
        if (p.done) sorted.push_back(p);
    std::sort(sorted.begin(), sorted.end(),
              [](const SweepPoint& a, const SweepPoint& b) { return a.value < b.value; });
    for (const SweepPoint& p : sorted) {
        const double ms = static_cast<double>(p.iteration) / 1e6;
        iteration->append(p.value, ms);
        exposed->append(p.value, p.exposedMeanUs / 1000.0);
        lo = std::min(lo, p.value);
        hi = std::max(hi, p.value);
        top = std::max({top, ms, p.exposedMeanUs / 1000.0});
    }
    iteration->setPointsVisible(true);
    exposed->setPointsVisible(true);
    plot->addSeries(iteration);
    plot->addSeries(exposed);
    // Counts (replicas, micro-batches, layers, GPUs per node and per job, tensor-parallel degree) on
    // a log axis: 2, 4, 8, 16 spread evenly; factors and times on a linear one. Both with round ticks.
    const std::string key = key_.toStdString();
    const bool counts = key == "dp.degree" || key == "dp.scale" || key == "pp.microbatches" ||
                        key == "model.layers" || key == "comm.gpus_per_node" || key == "tp.degree" ||
                        key == "parallel.gpus";
    QAbstractAxis* x = nullptr;
    if (counts && !sorted.empty() && lo > 0) {
        auto* log = new QLogValueAxis;
        log->setBase(2);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setRange(lo == hi ? lo / 2 : lo, lo == hi ? hi * 2 : hi);
        x = log;
    } else {
        auto* linear = new QValueAxis;
        // Without points the axis has no range to round (nice numbers of 0..0 are NaN).
        if (!sorted.empty()) {
            linear->setRange(lo == hi ? lo - 1 : lo, lo == hi ? hi + 1 : hi);
            linear->applyNiceNumbers();
        }
        x = linear;
    }
    x->setTitleText(key_);
    auto* y = new QValueAxis;
    y->setTitleText(tr("ms"));
    y->setRange(0, top > 0 ? top * 1.1 : 1);
    y->applyNiceNumbers();
    plot->addAxis(x, Qt::AlignBottom);
    plot->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s :
         {static_cast<QAbstractSeries*>(iteration), static_cast<QAbstractSeries*>(exposed)}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    // The current scenario's value of the knob, marked: the point the sweep moves away from.
    const KnobSpec* spec = key.empty() ? nullptr : findKnobSpec(key);
    bool ok = false;
    const double current = spec ? QString::fromStdString(spec->valueText(base_)).toDouble(&ok) : 0;
    if (spec && ok && !sorted.empty() && !(spec->sentinel && current == *spec->sentinel) &&
        (!counts || current > 0)) {
        auto* mark = new QLineSeries;
        mark->setName(tr("current scenario (%1 = %2)").arg(key_).arg(current));
        mark->setPen(QPen(QColor(0x868e96), 1.5, Qt::DashLine));
        mark->append(current, 0);
        mark->append(current, y->max());
        plot->addSeries(mark);
        mark->attachAxis(x);
        mark->attachAxis(y);
    }
    // A knob that changes the work per step: the step time alone reads as "slower" while the job
    // does more (docs/Scaling.md). Throughput against the first value and the ideal (every GPU at the
    // first value's pace, work per sample as it was) on a right axis.
    // With the batch given (batch.samples / batch.tokens), in samples/s (else tokens/s): the first
    // value's rate x the ratio, which is the batch x that point's samples over its step.
    const bool batch = base_.batchSamples > 0 || base_.batchTokens > 0;
    const auto throughput = sweepThroughput(points_, batch);
    const bool workChanges = !sweepThroughput(points_).empty();
    if (!throughput.empty()) {
        double scale = 1;
        QString unit;
        if (batch) {
            const SweepPoint* first = nullptr;
            for (const SweepPoint& p : points_)
                if (p.done && (!first || p.value < first->value)) first = &p;
            const Rate r = rateOf(base_, first->work.samples, first->iteration);
            scale = r.samplesPerSecond > 0 ? r.samplesPerSecond : r.tokensPerSecond;
            unit = r.samplesPerSecond > 0 ? tr("samples/s") : tr("tokens/s");
        }
        auto* achieved = new QLineSeries;
        achieved->setName(batch ? tr("Throughput (%1)").arg(unit)
                                : tr("Throughput (x %1 = %2)").arg(key_).arg(throughput.front().first));
        auto* ideal = new QLineSeries;
        ideal->setName(tr("Ideal throughput"));
        ideal->setPen(QPen(QColor(0x2b8a3e), 1.5, Qt::DotLine));
        double most = scale, least = scale;
        for (const auto& [value, t] : throughput) {
            const double best = t.efficiency > 0 ? t.throughputRatio / t.efficiency : t.throughputRatio;
            achieved->append(value, scale * t.throughputRatio);
            ideal->append(value, scale * best);
            most = std::max({most, scale * t.throughputRatio, scale * best});
            least = std::min({least, scale * t.throughputRatio, scale * best});
        }
        achieved->setPointsVisible(true);
        // Counts on a log x axis: throughput on a log axis too, so linear scaling is a straight line
        // and the gap to the ideal reads as a ratio at every count.
        QAbstractAxis* right = nullptr;
        if (counts && least > 0) {
            auto* log = new QLogValueAxis;
            log->setBase(2);
            log->setLabelFormat(QStringLiteral("%g"));
            log->setRange(least / 1.25, most * 1.25);
            right = log;
        } else {
            auto* linear = new QValueAxis;
            linear->setRange(0, most * 1.1);
            linear->applyNiceNumbers();
            right = linear;
        }
        right->setTitleText(batch ? tr("throughput (%1)").arg(unit) : tr("throughput (x first value)"));
        plot->addAxis(right, Qt::AlignRight);
        for (QLineSeries* s : {achieved, ideal}) {
            if (s == ideal && !workChanges) { // the same work at every value: no ideal to scale to
                delete ideal;
                continue;
            }
            plot->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(right);
        }
        plot->setTitle(tr("Iteration, exposed communication and throughput vs %1").arg(key_));
    }
    // Hovering a point says its numbers.
    for (QLineSeries* s : {iteration, exposed})
        connect(s, &QLineSeries::hovered, chart(), [this](const QPointF& at, bool state) {
            if (!state) return QToolTip::hideText();
            const SweepPoint* near = nullptr;
            for (const SweepPoint& p : points_)
                if (p.done && (!near || std::abs(p.value - at.x()) < std::abs(near->value - at.x())))
                    near = &p;
            if (!near) return;
            QString text = tr("%1 = %2: iteration %3 ms, exposed communication %4 ms")
                               .arg(key_)
                               .arg(near->value)
                               .arg(static_cast<double>(near->iteration) / 1e6, 0, 'f', 3)
                               .arg(near->exposedMeanUs / 1000.0, 0, 'f', 3);
            for (const auto& [value, t] : sweepThroughput(points_))
                if (value == near->value && t.applies)
                    text += QLatin1Char('\n') + QString::fromStdString(t.sentence);
            const std::string rate = rateText(rateOf(base_, near->work.samples, near->iteration));
            if (!rate.empty()) text += QLatin1Char('\n') + QString::fromStdString(rate);
            QToolTip::showText(QCursor::pos(), text, chart());
        });
}

void SweepView::followSimulation(const SimulationModel* model) {
    connect(model, &SimulationModel::changed, this, [this, model](const SimOutput& output) {
        setGraph(model->traceSet(), output.graph);
        setBaseKnobs(output.knobs); // the knobs the shown run ran with
    });
}

} // namespace sl::ui
