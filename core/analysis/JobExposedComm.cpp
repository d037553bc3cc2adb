#include "analysis/JobExposedComm.h"

#include "sim/Simulator.h"

#include <algorithm>

namespace sl {

namespace {

JobExposedComm summarize(const std::vector<TimeNs>& exposed) {
    JobExposedComm out;
    double sum = 0;
    for (const TimeNs e : exposed) {
        sum += static_cast<double>(e);
        out.maxNs = std::max(out.maxNs, e);
    }
    out.ranks = exposed.size();
    out.meanNs = out.ranks == 0 ? 0 : sum / static_cast<double>(out.ranks);
    return out;
}

} // namespace

JobExposedComm jobExposedComm(const std::vector<RankBreakdown>& breakdown, const SimulatedSetup& setup) {
    std::vector<TimeNs> exposed;
    exposed.reserve(setup.ranks.size());
    for (const SimulatedRank& r : setup.ranks)
        exposed.push_back(breakdown[r.source].exposedCommunication);
    return summarize(exposed);
}

JobExposedComm jobExposedComm(const ExecutionGraph& graph, const SimResult& result) {
    const std::vector<RankBreakdown> loaded = simulatedBreakdown(*graph.trace, result.timeline);
    std::vector<TimeNs> exposed;
    exposed.reserve(result.setup.ranks.size());
    for (const SimulatedRank& r : result.setup.ranks)
        exposed.push_back(loaded[r.source].exposedCommunication);
    const AddedRankTimes& added = result.addedRanks;
    if (!added.empty()) {
        const std::vector<RankBreakdown> own = addedRanksBreakdown(graph, result);
        for (std::size_t a = 0; a < added.count() && a < own.size(); ++a)
            if (added.setupIndex[a] < exposed.size())
                exposed[added.setupIndex[a]] = own[a].exposedCommunication;
    }
    return summarize(exposed);
}

} // namespace sl
