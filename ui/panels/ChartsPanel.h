#pragma once
#include "ChartData.h"

#include <QWidget>

class QAbstractBarSeries;
class QBarSet;
class QChartView;
class QHorizontalBarSeries;
class QHorizontalStackedBarSeries;
class QPieSeries;
class QTabWidget;
class QLabel;

namespace sl::ui {

struct SimOutput;
class RooflineChart;

// The charts dock (Qt Charts): per-rank stacked breakdown (compute, exposed comm, overlapped comm,
// idle) measured next to simulated; the critical path's composition by label; per-rank iteration
// time measured vs simulated with the replay error; the roofline of the trace's kernels on its GPU.
// Rebuilt after every simulator run.
class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);

    void setSimulation(const SimOutput& output);
    void clear();
    const ChartData& data() const { return data_; }

    // The series, for tests: breakdown sets are the parts, categories "r<rank> M" / "r<rank> S".
    QHorizontalStackedBarSeries* breakdownSeries() const { return breakdown_; }
    QPieSeries* pathSeries() const { return path_; }
    QHorizontalBarSeries* iterationSeries() const { return iteration_; }
    QTabWidget* tabs() const { return tabs_; }
    RooflineChart* roofline() const { return roofline_; }

    // The tooltip of a bar (hovering shows it): its rank row, part or measured / simulated, value.
    QString barTip(QAbstractBarSeries* series, int index, const QBarSet* set) const;

private:
    void rebuild();
    void showTip(bool on, const QString& text);

    ChartData data_;
    QTabWidget* tabs_;
    QChartView* breakdownView_;
    QChartView* pathView_;
    QChartView* iterationView_;
    QHorizontalStackedBarSeries* breakdown_ = nullptr;
    QPieSeries* path_ = nullptr;
    QHorizontalBarSeries* iteration_ = nullptr;
    RooflineChart* roofline_ = nullptr; // the trace on its GPU (models/Roofline.h)
};

} // namespace sl::ui
