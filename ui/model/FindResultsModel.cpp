#include "FindResultsModel.h"

#include "EventNames.h"
#include "TimeFormat.h"

namespace sl::ui {

FindResultsModel::FindResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void FindResultsModel::setSearch(const EventSearch* search, std::shared_ptr<const TimelineData> data) {
    beginResetModel();
    search_ = search;
    data_ = std::move(data);
    endResetModel();
}

int FindResultsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !search_ || !data_) return 0;
    return static_cast<int>(std::min<std::size_t>(search_->count(), std::numeric_limits<int>::max()));
}

int FindResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const EventId e = search_->match(static_cast<std::size_t>(index.row()));
    if (static_cast<std::size_t>(e.rank) >= data_->ranks().size()) return {};
    const sl::Rank& rank = *data_->ranks()[static_cast<std::size_t>(e.rank)].rank;
    if (e.ref.track >= rank.tracks.size()) return {};
    const TrackTimeline& t = data_->track(static_cast<std::size_t>(e.rank), e.ref.track);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return shortEventName(rank.name(e.ref));
        case Rank:
            return rank.rank;
        case Track:
            return QString::fromStdString(rank.tracks[e.ref.track].name);
        case Start:
            return formatPrecise(t.start[e.ref.index] - data_->start());
        case Duration:
            return formatPrecise(t.duration[e.ref.index]);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Name) {
        const std::string_view name = rank.name(e.ref);
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Start)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant FindResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Name", "Rank", "Track", "Start", "Duration"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sl::ui
