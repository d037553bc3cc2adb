#include "RooflineChart.h"

#include "models/Roofline.h"
#include "trace/TraceSet.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>

namespace sl::ui {

namespace {
constexpr int kTopKernels = 40;
} // namespace

RooflineChart::RooflineChart(QWidget* parent) : QChartView(new QChart, parent) {
    setObjectName(QStringLiteral("rooflineChart"));
    chart()->setAnimationOptions(QChart::NoAnimation);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);
    rebuild();
}

void RooflineChart::setTraceSet(std::shared_ptr<const TraceSet> set) {
    set_ = std::move(set);
    if (isVisible()) rebuild();
}

QString RooflineChart::note() const {
    return chart()->title();
}

void RooflineChart::showEvent(QShowEvent* event) {
    QChartView::showEvent(event);
    if (built_ != set_.get() || !kernels_) rebuild();
}

void RooflineChart::rebuild() {
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* a : c->axes())
        c->removeAxis(a), delete a;
    kernels_ = nullptr;
    built_ = set_.get();
    if (!set_) {
        c->setTitle(tr("Roofline: no trace loaded"));
        return;
    }
    // The cost of every kernel comes from its op's recorded shapes (a pass over the trace's args).
    const nlohmann::json j = rooflineJson(*set_, GpuTable::builtin(), {}, kTopKernels);
    if (j.contains("error")) {
        c->setTitle(tr("Roofline: %1").arg(QString::fromStdString(j["error"].get<std::string>())));
        return;
    }
    const nlohmann::json& gpu = j["gpu"];
    const double memTBps = gpu.value("memory_GBps", 0.0) / 1000.0;
    double matrixPeak = 0, vectorPeak = 0;
    for (const auto& [type, v] : gpu["peak_tflops"].items()) {
        double& peak = type == "fp32" ? vectorPeak : matrixPeak;
        peak = std::max(peak, v.get<double>());
    }
    // Points: kernels with FLOPs and bytes (copies have no FLOPs, so no place on a log axis).
    struct Point {
        double x, y, us;
        QString name;
    };
    std::vector<Point> points;
    int withoutFlops = 0;
    for (const auto& k : j["top_kernels"]) {
        const double x = k.value("intensity_flops_per_byte", 0.0), y = k.value("achieved_tflops", 0.0);
        if (x <= 0 || y <= 0) {
            ++withoutFlops;
            continue;
        }
        points.push_back(
            {x, y, k.value("time_us", 0.0), QString::fromStdString(k.value("name", std::string()))});
    }
    double xLo = 0.01, xHi = 1000, yLo = 1e-3, yHi = std::max(matrixPeak, vectorPeak) * 2;
    for (const auto& p : points) {
        xLo = std::min(xLo, p.x / 2), xHi = std::max(xHi, p.x * 2);
        yLo = std::min(yLo, p.y / 2);
    }
    auto* xAxis = new QLogValueAxis;
    xAxis->setTitleText(tr("Arithmetic intensity (FLOPs / byte)"));
    xAxis->setRange(xLo, xHi);
    xAxis->setLabelFormat(QStringLiteral("%g"));
    auto* yAxis = new QLogValueAxis;
    yAxis->setTitleText(tr("TFLOP/s"));
    yAxis->setRange(yLo, yHi);
    yAxis->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(xAxis, Qt::AlignBottom);
    c->addAxis(yAxis, Qt::AlignLeft);
    // Roofs: bandwidth x intensity up to each compute ceiling.
    auto roof = [&](double peak, const QString& name, const QColor& color) {
        if (peak <= 0 || memTBps <= 0) return;
        auto* s = new QLineSeries;
        s->setName(name);
        const double ridge = peak / memTBps;
        s->append(xLo, std::max(yLo, xLo * memTBps));
        if (ridge > xLo && ridge < xHi) s->append(ridge, peak);
        s->append(xHi, std::min(peak, xHi * memTBps));
        s->setColor(color);
        c->addSeries(s);
        s->attachAxis(xAxis);
        s->attachAxis(yAxis);
    };
    roof(matrixPeak, tr("Matrix peak %1 TFLOP/s").arg(matrixPeak), QColor(0x1c7ed6));
    roof(vectorPeak, tr("FP32 vector peak %1 TFLOP/s").arg(vectorPeak), QColor(0x868e96));
    kernels_ = new QScatterSeries;
    kernels_->setName(tr("Kernels (size = time)"));
    kernels_->setColor(QColor(0xe8590c));
    double maxUs = 0;
    for (const auto& p : points)
        maxUs = std::max(maxUs, p.us);
    for (const auto& p : points)
        kernels_->append(p.x, p.y);
    c->addSeries(kernels_);
    kernels_->attachAxis(xAxis);
    kernels_->attachAxis(yAxis);
    for (int i = 0; i < static_cast<int>(points.size()); ++i) // marker size grows with the time
        kernels_->setPointConfiguration(
            i, QXYSeries::PointConfiguration::Size,
            6.0 + 24.0 * std::sqrt(maxUs > 0 ? points[static_cast<std::size_t>(i)].us / maxUs : 0.0));
    QString title = tr("Roofline on %1: top %2 kernels by time")
                        .arg(QString::fromStdString(gpu.value("name", std::string())))
                        .arg(points.size());
    if (withoutFlops > 0) title += tr(" (%1 more without FLOPs or shapes)").arg(withoutFlops);
    c->setTitle(title);
}

} // namespace sl::ui
