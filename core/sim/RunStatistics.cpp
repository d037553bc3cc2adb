#include "sim/RunStatistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace sl {

void summarizeRanks(const ExecutionGraph& g, const SimulatedSetup& setup, SimResult& res,
                    const std::vector<std::uint8_t>* laneOf, std::size_t lanes) {
    // Per-rank iteration: first start to last end of the modelled nodes, measured and simulated
    // alike (events the graph does not model never pin it); the GPU span likewise over GPU ops.
    const std::size_t n = g.nodes.size();
    AddedRankTimes& added = res.addedRanks;
    const auto& set = *g.trace;
    res.ranks.resize(set.ranks.size());
    constexpr TimeNs kLo = std::numeric_limits<TimeNs>::max(), kHi = std::numeric_limits<TimeNs>::min();
    struct Span {
        TimeNs lo = kLo, hi = kHi;
        void add(TimeNs s, TimeNs e) {
            lo = std::min(lo, s);
            hi = std::max(hi, e);
        }
        TimeNs a() const { return lo > hi ? 0 : lo; }
        TimeNs b() const { return lo > hi ? 0 : hi; }
    };
    // Simulated spans per (rank, lane): a column's stages are ranks of the job.
    std::vector<Span> mAll(set.ranks.size()), sAll(set.ranks.size() * lanes), mGpu(set.ranks.size()),
        sGpu(set.ranks.size() * lanes);
    for (std::size_t i = 0; i < n; ++i) {
        const auto& node = g.nodes[i];
        const auto& nt = res.nodes[i];
        const std::size_t at = node.rank * lanes + (laneOf ? (*laneOf)[i] : 0);
        const TimeNs ms = g.measuredStart(static_cast<NodeId>(i)), me = g.measuredEnd(static_cast<NodeId>(i));
        mAll[node.rank].add(ms, me);
        if (nt.start >= 0) sAll[at].add(nt.start, nt.end);
        if (node.kind == NodeKind::GpuOp || node.kind == NodeKind::Collective) {
            mGpu[node.rank].add(ms, me);
            if (nt.start >= 0) sGpu[at].add(nt.start, nt.end);
        }
    }
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        auto& s = res.ranks[r];
        s.rank = set.ranks[r].rank;
        s.measuredStart = mAll[r].a();
        s.measuredEnd = mAll[r].b();
        s.simulatedStart = sAll[r * lanes].a();
        s.simulatedEnd = sAll[r * lanes].b();
        s.measuredGpuStart = mGpu[r].a();
        s.measuredGpuEnd = mGpu[r].b();
        s.simulatedGpuStart = sGpu[r * lanes].a();
        s.simulatedGpuEnd = sGpu[r * lanes].b();
        res.measuredIteration = std::max(res.measuredIteration, s.measured());
        if (!setup.isDropped(r)) res.simulatedIteration = std::max(res.simulatedIteration, s.simulated());
    }
    if (lanes > 1) {
        res.laneSummary.assign(set.ranks.size() * lanes, RankSimSummary{});
        for (std::uint32_t r = 0; r < set.ranks.size(); ++r)
            for (std::size_t j = 1; j < lanes; ++j) {
                RankSimSummary s = res.ranks[r];
                s.simulatedStart = sAll[r * lanes + j].a();
                s.simulatedEnd = sAll[r * lanes + j].b();
                s.simulatedGpuStart = sGpu[r * lanes + j].a();
                s.simulatedGpuEnd = sGpu[r * lanes + j].b();
                res.laneSummary[r * lanes + j] = s;
                if (!setup.isDropped(r))
                    res.simulatedIteration = std::max(res.simulatedIteration, s.simulated());
            }
        // Each stage's id: the setup entry at the loaded rank's own (data, tensor) place.
        std::vector<std::pair<int, int>> place(set.ranks.size(), {-1, -1});
        for (const SimulatedRank& sr : setup.ranks)
            if (sr.measured && sr.source < set.ranks.size()) place[sr.source] = {sr.dp, sr.tp};
        for (const SimulatedRank& sr : setup.ranks)
            if (sr.lane > 0 && sr.source < set.ranks.size() && place[sr.source] == std::pair{sr.dp, sr.tp})
                res.laneSummary[sr.source * lanes + static_cast<std::size_t>(sr.lane)].rank = sr.rank;
    }
    // The added ranks: their own simulated spans; the measured ones are their source's.
    added.summary.resize(added.count());
    for (std::size_t a = 0; a < added.count(); ++a) {
        const auto& nodesOfSource = added.rankNodes[added.source[a]];
        Span all, gpu;
        for (std::size_t k = 0; k < nodesOfSource.size(); ++k) {
            const std::size_t s = added.offset[a] + k;
            if (added.start[s] < 0) continue;
            all.add(added.start[s], added.end[s]);
            const NodeKind kind = g.nodes[nodesOfSource[k]].kind;
            if (kind == NodeKind::GpuOp || kind == NodeKind::Collective)
                gpu.add(added.start[s], added.end[s]);
        }
        RankSimSummary s = res.ranks[added.source[a]];
        s.rank = added.rankId[a];
        s.simulatedStart = all.a();
        s.simulatedEnd = all.b();
        s.simulatedGpuStart = gpu.a();
        s.simulatedGpuEnd = gpu.b();
        added.summary[a] = s;
        res.simulatedIteration = std::max(res.simulatedIteration, s.simulated());
    }
}

StartErrorStats kernelStartError(const ExecutionGraph& g, const SimResult& res,
                                 const std::vector<std::uint8_t>* laneOf) {
    StartErrorStats stats;
    const std::size_t n = g.nodes.size();
    std::vector<double> errs, pcts;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& node = g.nodes[i];
        if (node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective) continue;
        if (res.nodes[i].start < 0 || node.prewindow || (laneOf && (*laneOf)[i] > 0)) continue;
        double e =
            std::abs(static_cast<double>(res.nodes[i].start - g.measuredStart(static_cast<NodeId>(i))));
        errs.push_back(e / 1000.0);
        TimeNs iter = res.ranks[node.rank].measured();
        pcts.push_back(iter > 0 ? 100.0 * e / static_cast<double>(iter) : 0.0);
    }
    stats.count = static_cast<std::int64_t>(errs.size());
    if (!errs.empty()) {
        auto at = [](std::vector<double>& v, double q) {
            auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
            return v[k];
        };
        stats.medianUs = at(errs, 0.5);
        stats.p90Us = at(errs, 0.9);
        stats.maxUs = *std::max_element(errs.begin(), errs.end());
        stats.medianPct = at(pcts, 0.5);
        stats.p90Pct = at(pcts, 0.9);
        stats.within1PctShare =
            static_cast<double>(std::count_if(pcts.begin(), pcts.end(), [](double v) { return v <= 1.0; })) /
            static_cast<double>(pcts.size());
    }
    return stats;
}

} // namespace sl
