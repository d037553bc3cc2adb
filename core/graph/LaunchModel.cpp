// Launch edges (latency per API), and cross-stream dependencies inferred from timing.
#include "graph/GraphBuilder.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl::graph_build {

void Builder::launchEdgesAndInference() {
    // Launch latency per rank (and per launch API): launch call start -> GPU op start, over
    // ops launched onto an idle stream with no pending known dependency (the GPU could start
    // the op as soon as the launch reached it). The median is robust against waits that the
    // trace does not name.
    std::vector<std::vector<TimeNs>> lat(set.ranks.size());
    std::vector<std::map<std::string, std::vector<TimeNs>>> latByApi(set.ranks.size());
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        NodeId call = launchOf[n];
        if (call == kNoNode) continue;
        TimeNs l = effStart[n] - mStart(call);
        if (l < 0 || explained[n] > mStart(call)) continue;
        lat[g.nodes[n].rank].push_back(l);
        latByApi[g.nodes[n].rank][std::string(g.nodeName(call))].push_back(l);
    }
    std::vector<std::map<std::string, TimeNs>> apiLatency(set.ranks.size());
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        g.ranks[r].typicalLaunchLatency = quantile(lat[r], 0.5);
        g.ranks[r].launchLatencySamples = static_cast<std::int64_t>(lat[r].size());
        for (auto& [api, v] : latByApi[r]) {
            if (v.size() < 8) continue; // too few: the rank-wide value
            TimeNs q = quantile(v, 0.5);
            apiLatency[r][api] = q;
            g.ranks[r].launchLatencyByApi.push_back({api, q});
        }
    }
    auto latencyOf = [&](NodeId call) {
        const auto& m = apiLatency[g.nodes[call].rank];
        auto it = m.find(std::string(g.nodeName(call)));
        return it != m.end() ? it->second : g.ranks[g.nodes[call].rank].typicalLaunchLatency;
    };

    // Per device: GPU ops sorted by measured end, for cross-stream inference.
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<std::pair<TimeNs, NodeId>>> byEnd;
    if (opt.inferCrossStream) {
        for (auto& p : g.processors) {
            if (!p.gpu) continue;
            auto& v = byEnd[{p.rank, set.ranks[p.rank].tracks[p.track].device()}];
            for (NodeId n : p.nodes)
                v.push_back({mEnd(n), n});
        }
        for (auto& [k, v] : byEnd)
            std::sort(v.begin(), v.end());
    }

    for (auto& p : g.processors) {
        if (!p.gpu) continue;
        const TimeNs origin = g.ranks[p.rank].origin;
        const std::int64_t device = set.ranks[p.rank].tracks[p.track].device();
        for (std::size_t k = 0; k < p.nodes.size(); ++k) {
            NodeId n = p.nodes[k];
            TimeNs s = effStart[n];
            NodeId call = launchOf[n];
            TimeNs latency = call != kNoNode ? latencyOf(call) : 0;
            TimeNs launchReady =
                call != kNoNode ? mStart(call) + latency : std::numeric_limits<TimeNs>::min();
            TimeNs known = std::max(explained[n], launchReady);
            // Inferred cross-stream dependency: the op started later than its known
            // dependencies explain, right after an op on another stream of the same device
            // ended. The edge carries the rank's cross-stream delay, not this gap.
            if (opt.inferCrossStream && !hasIdentityCross[n] && s > known + opt.tolerance) {
                const auto& v = byEnd[{p.rank, device}];
                auto it = std::upper_bound(v.begin(), v.end(), std::make_pair(s, kNoNode));
                for (int steps = 0; steps < 8 && it != v.begin(); ++steps) {
                    --it;
                    if (it->first < s - opt.tolerance || it->first <= known) break;
                    if (g.nodes[it->second].processor == g.nodes[n].processor) continue;
                    addEdge(it->second, n, EdgeKind::CrossStream, 0, true);
                    crossEdges.push_back(static_cast<EdgeId>(g.edges.size() - 1));
                    g.stats.inferredCrossStream++;
                    explained[n] = std::max(explained[n], it->first);
                    break;
                }
            }
            if (call != kNoNode) {
                if (s < mStart(call)) g.stats.repairedLaunches++;
                addEdge(call, n, EdgeKind::Launch, latency);
            } else if (k == 0) {
                // The stream's first op has no launch in the trace (launched before the
                // window): the stream starts working at its measured start, like a thread.
                g.nodes[n].release = std::max<TimeNs>(0, s - origin);
            }
            // Other ops without a launch follow their stream predecessor (delay 0).
        }
    }
    // One cross-stream delay per rank: the median gap between a cross-stream source's end and
    // the waiting op's start (the GPU-side cost of an event wait), over gaps up to the
    // tolerance (longer ones were held by something else).
    std::vector<std::vector<TimeNs>> gaps(set.ranks.size());
    for (EdgeId id : crossEdges) {
        const auto& e = g.edges[id];
        TimeNs gap = effStart[e.to] - mEnd(e.from);
        if (gap >= 0 && gap <= opt.tolerance) gaps[g.nodes[e.to].rank].push_back(gap);
    }
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        g.ranks[r].crossStreamDelay = quantile(gaps[r], 0.5);
    for (auto& e : g.edges)
        if (e.kind == EdgeKind::CrossStream) e.delay = g.ranks[g.nodes[e.to].rank].crossStreamDelay;
}

} // namespace sl::graph_build
