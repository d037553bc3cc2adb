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
struct ComparisonRun;
class HighlightModel;
class SimulationModel;
class OverviewStrip;
class TimeAxis;
class TimelineView;
class TrackState;
class ViewController;

// The central area: an overview strip of the whole trace and one time axis over two timeline panes,
// measured above simulated, all following one ViewController, one SelectionModel and one TrackState.
// Ranks a setup edit added to the simulated job (dp.degree) show in a strip under the simulated
// pane, never as rows of the panes (their shared RowLayout indexes the loaded ranks).
// A comparison run (a second measured run, docs/Compare.md) takes the lower pane's place while it
// is shown: its timeline starts its step where the open run's does, its rows follow the open run's
// (RowLayout along the open set), and an op selected in either pane selects its aligned op in the
// other; both panes colour their GPU ops by delta against the other run.
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
    // The simulated pane and the added ranks follow the runs the model shows.
    void followSimulation(const SimulationModel* model);
    // That line's text when the simulated job has `added` ranks more than were loaded.
    static QString addedRanksNote(int world, int added);
    void setHighlights(HighlightModel* model);
    // Outlines find matches in both panes (see TimelineView::setMatches).
    void setMatches(const std::vector<std::vector<bool>>* matches);
    // The pane the keyboard acts on: the one under the mouse, else the measured one.
    TimelineView* activePane() const;

    // Whether the simulated pane is wanted (the one-pane option hides it); it shows when wanted and
    // the comparison run does not hold the lower pane.
    void setSimulatedShown(bool shown);

    // The comparison run (null: none): shown in the lower pane at once.
    void setComparison(std::shared_ptr<const ComparisonRun> run);
    const std::shared_ptr<const ComparisonRun>& comparisonRun() const { return run_; }
    // The lower pane: the comparison run (when there is one) or the simulation.
    void showComparison(bool on);
    bool comparisonShown() const;
    TimelineView* comparison() const { return comparison_; }
    // The comparison pane's own selection (its events are another set's).
    SelectionModel* comparisonSelection() const { return comparisonSelection_; }
    // Selects an op and its aligned op in both panes and shows them: the time window around both,
    // the open run's row scrolled into view (its rank expanded). False when the jump is invalid.
    bool jumpTo(EventId open, EventId run);

signals:
    void comparisonShownChanged(bool shown);

private:
    OverviewStrip* overview_;
    TimeAxis* axis_;
    TimelineView* measured_;
    TimelineView* simulated_;
    AddedRanksStrip* added_;
    QLabel* addedLine_;
    ViewController* controller_;
    SelectionModel* selection_;
    TrackState* tracks_;
    SelectionModel* comparisonSelection_;
    TimelineView* comparison_;
    std::shared_ptr<const ComparisonRun> run_;
    QWidget* lower_ = nullptr; // the splitter's lower part: the simulated or the comparison pane
    void updateLower();
    void updateDeltas();
    bool simulatedWanted_ = true;
    bool linking_ = false; // a selection mirrored into the other pane
};

} // namespace sl::ui
