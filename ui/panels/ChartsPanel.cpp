#include "ChartsPanel.h"

#include "Palette.h"
#include "RooflineChart.h"
#include "SimRunner.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLegendMarker>
#include <QPieSeries>
#include <QPieSlice>
#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace sl::ui {

namespace {
QChartView* makeView(QWidget* parent) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

void resetChart(QChart* chart, const QString& title) {
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes())
        chart->removeAxis(a), delete a;
    chart->setTitle(title);
}

// Adds horizontal bars with one category per row and a value axis up to top.
void addBars(QChart* chart, QAbstractBarSeries* series, const QStringList& categories, double top) {
    chart->addSeries(series);
    auto* rows = new QBarCategoryAxis;
    rows->append(categories);
    QFont small = rows->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.75);
    rows->setLabelsFont(small);
    // Rank labels are short ("r12 M", "slowest r9"): never elided to "..." in a narrow dock.
    rows->setTruncateLabels(false);
    auto* values = new QValueAxis;
    values->setRange(0, top > 0 ? top * 1.05 : 1);
    values->setLabelsFont(small);
    values->setTickCount(3); // a narrow dock: end labels that do not run into each other
    // Enough decimals that small traces (a few microseconds, in ms) do not read "0.0" on every tick.
    int decimals = 1;
    for (double t = top; t > 0 && t < 1.0 && decimals < 6; t *= 10)
        ++decimals;
    values->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    chart->addAxis(rows, Qt::AlignLeft);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(rows);
    series->attachAxis(values);
}

QColor partColor(int part) {
    switch (part) {
    case ChartData::Compute:
        return palette::color(Category::Compute);
    case ChartData::ExposedComm:
        return palette::exposed();
    case ChartData::OverlappedComm:
        return palette::color(Category::Communication).lighter(130);
    default:
        return QColor(0xadb5bd);
    }
}
} // namespace

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent), tabs_(new QTabWidget(this)), breakdownView_(makeView(this)), pathView_(makeView(this)),
      iterationView_(makeView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->addTab(breakdownView_, tr("Breakdown"));
    tabs_->addTab(pathView_, tr("Critical path"));
    tabs_->addTab(iterationView_, tr("Iteration"));
    roofline_ = new RooflineChart(this);
    tabs_->addTab(roofline_, tr("Roofline"));
    rebuild();
}

void ChartsPanel::setSimulation(const SimOutput& output) {
    if (!output.result || !output.analysis) return clear();
    data_ = chartDataOf(*output.result, *output.analysis);
    // The roofline is the trace's own (no knob moves it); the graph keeps pointing at its trace set.
    if (output.graph && output.graph->trace)
        roofline_->setTraceSet(std::shared_ptr<const TraceSet>(output.graph, output.graph->trace));
    rebuild();
}

void ChartsPanel::clear() {
    data_ = {};
    roofline_->setTraceSet(nullptr);
    rebuild();
}

QString ChartsPanel::barTip(QAbstractBarSeries* series, int index, const QBarSet* set) const {
    if (!series || !set || index < 0 || index >= set->count()) return {};
    QString category;
    for (QAbstractAxis* axis : series->attachedAxes())
        if (auto* c = qobject_cast<QBarCategoryAxis*>(axis); c && index < c->count()) category = c->at(index);
    return tr("%1, %2: %3 ms").arg(category, set->label()).arg(set->at(index), 0, 'f', 3);
}

void ChartsPanel::showTip(bool on, const QString& text) {
    if (on && !text.isEmpty())
        QToolTip::showText(QCursor::pos(), text, this);
    else
        QToolTip::hideText();
}

void ChartsPanel::rebuild() {
    // Breakdown: two stacked bars per rank, measured (M) and simulated (S). With many ranks, only the
    // representative ones (a bar per rank would be a solid block at 64).
    const std::vector<ChartData::RankRow> rows = chartRows(data_);
    const bool summary = rows.size() < data_.ranks.size();
    const QString of =
        summary ? tr(" (%1 ranks: fastest, median, slowest)").arg(data_.ranks.size()) : QString();
    QChart* chart = breakdownView_->chart();
    resetChart(chart, tr("GPU time per rank (ms), M measured, S simulated") + of);
    breakdown_ = new QHorizontalStackedBarSeries;
    QStringList categories;
    for (const auto& r : rows)
        categories << rowLabel(r) + QStringLiteral(" M") << rowLabel(r) + QStringLiteral(" S");
    double top = 0;
    for (int part = 0; part < ChartData::PartCount; ++part) {
        auto* set = new QBarSet(ChartData::partName(static_cast<ChartData::Part>(part)));
        set->setColor(partColor(part));
        set->setBorderColor(partColor(part));
        for (const auto& r : rows)
            *set << r.measured[static_cast<std::size_t>(part)] << r.simulated[static_cast<std::size_t>(part)];
        breakdown_->append(set);
    }
    for (const auto& r : rows) {
        double m = 0, s = 0;
        for (int part = 0; part < ChartData::PartCount; ++part)
            m += r.measured[static_cast<std::size_t>(part)], s += r.simulated[static_cast<std::size_t>(part)];
        top = std::max({top, m, s});
    }
    addBars(chart, breakdown_, categories, top);
    connect(breakdown_, &QAbstractBarSeries::hovered, this,
            [this](bool on, int index, QBarSet* set) { showTip(on, barTip(breakdown_, index, set)); });

    // Critical path composition.
    chart = pathView_->chart();
    resetChart(chart, data_.pathLengthMs > 0
                          ? tr("Critical path: %1 ms by label").arg(data_.pathLengthMs, 0, 'f', 2)
                          : tr("Critical path"));
    path_ = new QPieSeries;
    for (int l = 0; l < kPathLabelCount; ++l) {
        const auto label = static_cast<PathLabel>(l);
        const double v = data_.pathMs[static_cast<std::size_t>(l)];
        QPieSlice* slice = path_->append(palette::pathLabelText(label), v);
        slice->setColor(palette::pathColor(label));
        if (data_.pathLengthMs > 0 && v / data_.pathLengthMs >= 0.03) {
            slice->setLabel(QStringLiteral("%1 %2%")
                                .arg(palette::pathLabelText(label))
                                .arg(100.0 * v / data_.pathLengthMs, 0, 'f', 1));
            slice->setLabelVisible(true);
        }
    }
    path_->setHoleSize(0.35);
    chart->addSeries(path_);
    const QList<QLegendMarker*> markers = chart->legend()->markers(path_);
    for (int i = 0; i < markers.size() && i < kPathLabelCount; ++i)
        markers[i]->setLabel(palette::pathLabelText(static_cast<PathLabel>(i)));

    // Iteration time per rank, measured and simulated, the error in the category label.
    chart = iterationView_->chart();
    resetChart(chart, tr("Iteration time per rank (ms), replay error in %") + of);
    iteration_ = new QHorizontalBarSeries;
    auto* measured = new QBarSet(tr("Measured"));
    auto* simulated = new QBarSet(tr("Simulated"));
    measured->setColor(QColor(0x495057));
    simulated->setColor(QColor(0x1c7ed6));
    QStringList ranks;
    double maxIter = 0;
    for (const auto& r : rows) {
        *measured << r.measuredIterationMs;
        *simulated << r.simulatedIterationMs;
        ranks << QStringLiteral("%1 %2%").arg(rowLabel(r)).arg(r.errorPct, 0, 'f', 1);
        maxIter = std::max({maxIter, r.measuredIterationMs, r.simulatedIterationMs});
    }
    iteration_->append(measured);
    iteration_->append(simulated);
    addBars(chart, iteration_, ranks, maxIter);
    connect(iteration_, &QAbstractBarSeries::hovered, this,
            [this](bool on, int index, QBarSet* set) { showTip(on, barTip(iteration_, index, set)); });
}

} // namespace sl::ui
