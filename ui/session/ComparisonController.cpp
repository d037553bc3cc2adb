#include "ComparisonController.h"

#include "ScenarioController.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"

#include <QFileInfo>

namespace sl::ui {

ComparisonController::ComparisonController(SessionController* session) : QObject(session), session_(session) {
    setObjectName(QStringLiteral("comparison"));
    // Another set: the run was compared with the old one. A session that names one restores it after.
    connect(session, &SessionController::aboutToSwitch, this, &ComparisonController::close);
    connect(session->driver(), &SimulationDriver::simulationShown, this, [this] {
        if (waiting_) start();
        updatePrediction();
    });
}

void ComparisonController::open(const QStringList& paths, bool tables) {
    close();
    if (paths.isEmpty()) return;
    paths_ = paths;
    tables_ = tables;
    // A run the user opened is part of the session's work (a restored one is not an edit).
    if (tables && session_->traceSet()) session_->document()->markDirty();
    if (session_->simulation().graph)
        start();
    else
        waiting_ = true;
}

QString ComparisonController::openNow(const QStringList& paths) {
    close();
    const SimOutput& sim = session_->simulation();
    if (paths.isEmpty()) return tr("no comparison run given");
    if (!sim.graph) return tr("%1: nothing to compare with (the open run has no graph)").arg(paths.value(0));
    paths_ = paths;
    const SimKnobs knobs = session_->scenarios() ? session_->scenarios()->currentKnobs() : SimKnobs{};
    auto run =
        loadComparisonRun(session_->traceSet(), sim.graph, sim.result, knobs, session_->tracePaths(), paths);
    const QString error = run->error;
    present(std::move(run), false);
    return error;
}

void ComparisonController::restore(const QStringList& paths) {
    if (paths.isEmpty()) return;
    for (const QString& p : paths)
        if (!QFileInfo::exists(p)) {
            emit session_->message(
                tr("The session's comparison run is missing: %1 (the rest of the session is open)").arg(p),
                MessageBar::Level::Warning);
            return;
        }
    open(paths, false);
}

void ComparisonController::close() {
    job_.cancel(); // a load still running stops and is dropped
    const bool had = run_ || !paths_.isEmpty();
    paths_.clear();
    run_.reset();
    prediction_.clear();
    waiting_ = false;
    if (had) {
        emit cleared();
        emit predictionChanged({});
    }
}

void ComparisonController::start() {
    waiting_ = false;
    const SimOutput& sim = session_->simulation();
    const SimKnobs knobs = session_->scenarios() ? session_->scenarios()->currentKnobs() : SimKnobs{};
    job_.start(
        [set = session_->traceSet(), graph = sim.graph, result = sim.result, knobs,
         open = session_->tracePaths(), paths = paths_](const JobControl& control) {
            return loadComparisonRun(set, graph, result, knobs, open, paths, control.cancelFlag());
        },
        [this](std::shared_ptr<const ComparisonRun> run) { present(std::move(run), tables_); });
}

void ComparisonController::present(std::shared_ptr<const ComparisonRun> run, bool tables) {
    if (!run->ok()) {
        emit session_->message(run->error, MessageBar::Level::Error);
        paths_.clear();
        emit finished();
        return;
    }
    run_ = std::move(run);
    emit shown(run_, tables);
    updatePrediction();
    emit finished();
}

void ComparisonController::updatePrediction() {
    const SimOutput& sim = session_->simulation();
    const QString line =
        run_ && sim.graph == run_->openGraph ? run_->predictionLine(sim.result.get()) : QString();
    if (line == prediction_) return;
    prediction_ = line;
    emit predictionChanged(line);
}

} // namespace sl::ui
