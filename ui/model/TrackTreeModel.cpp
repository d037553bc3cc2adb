#include "TrackTreeModel.h"

#include "TrackState.h"

#include <QDataStream>
#include <QIODevice>
#include <QMimeData>

namespace sl::ui {

TrackTreeModel::TrackTreeModel(TrackState* state, QObject* parent)
    : QAbstractItemModel(parent), state_(state) {
    connect(state_, &TrackState::changed, this, &TrackTreeModel::refreshChecks);
}

void TrackTreeModel::setTraceSet(std::shared_ptr<const TraceSet> set) {
    beginResetModel();
    set_ = std::move(set);
    labels_ = set_ ? RankLabels(*set_) : RankLabels();
    endResetModel();
}

void TrackTreeModel::refreshChecks() {
    // Any state change (hide, pin, an order restored from a session) can change every row.
    if (!set_ || !state_->matches(*set_)) return;
    const int ranks = rowCount();
    if (ranks == 0) return;
    emit dataChanged(index(0, 0), index(ranks - 1, ColumnCount - 1));
    for (int r = 0; r < ranks; ++r) {
        const QModelIndex parentIndex = index(r, 0);
        const int n = rowCount(parentIndex);
        if (n > 0) emit dataChanged(index(0, 0, parentIndex), index(n - 1, ColumnCount - 1, parentIndex));
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
    // A state of another set (which the owner never leaves in place) shows nothing rather than
    // indexing one set's tracks with the other's order.
    if (!set_ || !state_->matches(*set_)) return 0;
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
        if (idx.column() == PinColumn) return {};
        if (role == Qt::DisplayRole)
            return idx.column() == NameColumn ? labels_.label(ru)
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
    if (idx.column() == PinColumn) {
        const bool pinned = state_->trackPinned(ru, static_cast<std::size_t>(t));
        if (role == Qt::CheckStateRole) return pinned ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::ToolTipRole)
            return pinned ? tr("Pinned to the top of the panes") : tr("Pin to the top of the panes");
        return {};
    }
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
    if (!idx.isValid() || role != Qt::CheckStateRole) return false;
    const auto [r, t] = location(idx);
    const auto ru = static_cast<std::size_t>(r);
    if (idx.column() == PinColumn) {
        if (t < 0) return false;
        state_->setTrackPinned(ru, static_cast<std::size_t>(t), value.toInt() == Qt::Checked);
        return true;
    }
    if (idx.column() != NameColumn) return false;
    const bool hidden = value.toInt() == Qt::Unchecked;
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
    const bool track = idx.internalId() != kRankRow;
    if (idx.column() == NameColumn || (idx.column() == PinColumn && track)) f |= Qt::ItemIsUserCheckable;
    // Tracks drag within their rank; they drop onto the rank (between tracks) or onto a track.
    f |= track ? (Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled) : Qt::ItemIsDropEnabled;
    return f;
}

static const QString kTrackMime = QStringLiteral("application/x-sightline-track");

QStringList TrackTreeModel::mimeTypes() const {
    return {kTrackMime};
}

QMimeData* TrackTreeModel::mimeData(const QModelIndexList& indexes) const {
    for (const QModelIndex& i : indexes) {
        if (!i.isValid() || i.internalId() == kRankRow) continue;
        QByteArray bytes;
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out << static_cast<qint32>(i.internalId()) << static_cast<qint32>(i.row());
        auto* data = new QMimeData;
        data->setData(kTrackMime, bytes);
        return data;
    }
    return nullptr;
}

std::pair<int, int> TrackTreeModel::dropTarget(const QMimeData* data, int row, const QModelIndex& parentIndex,
                                               int* from) const {
    if (!data || !data->hasFormat(kTrackMime) || !parentIndex.isValid()) return {-1, -1};
    QDataStream in(data->data(kTrackMime));
    qint32 rank = -1, source = -1;
    in >> rank >> source;
    int targetRank = -1, to = -1;
    if (parentIndex.internalId() == kRankRow) {
        // Between two tracks of a rank: row is the insert position (-1: onto the rank, the end).
        targetRank = parentIndex.row();
        const int n = rowCount(index(targetRank, 0));
        to = row < 0 ? n - 1 : (row > source ? row - 1 : row);
    } else {
        // Onto a track: take its place.
        targetRank = static_cast<int>(parentIndex.internalId());
        to = parentIndex.row();
    }
    if (targetRank != rank || source < 0 || to < 0 || source >= rowCount(index(rank, 0))) return {-1, -1};
    if (from) *from = source;
    return {rank, to};
}

bool TrackTreeModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int,
                                     const QModelIndex& parentIndex) const {
    return action == Qt::MoveAction && dropTarget(data, row, parentIndex, nullptr).first >= 0;
}

bool TrackTreeModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int,
                                  const QModelIndex& parentIndex) {
    if (action != Qt::MoveAction) return false;
    int from = -1;
    const auto [rank, to] = dropTarget(data, row, parentIndex, &from);
    if (rank < 0) return false;
    moveTrack(rank, from, to);
    // The move is done here; returning false keeps the view from removing the source row itself.
    return false;
}

bool TrackTreeModel::moveTrack(int rank, int from, int to) {
    if (!set_ || rank < 0 || rank >= rowCount()) return false;
    const QModelIndex parentIndex = index(rank, 0);
    const int n = rowCount(parentIndex);
    if (from < 0 || to < 0 || from >= n || to >= n || from == to) return false;
    beginMoveRows(parentIndex, from, from, parentIndex, to > from ? to + 1 : to);
    {
        const QSignalBlocker block(state_);
        state_->moveTrack(static_cast<std::size_t>(rank), static_cast<std::size_t>(from),
                          static_cast<std::size_t>(to));
    }
    endMoveRows();
    emit state_->changed();
    return true;
}

QVariant TrackTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == NameColumn ? tr("Track") : section == PinColumn ? tr("Pin") : tr("Events");
}

} // namespace sl::ui
