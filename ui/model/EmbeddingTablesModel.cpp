#include "EmbeddingTablesModel.h"

namespace sl::ui {

EmbeddingTablesModel::EmbeddingTablesModel(QObject* parent) : QAbstractTableModel(parent) {}

void EmbeddingTablesModel::setSimulation(std::shared_ptr<const ExecutionGraph> graph, const SimKnobs& knobs) {
    beginResetModel();
    if (graph != graph_) {
        graph_ = std::move(graph);
        // Once per graph: a knob change re-simulates on the same graph.
        inventory_ = graph_ ? embeddingInventory(*graph_) : EmbeddingInventory{};
    }
    view_ = graph_ ? embeddingPlanView(*graph_, inventory_, knobs) : EmbeddingPlanView{};
    const std::size_t n = view_.tables.tables.size();
    tableUs_.assign(n, 0.0);
    tableBytes_.assign(n, 0.0);
    tableRanks_.assign(n, QString());
    for (const EmbeddingShardShare& s : view_.shards) {
        const auto t = static_cast<std::size_t>(s.table);
        if (t >= n) continue;
        tableUs_[t] += s.lookupUs;
        tableBytes_[t] += s.sentBytes;
    }
    for (const TablePlacement& p : view_.plan.placements) {
        if (p.table < 0 || static_cast<std::size_t>(p.table) >= n) continue;
        QStringList ranks;
        for (int r : p.ranks)
            ranks << QString::number(r);
        QString text = ranks.join(QLatin1Char(','));
        if (p.sharding != Sharding::TableWise)
            text = QStringLiteral("%1 (%2)").arg(QString::fromUtf8(shardingName(p.sharding).data()), text);
        tableRanks_[static_cast<std::size_t>(p.table)] = text;
    }
    endResetModel();
    emit viewChanged();
}

void EmbeddingTablesModel::clear() {
    setSimulation(nullptr, {});
}

QString EmbeddingTablesModel::tableName(int table) const {
    if (table < 0 || static_cast<std::size_t>(table) >= view_.tables.tables.size()) return {};
    return QString::fromStdString(view_.tables.tables[static_cast<std::size_t>(table)].name);
}

QString EmbeddingTablesModel::planWithTableOn(int table, int rank) const {
    return QString::fromStdString(sl::planWithTableOn(view_, table, rank));
}

int EmbeddingTablesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(view_.tables.tables.size());
}

int EmbeddingTablesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EmbeddingTablesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto row = static_cast<std::size_t>(index.row());
    const EmbeddingTable& t = view_.tables.tables[row];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c == Table || c == Ranks ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
    const bool raw = role == Qt::UserRole;
    switch (c) {
    case Table:
        return QString::fromStdString(t.name);
    case Ranks:
        return tableRanks_[row];
    case Rows:
        return static_cast<qlonglong>(t.rows);
    case Dim:
        return t.dim;
    case Pooling:
        return raw ? QVariant(t.pooling) : QVariant(QString::number(t.pooling, 'g', 4));
    case LookupUs:
        return raw ? QVariant(tableUs_[row]) : QVariant(QString::number(tableUs_[row], 'f', 1));
    case SentKB:
        return raw ? QVariant(tableBytes_[row]) : QVariant(QString::number(tableBytes_[row] / 1e3, 'f', 1));
    default:
        return {};
    }
}

QVariant EmbeddingTablesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Table:
        return tr("Table");
    case Ranks:
        return tr("Rank");
    case Rows:
        return tr("Rows");
    case Dim:
        return tr("Dim");
    case Pooling:
        return tr("Pooling");
    case LookupUs:
        return tr("Lookup (us)");
    case SentKB:
        return tr("Sent (kB)");
    default:
        return {};
    }
}

} // namespace sl::ui
