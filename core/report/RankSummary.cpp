#include "report/RankSummary.h"

#include "analysis/CollectiveArrivals.h"
#include "base/Error.h"
#include "report/CollectivesReport.h"
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

// The process group a collective of a rank summary points at.
const nlohmann::json& groupOf(const nlohmann::json& rank, const nlohmann::json& collective) {
    return rank["groups"].at(collective["g"].get<std::size_t>());
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

nlohmann::json jobSummaryJson(std::vector<nlohmann::json> ranks, const std::vector<FailedRank>& failed) {
    std::stable_sort(ranks.begin(), ranks.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
        return a["rank"].get<int>() < b["rank"].get<int>();
    });
    std::vector<int> rankIds;
    std::map<int, std::uint32_t> indexOf;
    for (const auto& r : ranks) {
        const int id = r["rank"].get<int>();
        if (!indexOf.emplace(id, static_cast<std::uint32_t>(rankIds.size())).second)
            throw Error(ErrorKind::Usage, r["path"].get<std::string>(),
                        "rank " + std::to_string(id) + " is summarised twice");
        rankIds.push_back(id);
    }
    // One clock for all ranks unless clock bases differ or starts lie far apart (as the graph
    // decides it: graph/StepWindow.cpp); times are then relative to the job's first event.
    std::vector<TimeNs> origin(ranks.size(), 0);
    {
        bool sameClock = true;
        TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
        for (const auto& r : ranks) {
            sameClock = sameClock && r["clock_base_ns"] == ranks.front()["clock_base_ns"];
            lo = std::min(lo, r["measured_start_ns"].get<TimeNs>());
            hi = std::max(hi, r["measured_start_ns"].get<TimeNs>());
        }
        if (!ranks.empty() && hi - lo > 60'000'000'000LL) sameClock = false;
        for (std::size_t i = 0; i < ranks.size(); ++i)
            origin[i] = sameClock ? lo : ranks[i]["measured_start_ns"].get<TimeNs>();
    }
    // The k-th collective of a key on each rank is one collective (graph/CollectiveMatching.cpp):
    // the participants are the group's listed ranks, else the ranks that have the key, and a group
    // with a participant not summarised is left out rather than shown with a hole.
    std::map<std::string, std::map<std::uint32_t, std::vector<const nlohmann::json*>>> byKey;
    std::map<std::string, std::vector<std::int32_t>> keyRanks;
    std::map<std::string, int> keySize;
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        for (const auto& c : ranks[r]["collectives"]) {
            const std::string key = c["key"].get<std::string>();
            byKey[key][r].push_back(&c);
            const nlohmann::json& grp = groupOf(ranks[r], c);
            if (!grp["group_ranks"].empty())
                keyRanks[key] = grp["group_ranks"].get<std::vector<std::int32_t>>();
            else if (grp["metadata"].get<bool>() && grp["group_size"].get<int>() > 0)
                keySize[key] = grp["group_size"].get<int>();
            else if (ranks[r]["world_size"].get<int>() > 0)
                keySize[key] = std::max(keySize[key], ranks[r]["world_size"].get<int>());
        }
    std::vector<CollectiveArrival> raw;
    std::int64_t leftOut = 0;
    for (auto& [key, perRank] : byKey) {
        std::vector<std::uint32_t> participants;
        bool missing = false;
        if (auto it = keyRanks.find(key); it != keyRanks.end()) {
            for (auto id : it->second) {
                auto found = indexOf.find(id);
                if (found == indexOf.end())
                    missing = true;
                else
                    participants.push_back(found->second);
            }
        } else {
            for (auto& [r, seq] : perRank)
                participants.push_back(r);
            const int expected = keySize.count(key) ? keySize[key] : (ranks.size() == 1 ? 2 : -1);
            if (expected > 0 && static_cast<int>(participants.size()) < expected) missing = true;
        }
        std::size_t maxCount = 0;
        for (auto r : participants)
            maxCount = std::max(maxCount, perRank.count(r) ? perRank[r].size() : 0);
        bool mismatch = false;
        for (std::size_t k = 0; k < maxCount; ++k) {
            CollectiveArrival c;
            c.processGroup = key;
            bool typeOk = true;
            std::vector<std::pair<std::uint32_t, const nlohmann::json*>> members;
            for (auto r : participants) {
                if (!perRank.count(r) || k >= perRank[r].size()) continue;
                const nlohmann::json& m = *perRank[r][k];
                const auto t = static_cast<CollectiveType>(m["type"].get<int>());
                const std::int64_t bytes = m["bytes"].get<std::int64_t>();
                if (members.empty()) {
                    c.type = t;
                    c.bytes = bytes;
                } else if (t != c.type) {
                    typeOk = false;
                } else if (bytes >= 0 && c.bytes >= 0 && bytes != c.bytes) {
                    if (t == CollectiveType::AllToAll)
                        c.bytes = std::max(c.bytes, bytes);
                    else
                        typeOk = false;
                }
                members.emplace_back(r, &m);
            }
            mismatch = mismatch || !typeOk;
            if (missing || mismatch || members.size() != participants.size() || participants.size() < 2) {
                leftOut += missing ? 1 : 0;
                continue;
            }
            const nlohmann::json& front = groupOf(ranks[members.front().first], *members.front().second);
            if (front["metadata"].get<bool>()) {
                c.processGroup = front["group"].get<std::string>();
                c.groupRanks = front["group_ranks"].get<std::vector<std::int32_t>>();
                c.size = !c.groupRanks.empty() ? static_cast<int>(c.groupRanks.size())
                                               : front["group_size"].get<int>();
            }
            for (const auto& [r, m] : members)
                c.ranks.push_back({kNoNode, r, (*m)["arrival_ns"].get<TimeNs>() - origin[r],
                                   (*m)["start_ns"].get<TimeNs>() - origin[r],
                                   (*m)["end_ns"].get<TimeNs>() - origin[r], 0});
            raw.push_back(std::move(c));
        }
    }
    // Sends and receives: in a process group of two ranks A and B, the k-th send of A meets the
    // k-th receive of B and the other way round, in each rank's order of effective start.
    std::int64_t pointToPointLeftOut = 0;
    struct Directed {
        std::vector<const nlohmann::json*> sends, recvs;
    };
    std::map<std::string, std::map<std::uint32_t, Directed>> p2p;
    for (std::uint32_t r = 0; r < ranks.size(); ++r) {
        pointToPointLeftOut += ranks[r]["point_to_point_unkeyed"].get<std::int64_t>();
        for (const auto& c : ranks[r]["point_to_point"]) {
            const std::string key = c["key"].get<std::string>();
            Directed& d = p2p[key][r];
            (c["send"].get<bool>() ? d.sends : d.recvs).push_back(&c);
            const nlohmann::json& grp = groupOf(ranks[r], c);
            if (!grp["group_ranks"].empty())
                keyRanks[key] = grp["group_ranks"].get<std::vector<std::int32_t>>();
            else if (grp["group_size"].get<int>() > 0)
                keySize[key] = grp["group_size"].get<int>();
        }
    }
    for (auto& [key, perRank] : p2p) {
        std::int64_t total = 0;
        for (auto& [r, d] : perRank) {
            auto byStart = [](const nlohmann::json* a, const nlohmann::json* b) {
                return (*a)["eff_start_ns"].get<TimeNs>() < (*b)["eff_start_ns"].get<TimeNs>();
            };
            std::stable_sort(d.sends.begin(), d.sends.end(), byStart);
            std::stable_sort(d.recvs.begin(), d.recvs.end(), byStart);
            total += static_cast<std::int64_t>(d.sends.size() + d.recvs.size());
        }
        std::vector<std::uint32_t> participants;
        bool missing = false;
        if (auto it = keyRanks.find(key); it != keyRanks.end()) {
            for (auto id : it->second) {
                auto found = indexOf.find(id);
                if (found == indexOf.end())
                    missing = true;
                else
                    participants.push_back(found->second);
            }
        } else {
            for (auto& [r, d] : perRank)
                participants.push_back(r);
            missing = static_cast<int>(participants.size()) < (keySize.count(key) ? keySize[key] : 2);
        }
        if (missing || participants.size() != 2) {
            pointToPointLeftOut += total;
            continue;
        }
        for (int dir = 0; dir < 2; ++dir) {
            const std::uint32_t a = participants[static_cast<std::size_t>(dir)];
            const std::uint32_t b = participants[static_cast<std::size_t>(1 - dir)];
            const auto& sends = perRank[a].sends;
            const auto& recvs = perRank[b].recvs;
            const std::size_t pairs = std::min(sends.size(), recvs.size());
            pointToPointLeftOut += static_cast<std::int64_t>(sends.size() + recvs.size() - 2 * pairs);
            bool mismatch = false;
            for (std::size_t k = 0; k < pairs; ++k) {
                const std::int64_t sb = (*sends[k])["bytes"].get<std::int64_t>();
                const std::int64_t rb = (*recvs[k])["bytes"].get<std::int64_t>();
                mismatch = mismatch || (sb >= 0 && rb >= 0 && sb != rb);
                if (mismatch) { // from there on they keep measured durations, as in the graph
                    pointToPointLeftOut += 2;
                    continue;
                }
                CollectiveArrival c;
                c.type = CollectiveType::SendRecv;
                c.bytes = sb >= 0 ? sb : rb;
                const nlohmann::json& front = groupOf(ranks[a], *sends[k]);
                c.processGroup = front["group"].get<std::string>();
                c.groupRanks = front["group_ranks"].get<std::vector<std::int32_t>>();
                c.size = !c.groupRanks.empty() ? static_cast<int>(c.groupRanks.size())
                                               : front["group_size"].get<int>();
                for (const auto& [r, m] : {std::pair{a, sends[k]}, std::pair{b, recvs[k]}})
                    c.ranks.push_back({kNoNode, r, (*m)["arrival_ns"].get<TimeNs>() - origin[r],
                                       (*m)["start_ns"].get<TimeNs>() - origin[r],
                                       (*m)["end_ns"].get<TimeNs>() - origin[r], 0});
                raw.push_back(std::move(c));
            }
        }
    }
    const CollectiveArrivals arrivals = settleArrivals(rankIds, std::move(raw));
    nlohmann::json rankRows = nlohmann::json::array();
    std::map<std::string, double> byClass;
    for (const auto& r : ranks) {
        nlohmann::json row = r["report"];
        row["rank"] = r["rank"];
        row["path"] = r["path"];
        rankRows.push_back(std::move(row));
        if (r["report"].contains("measured") && r["report"]["measured"].contains("by_class_us"))
            for (const auto& [cls, v] : r["report"]["measured"]["by_class_us"].items())
                byClass[cls] += v.get<double>();
    }
    nlohmann::json missingRows = nlohmann::json::array();
    for (const FailedRank& f : failed)
        missingRows.push_back({{"path", f.path}, {"error", f.error}});
    return {{"ranks", rankRows},
            {"by_class_us", byClass},
            {"collectives", collectivesJson(rankIds, arrivals)},
            {"collectives_left_out", leftOut},
            {"point_to_point_left_out", pointToPointLeftOut},
            {"missing", missingRows},
            // Complete: every rank summarised and every collective of the job in the view.
            {"complete", failed.empty() && leftOut == 0 && pointToPointLeftOut == 0}};
}

} // namespace sl
