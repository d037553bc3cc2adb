#pragma once
// The simulations of the session shown (docs/ARCHITECTURE.md, "A knob change"): the current
// scenario's knobs are simulated (SimRunner, off the UI thread) whenever they change and whenever a
// set is shown; each result goes to the SimulationModel the views subscribe to; then the highlights
// and the scenarios follow it. It also runs the details phase of a shown set (docs/Loader.md, "GUI:
// timeline first, details later"): the first simulation with the execution graph behind it.
#include "MessageBar.h"
#include "SimRunner.h"
#include "SimulationModel.h"

#include <QObject>

namespace sl::ui {

class SessionController;

class SimulationDriver : public QObject {
    Q_OBJECT
public:
    // Follows the session's scenarios once it has them (SessionController::setScenarios).
    explicit SimulationDriver(SessionController* session);
    void followScenarios();

    SimRunner* runner() const { return runner_; }
    SimulationModel* model() const { return model_; }

    // Whether showing a set and changing a knob start a simulation (off for screenshots).
    void setAutoSimulate(bool on) {
        autoSimulate_ = on;
        runner_->setFollowing(on);
    }
    bool autoSimulate() const { return autoSimulate_; }
    // A simulation of the set that is open (a screenshot's, a test's): shown as a run's result is.
    void showSimulation(const SimOutput& output);

    // The details of a shown set: the execution graph (dependency arrows, critical path), the
    // simulation and what derives from it come after the measured timeline, in the background.
    // None: not started (no set, or no automatic simulation).
    enum class Details { None, Running, Done, Cancelled };
    Details details() const { return details_; }
    // Stops the details of the set shown; the timeline and the view state stay.
    void cancelDetails();
    // Computes the details again after a cancel (with the current scenario's knobs).
    void computeDetails();

    // A switch of sets (SessionController::showLoaded): letGo() before the old set goes (its runs
    // stop, their late results are dropped), setTraceSet() when the new one is in place, simulate()
    // once the scenarios are restored, startDetails() once the set is shown.
    void letGo();
    void setTraceSet(std::shared_ptr<const TraceSet> set, std::shared_ptr<const TimelineData> measured);
    void simulate();
    void startDetails();

signals:
    // The details phase: started (after the set is shown), its stage and share done, finished (the
    // first simulation shown, or failed), cancelled.
    void detailsStarted();
    void detailsProgress(QString what, double fraction);
    void detailsFinished();
    void detailsCancelled();
    // A run is shown: the views have it (SimulationModel::changed), the highlights follow.
    void simulationShown(sl::ui::SimOutput output);
    // Something for the message bar (a run's first warning).
    void message(QString text, sl::ui::MessageBar::Level level);

private:
    void knobsChanged();
    void follow(const SimOutput& output);
    void endDetails();

    SessionController* session_;
    SimRunner* runner_;
    SimulationModel* model_;
    bool autoSimulate_ = true;
    Details details_ = Details::None;
};

} // namespace sl::ui
