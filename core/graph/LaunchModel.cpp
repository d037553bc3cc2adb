// Launch edges (latency per API), and cross-stream dependencies inferred from timing.
#include "graph/GraphBuilder.h"
#include "trace/RuntimeApi.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl::graph_build {

namespace {

// How an op reaches its stream: the GPU leaves a different back-to-back gap after each.
enum class LaunchPath : std::uint8_t { Kernel, GraphKernel, Memcpy, Memset, Count };

LaunchPath launchPath(const ExecutionGraph& g, NodeId op, NodeId call) {
    const auto& node = g.nodes[op];
    EventKind k = g.rankOf(op).tracks[node.event.track].events.kind[node.event.index];
    if (k == EventKind::GpuMemcpy) return LaunchPath::Memcpy;
    if (k == EventKind::GpuMemset) return LaunchPath::Memset;
    if (call != kNoNode && runtimeApi(g.nodeName(call)) == RuntimeApi::GraphLaunch)
        return LaunchPath::GraphKernel;
    return LaunchPath::Kernel;
}

// The launch API key of a latency: copies and sets get one per kind ("Memcpy HtoD (Pageable ->
// Device)" is staged by the driver and starts much later after its call than a pinned copy or a
// device-to-host copy), kernels one per API.
std::string latencyKey(const ExecutionGraph& g, NodeId op, NodeId call) {
    std::string key(g.nodeName(call));
    const auto& node = g.nodes[op];
    if (g.rankOf(op).tracks[node.event.track].events.kind[node.event.index] != EventKind::Kernel)
        key += " / " + std::string(g.nodeName(op));
    return key;
}

constexpr TimeNs kMaxBackToBackGap = 50'000; // longer gaps were held by something else
constexpr TimeNs kDefaultCrossStreamWindow = 20'000;
constexpr TimeNs kMinUnexplainedGpuWait = 50'000;

} // namespace

void Builder::launchEdgesAndInference() {
    const std::size_t rankCount = set.ranks.size();
    // Launch latency per rank (and per launch API): launch call start -> GPU op start, over
    // ops launched onto an idle stream with no pending known dependency (the GPU could start
    // the op as soon as the launch reached it). The median is robust against waits that the
    // trace does not name.
    std::vector<std::vector<TimeNs>> lat(rankCount);
    std::vector<std::map<std::string, std::vector<TimeNs>>> latByApi(rankCount);
    std::vector<std::map<std::string, std::vector<TimeNs>>> callDurByApi(rankCount);
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        NodeId call = launchOf[n];
        if (call == kNoNode) continue;
        callDurByApi[g.nodes[n].rank][std::string(g.nodeName(call))].push_back(mEnd(call) - mStart(call));
        TimeNs l = effStart[n] - mStart(call);
        if (l < 0 || explained[n] > mStart(call)) continue;
        lat[g.nodes[n].rank].push_back(l);
        latByApi[g.nodes[n].rank][latencyKey(g, n, call)].push_back(l);
    }
    std::vector<std::map<std::string, TimeNs>> apiLatency(rankCount), apiCallDur(rankCount);
    for (std::size_t r = 0; r < rankCount; ++r) {
        g.ranks[r].typicalLaunchLatency = quantile(lat[r], 0.5);
        g.ranks[r].launchLatencySamples = static_cast<std::int64_t>(lat[r].size());
        for (auto& [api, v] : latByApi[r]) {
            if (v.size() < 8) continue; // too few: the rank-wide value
            TimeNs q = quantile(v, 0.5);
            apiLatency[r][api] = q;
            g.ranks[r].launchLatencyByApi.push_back({api, q});
        }
        for (auto& [api, v] : callDurByApi[r])
            apiCallDur[r][api] = quantile(v, 0.5);
    }
    auto latencyOf = [&](NodeId op, NodeId call) {
        const auto& m = apiLatency[g.nodes[call].rank];
        auto it = m.find(latencyKey(g, op, call));
        if (it == m.end()) it = m.find(std::string(g.nodeName(call)));
        return it != m.end() ? it->second : g.ranks[g.nodes[call].rank].typicalLaunchLatency;
    };
    // A launch call far longer than its API's median (the first cuDNN launch loads modules for
    // seconds) delays its op by the excess: the op is queued near the call's return. Only where the
    // op indeed started late in the call or after it.
    auto excessOf = [&](NodeId op, NodeId call) -> TimeNs {
        // A blocking copy (hipMemcpyWithStream, cudaMemcpy) is long because it waits for the GPU
        // work queued before its copy: a host sync, not a slow launch (its wait is simulated).
        if (g.nodes[call].kind == NodeKind::SyncCall) return 0;
        const auto& m = apiCallDur[g.nodes[call].rank];
        auto it = m.find(std::string(g.nodeName(call)));
        if (it == m.end()) return 0;
        const TimeNs excess = std::max<TimeNs>(0, (mEnd(call) - mStart(call)) - it->second);
        // The op's start must agree with the excess model (a call that is merely slow while the
        // GPU already runs its op is not a long launch).
        const TimeNs slack = std::max<TimeNs>(opt.tolerance, excess / 10);
        return effStart[op] - mStart(call) + slack >= latencyOf(op, call) + excess ? excess : 0;
    };

    // Back-to-back gap per stream and launch path: the time the GPU leaves between an op and the
    // next one that was already queued behind it (launched early enough, nothing else pending).
    std::vector<std::array<TimeNs, static_cast<int>(LaunchPath::Count)>> streamGap(g.processors.size());
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
        const auto& p = g.processors[pi];
        streamGap[pi].fill(0);
        if (!p.gpu) continue;
        std::array<std::vector<TimeNs>, static_cast<int>(LaunchPath::Count)> samples;
        for (std::size_t k = 1; k < p.nodes.size(); ++k) {
            NodeId n = p.nodes[k], prev = p.nodes[k - 1];
            NodeId call = launchOf[n];
            if (call == kNoNode) continue;
            const TimeNs prevEnd = mEnd(prev);
            if (mStart(call) + latencyOf(n, call) + excessOf(n, call) > prevEnd) continue; // not queued
            if (explained[n] > prevEnd) continue; // something else was pending
            TimeNs gap = effStart[n] - prevEnd;
            if (gap < 0 || gap > kMaxBackToBackGap) continue;
            samples[static_cast<int>(launchPath(g, n, call))].push_back(gap);
        }
        for (std::size_t i = 0; i < samples.size(); ++i)
            streamGap[pi][i] = samples[i].size() >= 4 ? quantile(samples[i], 0.5) : 0;
    }
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
        const auto& p = g.processors[pi];
        if (!p.gpu) continue;
        for (std::size_t k = 1; k < p.nodes.size(); ++k) {
            NodeId n = p.nodes[k];
            EdgeId id = streamIn[n];
            if (id == kNoEdge) continue;
            TimeNs gap = streamGap[pi][static_cast<int>(launchPath(g, n, launchOf[n]))];
            // An op queued before the window behind the previous one (Processors.cpp) keeps its own
            // measured back-to-back gap: its launch path is unknown, the gap is what the GPU took.
            const TimeNs measuredGap = effStart[n] - mEnd(p.nodes[k - 1]);
            if (g.nodes[n].prewindow && measuredGap >= 0 && measuredGap <= kQueuedGap) gap = measuredGap;
            g.edges[id].delay = gap;
            explained[n] = std::max(explained[n], mEnd(p.nodes[k - 1]) + gap);
        }
    }

    // Cross-stream inference window per rank, calibrated on the waits whose source is known:
    // the GPU takes a few to tens of microseconds to start a waiting op after the event fires.
    std::vector<std::vector<TimeNs>> knownGaps(rankCount);
    for (EdgeId id : crossEdges) {
        const auto& e = g.edges[id];
        TimeNs gap = effStart[e.to] - mEnd(e.from);
        if (gap >= 0 && gap <= kMaxBackToBackGap) knownGaps[g.nodes[e.to].rank].push_back(gap);
    }
    for (std::size_t r = 0; r < rankCount; ++r)
        g.ranks[r].crossStreamTolerance =
            knownGaps[r].size() >= 4
                ? std::clamp<TimeNs>(3 * quantile(knownGaps[r], 0.75), opt.tolerance, kMaxBackToBackGap)
                : std::max(opt.tolerance, kDefaultCrossStreamWindow);

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
        const TimeNs window = g.ranks[p.rank].crossStreamTolerance;
        const std::int64_t device = set.ranks[p.rank].tracks[p.track].device();
        for (std::size_t k = 0; k < p.nodes.size(); ++k) {
            NodeId n = p.nodes[k];
            TimeNs s = effStart[n];
            NodeId call = launchOf[n];
            TimeNs latency = call != kNoNode ? latencyOf(n, call) : 0;
            TimeNs excess = call != kNoNode ? excessOf(n, call) : 0;
            TimeNs launchReady =
                call != kNoNode ? mStart(call) + latency + excess : std::numeric_limits<TimeNs>::min();
            TimeNs known = std::max(explained[n], launchReady);
            bool followsOtherStream = false;
            // Inferred cross-stream dependency: the op started later than its known
            // dependencies explain, right after an op on another stream of the same device
            // ended. The edge carries the rank's cross-stream delay, not this gap.
            if (opt.inferCrossStream && !hasIdentityCross[n] && s > known + opt.tolerance) {
                const auto& v = byEnd[{p.rank, device}];
                auto it = std::upper_bound(v.begin(), v.end(), std::make_pair(s, kNoNode));
                for (int steps = 0; steps < 16 && it != v.begin(); ++steps) {
                    --it;
                    if (it->first < s - window || it->first <= known) break;
                    if (g.nodes[it->second].processor == g.nodes[n].processor) continue;
                    addEdge(it->second, n, EdgeKind::CrossStream, 0, true);
                    crossEdges.push_back(static_cast<EdgeId>(g.edges.size() - 1));
                    g.stats.inferredCrossStream++;
                    explained[n] = std::max(explained[n], it->first);
                    followsOtherStream = true;
                    break;
                }
            }
            // A queue head launched before the window that started right after an op on another
            // stream of its device ended was held by it: it follows that op (the edge just
            // inferred) instead of keeping its measured start; only a head after an idle GPU does.
            if (followsOtherStream && queueHead[n]) followPrewindowHead(n, true);
            // A copy to pageable memory (host to device) starts once the driver has staged the
            // data on the CPU, inside the call: that staging is CPU work of the call. Only host to
            // device: a copy to pageable memory (DtoH) that starts late in its call waited for the
            // GPU work before it (the call is a host sync), not for staging.
            TimeNs staging = 0;
            if (call != kNoNode) {
                const std::string_view opName = g.nodeName(n);
                if (excess == 0 && s < mEnd(call) && opName.find("Pageable") != std::string_view::npos &&
                    opName.find("HtoD") != std::string_view::npos)
                    staging = std::max<TimeNs>(0, s - mStart(call) - latency);
                launchReady += staging;
            }
            // Still far later than every dependency found: the op waited on the device for
            // something the file does not name (a device-to-host copy that reads another stream's
            // result, an event recorded where the profiler does not see, events sampled out).
            TimeNs unexplained = 0;
            const TimeNs knownNow = std::max(explained[n], launchReady);
            if (k > 0 || call != kNoNode) {
                if (s - knownNow > std::max<TimeNs>(kMinUnexplainedGpuWait, 2 * window))
                    unexplained = s - knownNow;
            }
            // It depends on the op of another stream of the device that ended last before it
            // started, after everything else it waits for, however long before; the rest of the
            // wait is a measured residual on that edge (GraphEdge::wait). So the op moves when the
            // device's work moves, and only the residual stays fixed.
            if (unexplained > 0 && opt.inferCrossStream) {
                const auto& v = byEnd[{p.rank, device}];
                auto it = std::upper_bound(v.begin(), v.end(), std::make_pair(s, kNoNode));
                for (int steps = 0; steps < 64 && it != v.begin(); ++steps) {
                    --it;
                    if (it->first <= knownNow) break;
                    if (g.nodes[it->second].processor == g.nodes[n].processor) continue;
                    const EdgeId id = addEdge(it->second, n, EdgeKind::CrossStream, 0, true);
                    g.edges[id].wait = s - it->first;
                    g.stats.inferredCrossStream++;
                    g.stats.deviceWaitEdges++;
                    g.ranks[p.rank].deviceWaits++;
                    g.ranks[p.rank].unexplainedGpuWait += g.edges[id].wait;
                    explained[n] = std::max(explained[n], it->first);
                    unexplained = 0; // the launch carries its latency only
                    break;
                }
            }
            // No other stream ended in that time: the op follows the later of its launch and its
            // stream predecessor (the device's most recent op) plus the residual, which both edges
            // carry, so it moves with the GPU and with the host.
            g.ranks[p.rank].unexplainedGpuWait += unexplained;
            if (unexplained > 0 && streamIn[n] != kNoEdge) {
                GraphEdge& e = g.edges[streamIn[n]];
                e.delay += unexplained;
                e.wait += unexplained;
                g.stats.deviceWaitEdges++;
                g.ranks[p.rank].deviceWaits++;
            }
            if (call != kNoNode) {
                if (s < mStart(call)) g.stats.repairedLaunches++;
                // The stream's first op: the residual stays on its launch (nothing else precedes
                // it on the device), as it does alongside the stream edge.
                const TimeNs delay = latency + excess + staging + unexplained;
                EdgeId id = addEdge(call, n, EdgeKind::Launch, delay);
                g.edges[id].cpuWork = excess + staging;
                g.edges[id].wait = unexplained;
            } else if (k == 0 && !g.nodes[n].prewindow) {
                // The stream's first op has no launch in the trace: the stream starts working at
                // its measured start (a boundary condition, like a pre-window op).
                g.nodes[n].release = std::max<TimeNs>(0, s - origin);
            }
            // Other ops without a launch follow their stream predecessor.
        }
    }
    // One cross-stream delay per rank: the median gap between a cross-stream source's end and
    // the waiting op's start (the GPU-side cost of an event wait), over gaps within the rank's
    // window (longer ones were held by something else).
    // Only waits that held the op back count: where the op's launch came later than the event, the
    // gap measures the host, not the GPU's wait.
    std::vector<std::vector<TimeNs>> gaps(rankCount);
    for (EdgeId id : crossEdges) {
        const auto& e = g.edges[id];
        TimeNs gap = effStart[e.to] - mEnd(e.from);
        NodeId call = launchOf[e.to];
        if (call != kNoNode && mStart(call) + latencyOf(e.to, call) > mEnd(e.from)) continue;
        if (gap >= 0 && gap <= g.ranks[g.nodes[e.to].rank].crossStreamTolerance)
            gaps[g.nodes[e.to].rank].push_back(gap);
    }
    for (std::size_t r = 0; r < rankCount; ++r)
        g.ranks[r].crossStreamDelay = quantile(gaps[r], 0.5);
    for (auto& e : g.edges)
        if (e.kind == EdgeKind::CrossStream) e.delay = g.ranks[g.nodes[e.to].rank].crossStreamDelay + e.wait;
}

} // namespace sl::graph_build
