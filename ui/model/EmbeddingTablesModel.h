#pragma once
// The tables of the "Embedding tables" panel (docs/Embeddings.md, "In the GUI"): one row per table
// with where the shown plan puts it, its size and pooling, and its modelled lookup time and pooled
// bytes sent per step; behind it the per-rank view (sim/EmbeddingPlanView.h) the panel's bars draw.
// Recomputed for each simulation's knobs; the trace's inventory is read once per graph.
#include "sim/EmbeddingPlanView.h"

#include <QAbstractTableModel>

#include <memory>

namespace sl::ui {

class EmbeddingTablesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Table, Ranks, Rows, Dim, Pooling, LookupUs, SentKB, ColumnCount };

    explicit EmbeddingTablesModel(QObject* parent = nullptr);
    // The graph of the shown simulation and the knobs it ran with (null graph: empty).
    void setSimulation(std::shared_ptr<const ExecutionGraph> graph, const SimKnobs& knobs);
    void clear();
    const EmbeddingPlanView& view() const { return view_; }
    // The trace has embedding lookups (the panel is shown only then).
    bool hasEmbedding() const { return view_.any(); }
    // The table's name ("" outside).
    QString tableName(int table) const;
    // plan.json of the shown plan with `table` table-wise on `rank`: the embedding.plan knob a move sets.
    QString planWithTableOn(int table, int rank) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // The view was recomputed (a new simulation or set).
    void viewChanged();

private:
    std::shared_ptr<const ExecutionGraph> graph_;
    EmbeddingInventory inventory_; // of graph_
    EmbeddingPlanView view_;
    // Per table: its shards' lookup time and bytes summed over ranks, and its ranks as text.
    std::vector<double> tableUs_, tableBytes_;
    std::vector<QString> tableRanks_;
};

} // namespace sl::ui
