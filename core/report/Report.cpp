#include "report/Report.h"

#include "analysis/LimitingCause.h"
#include "base/Rounding.h"
#include "report/CsvReport.h"
#include "report/HtmlReport.h"
#include "report/ReportNumbersJson.h"
#include "report/SimulationReport.h"

namespace sl {

std::vector<ScenarioRow> scenarioTable(const ExecutionGraph& graph, const std::vector<ScenarioRun>& runs,
                                       const ScenarioRun* baseline) {
    std::vector<ScenarioRow> rows;
    const SimResult* base = baseline ? baseline->result : nullptr;
    const double baseUs = base ? us(base->simulatedIteration) : 0.0;
    for (const ScenarioRun& run : runs) {
        if (!run.result) continue;
        ScenarioRow row;
        row.name = run.name;
        row.knobs = run.knobs;
        row.iterationUs = us(run.result->simulatedIteration);
        row.vsBaselinePct = baseUs > 0 ? 100.0 * (row.iterationUs - baseUs) / baseUs : 0.0;
        row.limit = run.limit;
        if (base)
            row.throughput = throughputVsBaseline(graph, *base, baseline->knobs, *run.result, run.knobs);
        row.rate = runRate(graph, *run.result, run.knobs, base ? &baseline->knobs : nullptr);
        rows.push_back(std::move(row));
    }
    return rows;
}

Report buildReport(const ReportInputs& in) {
    const ExecutionGraph& graph = *in.graph;
    const SimResult& result = *in.result;
    SimResult ownReplay;
    const SimResult* replay = nullptr;
    if (!in.knobs.isReplay()) {
        replay = in.replay;
        if (!replay) {
            SimOptions options;
            options.timeline = false;
            ownReplay = simulate(graph, SimKnobs{}, options);
            replay = &ownReplay;
        }
    }
    Report report;
    SimulationReport numbers =
        simulationReport(graph, result, in.knobs, replay, nullptr, in.source ? &*in.source : nullptr);
    report.numbers = std::move(numbers.json);
    report.typedNumbers = std::move(numbers.numbers);
    if (!in.source) return report;
    // The headline's "what limits the step" (report/HtmlReport.h), as the GUI's result card says it.
    report.limit = limitingCause(graph, in.path ? *in.path : criticalPath(graph, result), result).sentence;
    report.generator = in.generator;
    const ScenarioRun* baseline =
        in.baselineScenario >= 0 && in.baselineScenario < static_cast<int>(in.scenarios.size())
            ? &in.scenarios[static_cast<std::size_t>(in.baselineScenario)]
            : nullptr;
    report.scenarios = scenarioTable(graph, in.scenarios, baseline);
    report.figures = in.figures;
    return report;
}

namespace {

nlohmann::json scenarioRowJson(const ScenarioRow& row) {
    const nlohmann::json knobs = row.knobs.toJson();
    nlohmann::json j = {{"name", row.name},
                        {"changed_knobs", changedKnobs(knobs)},
                        {"knobs", knobs},
                        {"iteration_us", row.iterationUs},
                        {"vs_baseline_pct", row.vsBaselinePct},
                        {"limit", row.limit}};
    // Where the work per step differs from the baseline's (docs/Scaling.md), and where the batch is
    // given: the fields of the scenario's `iteration` object that the table shows.
    if (row.throughput.applies) {
        j["throughput_vs_baseline"] = pct(row.throughput.throughputRatio);
        j["scaling_efficiency"] = pct(row.throughput.efficiency);
        j["throughput_note"] = row.throughput.sentence;
    }
    if (row.rate.known()) {
        if (row.rate.samplesPerSecond > 0) j["samples_per_s"] = pct(row.rate.samplesPerSecond);
        if (row.rate.tokensPerSecond > 0) j["tokens_per_s"] = pct(row.rate.tokensPerSecond);
        j["rate_note"] = rateText(row.rate);
    }
    return j;
}

} // namespace

nlohmann::json scenarioTableJson(const std::vector<ScenarioRow>& rows) {
    nlohmann::json j = nlohmann::json::array();
    for (const ScenarioRow& row : rows)
        j.push_back(scenarioRowJson(row));
    return j;
}

ReportNumbers reportNumbers(const Report& report) {
    return report.typedNumbers ? *report.typedNumbers : readReportNumbers(report.numbers);
}

nlohmann::json reportJson(const Report& report, ReportFormat format) {
    nlohmann::json j = report.numbers;
    if (!report.scenarios.empty()) j["scenarios"] = scenarioTableJson(report.scenarios);
    if (report.limit) j["limit"] = *report.limit;
    if (report.generator) j["generator"] = *report.generator;
    if (format == ReportFormat::Html && !report.figures.empty()) {
        nlohmann::json figures = nlohmann::json::array();
        for (const ReportFigure& f : report.figures)
            figures.push_back({{"name", f.name}, {"caption", f.caption}, {"svg", f.svg}});
        j["figures"] = std::move(figures);
    }
    return j;
}

std::string reportText(const Report& report, ReportFormat format) {
    switch (format) {
    case ReportFormat::Html:
        return htmlReport(report);
    case ReportFormat::Csv:
        return csvReport(reportNumbers(report));
    case ReportFormat::Json:
        break;
    }
    // Names from a trace may hold invalid UTF-8: replaced rather than failing the export.
    return reportJson(report, format).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void writeReportFile(const std::string& path, const Report& report, ReportFormat format) {
    writeTextFile(path, reportText(report, format));
}

} // namespace sl
