#pragma once
#include "TimeMapping.h"

#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"
#include "trace/Collective.h"

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

    struct Row {
        std::int32_t added = 0;   // index into SimResult::addedRanks
        int rank = 0;             // its rank id in the simulated job
        std::uint32_t source = 0; // index into TraceSet::ranks of the rank whose program it runs
        int sourceRank = 0;       // that rank's id
        TimeNs step = 0;          // its simulated iteration
        bool slow = false;        // more than 1% slower than the median added rank
    };
    const std::vector<Row>& rows() const { return rows_; }
    int addedCount() const { return static_cast<int>(rows_.size()); }
    // "rank 100 (as 36)  196.2 ms".
    static QString rowLabel(const Row& row);

    // GPU busy nanoseconds of row `row` in each pixel column [0, width) of the mapping, column c
    // covering [m.columnStart(c), m.columnStart(c + 1)): the added rank's own simulated time of its
    // kernels, copies and sets, summed over its streams, split into communication kernels and the rest.
    struct Column {
        TimeNs compute = 0;
        TimeNs communication = 0;
    };
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
    std::shared_ptr<const SimResult> result_;
    std::shared_ptr<const ExecutionGraph> graph_;
    // Per source rank with added ranks: its GPU op nodes and whether each is communication.
    std::vector<std::vector<std::pair<NodeId, bool>>> gpuOps_;
    std::vector<Row> rows_;
    int world_ = 0;
};

} // namespace sl::ui
