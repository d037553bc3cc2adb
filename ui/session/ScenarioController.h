#pragma once
// Wires the scenarios to the window (docs/WhatIfWorkbench.md): the knob panel edits the current
// scenario, the simulated pane shows it, the ScenarioRunner simulates all of them for the delta
// table and the result card, and the Scenarios dock's "Top pane" puts the measured trace or any
// scenario in the upper pane. MainWindow creates it and tells it about sets and simulations.
#include "Scenario.h"
#include "ScenarioRunner.h"

#include <QObject>

#include <memory>

namespace sl::ui {

class DeltaTable;
struct ReplayDifferences;
class HighlightModel;
class KnobPanel;
class ResultCard;
class ScenariosDock;
class SimRunner;
class TimelinePanes;

class ScenarioController : public QObject {
    Q_OBJECT
public:
    struct Views {
        KnobPanel* knobs = nullptr;
        ResultCard* card = nullptr;
        DeltaTable* table = nullptr;
        ScenariosDock* dock = nullptr;
        TimelinePanes* panes = nullptr;
        HighlightModel* highlights = nullptr;
        SimRunner* sim = nullptr;
    };
    ScenarioController(ScenarioList* list, ScenarioRunner* runner, const Views& views,
                       QObject* parent = nullptr);

    ScenarioList* list() const { return list_; }
    // The knobs of the current scenario: what the knob panel shows and edits, what the simulated
    // pane runs and what a session saves.
    const SimKnobs& currentKnobs() const { return list_->at(list_->current()).knobs; }
    const QString& currentName() const { return list_->at(list_->current()).name; }
    ScenarioRunner* runner() const { return runner_; }
    // A new trace set is shown (measured: its measured timeline, for the upper pane).
    void setTraceSet(std::shared_ptr<const TraceSet> set, std::shared_ptr<const TimelineData> measured);
    // The simulated pane got a simulation of the current scenario's knobs.
    void simulationShown(const SimOutput& output);
    // A session's scenarios (empty: a session from before scenarios; its knobs, when not replay,
    // become one what-if called "Session knobs") and the current one. The knob panel shows the
    // current scenario's knobs afterwards (it follows the list).
    void restore(const std::vector<Scenario>& scenarios, int current, const SimKnobs& knobs);
    // The result of scenario i when it is up to date with its knobs, else null.
    const ScenarioResult* result(int i) const;

signals:
    // The list or a scenario's knobs changed (the session is modified).
    void modified();
    // Something the user should see (the message bar): an edit of the baseline made a new scenario.
    void notice(QString text);
    // A scenario's simulation failed (ScenarioRunner::failed): the window says so in the message bar.
    void failed(QString scenario, QString message);

private:
    // Simulates every scenario on graph (none: nothing to run yet).
    void rerun(const std::shared_ptr<const ExecutionGraph>& graph);
    void showResults();
    void updateTopPane();
    void updateCard();
    void labelPanes();

    ScenarioList* list_;
    ScenarioRunner* runner_;
    Views v_;
    std::shared_ptr<const TimelineData> measured_;
    bool shown_ = false;  // a simulation of this set is in the simulated pane
    SimKnobs shownKnobs_; // the current scenario's knobs, as the panel showed them
    // One pane under replay: where the replay in the hidden pane differs, and of which timeline.
    std::shared_ptr<const ReplayDifferences> differences_;
    std::weak_ptr<const TimelineData> differencesOf_;
};

} // namespace sl::ui
