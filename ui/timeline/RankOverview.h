#pragma once
// The rank overview column beside the panes (docs/ManyRanks.md): one thin line per rank, in the
// panes' group order, a bar as long as the rank's measured step (GPU span) split into compute,
// exposed communication and idle (waiting), with an orange tick as long as the time the rank made
// the others wait at collectives (analysis/CollectiveArrivals.h; a pipeline's sends and receives
// left out, as the result card does): the straggler is the line with the least red and the longest
// tick. All of it is measured (the header says so): the result card above speaks of the simulated
// step, so under a what-if the two may name different ranks. The ranks the measured pane shows are
// framed; a click scrolls the panes to that rank (opening its group when folded). Before the details
// of a set are computed the lines are there, empty, with a note in the header.
#include "RankLabels.h"

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

class SimulationModel;

class RankOverview : public QWidget {
    Q_OBJECT
public:
    RankOverview(TrackState* tracks, ViewController* view, TimelineView* pane, QWidget* parent = nullptr);
    // The set and its measured breakdown (parallel to its ranks) and the arrivals at the collectives
    // of its graph (null or empty: no ticks). Null set: empty.
    void setData(std::shared_ptr<const TraceSet> set, std::vector<RankBreakdown> breakdown,
                 const CollectiveArrivals* arrivals, const ExecutionGraph* graph);
    void clear();
    // Fills itself from each run the model shows (its measured breakdown and the arrivals), shown
    // from four ranks on.
    void followSimulation(const SimulationModel* model);
    // The set's lines before its breakdown and arrivals are known (the details phase), with `note`
    // in the header ("waits: computing..."); a later setData replaces it. Ignored once data is in.
    void setPending(std::shared_ptr<const TraceSet> set, const QString& note);
    // What the header's second line says: "late: r5", "late: none", or the pending note.
    QString headerNote() const;
    // Rank indices in the order drawn (the panes' group order).
    const std::vector<std::size_t>& order() const { return order_; }
    // The rank index drawn at widget y, or -1.
    int rankAt(int y) const;
    // Where rank index r's line is drawn (empty when it is not).
    QRect lineRect(std::size_t r) const;
    // Scrolls the panes to rank index r (opens its group or the filter when they hide it).
    void reveal(std::size_t r);
    QString tooltipFor(std::size_t r) const;
    // The rank the others wait for (marked), by lateRank (analysis/CollectiveArrivals.h), or -1.
    int latest() const { return latest_; }
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
    RankLabels labels_; // of set_
    std::vector<RankBreakdown> breakdown_;
    std::vector<TimeNs> madeWait_; // per rank index (sends and receives aside)
    std::vector<TimeNs> waited_;
    int latest_ = -1;
    QString pending_; // the header note while the data is not in
    std::vector<std::size_t> order_;
    std::vector<int> groupOf_; // per position in order_
};

} // namespace sl::ui
