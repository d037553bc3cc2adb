#include "report/SweepReport.h"

#include "analysis/Throughput.h"
#include "analysis/TraceInfo.h"
#include "base/Rounding.h"

#include <cmath>
#include <exception>

namespace sl {

namespace {

nlohmann::json pointJson(const SweepRun& p, const SimKnobs& knobs, const SweepRun& baseline) {
    const TimeNs base = baseline.iteration;
    nlohmann::json byKind = nlohmann::json::object();
    for (int l = 0; l < kPathLabelCount; ++l) {
        TimeNs t = p.path.byLabel[static_cast<std::size_t>(l)];
        byKind[std::string(pathLabelName(static_cast<PathLabel>(l)))] = {
            {"us", us(t)},
            {"pct", p.path.length > 0
                        ? std::round(1e5 * static_cast<double>(t) / static_cast<double>(p.path.length)) / 1e3
                        : 0.0}};
    }
    double change =
        base > 0 ? std::round(1e5 * static_cast<double>(p.iteration - base) / static_cast<double>(base)) / 1e3
                 : 0;
    nlohmann::json j = {{"iteration_us", us(p.iteration)},
                        {"ranks", p.exposed.ranks},
                        {"change_pct", change},
                        {"exposed_comm_us", sweepExposedMeanUs(p)},
                        {"exposed_comm_max_us", us(p.exposed.maxNs)},
                        {"critical_path", {{"length_us", us(p.path.length)}, {"by_kind", byKind}}},
                        {"warnings", p.warnings.lines()},
                        {"warning_stats", warningStatsJson(p.warnings)}};
    // The work per step differs from the baseline's (dp.degree, pp.microbatches, model.layers):
    // throughput and scaling efficiency against it (docs/Scaling.md), as simulate --json names them.
    const Throughput t = throughputFrom(baseline.work, base, p.work, p.iteration);
    if (t.applies) {
        j["throughput_vs_baseline"] = pct(t.throughputRatio);
        j["scaling_efficiency"] = pct(t.efficiency);
        j["throughput_note"] = t.sentence;
    }
    // Samples and tokens per second where batch.samples / batch.tokens give the batch.
    nlohmann::json rate = nlohmann::json::object();
    addRateJson(rate, rateOf(knobs, p.work.samples, p.iteration));
    for (auto it = rate.begin(); it != rate.end(); ++it)
        j[it.key()] = it.value();
    return j;
}

} // namespace

double sweepExposedMeanUs(const SweepRun& run) {
    return std::round(run.exposed.meanNs / 10.0) / 100.0;
}

nlohmann::json sweepJson(const ExecutionGraph& graph, const std::string& key,
                         const std::vector<std::string>& values, const std::vector<SimKnobs>& knobs,
                         const std::vector<SweepRun>& runs) {
    for (const auto& r : runs)
        if (r.error) std::rethrow_exception(r.error);
    nlohmann::json j;
    j["knob"] = key;
    j["baseline"] = pointJson(runs[0], knobs[0], runs[0]);
    j["points"] = nlohmann::json::array();
    for (std::size_t i = 1; i < runs.size(); ++i) {
        nlohmann::json p = pointJson(runs[i], knobs[i], runs[0]);
        p["value"] = values[i - 1];
        j["points"].push_back(p);
    }
    j["graph_warnings"] = graph.warnings.lines();
    j["graph_warning_stats"] = warningStatsJson(graph.warnings);
    return j;
}

} // namespace sl
