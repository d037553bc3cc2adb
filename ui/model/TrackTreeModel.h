#pragma once
#include "RankLabels.h"

#include "trace/TraceSet.h"

#include <QAbstractItemModel>

#include <memory>

namespace sl::ui {

class TrackState;

// The track tree: rank -> CPU threads and GPU streams, in TrackState's order. The check box of a
// track shows or hides it; the check box of a rank shows or hides all its tracks. The pin column
// pins a track to the top of the panes; tracks are reordered within their rank by drag and drop
// (or moveTrack()). Expanding a rank
// in the view is mirrored into TrackState by the owner (see TrackTree).
class TrackTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, EventsColumn, PinColumn, ColumnCount };

    explicit TrackTreeModel(TrackState* state, QObject* parent = nullptr);
    void setTraceSet(std::shared_ptr<const TraceSet> set);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;

    // Moves the track at display row `from` of a rank to row `to` (its final position).
    bool moveTrack(int rank, int from, int to);

    // The (rank, track) of an index; track -1 for a rank row.
    std::pair<int, int> location(const QModelIndex& index) const;

private:
    static constexpr quintptr kRankRow = ~quintptr{0};
    void refreshChecks();
    // Where a drop lands: the rank and the final display row, or {-1, -1}.
    std::pair<int, int> dropTarget(const QMimeData* data, int row, const QModelIndex& parent,
                                   int* from) const;

    TrackState* state_;
    std::shared_ptr<const TraceSet> set_;
    RankLabels labels_; // of set_
};

} // namespace sl::ui
