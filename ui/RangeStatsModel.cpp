#include "RangeStatsModel.h"

#include "TimeFormat.h"

#include <QColor>

#include <algorithm>

namespace sl::ui {

RangeStatsModel::RangeStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeStatsModel::setStats(std::vector<NameStats> stats) {
    beginResetModel();
    stats_ = std::move(stats);
    endResetModel();
}

int RangeStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(stats_.size());
}

int RangeStatsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeStatsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const NameStats& s = stats_[static_cast<std::size_t>(index.row())];
    const auto col = static_cast<Column>(index.column());
    if (role == Qt::DisplayRole) {
        switch (col) {
        case Name:
            return s.name;
        case Kind:
            return categoryLabel(s.category);
        case Count:
            return static_cast<qlonglong>(s.count);
        case Total:
            return formatDuration(s.total);
        case Mean:
            return formatDuration(static_cast<TimeNs>(s.mean()));
        case Max:
            return formatDuration(s.max);
        default:
            return {};
        }
    }
    if (role == Qt::UserRole) {
        switch (col) {
        case Name:
            return s.name;
        case Kind:
            return static_cast<int>(s.category);
        case Count:
            return static_cast<qlonglong>(s.count);
        case Total:
            return static_cast<qlonglong>(s.total);
        case Mean:
            return s.mean();
        case Max:
            return static_cast<qlonglong>(s.max);
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole && col == Kind) return palette::color(s.category);
    if (role == Qt::ToolTipRole && col == Name) return s.name;
    if (role == Qt::TextAlignmentRole && col >= Count) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Name", "Kind", "Count", "Total", "Mean", "Max"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void RangeStatsModel::sort(int column, Qt::SortOrder order) {
    auto key = [column](const NameStats& s) -> double {
        switch (column) {
        case Kind:
            return static_cast<double>(s.category);
        case Count:
            return static_cast<double>(s.count);
        case Total:
            return static_cast<double>(s.total);
        case Mean:
            return s.mean();
        case Max:
            return static_cast<double>(s.max);
        default:
            return 0.0;
        }
    };
    emit layoutAboutToBeChanged();
    std::stable_sort(stats_.begin(), stats_.end(), [&](const NameStats& a, const NameStats& b) {
        const bool less = column == Name ? a.name < b.name : key(a) < key(b);
        const bool greater = column == Name ? b.name < a.name : key(b) < key(a);
        return order == Qt::AscendingOrder ? less : greater;
    });
    emit layoutChanged();
}

} // namespace sl::ui
