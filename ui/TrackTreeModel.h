#pragma once
#include "trace/TraceSet.h"

#include <QAbstractItemModel>

#include <memory>

namespace sl::ui {

class TrackState;

// The track tree: rank -> CPU threads and GPU streams, in TrackState's order. The check box of a
// track shows or hides it; the check box of a rank shows or hides all its tracks. Expanding a rank
// in the view is mirrored into TrackState by the owner (see TrackTree).
class TrackTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, EventsColumn, ColumnCount };

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

    // The (rank, track) of an index; track -1 for a rank row.
    std::pair<int, int> location(const QModelIndex& index) const;

private:
    static constexpr quintptr kRankRow = ~quintptr{0};
    void refreshChecks();

    TrackState* state_;
    std::shared_ptr<const TraceSet> set_;
};

} // namespace sl::ui
