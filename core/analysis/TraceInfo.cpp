#include "analysis/TraceInfo.h"

#include "analysis/Breakdown.h"
#include "models/Roofline.h"

#include <map>

namespace sl {

namespace {

nlohmann::json rankJson(const Rank& rank) {
    nlohmann::json j;
    j["rank"] = rank.rank;
    j["file"] = rank.sourcePath;
    if (!rank.format.empty()) j["format"] = rank.format; // io/TraceFormat.h
    if (!rank.profiler.empty()) j["profiler"] = rank.profiler;
    j["json_bytes"] = rank.fileBytes;
    j["device"] = rank.deviceName();
    j["world_size"] = rank.worldSize;
    if (!rank.backend.empty()) j["backend"] = rank.backend;

    nlohmann::json byKind = nlohmann::json::object();
    for (int k = 0; k < kEventKindCount; ++k)
        if (rank.eventsByKind[static_cast<std::size_t>(k)] > 0)
            byKind[std::string(eventKindName(static_cast<EventKind>(k)))] =
                rank.eventsByKind[static_cast<std::size_t>(k)];
    j["events"] = rank.eventCount();
    j["events_by_kind"] = byKind;

    nlohmann::json cpu = nlohmann::json::array(), gpu = nlohmann::json::array();
    for (const auto& t : rank.tracks) {
        nlohmann::json tj;
        tj["name"] = t.name;
        tj["events"] = t.events.size();
        if (t.isGpu()) {
            tj["device"] = t.device();
            tj["stream"] = t.stream();
            std::int64_t ops = 0;
            for (auto k : t.events.kind)
                ops += isGpuOp(k) ? 1 : 0;
            tj["gpu_ops"] = ops;
            gpu.push_back(std::move(tj));
        } else {
            tj["pid"] = t.pid;
            tj["tid"] = t.tid;
            cpu.push_back(std::move(tj));
        }
    }
    j["tracks"] = {{"cpu_threads", cpu}, {"gpu_streams", gpu}};

    TimeNs first = rank.firstStart(), last = rank.lastEnd();
    j["time_span_us"] = {{"start", nsToUs(first)}, {"end", nsToUs(last)}, {"duration", nsToUs(last - first)}};

    std::map<std::string, std::int64_t> byType;
    for (const auto& c : rank.collectives)
        ++byType[std::string(collectiveTypeName(c.type))];
    std::int64_t withMetadata = 0;
    for (const auto& c : rank.collectives)
        withMetadata += c.hasMetadata ? 1 : 0;
    j["collectives"] = {
        {"kernels", rank.collectives.size()}, {"with_metadata", withMetadata}, {"by_type", byType}};
    j["flows_by_category"] = rank.flowsByCategory;
    j["gpu_ops_without_launch"] = rank.gpuOpsWithoutLaunch;
    j["warnings"] = rank.warnings.lines();
    return j;
}

} // namespace

nlohmann::json traceInfoJson(const TraceSet& set, const ExecutionGraph* graph) {
    nlohmann::json j;
    j["ranks"] = nlohmann::json::array();
    const std::vector<double> htaOverlap = htaOverlapPct(set);
    for (std::size_t i = 0; i < set.ranks.size(); ++i) {
        nlohmann::json rj = rankJson(set.ranks[i]);
        // Holistic Trace Analysis's overlap over the whole file, to compare with HTA's own figure.
        rj["hta_overlap_pct"] = htaOverlap[i];
        if (graph && i < graph->ranks.size()) {
            const RankWindow& w = graph->ranks[i];
            rj["prewindow_ops"] = w.prewindowOps;
            rj["prewindow_queued"] = w.prewindowQueued;
            rj["prewindow_following"] = w.prewindowFollowing;
            // How far the GPU clock runs ahead of the host's, and from how many wait pairs
            // (docs/ARCHITECTURE.md, "GPU clock offset").
            rj["gpu_clock_offset_us"] = static_cast<double>(w.gpuClockOffset) / 1000.0;
            rj["gpu_clock_offset_pairs"] = w.gpuClockOffsetPairs;
            rj["graph_kernels"] = w.graphKernels;
            rj["device_waits"] = w.deviceWaits;
            rj["threads_released_at_measured"] = w.threadsReleasedAtMeasured;
            rj["unexplained_wait_us"] = static_cast<double>(w.unexplainedWait) / 1000.0;
            rj["unexplained_gpu_wait_us"] = static_cast<double>(w.unexplainedGpuWait) / 1000.0;
        }
        j["ranks"].push_back(rj);
    }
    if (graph) {
        const GraphStats& st = graph->stats;
        j["graph"] = {{"nodes", graph->nodes.size()},
                      {"edges", graph->edges.size()},
                      {"prewindow_ops", st.prewindowOps},
                      {"prewindow_queued", st.prewindowQueued},
                      {"prewindow_following", st.prewindowFollowing},
                      {"graph_kernels", st.graphKernels},
                      {"device_wait_edges", st.deviceWaitEdges},
                      {"thread_start_edges", st.threadStartEdges},
                      {"inferred_cross_stream", st.inferredCrossStream},
                      {"wait_event_edges", st.waitEventEdges},
                      {"sm_contention_edges", st.smContentionEdges},
                      {"collectives_matched", st.collectivesMatched},
                      {"collectives_unmatched", st.collectivesUnmatched},
                      {"phantom_collectives", st.phantomCollectives},
                      {"repaired_launches", st.repairedLaunches},
                      {"repaired_overlaps", st.repairedOverlaps}};
    }
    // Where the GPU time goes against the source GPU's datasheet (docs/GpuModel.md).
    j["roofline"] = rooflineJson(set);
    j["rank_count"] = set.ranks.size();
    j["events"] = set.eventCount();
    const Warnings warnings = traceWarnings(set, graph);
    j["warnings"] = warnings.lines();
    j["warning_stats"] = warningStatsJson(warnings);
    return j;
}

Warnings traceWarnings(const TraceSet& set, const ExecutionGraph* graph) {
    Warnings all = set.warnings;
    for (const auto& r : set.ranks)
        all.append(r.warnings, "rank " + std::to_string(r.rank) + ": ");
    if (graph) all.append(graph->warnings);
    return all;
}

nlohmann::json warningStatsJson(const Warnings& warnings) {
    nlohmann::json out = nlohmann::json::array();
    for (const Warnings::Stat& s : warnings.stats()) {
        const WarnInfo& info = warnInfo(s.kind);
        out.push_back({{"key", info.key},
                       {"severity", severityName(info.severity)},
                       {"count", s.count},
                       {"lines", s.occurrences},
                       {"message", info.message},
                       {"example", s.example}});
    }
    return out;
}

} // namespace sl
