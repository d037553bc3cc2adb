#include "SimRunner.h"

#include "Scenario.h"

#include <QTimer>

#include <chrono>

namespace sl::ui {

namespace {
std::shared_ptr<const TimelineData> timelineOf(const std::shared_ptr<const TraceSet>& set,
                                               const std::shared_ptr<const SimResult>& result) {
    const SimResult* r = result.get();
    return TimelineData::build(
        set,
        [r](std::size_t rank, std::size_t track) {
            const TrackTimes& t = r->timeline.track(rank, track);
            return TimeColumns{t.start.data(), t.duration.data()};
        },
        result);
}

void analyze(SimOutput& out, const std::shared_ptr<const TraceSet>& set) {
    out.timeline = timelineOf(set, out.result);
    auto analysis = std::make_shared<const SimAnalysis>(analyzeSimulation(*out.graph, *out.result));
    out.pathByName =
        std::make_shared<const std::vector<PathNameShare>>(criticalPathByName(*out.graph, analysis->path));
    out.measuredHighlights =
        std::make_shared<const PaneHighlights>(buildPaneHighlights(*out.graph, *analysis, nullptr));
    out.simulatedHighlights = std::make_shared<const PaneHighlights>(
        buildPaneHighlights(*out.graph, *analysis, &out.result->timeline));
    out.analysis = std::move(analysis);
}
} // namespace

SimRunner::SimRunner(QObject* parent) : QObject(parent), debounce_(new QTimer(this)) {
    debounce_->setSingleShot(true);
    connect(debounce_, &QTimer::timeout, this, &SimRunner::launch);
    connect(&job_, &BackgroundJob::progress, this,
            [this](double fraction, const QString& what) { emit stage(what, fraction); });
}

SimRunner::~SimRunner() = default;

void SimRunner::setTraceSet(std::shared_ptr<const TraceSet> set) {
    // The running simulation (of the old set) stops, its result is dropped by generation, and a
    // debounced request of the old set's knobs does not start on the new set.
    job_.cancel();
    debounce_->stop();
    pendingRequest_ = false;
    ++setGeneration_;
    set_ = std::move(set);
    graph_.reset();
}

void SimRunner::request(const SimKnobs& knobs, int debounceMs) {
    knobs_ = knobs;
    pendingRequest_ = true;
    debounce_->start(debounceMs);
}

void SimRunner::followScenarios(const ScenarioList* list) {
    scenarios_ = list;
    connect(list, &ScenarioList::currentChanged, this, &SimRunner::scenarioKnobsChanged);
    connect(list, &ScenarioList::knobsChanged, this, &SimRunner::scenarioKnobsChanged);
}

void SimRunner::scenarioKnobsChanged(int index) {
    // No set (before one is shown, or during a switch, which asks for its run itself): nothing runs.
    if (following_ && set_ && index == scenarios_->current()) request(scenarios_->at(index).knobs);
}

SimOutput SimRunner::runNow(const std::shared_ptr<const TraceSet>& set, const SimKnobs& knobs) {
    return simulateOn(set, nullptr, knobs);
}

SimOutput SimRunner::simulateOn(const std::shared_ptr<const TraceSet>& set,
                                std::shared_ptr<const ExecutionGraph> graph, const SimKnobs& knobs,
                                const std::atomic<bool>* cancel, const Stage& stage) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto tell = [&](const char* what, double fraction) {
        if (stage && !(cancel && *cancel)) stage(what, fraction);
    };
    // Shares of a first run on a 200 MB trace (graph about 55%, simulation 15%, analyses 30%).
    const bool built = graph == nullptr;
    SimOutput out;
    out.knobs = knobs;
    if (built) tell("building the execution graph", 0.0);
    out.graph = built ? std::make_shared<const ExecutionGraph>(buildExecutionGraph(*set)) : std::move(graph);
    tell("simulating", built ? 0.55 : 0.0);
    SimOptions options;
    options.cancel = cancel;
    auto result = std::make_shared<const SimResult>(simulate(*out.graph, knobs, options));
    if ((cancel && *cancel) || !result->complete) return out; // the graph, for the next run
    tell("analysing (critical path, breakdown, highlights)", built ? 0.7 : 0.3);
    out.result = std::move(result);
    analyze(out, set);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

void SimRunner::cancel() {
    const bool any = busy();
    job_.cancel(); // a result already on its way is dropped
    debounce_->stop();
    pendingRequest_ = false;
    if (any) emit cancelled();
}

namespace {
// What a run gives back: the output (a cancelled run: its graph, kept), or what the core threw.
struct Attempt {
    SimOutput out;
    QString error;
};
} // namespace

void SimRunner::keepGraph(const SimOutput& out) {
    // A graph built for this set is kept even when the run was cancelled: resuming is quicker.
    if (out.graph && out.setGeneration == setGeneration_ && !graph_) graph_ = out.graph;
}

void SimRunner::launch() {
    pendingRequest_ = false;
    if (!set_) return;
    const std::uint64_t setGeneration = setGeneration_;
    const std::uint64_t generation = job_.start(
        [set = set_, graph = graph_, knobs = knobs_, setGeneration](const JobControl& control) {
            Attempt a;
            try {
                a.out = simulateOn(set, graph, knobs, control.cancelFlag(),
                                   [&](const char* what, double fraction) {
                                       control.progress(fraction, QString::fromUtf8(what));
                                   });
            } catch (const std::exception& e) {
                a.error = QString::fromStdString(e.what());
                a.out.knobs = knobs;
            }
            SimOutput& out = a.out;
            out.generation = control.generation();
            out.setGeneration = setGeneration;
            return a;
        },
        [this](Attempt a) {
            keepGraph(a.out);
            if (a.out.setGeneration != setGeneration_) return; // another trace set superseded it
            if (!a.error.isEmpty())
                emit failed(a.error);
            else if (a.out.timeline) {
                graph_ = a.out.graph;
                emit finished(a.out);
            }
        },
        [this](Attempt a) { keepGraph(a.out); });
    emit started(generation);
}

bool SimRunner::waitForIdle(int timeoutMs) {
    return job_.waitForIdle(timeoutMs, [this] { return pendingRequest_; });
}

} // namespace sl::ui
