#pragma once
#include "TimeMapping.h"
#include "TimelineData.h"

#include "sim/SetupEdits.h"

#include <QWidget>

#include <memory>
#include <vector>

class QScrollBar;

namespace sl::ui {

class ViewController;

// The ranks a setup edit (dp.degree) added to the simulated job, under the simulated pane. They
// are not rows of the panes: every row of the shared RowLayout is a loaded rank of TraceSet::ranks
// (docs/AddedRanks.md). A clone's simulated times are exactly those of its
// source rank (sim/SetupEdits.h), so the clones of one source share one row: its label lists them
// ("ranks 8, 16, 24 (+5 more) = rank 0") and a thin strip shows the source's simulated GPU activity
// on the panes' time axis, per pixel column: the compute or communication colour, whichever kept
// the GPU busier there, stronger the busier it was. Hidden when the simulation added no rank.
class AddedRanksStrip : public QWidget {
    Q_OBJECT
public:
    explicit AddedRanksStrip(ViewController* controller, QWidget* parent = nullptr);

    // The setup of a finished simulation and its timeline (the simulated pane's data); shows a row
    // per loaded rank that has clones, or hides itself when there are none.
    void setSetup(const SimulatedSetup& setup, std::shared_ptr<const TimelineData> simulated);
    void clear();

    struct Row {
        std::uint32_t source = 0; // index into TraceSet::ranks
        int sourceRank = 0;       // its rank id
        std::vector<int> clones;  // rank ids of the simulated job, ascending
    };
    const std::vector<Row>& rows() const { return rows_; }
    int addedCount() const { return added_; }
    // "ranks 8, 16, 24 (+5 more) = rank 0" (at most kListed ids listed).
    static QString rowLabel(const Row& row);
    static constexpr int kListed = 3;

    // GPU busy nanoseconds of row `row` in each pixel column [0, width) of the mapping, column c
    // covering [m.columnStart(c), m.columnStart(c + 1)): time of kernels, copies and sets, summed
    // over the source's streams, split into communication kernels and the rest.
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
    std::shared_ptr<const TimelineData> data_;
    std::vector<Row> rows_;
    int added_ = 0;
    int world_ = 0;
};

} // namespace sl::ui
