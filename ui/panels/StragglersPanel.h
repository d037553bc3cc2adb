#pragma once
// Who waited for whom (docs/ARCHITECTURE.md, "Collective arrivals"): a per-rank table sorted by the
// time the rank made others wait at collectives, and a rank x collective heat map of lateness (its
// arrival after the first rank's). A table row or a heat-map cell jumps both panes to that
// collective on that rank. Measured arrivals: the trace's own answer to "who is the straggler".
#include "Selection.h"
#include "analysis/CollectiveArrivals.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableWidget;

namespace sl::ui {

// The heat map: one row per rank (TraceSet order), one column per collective in time order; white
// for on time, deep red for the latest arrival of the set (the largest lateness of any cell).
class ArrivalHeatMap : public QWidget {
    Q_OBJECT
public:
    explicit ArrivalHeatMap(QWidget* parent = nullptr);
    void setArrivals(const ExecutionGraph* graph, const CollectiveArrivals* arrivals);
    // The cell under a point: (rank index, collective index), {-1, -1} outside.
    std::pair<int, int> cellAt(QPoint p) const;
    QRect cellRect(int rank, int collective) const;
    QSize sizeHint() const override;

signals:
    void cellActivated(int rank, int collective);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override; // tooltips

private:
    int labelWidth() const;
    const ExecutionGraph* graph_ = nullptr;
    const CollectiveArrivals* arrivals_ = nullptr;
    TimeNs maxLate_ = 0;
};

class SimulationModel;

class StragglersPanel : public QWidget {
    Q_OBJECT
public:
    explicit StragglersPanel(QWidget* parent = nullptr);
    // The graph of the open set (arrivals are measured, so one graph gives them; a new graph
    // recomputes). Null: empty.
    void setGraph(std::shared_ptr<const ExecutionGraph> graph);
    // Follows the runs the model shows: their graph, with the model's arrivals.
    void followSimulation(const SimulationModel* model);
    // Arrivals read from a saved job summary (report/JobSummaryFile.h): no graph, so a cell or a
    // row names no event to jump to.
    void setArrivals(CollectiveArrivals arrivals);
    const CollectiveArrivals& arrivals() const { return arrivals_; }
    QTableWidget* table() const { return table_; }
    ArrivalHeatMap* heatMap() const { return heat_; }
    QString summary() const;
    // The event of rank index `rank` at collective `collective` (invalid when it has none).
    EventId eventAt(int rank, int collective) const;

signals:
    void eventActivated(sl::ui::EventId e);

private:
    void rebuild();

    std::shared_ptr<const ExecutionGraph> graph_;
    CollectiveArrivals arrivals_;
    bool fromSummary_ = false; // arrivals_ came from setArrivals
    QLabel* summary_;
    QTableWidget* table_;
    ArrivalHeatMap* heat_;
};

} // namespace sl::ui
