#pragma once
#include "RangeStats.h"

#include <QAbstractTableModel>

namespace sl::ui {

// The table of the range statistics panel: per name, the measured pane's count, time in the range and
// share of it, the same for the simulated pane, and the measured mean and max (all clipped to the
// range). Sortable by any column; Qt::UserRole gives the raw number (ns, or percent) of numeric columns.
class RangeStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Count, Total, Share, SimCount, SimTotal, SimShare, Mean, Max, ColumnCount };

    explicit RangeStatsModel(QObject* parent = nullptr);
    void setTable(RangeTable table);
    const RangeTable& table() const { return table_; }
    // Whether a column means something for the current table (the simulated ones need a simulation).
    bool columnUsed(int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    QVariant number(const RangeRow& row, int column) const;
    RangeTable table_;
};

} // namespace sl::ui
