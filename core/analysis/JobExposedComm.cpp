#include "analysis/JobExposedComm.h"

#include "sim/Simulator.h"

#include <algorithm>

namespace sl {

JobExposedComm jobExposedComm(const std::vector<RankBreakdown>& breakdown, const SimulatedSetup& setup) {
    JobExposedComm out;
    double sum = 0;
    for (const SimulatedRank& r : setup.ranks) {
        const TimeNs exposed = breakdown[r.source].exposedCommunication;
        sum += static_cast<double>(exposed);
        out.maxNs = std::max(out.maxNs, exposed);
    }
    out.ranks = setup.ranks.size();
    out.meanNs = out.ranks == 0 ? 0 : sum / static_cast<double>(out.ranks);
    return out;
}

JobExposedComm jobExposedComm(const TraceSet& set, const SimResult& result) {
    return jobExposedComm(simulatedBreakdown(set, result.timeline), result.setup);
}

} // namespace sl
