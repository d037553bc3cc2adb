// Repairs after the build (dropping uncertain edges on a cycle) and the warnings table.
#include "graph/GraphBuilder.h"

#include <cstdio>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl::graph_build {

// Drops inferred and collective edges (a cycle came from them) and restores durations.
void Builder::dropUncertainEdges() {
    std::vector<GraphEdge> kept;
    kept.reserve(g.edges.size());
    std::vector<std::uint8_t> lostThreadStart(g.nodes.size(), 0);
    for (const auto& e : g.edges) {
        if (e.kind == EdgeKind::ThreadStart) lostThreadStart[e.to] = 1;
        if (!(e.kind == EdgeKind::Collective || e.kind == EdgeKind::ThreadStart ||
              (e.kind == EdgeKind::CrossStream && e.inferred)))
            kept.push_back(e);
    }
    g.edges.swap(kept);
    // Threads lose their inferred causes: a thread's first call keeps its measured start, and a
    // wake-up waits its measured gap again on its own thread.
    for (auto& e : g.edges)
        if (e.kind == EdgeKind::ThreadOrder && lostThreadStart[e.to]) e.delay = mStart(e.to) - mEnd(e.from);
    for (const auto& p : g.processors)
        if (!p.gpu && !p.nodes.empty() && lostThreadStart[p.nodes.front()]) {
            const NodeId first = p.nodes.front();
            g.nodes[first].release = std::max<TimeNs>(0, mStart(first) - g.ranks[p.rank].origin);
            g.ranks[p.rank].threadsReleasedAtMeasured++;
        }
    g.stats.threadStartEdges = 0;
    // Queue heads that followed another stream's op keep their measured start again.
    for (NodeId n = 0; n < g.nodes.size(); ++n)
        if (headFollows[n]) followPrewindowHead(n, false);
    for (auto& grp : g.collectives) {
        if (!grp.complete) continue;
        grp.complete = false;
        for (NodeId n : grp.members) {
            g.nodes[n].kind = NodeKind::GpuOp;
            g.nodes[n].duration = std::max<TimeNs>(0, mEnd(n) - effStart[n]);
        }
    }
    g.stats.collectivesUnmatched += g.stats.collectivesMatched;
    g.stats.collectivesMatched = 0;
    g.stats.inferredCrossStream = 0;
}

void Builder::finish() {
    for (const auto& [what, counted] : warnCounts) {
        const auto& [kind, n] = counted;
        g.warnings.add(kind, what + (n > 1 ? " (" + std::to_string(n) + "x)" : ""), n);
    }
    if (g.stats.repairedLaunches)
        g.warnings.add(Warn::LaunchLatencyClamped,
                       std::to_string(g.stats.repairedLaunches) +
                           " GPU ops start before their launch call: launch latency clamped to 0",
                       g.stats.repairedLaunches);
    if (g.stats.repairedOverlaps)
        g.warnings.add(Warn::OverlapSerialized,
                       std::to_string(g.stats.repairedOverlaps) +
                           " overlapping ops on one stream or thread: serialized, keeping their end times",
                       g.stats.repairedOverlaps);
    if (g.stats.gpuOpsWithoutLaunch)
        g.warnings.add(Warn::GpuOpReplayedWithoutLaunch,
                       std::to_string(g.stats.gpuOpsWithoutLaunch) +
                           " GPU ops without a launch call: replayed after their stream predecessor",
                       g.stats.gpuOpsWithoutLaunch);
    // Inferences the replay rests on, once per kind (docs/ARCHITECTURE.md, "Boundary conditions",
    // "Launches and streams").
    if (g.stats.prewindowQueued || g.stats.prewindowFollowing) {
        const std::int64_t all = g.stats.prewindowOps + g.stats.prewindowQueued + g.stats.prewindowFollowing;
        const std::string following = g.stats.prewindowFollowing
                                          ? std::to_string(g.stats.prewindowFollowing) +
                                                " queue heads follow the op of another stream that ended "
                                                "right before them, "
                                          : std::string();
        g.warnings.add(
            Warn::PrewindowQueued,
            std::to_string(all) + " GPU ops were launched before the profiler window: " +
                std::to_string(g.stats.prewindowQueued) + " queued behind another follow their queue, " +
                following + "only the " + std::to_string(g.stats.prewindowOps) + " queue heads" +
                (g.stats.prewindowFollowing ? " after an idle GPU" : "") + " keep their measured start",
            all);
    }
    if (g.stats.deviceWaitEdges) {
        TimeNs residual = 0;
        for (const auto& w : g.ranks)
            residual += w.unexplainedGpuWait;
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.3f", static_cast<double>(residual) / 1e6);
        g.warnings.add(Warn::DeviceWaitInferred,
                       std::to_string(g.stats.deviceWaitEdges) +
                           " GPU ops waited on the device for something the trace does not name: each "
                           "follows the device's last op before it, and the residual (" +
                           ms + " ms in all) is kept as measured",
                       g.stats.deviceWaitEdges);
    }
    for (auto& c : g.stats.edgesByKind)
        c = 0;
    for (const auto& e : g.edges)
        g.stats.edgesByKind[static_cast<int>(e.kind)]++;
}

} // namespace sl::graph_build
