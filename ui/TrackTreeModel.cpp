#include "TrackTreeModel.h"

#include "TrackState.h"

namespace sl::ui {

TrackTreeModel::TrackTreeModel(TrackState* state, QObject* parent)
    : QAbstractItemModel(parent), state_(state) {
    connect(state_, &TrackState::changed, this, &TrackTreeModel::refreshChecks);
}

void TrackTreeModel::setTraceSet(std::shared_ptr<const TraceSet> set) {
    beginResetModel();
    set_ = std::move(set);
    endResetModel();
}

void TrackTreeModel::refreshChecks() {
    if (!set_ || state_->rankCount() != set_->ranks.size()) return;
    const int ranks = rowCount();
    if (ranks == 0) return;
    emit dataChanged(index(0, 0), index(ranks - 1, 0), {Qt::CheckStateRole});
    for (int r = 0; r < ranks; ++r) {
        const QModelIndex parentIndex = index(r, 0);
        const int n = rowCount(parentIndex);
        if (n > 0)
            emit dataChanged(index(0, 0, parentIndex), index(n - 1, 0, parentIndex), {Qt::CheckStateRole});
    }
}

std::pair<int, int> TrackTreeModel::location(const QModelIndex& idx) const {
    if (!idx.isValid()) return {-1, -1};
    if (idx.internalId() == kRankRow) return {idx.row(), -1};
    const auto rank = static_cast<std::size_t>(idx.internalId());
    return {static_cast<int>(rank),
            static_cast<int>(state_->order(rank)[static_cast<std::size_t>(idx.row())])};
}

QModelIndex TrackTreeModel::index(int row, int column, const QModelIndex& parentIndex) const {
    if (!hasIndex(row, column, parentIndex)) return {};
    if (!parentIndex.isValid()) return createIndex(row, column, kRankRow);
    return createIndex(row, column, static_cast<quintptr>(parentIndex.row()));
}

QModelIndex TrackTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kRankRow) return {};
    return createIndex(static_cast<int>(child.internalId()), 0, kRankRow);
}

int TrackTreeModel::rowCount(const QModelIndex& parentIndex) const {
    if (!set_ || state_->rankCount() != set_->ranks.size()) return 0;
    if (!parentIndex.isValid()) return static_cast<int>(set_->ranks.size());
    if (parentIndex.column() != 0 || parentIndex.internalId() != kRankRow) return 0;
    return static_cast<int>(set_->ranks[static_cast<std::size_t>(parentIndex.row())].tracks.size());
}

int TrackTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant TrackTreeModel::data(const QModelIndex& idx, int role) const {
    if (!idx.isValid()) return {};
    const auto [r, t] = location(idx);
    const Rank& rank = set_->ranks[static_cast<std::size_t>(r)];
    const auto ru = static_cast<std::size_t>(r);
    if (t < 0) {
        if (role == Qt::DisplayRole)
            return idx.column() == NameColumn ? QStringLiteral("Rank %1  %2")
                                                    .arg(rank.rank)
                                                    .arg(QString::fromStdString(rank.deviceName()))
                                              : QVariant(static_cast<qlonglong>(rank.eventCount()));
        if (role == Qt::CheckStateRole && idx.column() == NameColumn) {
            int shown = 0;
            for (std::size_t k = 0; k < rank.tracks.size(); ++k)
                shown += state_->trackHidden(ru, k) ? 0 : 1;
            return shown == 0
                       ? Qt::Unchecked
                       : (shown == static_cast<int>(rank.tracks.size()) ? Qt::Checked : Qt::PartiallyChecked);
        }
        if (role == Qt::ToolTipRole) return QString::fromStdString(rank.sourcePath);
        return {};
    }
    const Track& track = rank.tracks[static_cast<std::size_t>(t)];
    if (role == Qt::DisplayRole)
        return idx.column() == NameColumn ? QString::fromStdString(track.name)
                                          : QVariant(static_cast<qlonglong>(track.events.size()));
    if (role == Qt::CheckStateRole && idx.column() == NameColumn)
        return state_->trackHidden(ru, static_cast<std::size_t>(t)) ? Qt::Unchecked : Qt::Checked;
    if (role == Qt::ToolTipRole)
        return track.isGpu() ? QStringLiteral("device %1, stream %2").arg(track.device()).arg(track.stream())
                             : QStringLiteral("pid %1, tid %2").arg(track.pid).arg(track.tid);
    return {};
}

bool TrackTreeModel::setData(const QModelIndex& idx, const QVariant& value, int role) {
    if (!idx.isValid() || role != Qt::CheckStateRole || idx.column() != NameColumn) return false;
    const bool hidden = value.toInt() == Qt::Unchecked;
    const auto [r, t] = location(idx);
    const auto ru = static_cast<std::size_t>(r);
    if (t >= 0) {
        state_->setTrackHidden(ru, static_cast<std::size_t>(t), hidden);
    } else {
        const QSignalBlocker block(state_);
        for (std::size_t k = 0; k < set_->ranks[ru].tracks.size(); ++k)
            state_->setTrackHidden(ru, k, hidden);
    }
    if (t < 0) emit state_->changed();
    return true;
}

Qt::ItemFlags TrackTreeModel::flags(const QModelIndex& idx) const {
    if (!idx.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (idx.column() == NameColumn) f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant TrackTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == NameColumn ? tr("Track") : tr("Events");
}

} // namespace sl::ui
