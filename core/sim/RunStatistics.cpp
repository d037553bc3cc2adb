#include "sim/RunStatistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sl {

void summarizeRanks(const ExecutionGraph& g, const SimulatedSetup& setup, SimResult& res) {
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
    std::vector<Span> mAll(set.ranks.size()), sAll(set.ranks.size()), mGpu(set.ranks.size()),
        sGpu(set.ranks.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto& node = g.nodes[i];
        const auto& nt = res.nodes[i];
        const TimeNs ms = g.measuredStart(static_cast<NodeId>(i)), me = g.measuredEnd(static_cast<NodeId>(i));
        mAll[node.rank].add(ms, me);
        if (nt.start >= 0) sAll[node.rank].add(nt.start, nt.end);
        if (node.kind == NodeKind::GpuOp || node.kind == NodeKind::Collective) {
            mGpu[node.rank].add(ms, me);
            if (nt.start >= 0) sGpu[node.rank].add(nt.start, nt.end);
        }
    }
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        auto& s = res.ranks[r];
        s.rank = set.ranks[r].rank;
        s.measuredStart = mAll[r].a();
        s.measuredEnd = mAll[r].b();
        s.simulatedStart = sAll[r].a();
        s.simulatedEnd = sAll[r].b();
        s.measuredGpuStart = mGpu[r].a();
        s.measuredGpuEnd = mGpu[r].b();
        s.simulatedGpuStart = sGpu[r].a();
        s.simulatedGpuEnd = sGpu[r].b();
        res.measuredIteration = std::max(res.measuredIteration, s.measured());
        if (!setup.isDropped(r)) res.simulatedIteration = std::max(res.simulatedIteration, s.simulated());
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

StartErrorStats kernelStartError(const ExecutionGraph& g, const SimResult& res) {
    StartErrorStats stats;
    const std::size_t n = g.nodes.size();
    std::vector<double> errs, pcts;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& node = g.nodes[i];
        if (node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective) continue;
        if (res.nodes[i].start < 0 || node.prewindow) continue;
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
