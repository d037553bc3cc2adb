#pragma once
// The "Embedding tables" dock (docs/Embeddings.md, "In the GUI"), shown for traces with embedding
// lookups: per rank, a bar of its modelled lookup time and one of the pooled bytes it sends per
// step, each table a segment; below, the tables. A segment's context menu moves that table to
// another rank ("Move table t3 to rank 5"): the panel asks for the plan (planChosen), the window
// sets it as the current scenario's embedding.plan knob and the simulation re-runs like any knob.
#include "EmbeddingTablesModel.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace sl::ui {

struct SimOutput;

// The bars: one row per rank, lookup time above, bytes sent below, segments coloured per table.
class EmbeddingBars : public QWidget {
    Q_OBJECT
public:
    explicit EmbeddingBars(const EmbeddingTablesModel* model, QWidget* parent = nullptr);
    // The segment under a point: {table, rank}, {-1, -1} outside any.
    std::pair<int, int> segmentAt(QPoint p) const;
    // Where the segment of `table` on `rank` is drawn (the lookup bar's; empty when none).
    QRect segmentRect(int table, int rank) const;
    // The context menu of a segment (its "Move table ... to rank N" actions), for tests and the event.
    void fillMenu(class QMenu& menu, int table, int rank);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void moveRequested(int table, int rank);

protected:
    void paintEvent(QPaintEvent*) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    bool event(QEvent* e) override; // tooltips

private:
    struct Segment {
        int table, rank;
        QRect rect;
        bool bytes; // the bytes bar
    };
    std::vector<Segment> layoutSegments() const;
    const EmbeddingTablesModel* model_;
};

class EmbeddingTablesPanel : public QWidget {
    Q_OBJECT
public:
    explicit EmbeddingTablesPanel(QWidget* parent = nullptr);
    // A simulation was shown: the view for its graph and knobs.
    void setSimulation(const SimOutput& output);
    void clear();
    EmbeddingTablesModel* model() const { return model_; }
    EmbeddingBars* bars() const { return bars_; }
    QTableView* table() const { return table_; }
    QString summary() const;

signals:
    // plan.json text of the plan with one table moved: the new embedding.plan knob.
    void planChosen(QString planJson);
    // Whether the shown trace has embedding work (the dock shows only then).
    void availabilityChanged(bool available);

private:
    void refresh();
    EmbeddingTablesModel* model_;
    QLabel* summary_;
    EmbeddingBars* bars_;
    QTableView* table_;
    bool available_ = false;
};

} // namespace sl::ui
