#include "analysis/CriticalPath.h"

#include <algorithm>
#include <unordered_map>

namespace sl {

std::string_view pathLabelName(PathLabel l) {
    switch (l) {
    case PathLabel::GpuCompute:
        return "gpu_compute";
    case PathLabel::GpuComm:
        return "gpu_comm";
    case PathLabel::CollectiveWait:
        return "collective_wait";
    case PathLabel::Cpu:
        return "cpu";
    case PathLabel::LaunchLatency:
        return "launch_latency";
    case PathLabel::Sync:
        return "sync";
    case PathLabel::Idle:
        return "idle";
    case PathLabel::LateStart:
        return "late_start";
    case PathLabel::UnexplainedWait:
        return "unexplained_wait";
    case PathLabel::Count:
        break;
    }
    return "unknown";
}

namespace {

PathLabel nodeLabel(const ExecutionGraph& g, NodeId n) {
    switch (g.nodes[n].kind) {
    case NodeKind::CpuCall:
        return PathLabel::Cpu;
    case NodeKind::SyncCall:
        return PathLabel::Sync;
    case NodeKind::Collective:
        return PathLabel::GpuComm;
    case NodeKind::GpuOp:
        return isCommunicationKernelName(g.nodeName(n)) ? PathLabel::GpuComm : PathLabel::GpuCompute;
    }
    return PathLabel::Idle;
}

PathLabel gapLabel(EdgeKind k) {
    switch (k) {
    case EdgeKind::ThreadOrder:
    case EdgeKind::ThreadStart:
        return PathLabel::Cpu;
    case EdgeKind::Launch:
        return PathLabel::LaunchLatency;
    case EdgeKind::Sync:
        return PathLabel::Sync;
    case EdgeKind::Collective:
        return PathLabel::CollectiveWait;
    default:
        return PathLabel::Idle;
    }
}

} // namespace

CriticalPath criticalPath(const ExecutionGraph& g, const SimResult& r, std::size_t topCount) {
    return criticalPathFrom(g, r, r.lastNode, topCount);
}

std::vector<PathNameShare> criticalPathByName(const ExecutionGraph& g, const CriticalPath& cp) {
    struct Acc {
        std::array<TimeNs, kPathLabelCount> byLabel{};
        std::int64_t segments = 0;
    };
    std::unordered_map<std::string_view, Acc> acc;
    for (const auto& s : cp.segments) {
        Acc& a = acc[g.nodeName(s.node)];
        a.byLabel[static_cast<std::size_t>(s.label)] += s.end - s.start;
        ++a.segments;
    }
    std::vector<PathNameShare> out;
    out.reserve(acc.size());
    for (const auto& [name, a] : acc) {
        PathNameShare share;
        share.name = std::string(name);
        share.segments = a.segments;
        std::size_t best = 0;
        for (std::size_t l = 0; l < a.byLabel.size(); ++l) {
            share.time += a.byLabel[l];
            if (a.byLabel[l] > a.byLabel[best]) best = l;
        }
        share.label = static_cast<PathLabel>(best);
        out.push_back(std::move(share));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.time != b.time ? a.time > b.time : a.name < b.name;
    });
    return out;
}

NodeId lastNodeOfRank(const ExecutionGraph& g, const SimResult& r, std::uint32_t rank) {
    NodeId best = kNoNode;
    if (r.nodes.size() != g.nodes.size()) return best;
    for (NodeId n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].rank == rank && r.nodes[n].end >= 0 &&
            (best == kNoNode || r.nodes[n].end > r.nodes[best].end))
            best = n;
    return best;
}

CriticalPath criticalPathFrom(const ExecutionGraph& g, const SimResult& r, NodeId end, std::size_t topCount) {
    CriticalPath cp;
    if (end == kNoNode || end >= g.nodes.size() || r.nodes.size() != g.nodes.size()) return cp;
    auto add = [&](NodeId n, EdgeId e, TimeNs s, TimeNs t, PathLabel l) {
        if (t <= s) return;
        cp.segments.push_back({n, e, s, t, l});
    };
    NodeId cur = end;
    bool atStart = false;
    // Each step moves strictly back along a DAG, so the walk ends; the bound is a safety net.
    for (std::size_t steps = 0; steps < 4 * g.nodes.size() + 4 && cur != kNoNode; ++steps) {
        const NodeTiming& nt = r.nodes[cur];
        if (!atStart) {
            EdgeId e = nt.endBoundBy;
            if (e == kPhantomPeers) { // held by peers outside the rank set: wait, then transfer
                TimeNs arrival = std::clamp(g.ranks[g.nodes[cur].rank].origin + g.nodes[cur].phantomArrival,
                                            nt.start, nt.end);
                add(cur, kNoEdge, arrival, nt.end, nodeLabel(g, cur));
                add(cur, kNoEdge, nt.start, arrival, PathLabel::CollectiveWait);
                atStart = true;
                continue;
            }
            if (e != kNoEdge) { // the end was held by a wait: own time after the release, then cross
                const GraphEdge& edge = r.edge(g, e);
                const NodeTiming& from = r.nodes[edge.from];
                TimeNs trig = edge.triggeredByStart() ? from.start : from.end;
                add(cur, kNoEdge, std::max(nt.start, trig), nt.end, nodeLabel(g, cur));
                if (trig < nt.start) { // released before the node even started: continue at start
                    atStart = true;
                    continue;
                }
                cur = edge.from;
                atStart = edge.triggeredByStart();
                continue;
            }
            add(cur, kNoEdge, nt.start, nt.end, nodeLabel(g, cur));
            atStart = true;
            continue;
        }
        EdgeId e = nt.startBoundBy;
        if (e == kNoEdge) { // the node's own release time: a boundary condition (the rank's root,
                            // a pre-window op): the time before it is the rank starting late
            TimeNs origin = g.ranks[g.nodes[cur].rank].origin;
            add(cur, kNoEdge, std::min(origin, nt.start), nt.start, PathLabel::LateStart);
            break;
        }
        const GraphEdge& edge = r.edge(g, e);
        const NodeTiming& from = r.nodes[edge.from];
        TimeNs trig = edge.triggeredByStart() ? from.start : from.end;
        if ((edge.kind == EdgeKind::ThreadOrder || edge.kind == EdgeKind::ThreadStart) && edge.delay > 0 &&
            edge.cpuWork < edge.delay && nt.start > trig) {
            // The gap holds CPU work and an unexplained wait; the wait is a fixed part of the delay
            // (docs/ARCHITECTURE.md, "CPU gaps"), shown last.
            TimeNs wait = std::min(nt.start - trig, edge.delay - edge.cpuWork);
            add(cur, e, nt.start - wait, nt.start, PathLabel::UnexplainedWait);
            add(cur, e, trig, nt.start - wait, PathLabel::Cpu);
        } else {
            add(cur, e, trig, nt.start, gapLabel(edge.kind));
        }
        cur = edge.from;
        atStart = edge.triggeredByStart();
    }
    std::reverse(cp.segments.begin(), cp.segments.end());
    std::unordered_map<NodeId, TimeNs> perNode;
    for (const auto& s : cp.segments) {
        cp.length += s.end - s.start;
        cp.byLabel[static_cast<int>(s.label)] += s.end - s.start;
        if (s.edge == kNoEdge) perNode[s.node] += s.end - s.start;
    }
    cp.topNodes.assign(perNode.begin(), perNode.end());
    std::sort(cp.topNodes.begin(), cp.topNodes.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (cp.topNodes.size() > topCount) cp.topNodes.resize(topCount);
    return cp;
}

} // namespace sl
