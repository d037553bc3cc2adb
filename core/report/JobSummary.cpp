// The reduce of a job summarised rank by rank (report/RankSummary.h): the job view from the rank
// summaries alone, matched and paired as the execution graph does it on the whole set
// (graph/CollectiveMatching.cpp), so the arrivals equal `collectives --json`.
#include "report/RankSummary.h"

#include "analysis/CollectiveArrivals.h"
#include "base/Error.h"
#include "graph/CollectiveGrouping.h"
#include "report/CollectivesReport.h"

#include <algorithm>
#include <limits>
#include <map>

namespace sl {

namespace {

using Json = nlohmann::json;

// The process group a collective of a rank summary points at.
const Json& groupOf(const Json& rank, const Json& collective) {
    return rank["groups"].at(collective["g"].get<std::size_t>());
}

class JobReduce {
public:
    explicit JobReduce(std::vector<Json>& summaries) : ranks(summaries) {
        std::stable_sort(ranks.begin(), ranks.end(), [](const Json& a, const Json& b) {
            return a["rank"].get<int>() < b["rank"].get<int>();
        });
        for (const auto& r : ranks) {
            const int id = r["rank"].get<int>();
            if (!indexOf.emplace(id, static_cast<std::uint32_t>(rankIds.size())).second)
                throw Error(ErrorKind::Usage, r["path"].get<std::string>(),
                            "rank " + std::to_string(id) + " is summarised twice");
            rankIds.push_back(id);
        }
        findOrigins();
    }

    std::vector<Json>& ranks;
    std::vector<int> rankIds;
    std::map<int, std::uint32_t> indexOf;
    std::vector<TimeNs> origin;
    std::map<std::string, std::vector<std::int32_t>> keyRanks; // a key's listed rank ids
    std::map<std::string, int> keySize;                        // a key's group size otherwise
    std::vector<CollectiveArrival> raw;
    std::int64_t leftOut = 0, pointToPointLeftOut = 0;

    // The k-th collective of a key on each rank is one collective: the participants are the
    // group's listed ranks, else the ranks that have the key, and a group with a participant not
    // summarised is left out rather than shown with a hole.
    void matchCollectives() {
        std::map<std::string, std::map<std::uint32_t, std::vector<const Json*>>> byKey;
        for (std::uint32_t r = 0; r < ranks.size(); ++r)
            for (const auto& c : ranks[r]["collectives"]) {
                const std::string key = c["key"].get<std::string>();
                byKey[key][r].push_back(&c);
                const Json& grp = groupOf(ranks[r], c);
                if (!grp["group_ranks"].empty())
                    keyRanks[key] = grp["group_ranks"].get<std::vector<std::int32_t>>();
                else if (grp["metadata"].get<bool>() && grp["group_size"].get<int>() > 0)
                    keySize[key] = grp["group_size"].get<int>();
                else if (ranks[r]["world_size"].get<int>() > 0)
                    keySize[key] = std::max(keySize[key], ranks[r]["world_size"].get<int>());
            }
        for (auto& [key, perRank] : byKey) {
            bool missing = false;
            const std::vector<std::uint32_t> participants =
                participantsOf(key, perRank, ranks.size() == 1 ? 2 : -1, missing);
            std::size_t maxCount = 0;
            for (auto r : participants)
                maxCount = std::max(maxCount, perRank.count(r) ? perRank[r].size() : 0);
            bool mismatch = false;
            for (std::size_t k = 0; k < maxCount; ++k) {
                CollectiveArrival c;
                c.processGroup = key;
                bool typeOk = true;
                std::vector<std::pair<std::uint32_t, const Json*>> members;
                for (auto r : participants) {
                    if (!perRank.count(r) || k >= perRank[r].size()) continue;
                    const Json& m = *perRank[r][k];
                    if (!joinCollectiveGroup(c.type, c.bytes, members.empty(),
                                             static_cast<CollectiveType>(m["type"].get<int>()),
                                             m["bytes"].get<std::int64_t>()))
                        typeOk = false;
                    members.emplace_back(r, &m);
                }
                mismatch = mismatch || !typeOk;
                if (missing || mismatch || members.size() != participants.size() || participants.size() < 2) {
                    leftOut += missing ? 1 : 0;
                    continue;
                }
                const Json& front = groupOf(ranks[members.front().first], *members.front().second);
                if (front["metadata"].get<bool>()) describeGroup(c, front);
                for (const auto& [r, m] : members)
                    c.ranks.push_back(arrival(r, *m));
                raw.push_back(std::move(c));
            }
        }
    }

    // Sends and receives: in a process group of two ranks A and B, the k-th send of A meets the
    // k-th receive of B and the other way round, in each rank's order of effective start.
    void pairPointToPoint() {
        struct Directed {
            std::vector<const Json*> sends, recvs;
        };
        std::map<std::string, std::map<std::uint32_t, Directed>> p2p;
        for (std::uint32_t r = 0; r < ranks.size(); ++r) {
            pointToPointLeftOut += ranks[r]["point_to_point_unkeyed"].get<std::int64_t>();
            for (const auto& c : ranks[r]["point_to_point"]) {
                const std::string key = c["key"].get<std::string>();
                Directed& d = p2p[key][r];
                (c["send"].get<bool>() ? d.sends : d.recvs).push_back(&c);
                const Json& grp = groupOf(ranks[r], c);
                if (!grp["group_ranks"].empty())
                    keyRanks[key] = grp["group_ranks"].get<std::vector<std::int32_t>>();
                else if (grp["group_size"].get<int>() > 0)
                    keySize[key] = grp["group_size"].get<int>();
            }
        }
        auto byStart = [](const Json* a, const Json* b) {
            return (*a)["eff_start_ns"].get<TimeNs>() < (*b)["eff_start_ns"].get<TimeNs>();
        };
        for (auto& [key, perRank] : p2p) {
            std::int64_t total = 0;
            for (auto& [r, d] : perRank) {
                std::stable_sort(d.sends.begin(), d.sends.end(), byStart);
                std::stable_sort(d.recvs.begin(), d.recvs.end(), byStart);
                total += static_cast<std::int64_t>(d.sends.size() + d.recvs.size());
            }
            bool missing = false;
            const std::vector<std::uint32_t> participants = participantsOf(key, perRank, 2, missing);
            if (missing || participants.size() != 2) {
                pointToPointLeftOut += total;
                continue;
            }
            for (std::size_t dir = 0; dir < 2; ++dir) {
                const std::uint32_t a = participants[dir], b = participants[1 - dir];
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
                    describeGroup(c, groupOf(ranks[a], *sends[k]));
                    c.ranks = {arrival(a, *sends[k]), arrival(b, *recvs[k])};
                    raw.push_back(std::move(c));
                }
            }
        }
    }

private:
    // One clock for all ranks unless clock bases differ or starts lie far apart (as the graph
    // decides it: graph/StepWindow.cpp); times are then relative to the job's first event.
    void findOrigins() {
        bool sameClock = true;
        TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
        for (const auto& r : ranks) {
            sameClock = sameClock && r["clock_base_ns"] == ranks.front()["clock_base_ns"];
            lo = std::min(lo, r["measured_start_ns"].get<TimeNs>());
            hi = std::max(hi, r["measured_start_ns"].get<TimeNs>());
        }
        if (!ranks.empty() && hi - lo > 60'000'000'000LL) sameClock = false;
        for (const auto& r : ranks)
            origin.push_back(sameClock ? lo : r["measured_start_ns"].get<TimeNs>());
    }

    // The participants of a key: its listed ranks (`missing` when one was not summarised), else
    // the ranks that have it, missing when fewer than its group size (`fallback` without one).
    template <typename PerRank>
    std::vector<std::uint32_t> participantsOf(const std::string& key, const PerRank& perRank, int fallback,
                                              bool& missing) {
        std::vector<std::uint32_t> participants;
        missing = false;
        if (auto it = keyRanks.find(key); it != keyRanks.end()) {
            for (auto id : it->second) {
                auto found = indexOf.find(id);
                if (found == indexOf.end())
                    missing = true;
                else
                    participants.push_back(found->second);
            }
            return participants;
        }
        for (const auto& entry : perRank)
            participants.push_back(entry.first);
        const int expected = keySize.count(key) ? keySize[key] : fallback;
        missing = expected > 0 && static_cast<int>(participants.size()) < expected;
        return participants;
    }

    static void describeGroup(CollectiveArrival& c, const Json& group) {
        c.processGroup = group["group"].get<std::string>();
        c.groupRanks = group["group_ranks"].get<std::vector<std::int32_t>>();
        c.size =
            !c.groupRanks.empty() ? static_cast<int>(c.groupRanks.size()) : group["group_size"].get<int>();
    }

    RankArrival arrival(std::uint32_t r, const Json& m) const {
        return {kNoNode,
                r,
                m["arrival_ns"].get<TimeNs>() - origin[r],
                m["start_ns"].get<TimeNs>() - origin[r],
                m["end_ns"].get<TimeNs>() - origin[r],
                0};
    }
};

} // namespace

nlohmann::json jobSummaryJson(std::vector<nlohmann::json> ranks, const std::vector<FailedRank>& failed) {
    JobReduce reduce(ranks);
    reduce.matchCollectives();
    reduce.pairPointToPoint();
    const CollectiveArrivals arrivals = settleArrivals(reduce.rankIds, std::move(reduce.raw));
    Json rankRows = Json::array();
    std::map<std::string, double> byClass;
    for (const auto& r : reduce.ranks) {
        Json row = r["report"];
        row["rank"] = r["rank"];
        row["path"] = r["path"];
        rankRows.push_back(std::move(row));
        if (r["report"].contains("measured") && r["report"]["measured"].contains("by_class_us"))
            for (const auto& [cls, v] : r["report"]["measured"]["by_class_us"].items())
                byClass[cls] += v.get<double>();
    }
    Json missingRows = Json::array();
    for (const FailedRank& f : failed)
        missingRows.push_back({{"path", f.path}, {"error", f.error}});
    return {{"ranks", rankRows},
            {"by_class_us", byClass},
            {"collectives", collectivesJson(reduce.rankIds, arrivals)},
            {"collectives_left_out", reduce.leftOut},
            {"point_to_point_left_out", reduce.pointToPointLeftOut},
            {"missing", missingRows},
            // Complete: every rank summarised and every collective of the job in the view.
            {"complete", failed.empty() && reduce.leftOut == 0 && reduce.pointToPointLeftOut == 0}};
}

} // namespace sl
