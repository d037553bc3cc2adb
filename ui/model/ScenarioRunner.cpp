#include "ScenarioRunner.h"

#include "analysis/KnobEffect.h"
#include "analysis/PinnedTime.h"

#include "analysis/LimitingCause.h"
#include "analysis/StepExplanation.h"
#include "report/SimulationReport.h"
#include "sim/KnobRegistry.h"

#include <algorithm>
#include <mutex>

namespace sl::ui {

// Simulations of one trace set, by the knobs they ran with (SimOutput::knobs): written by the job
// and by offer() on the UI thread.
struct ScenarioRunner::Cache {
    std::mutex mutex;
    std::vector<SimOutput> outputs;
    SimOutput* find(const SimKnobs& knobs) {
        for (SimOutput& o : outputs)
            if (o.knobs == knobs) return &o;
        return nullptr;
    }
    // Keeps only the outputs of these scenarios' knobs: at 131,072 ranks one output is 2.2 GB, and
    // every knob edit made another.
    void keepOnly(const std::vector<Scenario>& scenarios) {
        std::erase_if(outputs, [&](const SimOutput& o) {
            return std::none_of(scenarios.begin(), scenarios.end(),
                                [&](const Scenario& s) { return s.knobs == o.knobs; });
        });
    }
    void keep(const SimOutput& output) {
        if (SimOutput* old = find(output.knobs))
            *old = output;
        else
            outputs.push_back(output);
    }
};

ScenarioRunner::ScenarioRunner(QObject* parent) : QObject(parent), cache_(std::make_shared<Cache>()) {}

ScenarioRunner::~ScenarioRunner() = default;

void ScenarioRunner::setTraceSet(std::shared_ptr<const TraceSet> set) {
    job_.cancel();
    set_ = std::move(set);
    cache_ = std::make_shared<Cache>();
    results_.reset();
}

void ScenarioRunner::offer(const SimOutput& output) {
    if (!output.result || !set_ || !output.timeline || &output.timeline->set() != set_.get()) return;
    const std::lock_guard lock(cache_->mutex);
    cache_->keep(output);
}

void ScenarioRunner::explain(ScenarioResult& r, const ScenarioResult* baseline) {
    const SimResult& res = *r.output.result;
    const ExecutionGraph& g = *r.output.graph;
    const bool isBaseline = !baseline || baseline == &r;
    r.headline =
        isBaseline
            ? QStringLiteral("measured %1")
                  .arg(QString::fromStdString(resultHeadline(res.measuredIteration, res.simulatedIteration)))
            : QString::fromStdString(
                  resultHeadline(baseline->output.result->simulatedIteration, res.simulatedIteration));
    // A window of several profiler steps says so: "23.44 ms" alone reads as one step.
    const std::string steps = windowStepsNote(g, res.simulatedIteration);
    if (!steps.empty()) r.headline += QStringLiteral(" for %1").arg(QString::fromStdString(steps));
    r.stepWord = QString::fromStdString(stepWord(g));
    r.changedKnobs = ScenarioList::knobChanges(r.knobs);
    const CriticalPath& path = r.output.analysis->path;
    // Named by rank and event (a late entry, a slow rank), else the kind holding most of the path.
    r.limit = QString::fromStdString(limitingCause(g, path, res).sentence);
    r.pathNote = QString::fromStdString(pathVersusIteration(path, res));
    if (const std::string embedding = embeddingPathNote(path); !embedding.empty())
        r.pathNote += QStringLiteral("; ") + QString::fromStdString(embedding);
    // Pinned time (analysis/PinnedTime.h): what no knob can move, shown where people look.
    // Short on the card (the timeline keeps its room), the largest pin in the tooltip.
    r.pinnedDetail = QString::fromStdString(pinnedNote(g, res, path));
    if (!r.pinnedDetail.isEmpty())
        r.pathNote += QStringLiteral("; %1% of it pinned to measured time (hover for the largest pin)")
                          .arg(qRound(pinsOnPath(g, res, path).sharePct()));
    r.noEffect = isBaseline
                     ? QString()
                     : QString::fromStdString(noEffectReason(g, *baseline->output.result, res, r.knobs));
    r.knobNotes = knobNotes(res.warnings);
    // gpu.target keeps the traced machine's host: its share of the path, said beside the knob.
    if (!isBaseline && !r.knobs.gpuTarget.empty()) {
        const std::string host = explainKnobEffect(g, *baseline->output.result, res, r.knobs).hostNote;
        if (!host.empty()) {
            std::string& note = r.knobNotes["gpu.target"];
            note += (note.empty() ? "" : "; ") + host;
        }
    }
    // Samples/s where the batch is given (every scenario), then the ratio to the baseline where the
    // work per step differs (docs/Scaling.md).
    // The same figures as the scenario's `iteration` object (rate_note, throughput_note), from the
    // core's typed results rather than read back from that JSON.
    QStringList throughput;
    const Rate rate = runRate(g, res, r.knobs, baseline ? &baseline->knobs : nullptr);
    if (rate.known()) throughput << QString::fromStdString(rateText(rate));
    if (!isBaseline) {
        const Throughput t = throughputVsBaseline(g, *baseline->output.result, baseline->knobs, res, r.knobs);
        if (t.applies) throughput << QString::fromStdString(t.sentence);
    }
    r.throughput = throughput.join(QStringLiteral("; "));
    QStringList modelled;
    for (const std::string& note : res.setup.notes)
        if (note.find("modelled, not measured") != std::string::npos)
            modelled << QString::fromStdString(note);
    // The layout the modelled parts are of, first: the card names the job it predicts.
    if (!modelled.isEmpty() && res.setup.edited)
        modelled.prepend(tr("dp %1 × tp %2 × pp %3 = %4 GPUs")
                             .arg(res.setup.dp)
                             .arg(res.setup.tp)
                             .arg(res.setup.pp)
                             .arg(res.setup.world));
    r.modelled = modelled.join(QStringLiteral("; "));
}

void ScenarioRunner::run(std::shared_ptr<const ExecutionGraph> graph,
                         const std::vector<Scenario>& scenarios) {
    // A graph of another set (the simulated pane's, before it re-simulates a new set) is not run.
    if (!set_ || !graph || graph->trace != set_.get() || scenarios.empty()) return;
    {
        const std::lock_guard lock(cache_->mutex);
        cache_->keepOnly(scenarios);
    }
    struct Outcome {
        std::shared_ptr<const ScenarioResults> results;
        QString scenario; // the one that failed
        QString error;
    };
    job_.start(
        [this, set = set_, graph, scenarios, cache = cache_](const JobControl& control) {
            auto results = std::make_shared<ScenarioResults>();
            QString error, failing;
            try {
                for (std::size_t i = 0; i < scenarios.size() && !control.cancelled(); ++i) {
                    ScenarioResult r;
                    r.name = failing = scenarios[i].name;
                    r.knobs = scenarios[i].knobs;
                    {
                        const std::lock_guard lock(cache->mutex);
                        const SimOutput* cached = cache->find(r.knobs);
                        if (cached && cached->graph == graph) r.output = *cached;
                    }
                    if (!r.output.result) {
                        ++simulations_;
                        r.output = SimRunner::simulateOn(set, graph, r.knobs, control.cancelFlag());
                        if (!r.output.result) break; // cancelled
                        const std::lock_guard lock(cache->mutex);
                        cache->keep(r.output);
                    }
                    results->push_back(std::move(r));
                    const int done = static_cast<int>(i + 1), total = static_cast<int>(scenarios.size());
                    control.post([this, done, total] { emit progress(done, total); });
                }
                if (!control.cancelled()) {
                    failing.clear();
                    const SimResult* baseline =
                        results->empty() ? nullptr : results->front().output.result.get();
                    for (ScenarioResult& r : *results) {
                        failing = r.name;
                        r.numbers = simulationNumbers(*graph, *r.output.result, r.knobs, baseline,
                                                      &results->front().knobs);
                        explain(r, &results->front());
                    }
                }
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
            return Outcome{std::move(results), std::move(failing), std::move(error)};
        },
        [this](Outcome outcome) {
            if (!outcome.error.isEmpty()) {
                emit failed(outcome.scenario, outcome.error);
                return;
            }
            results_ = std::move(outcome.results);
            emit finished();
        });
}

bool ScenarioRunner::waitForIdle(int timeoutMs) {
    return job_.waitForIdle(timeoutMs);
}

} // namespace sl::ui
