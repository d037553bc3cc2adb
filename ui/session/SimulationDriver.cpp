#include "SimulationDriver.h"

#include "HighlightModel.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "SessionDocument.h"

namespace sl::ui {

SimulationDriver::SimulationDriver(SessionController* session)
    : QObject(session), session_(session), runner_(new SimRunner(this)), model_(new SimulationModel(this)) {
    // A run goes straight to the model the views subscribe to; what follows it comes after them.
    connect(runner_, &SimRunner::finished, model_, &SimulationModel::show);
    connect(model_, &SimulationModel::shown, this, &SimulationDriver::follow);
    connect(runner_, &SimRunner::stage, this, [this](const QString& what, double fraction) {
        if (details_ == Details::Running) emit detailsProgress(what, fraction);
    });
    connect(runner_, &SimRunner::failed, this, &SimulationDriver::endDetails);
}

void SimulationDriver::followScenarios() {
    // The current scenario's knobs changed (an edit, or another scenario): the runner simulates them,
    // and here the details restart after a cancel and the session is modified.
    ScenarioList* list = session_->scenarios()->list();
    runner_->followScenarios(list);
    connect(list, &ScenarioList::currentChanged, this, &SimulationDriver::knobsChanged);
    connect(list, &ScenarioList::knobsChanged, this, [this, list](int i) {
        if (i == list->current()) knobsChanged();
    });
}

void SimulationDriver::knobsChanged() {
    if (session_->switching()) return; // the set's defaults and a session's knobs are no edit
    // After a cancel, a knob change computes the details again (with the progress bar).
    if (autoSimulate_ && session_->traceSet() && details_ == Details::Cancelled) startDetails();
    session_->document()->markDirty();
}

void SimulationDriver::showSimulation(const SimOutput& output) {
    model_->show(output);
}

void SimulationDriver::follow(const SimOutput& output) {
    // The views have taken it (SimulationModel::changed): a longer run widens the view's bounds,
    // the highlights follow, and the scenarios label the simulated pane with the scenario shown.
    session_->fitBounds();
    emit simulationShown(output);
    session_->highlights()->setSimulation(output);
    // Not while a newer request waits: the knobs in the panel are then not the ones simulated.
    if (!runner_->busy()) session_->scenarios()->simulationShown(output);
    endDetails();
    if (!output.result->warnings.empty())
        emit message(tr("Simulation: %1").arg(QString::fromStdString(output.result->warnings.front().text)),
                     MessageBar::Level::Info);
}

void SimulationDriver::letGo() {
    runner_->setTraceSet(nullptr);
    model_->setTraceSet(nullptr, nullptr);
    details_ = Details::None; // the old set's, stopped with its simulation
}

void SimulationDriver::setTraceSet(std::shared_ptr<const TraceSet> set,
                                   std::shared_ptr<const TimelineData> measured) {
    model_->setTraceSet(set, std::move(measured));
    runner_->setTraceSet(std::move(set));
}

void SimulationDriver::simulate() {
    if (autoSimulate_) runner_->request(session_->scenarios()->currentKnobs(), 0);
}

void SimulationDriver::startDetails() {
    if (!autoSimulate_) return;
    details_ = Details::Running;
    emit detailsStarted();
}

void SimulationDriver::endDetails() {
    if (details_ != Details::Running) return;
    details_ = Details::Done;
    emit detailsFinished();
}

void SimulationDriver::cancelDetails() {
    if (details_ != Details::Running) return;
    runner_->cancel();
    details_ = Details::Cancelled;
    emit detailsCancelled();
}

void SimulationDriver::computeDetails() {
    if (!session_->traceSet() || details_ == Details::Running) return;
    details_ = Details::Running;
    emit detailsStarted();
    runner_->request(session_->scenarios()->currentKnobs(), 0);
}

} // namespace sl::ui
