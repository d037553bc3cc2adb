#pragma once
// The rank overview column beside the panes (docs/ManyRanks.md): one thin line per rank, in the
// panes' group order, a bar as long as the rank's measured step (GPU span) split into compute,
// exposed communication and idle (waiting), with an orange tick as long as the time the rank made
// the others wait at collectives (analysis/CollectiveArrivals.h): the straggler is the line with
// the least red and the longest tick. The ranks the measured pane shows are framed; a click
// scrolls the panes to that rank (opening its group when folded).
#include "analysis/Breakdown.h"
#include "analysis/CollectiveArrivals.h"
#include "trace/TraceSet.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace sl::ui {

class TimelineView;
class TrackState;
class ViewController;

class RankOverview : public QWidget {
    Q_OBJECT
public:
    RankOverview(TrackState* tracks, ViewController* view, TimelineView* pane, QWidget* parent = nullptr);
    // The set and its measured breakdown (parallel to its ranks) and the arrivals at its collectives
    // (null or empty: no ticks). Null set: empty.
    void setData(std::shared_ptr<const TraceSet> set, std::vector<RankBreakdown> breakdown,
                 const CollectiveArrivals* arrivals);
    void clear();
    // Rank indices in the order drawn (the panes' group order).
    const std::vector<std::size_t>& order() const { return order_; }
    // The rank index drawn at widget y, or -1.
    int rankAt(int y) const;
    // Where rank index r's line is drawn (empty when it is not).
    QRect lineRect(std::size_t r) const;
    // Scrolls the panes to rank index r (opens its group or the filter when they hide it).
    void reveal(std::size_t r);
    QString tooltipFor(std::size_t r) const;
    // The rank index that made the others wait longest at collectives (marked), or -1.
    int latest() const;
    QSize sizeHint() const override { return {110, 200}; }
    QSize minimumSizeHint() const override { return {60, 40}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void reorder();
    int top() const;
    int lineHeight() const;

    TrackState* tracks_;
    ViewController* view_;
    TimelineView* pane_;
    std::shared_ptr<const TraceSet> set_;
    std::vector<RankBreakdown> breakdown_;
    std::vector<TimeNs> madeWait_; // per rank index
    std::vector<TimeNs> waited_;
    std::vector<std::size_t> order_;
    std::vector<int> groupOf_; // per position in order_
};

} // namespace sl::ui
