#pragma once
#include "EventSearch.h"
#include "TimelineData.h"

#include <QAbstractTableModel>

#include <memory>

namespace sl::ui {

// The find results list: one row per match of an EventSearch (name, rank, track, start, duration), in
// the search's start order. Rows are computed when shown, so millions of matches cost nothing up front.
class FindResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Rank, Track, Start, Duration, ColumnCount };

    explicit FindResultsModel(QObject* parent = nullptr);
    // The search (owned by the caller, outliving this model or reset before it goes) over `data`.
    void setSearch(const EventSearch* search, std::shared_ptr<const TimelineData> data);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const EventSearch* search_ = nullptr;
    std::shared_ptr<const TimelineData> data_;
};

} // namespace sl::ui
