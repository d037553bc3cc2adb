#pragma once
#include "BackgroundJob.h"
#include "Highlights.h"
#include "SimAnalysis.h"
#include "TimelineData.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

class QTimer;

namespace sl::ui {

class ScenarioList;

// What one simulation produced: the graph and result (kept alive for the timeline's columns), the
// simulated timeline ready to draw, and its analyses.
struct SimOutput {
    std::shared_ptr<const ExecutionGraph> graph;
    std::shared_ptr<const SimResult> result;
    std::shared_ptr<const TimelineData> timeline;
    // The analyses of the run and the highlights they give each pane (computed in the worker).
    std::shared_ptr<const SimAnalysis> analysis;
    std::shared_ptr<const PaneHighlights> measuredHighlights;
    std::shared_ptr<const PaneHighlights> simulatedHighlights;
    // The critical path grouped by op name (the critical-path table's grouped rows).
    std::shared_ptr<const std::vector<PathNameShare>> pathByName;
    // The knobs it ran with and the run's generation (SimRunner::generation()).
    SimKnobs knobs;
    std::uint64_t generation = 0;
    // SimRunner::setGeneration() when the run started: the trace set it belongs to.
    std::uint64_t setGeneration = 0;
    double seconds = 0;
};

// Runs the simulator off the UI thread. The graph is built once per trace set; each knob change
// (request()) is debounced, then simulated as a background job (BackgroundJob.h): a newer
// request cancels the running one, and results of older generations are dropped. The worker says
// which stage it is in (stage()); cancel() stops the run (docs/Loader.md, "GUI: timeline first,
// details later").
class SimRunner : public QObject {
    Q_OBJECT
public:
    explicit SimRunner(QObject* parent = nullptr);
    ~SimRunner() override;

    void setTraceSet(std::shared_ptr<const TraceSet> set);
    // Simulates with knobs after the debounce delay (0: at the next event loop turn).
    void request(const SimKnobs& knobs, int debounceMs = 150);
    // Simulates the current scenario of list whenever its knobs change (an edit, another scenario
    // made current) while following is on (docs/ARCHITECTURE.md, "A knob change").
    void followScenarios(const ScenarioList* list);
    void setFollowing(bool on) { following_ = on; }
    bool busy() const { return job_.running() > 0 || pendingRequest_; }
    // Stops the running and the pending run: no result comes (cancelled() is emitted). A graph the
    // run had finished building is kept for the next request.
    void cancel();
    std::uint64_t generation() const { return job_.generation(); }
    // Counts setTraceSet() calls: a result whose setGeneration differs is of another set.
    std::uint64_t setGeneration() const { return setGeneration_; }
    // Simulates synchronously (the screenshot and tests); throws what the core throws.
    static SimOutput runNow(const std::shared_ptr<const TraceSet>& set, const SimKnobs& knobs);
    // The one simulation of the GUI (the simulated pane, the scenarios, runNow): the execution graph
    // of set (built when graph is null), knobs simulated on it, the timeline and the analyses (any
    // thread). Cancelled: the graph and no result. stage hears what runs and the share done before
    // it. Throws what the core throws.
    using Stage = std::function<void(const char* what, double fraction)>;
    static SimOutput simulateOn(const std::shared_ptr<const TraceSet>& set,
                                std::shared_ptr<const ExecutionGraph> graph, const SimKnobs& knobs,
                                const std::atomic<bool>* cancel = nullptr, const Stage& stage = {});
    // The graph of the current set, once a simulation built it (null before).
    std::shared_ptr<const ExecutionGraph> graph() const { return graph_; }
    bool waitForIdle(int timeoutMs);

signals:
    void started(std::uint64_t generation);
    // The stage the running simulation is in (for the progress bar): what it does, and the share of
    // the run done before this stage (0..1; the graph build is most of a first run).
    void stage(QString what, double fraction);
    void cancelled();
    void finished(sl::ui::SimOutput output);
    void failed(QString message);

private:
    void launch();
    void keepGraph(const SimOutput& out);

    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const ExecutionGraph> graph_;
    SimKnobs knobs_;
    QTimer* debounce_;
    std::uint64_t setGeneration_ = 0;
    bool pendingRequest_ = false;
    bool following_ = true;
    const ScenarioList* scenarios_ = nullptr;
    void scenarioKnobsChanged(int index);
    // Last: destroyed first, so its runs are cancelled and waited for while the rest still exists.
    BackgroundJob job_;
};

} // namespace sl::ui
