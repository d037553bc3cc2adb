#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "io/LoadError.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace sl::cli {

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

nlohmann::json resultJson(const ExecutionGraph& g, const SimResult& res, const SimKnobs& knobs) {
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

void printTable(const ExecutionGraph& g, const SimResult& res) {
    std::printf("%-6s %14s %14s %9s\n", "rank", "measured_us", "simulated_us", "error_%");
    for (const auto& s : res.ranks)
        std::printf("%-6d %14.2f %14.2f %9.3f\n", s.rank, us(s.measured()), us(s.simulated()), s.errorPct());
    std::printf("%-6s %14.2f %14.2f %9.3f\n", "job", us(res.measuredIteration), us(res.simulatedIteration),
                res.iterationErrorPct());
    std::printf("\nkernel start error: median %.3f us, p90 %.3f us (%lld GPU ops)\n",
                res.kernelStartError.medianUs, res.kernelStartError.p90Us,
                static_cast<long long>(res.kernelStartError.count));
    std::printf("graph: %zu nodes, %zu edges, %lld collectives matched, %lld inferred cross-stream edges\n",
                g.nodes.size(), g.edges.size(), static_cast<long long>(g.stats.collectivesMatched),
                static_cast<long long>(g.stats.inferredCrossStream));
    std::size_t nw = g.warnings.size() + res.warnings.size();
    if (nw) std::printf("\nwarnings:\n");
    for (const auto& w : g.warnings)
        std::printf("  %s\n", w.c_str());
    for (const auto& w : res.warnings)
        std::printf("  %s\n", w.c_str());
}

// Chrome trace JSON of the simulated timeline: one process per (rank, pid), same threads/streams.
void exportTrace(const ExecutionGraph& g, const SimResult& res, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw LoadError(path, "cannot write the exported trace");
    out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    bool first = true;
    char buf[128];
    auto sep = [&]() {
        if (!first) out << ",\n";
        first = false;
    };
    const auto& set = *g.trace;
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
            const Track& t = rank.tracks[ti];
            std::int64_t pid = static_cast<std::int64_t>(rank.rank) * 1'000'000 + (t.isGpu() ? 900'000 : 0) +
                               (t.pid % 100'000 + 100'000) % 100'000;
            std::string pname = "rank " + std::to_string(rank.rank) + (t.isGpu() ? " GPU " : " pid ") +
                                std::to_string(t.pid) + " (simulated)";
            sep();
            out << nlohmann::json{{"ph", "M"},
                                  {"name", "process_name"},
                                  {"pid", pid},
                                  {"tid", t.tid},
                                  {"args", {{"name", pname}}}}
                       .dump();
            sep();
            out << nlohmann::json{{"ph", "M"},
                                  {"name", "thread_name"},
                                  {"pid", pid},
                                  {"tid", t.tid},
                                  {"args", {{"name", t.name.empty() ? std::to_string(t.tid) : t.name}}}}
                       .dump();
            const auto& ev = t.events;
            const auto& tt = res.timeline.track(r, ti);
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (tt.start[i] < 0 || ev.kind[i] == EventKind::Instant) continue;
                sep();
                nlohmann::json name = std::string(rank.strings.str(ev.name[i]));
                std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(tt.start[i]) / 1000.0);
                std::string ts = buf;
                std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(tt.duration[i]) / 1000.0);
                std::string dur = buf;
                std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ev.start[i]) / 1000.0);
                out << "{\"ph\":\"X\",\"name\":"
                    << name.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << ",\"cat\":\""
                    << eventKindName(ev.kind[i]) << "\",\"pid\":" << pid << ",\"tid\":" << t.tid
                    << ",\"ts\":" << ts << ",\"dur\":" << dur << ",\"args\":{\"measured_ts\":" << buf;
                if (ev.correlation[i] >= 0) out << ",\"correlation\":" << ev.correlation[i];
                out << "}}";
            }
        }
    }
    out << "\n]}\n";
    if (!out) throw LoadError(path, "cannot write the exported trace");
}

Command makeSimulateCommand() {
    return {
        "simulate", "replay a trace set in the simulator (what-if with knobs)",
        "usage: sightline-cli simulate PATH... [--step N] [--json] [--export-trace OUT.json]\n"
        "                              [--config F.json] [--set key=value]...\n"
        "\n"
        "Builds the execution graph of the traces (files, or folders of per-rank files) and replays it\n"
        "in the discrete-event simulator. Prints per rank the measured and simulated iteration time and\n"
        "the error, the per-kernel start-time error, and warnings.\n"
        "\n"
        "  --step N            restrict to ProfilerStep#N\n"
        "  --json              print one JSON object\n"
        "  --export-trace F    write the simulated timeline as Chrome trace JSON (opens in Perfetto)\n"
        "  --config F.json     knobs from a JSON file\n"
        "  --set key=value     one knob (repeatable), e.g. compute.speedup=2, cpu.speedup=1.5\n"
        "\n"
        "JSON fields: iteration.{measured_us, simulated_us, error_pct}; ranks[] with rank, measured_us,\n"
        "simulated_us, error_pct, the SIMULATED breakdown at the top level (compute_us, comm_us,\n"
        "exposed_comm_us, memory_us, idle_us, gpu_span_us, overlap_pct; HTA definitions), the same\n"
        "fields MEASURED in ranks[].measured, stream_idle[] (measured idle per GPU stream: host_wait_us,\n"
        "dependency_wait_us, other_us), typical_launch_latency_us, launch_latency_by_api_us,\n"
        "cross_stream_delay_us; critical_path.{length_us, by_kind.<label>.{us, pct}, top_events[]}\n"
        "(the path crosses ranks through collectives, see `critical-path --help`);\n"
        "kernel_start_error_us.{median, p90, max, count}; graph; knobs; warnings[].\n",
        [](Args& args) {
            bool json = args.flag("--json");
            auto exportPath = args.option("--export-trace");
            SimSetup setup = parseSimSetup(args, "simulate", true);
            const SimKnobs& knobs = setup.knobs;
            TraceSet set = loadWithProgress(setup.paths);
            ExecutionGraph graph = buildGraphForCli(set, setup);
            SimResult res = simulate(graph, knobs);
            if (exportPath) exportTrace(graph, res, *exportPath);
            if (json)
                std::cout << resultJson(graph, res, knobs).dump(2) << "\n";
            else
                printTable(graph, res);
            return kExitOk;
        }};
}

CommandRegistrar registerSimulate{makeSimulateCommand()};

} // namespace

} // namespace sl::cli
