#include "RangeStatsModel.h"

#include "TimeFormat.h"

#include <QColor>

#include <algorithm>

namespace sl::ui {

RangeStatsModel::RangeStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeStatsModel::setTable(RangeTable table) {
    beginResetModel();
    table_ = std::move(table);
    endResetModel();
}

bool RangeStatsModel::columnUsed(int column) const {
    return table_.hasSimulated || (column != SimCount && column != SimTotal && column != SimShare);
}

int RangeStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int RangeStatsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeStatsModel::number(const RangeRow& r, int column) const {
    switch (column) {
    case Kind:
        return static_cast<int>(r.category);
    case Count:
        return static_cast<qlonglong>(r.measured.count);
    case Total:
        return static_cast<qlonglong>(r.measured.total);
    case Share:
        return table_.share(r.measured.total);
    case SimCount:
        return static_cast<qlonglong>(r.simulated.count);
    case SimTotal:
        return static_cast<qlonglong>(r.simulated.total);
    case SimShare:
        return table_.share(r.simulated.total);
    case Mean:
        return r.measured.mean();
    case Max:
        return static_cast<qlonglong>(r.measured.max);
    default:
        return r.name;
    }
}

QVariant RangeStatsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const RangeRow& r = table_.rows[static_cast<std::size_t>(index.row())];
    const int col = index.column();
    if (role == Qt::UserRole) return number(r, col);
    if (role == Qt::DisplayRole) {
        if (!columnUsed(col)) return {};
        switch (col) {
        case Name:
            return r.name;
        case Kind:
            return categoryLabel(r.category);
        case Count:
            return static_cast<qlonglong>(r.measured.count);
        case SimCount:
            return static_cast<qlonglong>(r.simulated.count);
        case Total:
            return formatDuration(r.measured.total);
        case SimTotal:
            return formatDuration(r.simulated.total);
        case Share:
        case SimShare:
            return QStringLiteral("%1%").arg(number(r, col).toDouble(), 0, 'f', 1);
        case Mean:
            return formatDuration(static_cast<TimeNs>(r.measured.mean()));
        case Max:
            return formatDuration(r.measured.max);
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole && col == Kind) return palette::color(r.category, r.shade);
    if (role == Qt::ToolTipRole) {
        if (col == Name) return r.name;
        if (col == Total || col == SimTotal || col == Mean || col == Max)
            return formatPrecise(number(r, col).toLongLong());
    }
    if (role == Qt::TextAlignmentRole && col >= Count) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        static const char* names[] = {"Name",      "Kind",      "Count", "Measured", "%",
                                      "Sim count", "Simulated", "Sim %", "Mean",     "Max"};
        return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Count:
            return tr("Events of this name that overlap the range (measured)");
        case Total:
            return tr("Measured time inside the range, summed over tracks and ranks (events are clipped "
                      "to the range)");
        case Share:
        case SimShare:
            return tr("Time inside the range per rank, as a share of the range (summed over ranks, "
                      "divided by the rank count)");
        case SimCount:
            return tr("Events of this name that overlap the range in the simulated timeline");
        case SimTotal:
            return tr("Simulated time inside the range, summed over tracks and ranks");
        case Mean:
        case Max:
            return tr("Of the measured in-range parts");
        default:
            return {};
        }
    }
    return {};
}

void RangeStatsModel::sort(int column, Qt::SortOrder order) {
    emit layoutAboutToBeChanged();
    std::stable_sort(table_.rows.begin(), table_.rows.end(), [&](const RangeRow& a, const RangeRow& b) {
        if (column == Name) return order == Qt::AscendingOrder ? a.name < b.name : b.name < a.name;
        const double x = number(a, column).toDouble();
        const double y = number(b, column).toDouble();
        return order == Qt::AscendingOrder ? x < y : y < x;
    });
    emit layoutChanged();
}

} // namespace sl::ui
