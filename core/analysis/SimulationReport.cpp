#include "analysis/SimulationReport.h"

#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"

#include <cmath>

namespace sl {

namespace {

double us(TimeNs ns) {
    return std::round(static_cast<double>(ns) / 10.0) / 100.0; // microseconds, 2 decimals
}
double pct(double v) {
    return std::round(v * 1000.0) / 1000.0;
}

nlohmann::json latencyByApi(const RankWindow& w) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [api, v] : w.launchLatencyByApi)
        j[api] = us(v);
    return j;
}

} // namespace

nlohmann::json simulationResultJson(const ExecutionGraph& g, const SimResult& res, const SimKnobs& knobs) {
    nlohmann::json j;
    j["iteration"] = {{"measured_us", us(res.measuredIteration)},
                      {"simulated_us", us(res.simulatedIteration)},
                      {"error_pct", pct(res.iterationErrorPct())}};
    // Breakdown (HTA definitions): simulated at the top level of each rank, measured in `measured`.
    std::vector<RankBreakdown> sim = simulatedBreakdown(*g.trace, res.timeline);
    std::vector<RankBreakdown> meas = measuredBreakdown(*g.trace, &g);
    std::vector<StreamIdle> idle = measuredStreamIdle(g);
    auto breakdownJson = [](const RankBreakdown& b) {
        return nlohmann::json{{"compute_us", us(b.compute)},
                              {"comm_us", us(b.communication)},
                              {"exposed_comm_us", us(b.exposedCommunication)},
                              {"memory_us", us(b.memory)},
                              {"idle_us", us(b.idle)},
                              {"gpu_span_us", us(b.span)},
                              {"overlap_pct", pct(b.overlapPct())}};
    };
    nlohmann::json ranks = nlohmann::json::array();
    for (std::size_t r = 0; r < res.ranks.size(); ++r) {
        const auto& s = res.ranks[r];
        nlohmann::json streams = nlohmann::json::array();
        for (const auto& si : idle)
            if (si.rank == s.rank)
                streams.push_back({{"device", si.device},
                                   {"stream", si.stream},
                                   {"host_wait_us", us(si.hostWait)},
                                   {"dependency_wait_us", us(si.dependencyWait)},
                                   {"other_us", us(si.other)}});
        nlohmann::json rankJson = r < sim.size() ? breakdownJson(sim[r]) : nlohmann::json::object();
        if (r < meas.size()) rankJson["measured"] = breakdownJson(meas[r]);
        rankJson["stream_idle"] = streams;
        ranks.push_back({{"rank", s.rank},
                         {"measured_us", us(s.measured())},
                         {"simulated_us", us(s.simulated())},
                         {"error_pct", pct(s.errorPct())},
                         {"step_window", g.ranks[r].hasStep},
                         {"typical_launch_latency_us", us(g.ranks[r].typicalLaunchLatency)},
                         {"launch_latency_by_api_us", latencyByApi(g.ranks[r])},
                         {"cross_stream_delay_us", us(g.ranks[r].crossStreamDelay)}});
        ranks.back().update(rankJson);
    }
    j["ranks"] = ranks;
    j["kernel_start_error_us"] = {{"median", std::round(res.kernelStartError.medianUs * 1000) / 1000},
                                  {"p90", std::round(res.kernelStartError.p90Us * 1000) / 1000},
                                  {"max", std::round(res.kernelStartError.maxUs * 1000) / 1000},
                                  {"count", res.kernelStartError.count}};
    nlohmann::json edges = nlohmann::json::object();
    for (int k = 0; k < kEdgeKindCount; ++k)
        edges[std::string(edgeKindName(static_cast<EdgeKind>(k)))] = g.stats.edgesByKind[k];
    CriticalPath cp = criticalPath(g, res);
    nlohmann::json byKind = nlohmann::json::object();
    for (int l = 0; l < kPathLabelCount; ++l) {
        double share = cp.length > 0 ? 100.0 * static_cast<double>(cp.byLabel[static_cast<std::size_t>(l)]) /
                                           static_cast<double>(cp.length)
                                     : 0.0;
        byKind[std::string(pathLabelName(static_cast<PathLabel>(l)))] = {
            {"us", us(cp.byLabel[static_cast<std::size_t>(l)])}, {"pct", pct(share)}};
    }
    nlohmann::json top = nlohmann::json::array();
    for (const auto& [n, t] : cp.topNodes)
        top.push_back({{"name", std::string(g.nodeName(n))},
                       {"rank", g.trace->ranks[g.nodes[n].rank].rank},
                       {"kind", std::string(nodeKindName(g.nodes[n].kind))},
                       {"us", us(t)}});
    j["critical_path"] = {{"length_us", us(cp.length)}, {"by_kind", byKind}, {"top_events", top}};
    j["graph"] = {{"nodes", g.nodes.size()},
                  {"edges", edges},
                  {"inferred_cross_stream", g.stats.inferredCrossStream},
                  {"wait_event_edges", g.stats.waitEventEdges},
                  {"collectives_matched", g.stats.collectivesMatched},
                  {"collectives_unmatched", g.stats.collectivesUnmatched}};
    j["knobs"] = knobs.toJson();
    nlohmann::json warnings = nlohmann::json::array();
    for (const auto& rank : g.trace->ranks)
        for (const auto& w : rank.warnings)
            warnings.push_back("rank " + std::to_string(rank.rank) + ": " + w);
    for (const auto& w : g.trace->warnings)
        warnings.push_back(w);
    for (const auto& w : g.warnings)
        warnings.push_back(w);
    for (const auto& w : res.warnings)
        warnings.push_back(w);
    j["warnings"] = warnings;
    return j;
}

std::vector<std::string> changedKnobs(const nlohmann::json& knobs) {
    const nlohmann::json defaults = SimKnobs{}.toJson();
    std::vector<std::string> changed;
    for (auto it = knobs.begin(); it != knobs.end(); ++it) {
        auto d = defaults.find(it.key());
        if (d == defaults.end() || *d != it.value()) changed.push_back(it.key());
    }
    return changed;
}

nlohmann::json simulationReportJson(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const std::vector<std::string>& paths, int step) {
    nlohmann::json j = simulationResultJson(graph, result, knobs);
    j["source"] = {{"paths", paths}, {"step", step >= 0 ? nlohmann::json(step) : nlohmann::json(nullptr)}};
    j["changed_knobs"] = changedKnobs(j["knobs"]);
    return j;
}

} // namespace sl
