#include "report/RankSummary.h"

#include "analysis/CollectiveArrivals.h"
#include "base/Error.h"
#include "report/SimulationReport.h"

#include <algorithm>
#include <limits>
#include <map>

namespace sl {

namespace {

// A sends or a receive: paired across ranks by the schedule, not by a group's k-th entry.
bool isSendOrRecv(CollectiveType t) {
    return t == CollectiveType::Send || t == CollectiveType::Recv;
}

} // namespace

nlohmann::json rankSummaryJson(const ExecutionGraph& g, const SimResult& replay) {
    if (g.ranks.size() != 1 || g.trace->ranks.size() != 1)
        throw Error(ErrorKind::Usage, std::string(), "a rank summary takes a set of one rank");
    const Rank& rank = g.trace->ranks.front();
    const RankWindow& w = g.ranks.front();
    const nlohmann::json simulated = simulationResultJson(g, replay, SimKnobs{});
    // A process group's description once (a 1,024-rank group lists 1,024 ranks), the collectives
    // pointing at it by index: the summary stays a few KB.
    nlohmann::json groups = nlohmann::json::array();
    std::map<std::string, std::size_t> groupIndex;
    auto metaOf = [&](NodeId n) -> const CollectiveMeta* {
        const EventRef ev = g.nodes[n].event;
        const std::uint32_t extra = rank.tracks[ev.track].events.extra[ev.index];
        return extra != kNoExtra && extra < rank.collectives.size() ? &rank.collectives[extra] : nullptr;
    };
    auto groupOfNode = [&](const CollectiveMeta* meta) {
        const bool metadata = meta && meta->hasMetadata;
        nlohmann::json group = {
            {"metadata", metadata},
            {"group", metadata ? std::string(rank.strings.str(meta->processGroupName)) : ""},
            {"group_ranks", metadata ? meta->processGroupRanks : std::vector<std::int32_t>{}},
            {"group_size", metadata ? meta->groupSize : -1}};
        auto [at, fresh] = groupIndex.try_emplace(group.dump(), groups.size());
        if (fresh) groups.push_back(std::move(group));
        return at->second;
    };
    // Every group of a one-rank graph has this rank's k-th collective of its key as its one member,
    // in k order (graph/CollectiveMatching.cpp); sends and receives are no groups when the peer is
    // missing.
    nlohmann::json collectives = nlohmann::json::array();
    for (const CollectiveGroup& grp : g.collectives) {
        if (grp.members.size() != 1) continue;
        const NodeId n = grp.members.front();
        collectives.push_back({{"key", grp.processGroup},
                               {"type", static_cast<int>(grp.type)},
                               {"bytes", grp.bytes},
                               {"g", groupOfNode(metaOf(n))},
                               {"arrival_ns", measuredArrival(g, n)},
                               {"start_ns", g.measuredStart(n)},
                               {"end_ns", g.measuredEnd(n)}});
    }
    // Sends and receives with metadata: the graph pairs the k-th send of one rank with the k-th
    // receive of its peer, each rank's in the order of their effective start (the measured start
    // clipped to the end of the ops before it on its stream, graph/Processors.cpp).
    nlohmann::json pointToPoint = nlohmann::json::array();
    std::int64_t unkeyed = 0;
    for (const auto& p : g.processors) {
        if (!p.gpu) continue;
        TimeNs prevEnd = std::numeric_limits<TimeNs>::min();
        for (NodeId n : p.nodes) {
            const TimeNs effStart = std::max(g.measuredStart(n), prevEnd);
            prevEnd = std::max(prevEnd, g.measuredEnd(n));
            const std::string_view name = g.nodeName(n);
            const CollectiveMeta* meta = metaOf(n);
            if (!isCollectiveKernelName(name) || !meta || !meta->hasMetadata) continue;
            const CollectiveType type =
                meta->type != CollectiveType::Unknown ? meta->type : collectiveTypeFromKernelName(name);
            if (!isSendOrRecv(type)) continue;
            std::string key = "pg:" + std::string(rank.strings.str(meta->processGroupName)) + ":";
            if (!meta->processGroupRanks.empty()) {
                for (auto x : meta->processGroupRanks)
                    key.append(std::to_string(x)).append(",");
            } else if (meta->groupSize > 0) {
                key.append("size").append(std::to_string(meta->groupSize));
            } else {
                unkeyed++; // keyed by its stream's order among every collective kernel: not paired here
                continue;
            }
            pointToPoint.push_back({{"key", key},
                                    {"send", type == CollectiveType::Send},
                                    {"bytes", meta->bytes(rank.strings)},
                                    {"g", groupOfNode(meta)},
                                    {"eff_start_ns", effStart},
                                    {"arrival_ns", measuredArrival(g, n)},
                                    {"start_ns", g.measuredStart(n)},
                                    {"end_ns", g.measuredEnd(n)}});
        }
    }
    // What the rank's file alone decides, equal to the whole set's numbers (the measured breakdown,
    // the graph's boundary conditions), apart from what needs its peers: the split of
    // communication into the wait for them and the transfer, and the pinned share of the job's
    // critical path. Those are kept under "alone", as this rank's own replay has them.
    const nlohmann::json full = simulated["ranks"].empty() ? nlohmann::json::object() : simulated["ranks"][0];
    nlohmann::json report = nlohmann::json::object(), alone = nlohmann::json::object();
    for (const char* key : {"measured_us", "unexplained_wait_us", "unexplained_gpu_wait_us", "prewindow_ops",
                            "typical_launch_latency_us"})
        if (full.contains(key)) report[key] = full[key];
    for (const char* key : {"simulated_us", "pinned_share_pct", "pinned_us", "largest_pin"})
        if (full.contains(key)) alone[key] = full[key];
    if (full.contains("measured")) {
        report["measured"] = full["measured"];
        for (const char* key :
             {"comm_wait_us", "comm_transfer_us", "exposed_comm_wait_us", "exposed_comm_transfer_us"}) {
            alone["measured_" + std::string(key)] = report["measured"].value(key, nlohmann::json());
            report["measured"].erase(key);
        }
    }
    report["alone"] = alone;
    return {{"rank", rank.rank},
            {"path", rank.sourcePath},
            {"world_size", rank.worldSize},
            {"clock_base_ns", rank.clockBaseNs},
            {"measured_start_ns", w.measuredStart},
            {"report", report},
            {"groups", groups},
            {"collectives", collectives},
            {"point_to_point", pointToPoint},
            {"point_to_point_unkeyed", unkeyed}};
}

} // namespace sl
