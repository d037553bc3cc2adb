#pragma once
// Simulates every scenario of a ScenarioList off the UI thread and explains each against the
// baseline (docs/WhatIfWorkbench.md). Results are cached by knobs for the current trace set, so a
// knob edit re-simulates only the scenario it changed; a newer run() supersedes an older one
// (generation number) and cancels it: one background job (BackgroundJob.h).
#include "BackgroundJob.h"
#include "Scenario.h"
#include "SimRunner.h"
#include "report/SimulationNumbers.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <vector>

namespace sl::ui {

struct ScenarioResult {
    QString name;
    SimKnobs knobs;
    SimOutput output;
    // The numbers of this scenario as `sightline-cli simulate --json` prints them for the same
    // knobs (report/SimulationNumbers.h).
    SimulationNumbers numbers;
    // The words of the result card (analysis/StepExplanation.h): headline against the baseline (the
    // baseline's own: measured -> replay), the knobs that differ, what limits the step, why the
    // knobs barely moved it (empty when they did), the path / iteration sentence, and notes of knobs
    // that could not apply, by key.
    QString headline;
    QStringList changedKnobs;
    QString limit;
    QString stepWord = QStringLiteral("step"); // "window" for a window of several profiler steps
    QString noEffect;
    QString pathNote;
    // Samples/s and tokens/s where batch.* gives the batch (iteration.rate_note), then throughput and
    // scaling efficiency against the baseline when the work per step differs (iteration.throughput_note
    // of `numbers`, docs/Scaling.md); empty when neither applies.
    QString throughput;
    // What a layout knob (tp.degree, parallel.gpus) modelled rather than measured: re-shaped
    // kernels, inserted or re-sized collectives (docs/Layouts.md); empty for every other knob.
    QString modelled;
    QString pinnedDetail; // the pinned share with its largest pin, in words (analysis/PinnedTime.h)
    std::map<std::string, std::string> knobNotes;
};
using ScenarioResults = std::vector<ScenarioResult>;

class ScenarioRunner : public QObject {
    Q_OBJECT
public:
    explicit ScenarioRunner(QObject* parent = nullptr);
    ~ScenarioRunner() override;

    // A new trace set: the cache and any results are dropped.
    void setTraceSet(std::shared_ptr<const TraceSet> set);
    // Reuses a simulation already made (the simulated pane's) for the knobs it ran with.
    void offer(const SimOutput& output);
    // Simulates (or takes from the cache) every scenario on graph, then emits finished().
    void run(std::shared_ptr<const ExecutionGraph> graph, const std::vector<Scenario>& scenarios);
    const std::shared_ptr<const ScenarioResults>& results() const { return results_; }
    bool busy() const { return job_.running() > 0; }
    // Simulations the runner made itself (the others came from the cache or the simulated pane).
    std::size_t simulations() const { return simulations_.load(); }
    bool waitForIdle(int timeoutMs);

    // The explanation fields of `r` against `baseline` (r.output and r.knobs set). Any thread.
    static void explain(ScenarioResult& r, const ScenarioResult* baseline);

signals:
    void progress(int done, int total);
    void finished();
    // A scenario's simulation threw: its name and what the core said (the other results are dropped).
    void failed(QString scenario, QString message);

private:
    struct Cache;
    std::shared_ptr<const TraceSet> set_;
    // Simulations of the current set (the job's run holds the one it started with).
    std::shared_ptr<Cache> cache_;
    std::shared_ptr<const ScenarioResults> results_;
    std::atomic<std::size_t> simulations_{0};
    // Last: destroyed first, so its runs are cancelled and waited for while the rest still exists.
    BackgroundJob job_;
};

} // namespace sl::ui
