#pragma once
// One report pipeline (docs/ARCHITECTURE.md, "Reports"): buildReport() gathers what a report shows
// of one simulation (and of the scenarios compared with it) into a Report, once; reportText() and
// writeReportFile() write it as HTML, JSON or CSV. `sightline-cli report`, `sightline-cli simulate
// --json` and the GUI's File > Export Report all go through it, so their numbers agree.
#include "analysis/CriticalPath.h"
#include "analysis/Throughput.h"
#include "graph/ExecutionGraph.h"
#include "report/ReportWriter.h"
#include "report/SimulationNumbers.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sl {

// One scenario as simulated on the report's graph: the input of the Scenarios table.
struct ScenarioRun {
    std::string name;
    SimKnobs knobs;
    const SimResult* result = nullptr;
    std::string limit; // what limits its step (analysis/LimitingCause.h)
};

// One row of the Scenarios table (report/HtmlReport.h), against the baseline scenario.
struct ScenarioRow {
    std::string name;
    SimKnobs knobs;
    double iterationUs = 0;
    double vsBaselinePct = 0;
    std::string limit;
    Throughput throughput; // applies where the work per step differs from the baseline's
    Rate rate;             // known where batch.* gives the batch (the scenario's, else the baseline's)
};

// The rows of `runs` (those with a result) against `baseline` (null: no baseline simulated yet,
// every change 0 and no throughput). All runs are simulations of `graph`.
std::vector<ScenarioRow> scenarioTable(const ExecutionGraph& graph, const std::vector<ScenarioRun>& runs,
                                       const ScenarioRun* baseline);

// The rows as the report's "scenarios" array: {name, changed_knobs[], knobs{}, iteration_us,
// vs_baseline_pct, limit, and throughput_vs_baseline, scaling_efficiency, throughput_note where the
// work per step changed, samples_per_s, tokens_per_s, rate_note where the batch is given}.
nlohmann::json scenarioTableJson(const std::vector<ScenarioRow>& rows);

// A timeline picture of a scenario (the HTML report only).
struct ReportFigure {
    std::string name;
    std::string caption;
    std::string svg;
};

struct ReportInputs {
    const ExecutionGraph* graph = nullptr;
    const SimResult* result = nullptr;
    SimKnobs knobs;
    // The same graph simulated with default knobs (what the knobs moved, and why): simulated here
    // when the knobs are set and it is not given.
    const SimResult* replay = nullptr;
    // A report file: the source, what limits the step and who wrote it. Without a source the report
    // is the `simulate --json` object alone.
    std::optional<ReportSource> source;
    // The result's critical path, when the caller holds it (computed here otherwise).
    const CriticalPath* path = nullptr;
    std::string generator; // "sightline-cli report", "the Sightline window, File > Export Report"
    std::vector<ScenarioRun> scenarios;
    int baselineScenario = -1; // index in `scenarios` of the baseline, -1: none simulated
    std::vector<ReportFigure> figures;
};

struct Report {
    // simulationResultJson(), with source.{paths, step} and changed_knobs for a report file.
    nlohmann::json numbers;
    // The typed fields of `numbers`, which were written from them (buildReport). Without them (a
    // report made of a numbers object alone) the writers read them from `numbers`: reportNumbers().
    std::optional<ReportNumbers> typedNumbers;
    // A report file's (nullopt without a source).
    std::optional<std::string> limit;
    std::optional<std::string> generator;
    std::vector<ScenarioRow> scenarios;
    std::vector<ReportFigure> figures;
};

Report buildReport(const ReportInputs& inputs);

// The typed numbers the HTML and CSV writers write from: typedNumbers, else read from numbers.
ReportNumbers reportNumbers(const Report& report);

// The report as one JSON object, as `format` shows it: the numbers, scenarios, limit and generator,
// and the figures for HTML only (pictures are for people; the JSON and CSV keep the numbers).
nlohmann::json reportJson(const Report& report, ReportFormat format);

// The report as text in `format`.
std::string reportText(const Report& report, ReportFormat format);

// Writes reportText() to `path`. Throws WriteError (base/Error.h) naming the path when it cannot be
// written.
void writeReportFile(const std::string& path, const Report& report, ReportFormat format);

} // namespace sl
