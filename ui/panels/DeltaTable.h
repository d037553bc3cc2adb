#pragma once
// Every scenario side by side (docs/WhatIfWorkbench.md): per scenario a job row (iteration, change
// against the baseline, the knobs that differ, critical-path composition) and, on demand ("Per
// rank"), one row per rank (compute, exposed communication, collective wait, idle). Every number is the
// scenario's SimulationNumbers (report/SimulationNumbers.h), as `sightline-cli simulate --json` prints
// them, so the table and the command line agree.
#include "ScenarioRunner.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

class QCheckBox;
class QTableView;
class QLabel;

namespace sl::ui {

class DeltaTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Scenario,
        Rank,
        Iteration,
        Change,
        Throughput, // x the baseline's samples per second, where the work per step differs (docs/Scaling.md)
        Efficiency, // scaling efficiency, %
        Samples,    // samples per second where batch.samples gives the batch (docs/Scaling.md)
        Knobs,
        Compute,
        ExposedComm,
        Wait,
        Idle,
        CriticalPath,
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setResults(std::shared_ptr<const ScenarioResults> results);
    // Rank rows under each job row (off: one row per scenario).
    void setShowRanks(bool on);
    bool showRanks() const { return showRanks_; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // The number shown in a cell, in ms (Iteration..Idle), % (Change, Efficiency), x baseline
    // (Throughput) or samples/s (Samples); NaN when the cell has none.
    double value(int row, int column) const;
    // The row of scenario s's job line (-1 when none).
    int jobRow(int scenario) const;

private:
    struct Row {
        int scenario = 0;
        int rank = -1; // -1: the job row
        double values[ColumnCount] = {};
        QString path; // critical-path composition, job rows
    };
    void build();
    std::shared_ptr<const ScenarioResults> results_;
    std::vector<Row> rows_;
    bool showRanks_ = false;
};

class DeltaTable : public QWidget {
    Q_OBJECT
public:
    explicit DeltaTable(QWidget* parent = nullptr);
    void setResults(std::shared_ptr<const ScenarioResults> results);
    void setBusy(int done, int total);
    // The scenarios could not be simulated: `scenario` failed (the message bar says why).
    void setFailed(const QString& scenario);
    void setShowRanks(bool on);
    DeltaTableModel* model() const { return model_; }
    QTableView* view() const { return view_; }

private:
    DeltaTableModel* model_;
    QTableView* view_;
    QLabel* status_;
    QCheckBox* ranks_;
};

} // namespace sl::ui
