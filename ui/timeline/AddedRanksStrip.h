#pragma once
#include "AddedRanks.h"
#include "TimeMapping.h"

#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <QWidget>

#include <memory>
#include <vector>

class QScrollBar;

namespace sl::ui {

class ViewController;

// The ranks a setup edit (dp.degree) added to the simulated job, under the simulated pane. They
// are not rows of the panes: every row of the shared RowLayout is a loaded rank of TraceSet::ranks
// (docs/AddedRanks.md). Each added rank is simulated on its own (SimResult::addedRanks), so each
// has a row: its label names it, the loaded rank whose program it runs and its simulated step, and a
// thin strip shows its own simulated GPU activity on the panes' time axis, per pixel column: the
// compute or communication colour, whichever kept the GPU busier there, stronger the busier it was.
// Rows go slowest first, so a straggler among the added ranks is the top row, its label in the
// warning colour. Hidden when the simulation added no rank.
class AddedRanksStrip : public QWidget {
    Q_OBJECT
public:
    explicit AddedRanksStrip(ViewController* controller, QWidget* parent = nullptr);

    // A finished simulation: a row per added rank (slowest first), or hidden when there are none.
    void setSimulation(std::shared_ptr<const SimResult> result, std::shared_ptr<const ExecutionGraph> graph);
    void clear();

    using Row = AddedRanks::Row;
    using Column = AddedRanks::Column;
    // The rows drawn (null: none); exported figures paint the same (FigureRender.h).
    const std::shared_ptr<const AddedRanks>& model() const { return model_; }
    const std::vector<Row>& rows() const;
    int addedCount() const { return static_cast<int>(rows().size()); }
    // "rank 100 (as 36)  196.2 ms".
    static QString rowLabel(const Row& row) { return AddedRanks::rowLabel(row); }
    // GPU busy time of row `row` per pixel column of the mapping (AddedRanks::columns).
    std::vector<Column> columns(int row, const TimeMapping& m, int width) const;

    static constexpr int kRowHeight = 16;
    static constexpr int kHeaderHeight = 18;
    static constexpr int kMaxVisibleRows = 8;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }
    int firstVisibleRow() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    int gutter() const;
    int areaWidth() const;
    int rowAt(int y) const;
    void updateScrollBar();

    ViewController* controller_;
    QScrollBar* scroll_;
    std::shared_ptr<const AddedRanks> model_;
};

} // namespace sl::ui
