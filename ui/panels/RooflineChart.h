#pragma once
// The roofline view of the loaded trace on its own GPU (docs/GpuModel.md), a tab of the charts dock:
// the top kernels (by GPU time, over ranks) as points at their arithmetic intensity and achieved
// TFLOP/s, sized by time, under the GPU's memory roof and its matrix and vector compute ceilings.
// Built from models/Roofline.h (rooflineJson) when the tab is shown for a new trace set.
#include <QChartView>

#include <memory>

class QScatterSeries;

namespace sl {
struct TraceSet;
}

namespace sl::ui {

class RooflineChart : public QChartView {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    // The trace set to show (kept alive by the caller's shared pointer); null clears the chart.
    void setTraceSet(std::shared_ptr<const TraceSet> set);
    // Builds the chart now (else when the view is next shown).
    void rebuild();

    // For tests: the kernel points (x = FLOPs per byte, y = TFLOP/s) and the chart's note.
    QScatterSeries* kernels() const { return kernels_; }
    QString note() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    std::shared_ptr<const TraceSet> set_;
    const TraceSet* built_ = nullptr;
    QScatterSeries* kernels_ = nullptr;
};

} // namespace sl::ui
