#include "report/CollectivesReport.h"

#include "base/Rounding.h"

#include <algorithm>

namespace sl {

std::vector<RankWaiting> ranksByMadeOthersWait(const CollectiveArrivals& a) {
    std::vector<RankWaiting> ranks = a.ranks;
    std::stable_sort(ranks.begin(), ranks.end(), [](const RankWaiting& x, const RankWaiting& y) {
        return x.madeOthersWait > y.madeOthersWait;
    });
    return ranks;
}

namespace {

std::vector<int> rankIdsOf(const ExecutionGraph& g) {
    std::vector<int> ids;
    for (const RankWindow& w : g.ranks)
        ids.push_back(w.rankId);
    return ids;
}

nlohmann::json lastArrival(const std::vector<int>& rankIds, const CollectiveArrival& c) {
    if (c.spread == 0) return nullptr;
    if (c.lastIsPhantom) return "phantom";
    return rankIds[c.last().rank];
}

} // namespace

nlohmann::json lastArrivalJson(const ExecutionGraph& g, const CollectiveArrival& c) {
    return lastArrival(rankIdsOf(g), c);
}

nlohmann::json collectivesJson(const ExecutionGraph& g, const CollectiveArrivals& a) {
    return collectivesJson(rankIdsOf(g), a);
}

nlohmann::json collectivesJson(const std::vector<int>& rankIds, const CollectiveArrivals& a) {
    nlohmann::json rj = nlohmann::json::array();
    for (const auto& w : ranksByMadeOthersWait(a))
        rj.push_back({{"rank", w.rankId},
                      {"collectives", w.collectives},
                      {"times_last", w.timesLast},
                      {"waited_us", us(w.waited)},
                      {"made_others_wait_us", us(w.madeOthersWait)}});
    nlohmann::json cj = nlohmann::json::array();
    for (const auto& c : a.collectives) {
        nlohmann::json arr = nlohmann::json::array();
        for (const auto& r : c.ranks)
            arr.push_back({{"rank", rankIds[r.rank]},
                           {"arrival_us", us(r.arrival)},
                           {"start_us", us(r.start)},
                           {"end_us", us(r.end)},
                           {"waited_us", us(r.waited)}});
        nlohmann::json item = {{"type", std::string(collectiveTypeName(c.type))},
                               {"group", c.processGroup},
                               {"group_ranks", c.groupRanks},
                               {"size", c.size},
                               {"bytes", c.bytes},
                               {"first_us", us(c.first)},
                               {"last_rank", lastArrival(rankIds, c)},
                               {"spread_us", us(c.spread)},
                               {"phantom_peers", c.phantomPeers},
                               {"arrivals", arr}};
        if (c.phantomPeers > 0) item["phantom_arrival_us"] = us(c.phantomArrival);
        cj.push_back(std::move(item));
    }
    return nlohmann::json{
        {"ranks", rj}, {"waited_for_phantoms_us", us(a.waitedForPhantoms)}, {"collectives", cj}};
}

} // namespace sl
