#pragma once
#include "RangeStats.h"

#include <QAbstractTableModel>

namespace sl::ui {

// The table of the range statistics panel: name, category, count, total, mean, max. Sortable by
// any column; Qt::UserRole gives the raw number (ns) of numeric columns.
class RangeStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Count, Total, Mean, Max, ColumnCount };

    explicit RangeStatsModel(QObject* parent = nullptr);
    void setStats(std::vector<NameStats> stats);
    const std::vector<NameStats>& stats() const { return stats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    std::vector<NameStats> stats_;
};

} // namespace sl::ui
