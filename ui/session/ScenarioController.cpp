#include "ScenarioController.h"

#include "DeltaTable.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "ReplayDifferences.h"
#include "ResultCard.h"
#include "ScenariosDock.h"
#include "TimelinePanes.h"
#include "TimelineView.h"

#include "analysis/StepExplanation.h"

#include <QTimer>

namespace sl::ui {

ScenarioController::ScenarioController(ScenarioList* list, ScenarioRunner* runner, const Views& views,
                                       QObject* parent)
    : QObject(parent), list_(list), runner_(runner), v_(views) {
    connect(list_, &ScenarioList::currentChanged, this, [this](int i) {
        // Another scenario in the simulated pane: its events move there (ui/model/Transition.h).
        // An edit in the knob panel that started a new what-if shows its knobs already: no
        // transition for it.
        if (!v_.knobs->editing() && list_->at(i).knobs != shownKnobs_)
            v_.panes->simulated()->animateNextChange();
        shownKnobs_ = list_->at(i).knobs;
        showResults();
        emit modified();
    });
    connect(list_, &ScenarioList::listChanged, this, [this] {
        // A rename: the panes' labels and the card say the new name at once.
        labelPanes();
        // While the simulated pane runs (a knob edit renames the scenario it edits, or makes a new
        // one), the scenarios run once its result is offered (simulationShown): simulating the same
        // knobs beside it doubled the time and the memory of every edit (at 131,072 ranks, 8 s and
        // 2.2 GB each). Decided at the next turn of the event loop: the list changes before the
        // pane is asked to simulate the edit.
        QTimer::singleShot(0, this, [this] {
            if (!v_.sim->busy()) rerun(v_.sim->graph());
        });
        emit modified();
    });
    // The pane's run failed: the scenarios' run says which scenario cannot be simulated.
    connect(v_.sim, &SimRunner::failed, this, [this] { rerun(v_.sim->graph()); });
    connect(list_, &ScenarioList::startedFromBaseline, this, [this](int i) {
        emit notice(tr("The baseline stays the replay of the trace: this edit made the new scenario "
                       "\"%1\" (rename it in the Scenarios dock).")
                        .arg(list_->at(i).name));
    });
    connect(list_, &ScenarioList::knobsChanged, this, [this](int i) {
        if (i == list_->current()) shownKnobs_ = list_->at(i).knobs;
        emit modified();
    });
    connect(runner_, &ScenarioRunner::progress, v_.table, &DeltaTable::setBusy);
    connect(runner_, &ScenarioRunner::finished, this, &ScenarioController::showResults);
    connect(runner_, &ScenarioRunner::failed, this, [this](const QString& scenario, const QString& message) {
        v_.table->setFailed(scenario);
        emit failed(scenario, message);
    });
    connect(v_.dock, &ScenariosDock::topPaneChanged, this, &ScenarioController::updateTopPane);
    connect(v_.dock, &ScenariosDock::onePaneChanged, this, &ScenarioController::updateTopPane);
    // The knob panel shows and edits the current scenario (after the transition above is decided).
    v_.knobs->setScenarios(list_);
}

void ScenarioController::labelPanes() {
    // The simulated pane shows the current scenario once its simulation came (until then its note
    // says it is simulating).
    if (shown_) v_.panes->simulated()->setNote(tr("Scenario: %1").arg(list_->at(list_->current()).name));
    updateTopPane();
}

void ScenarioController::setTraceSet(std::shared_ptr<const TraceSet> set,
                                     std::shared_ptr<const TimelineData> measured) {
    shown_ = false;
    measured_ = std::move(measured);
    runner_->setTraceSet(std::move(set));
    v_.highlights->setTopOverride(nullptr);
    v_.dock->setTopPane(-1);
    v_.table->setResults(nullptr);
    v_.card->setResult(nullptr, false);
    v_.knobs->setKnobNotes({});
    updateTopPane();
}

void ScenarioController::restore(const std::vector<Scenario>& scenarios, int current, const SimKnobs& knobs) {
    std::vector<Scenario> list = scenarios;
    if (list.empty()) {
        list.push_back({tr("Baseline"), {}});
        if (!knobs.isReplay()) {
            list.push_back({tr("Session knobs"), knobs});
            current = 1;
        }
    }
    list_->reset(std::move(list), current); // the knob panel follows the current scenario
}

void ScenarioController::simulationShown(const SimOutput& output) {
    runner_->offer(output);
    shown_ = true;
    labelPanes();
    // The graph of the simulation shown, which need not come from the SimRunner (a screenshot
    // simulates before its window exists).
    rerun(output.graph);
}

void ScenarioController::rerun(const std::shared_ptr<const ExecutionGraph>& graph) {
    if (graph) runner_->run(graph, list_->scenarios());
}

const ScenarioResult* ScenarioController::result(int i) const {
    const auto& results = runner_->results();
    if (!results || i < 0 || i >= list_->count() || static_cast<std::size_t>(i) >= results->size())
        return nullptr;
    const ScenarioResult& r = (*results)[static_cast<std::size_t>(i)];
    return r.knobs == list_->at(i).knobs ? &r : nullptr;
}

void ScenarioController::showResults() {
    v_.table->setResults(runner_->results());
    const int current = list_->current();
    const ScenarioResult* r = result(current);
    // While the current scenario is re-simulated the card keeps its last words (no jumping layout).
    if (!r && runner_->busy()) return;
    v_.knobs->setKnobNotes(r ? r->knobNotes : std::map<std::string, std::string>{});
    updateTopPane();
}

void ScenarioController::updateCard() {
    // The card compares the two panes on screen: the lower pane's scenario against the upper pane's
    // when that shows another scenario, else against the baseline (the replay of the measured trace
    // in the upper pane).
    const int current = list_->current();
    const ScenarioResult* r = result(current);
    if (!r && runner_->busy()) return;
    if (!r) {
        v_.card->setResult(nullptr, false);
        return;
    }
    ScenarioResult shown = *r;
    shown.name = list_->at(current).name;
    const int top = v_.dock->topPane();
    const ScenarioResult* upper = top >= 0 && top != current ? result(top) : nullptr;
    if (upper) {
        shown.headline = QString::fromStdString(
            resultHeadline(upper->output.result->simulatedIteration, r->output.result->simulatedIteration));
        shown.noEffect.clear();   // worked out against the baseline
        shown.throughput.clear(); // likewise
        v_.card->setResult(&shown, false, list_->at(top).name);
    } else {
        v_.card->setResult(&shown, current == 0, list_->at(0).name);
    }
}

void ScenarioController::updateTopPane() {
    updateCard();
    const int top = v_.dock->topPane();
    const ScenarioResult* r = top >= 0 ? result(top) : nullptr;
    TimelineView* pane = v_.panes->measured();
    // The pane's title says what it shows: the measured trace or the scenario's name (as it is
    // called now: the result keeps the name it was simulated under).
    const QString name = top >= 0 ? list_->at(top).name : QString();
    pane->setTitle(r ? name : tr("Measured"));
    // One pane under plain replay (docs/ManyRanks.md): the measured trace above and a replay
    // below show the same, so the lower pane goes while the option is on.
    const int current = list_->current();
    const bool replay = shown_ && top < 0 && current >= 0 && current < list_->count() &&
                        list_->at(current).knobs.isReplay() && measured_ && !measured_->set().ranks.empty() &&
                        measured_->set().ranks.front().hasMeasuredTimes;
    const bool one = replay && v_.dock->onePane();
    v_.panes->setSimulatedShown(!one);
    // What the hidden pane would have shown is not lost: where the replay differs is shaded.
    const std::shared_ptr<const TimelineData> replayed = one ? v_.panes->simulated()->data() : nullptr;
    if (replayed && (!differences_ || differencesOf_.lock() != replayed)) {
        differences_ =
            std::make_shared<const ReplayDifferences>(ReplayDifferences::compute(*measured_, *replayed));
        differencesOf_ = replayed;
    }
    pane->setDifferences(replayed ? differences_ : nullptr);
    if (!r) {
        if (pane->data() != measured_) pane->setData(measured_);
        QString oneNote;
        if (one && (!differences_ || differences_->empty()))
            oneNote = tr("One pane: the replay (%1) shows the same").arg(list_->at(current).name);
        else if (one)
            oneNote = tr("One pane: the replay (%1) differs only where shaded (%2 of %3 ranks)")
                          .arg(list_->at(current).name)
                          .arg(differences_->levels.front().ranks)
                          .arg(differences_->levels.front().spans.size());
        pane->setNote(top >= 0 ? tr("Scenario %1: simulating...").arg(list_->at(top).name)
                      : one    ? oneNote
                               : TimelinePanes::measuredNote(measured_));
        v_.highlights->setTopOverride(nullptr);
        return;
    }
    if (pane->data() != r->output.timeline) {
        pane->animateNextChange();
        pane->setData(r->output.timeline);
    }
    pane->setNote(tr("Scenario: %1").arg(name));
    v_.highlights->setTopOverride(r->output.simulatedHighlights);
}

} // namespace sl::ui
