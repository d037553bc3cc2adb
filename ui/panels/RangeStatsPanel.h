#pragma once
// The Range statistics dock (docs/ARCHITECTURE.md, "GUI"): per name, what the measured and the
// simulated pane spend inside the time range the user selected, computed off the UI thread
// (RangeStatsWorker) and shown in a sortable table (RangeStatsModel) that exports as CSV.
#include "TimelineData.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTableView;

namespace sl::ui {

class RangeStatsModel;
class RangeStatsWorker;
class SelectionModel;
class TrackState;
class ViewController;
struct RangeTable;
struct SimOutput;

class RangeStatsPanel : public QWidget {
    Q_OBJECT
public:
    // The range comes from selection; tracks hidden in `tracks` are left out; `view` sets the
    // precision of the times in the header line.
    RangeStatsPanel(SelectionModel* selection, TrackState* tracks, ViewController* view,
                    QWidget* parent = nullptr);

    // The panes' timelines (measured null: no set, nothing to compute). Recomputes when a range is
    // selected, so that a new simulation fills the simulated columns.
    // The simulated columns of a run shown, beside the measured timeline held.
    void setSimulation(const SimOutput& output);
    void setTimelines(std::shared_ptr<const TimelineData> measured,
                      std::shared_ptr<const TimelineData> simulated);
    // Writes the table as CSV; empty on success, else the error (also sent as failed()).
    QString exportCsv(const QString& path);

    RangeStatsModel* model() const { return model_; }
    RangeStatsWorker* worker() const { return worker_; }
    QTableView* table() const { return table_; }
    QString headline() const;

signals:
    // A range was just selected: the dock should come to the front.
    void rangeSelected();
    void failed(QString message);
    void exported(QString path);

private:
    void refresh();
    void showTable(RangeTable table);

    SelectionModel* selection_;
    TrackState* tracks_;
    ViewController* view_;
    RangeStatsModel* model_;
    RangeStatsWorker* worker_;
    QLabel* label_;
    QPushButton* export_;
    QTableView* table_;
    std::shared_ptr<const TimelineData> measured_;
    std::shared_ptr<const TimelineData> simulated_;
};

} // namespace sl::ui
