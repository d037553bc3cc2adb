#pragma once
#include "Selection.h"
#include "TimelineData.h"

#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace sl::ui {

class AddedRanksStrip;
class HighlightModel;
class OverviewStrip;
class TimeAxis;
class TimelineView;
class TrackState;
class ViewController;

// The central area: an overview strip of the whole trace and one time axis over two timeline panes,
// measured above simulated, all following one ViewController, one SelectionModel and one TrackState.
// Ranks a setup edit added to the simulated job (dp.degree) show in a strip under the simulated
// pane, never as rows of the panes (their shared RowLayout indexes the loaded ranks).
class TimelinePanes : public QWidget {
    Q_OBJECT
public:
    TimelinePanes(ViewController* controller, SelectionModel* selection, TrackState* tracks,
                  QWidget* parent = nullptr);

    TimelineView* measured() const { return measured_; }
    TimelineView* simulated() const { return simulated_; }
    TimeAxis* axis() const { return axis_; }
    OverviewStrip* overview() const { return overview_; }
    AddedRanksStrip* addedRanks() const { return added_; }
    // The line under the measured pane that says the simulated job has more ranks (hidden if not).
    QLabel* addedRanksLine() const { return addedLine_; }
    // The measured pane's note for a timeline: says when the input has no measured times (Chakra).
    static QString measuredNote(const std::shared_ptr<const TimelineData>& timeline);
    void setMeasured(std::shared_ptr<const TimelineData> timeline);
    // A new simulated timeline (or none) hides the added ranks until setSimulatedRun.
    void setSimulated(std::shared_ptr<const TimelineData> timeline, const QString& note = {});
    // The job the shown simulation predicted: the ranks it added (clones) appear under the simulated
    // pane, and a line under the measured pane says that the simulated job has more ranks.
    void setSimulatedRun(std::shared_ptr<const SimResult> result,
                         std::shared_ptr<const ExecutionGraph> graph);
    // That line's text when the simulated job has `added` ranks more than were loaded.
    static QString addedRanksNote(int world, int added);
    void setHighlights(HighlightModel* model);
    // Outlines find matches in both panes (see TimelineView::setMatches).
    void setMatches(const std::vector<std::vector<bool>>* matches);
    // The pane the keyboard acts on: the one under the mouse, else the measured one.
    TimelineView* activePane() const;

private:
    OverviewStrip* overview_;
    TimeAxis* axis_;
    TimelineView* measured_;
    TimelineView* simulated_;
    AddedRanksStrip* added_;
    QLabel* addedLine_;
};

} // namespace sl::ui
