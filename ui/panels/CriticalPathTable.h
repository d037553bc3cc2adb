#pragma once
// The critical path as a table (docs/WhatIfWorkbench.md, "Critical-path navigation"): every
// segment (start from the path's origin, duration, kind, rank, track, op) or, grouped, one row per
// op name with its total and segment count. A row activated jumps to its event; next / previous
// walk the segments in time order. Above the table: the path's length next to the simulated
// iteration, with the sentence that explains a difference (analysis/StepExplanation.h).
#include "Selection.h"
#include "SimRunner.h"
#include "analysis/CriticalPath.h"

#include <QAbstractTableModel>
#include <QWidget>

class QCheckBox;
class QLabel;
class QTableView;

namespace sl::ui {

class CriticalPathModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Start, Duration, Kind, Rank, Track, Op, ColumnCount };
    enum GroupColumn { GOp, GKind, GSegments, GTotal, GShare, GroupColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setSimulation(const SimOutput& output);
    void setGrouped(bool grouped);
    bool grouped() const { return grouped_; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Segment rows: the event of row (invalid for rows without one) and the row of an event (-1).
    EventId eventOf(int row) const;
    int rowOfEvent(const EventId& e) const;
    // Sum of the segment durations of one kind (ns), over the table's segment rows.
    TimeNs totalOf(PathLabel label) const;
    // Grouped rows: the total of row (ns).
    TimeNs groupTotal(int row) const;
    const CriticalPath* path() const;

private:
    SimOutput output_;
    std::vector<PathNameShare> groups_;
    bool grouped_ = false;
};

class CriticalPathTable : public QWidget {
    Q_OBJECT
public:
    explicit CriticalPathTable(QWidget* parent = nullptr);
    void setSimulation(const SimOutput& output);
    CriticalPathModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QString summary() const;
    // Selects the next / previous segment after the selected row (the first / last with none) and
    // emits eventActivated for it.
    void next();
    void previous();
    // The selected event changed elsewhere: select its segment row, if it has one.
    void followEvent(const EventId& e);

signals:
    void eventActivated(sl::ui::EventId e);

private:
    void step(int delta);
    void activate(int row);

    CriticalPathModel* model_;
    QTableView* view_;
    QLabel* summary_;
    QCheckBox* grouped_;
};

} // namespace sl::ui
