#include "analysis/CriticalPath.h"

#include "graph/CpuCoverage.h"
#include "sim/BlockEdits.h"

#include <algorithm>
#include <cmath>
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
    case EdgeKind::PipelineTransfer: // a stage's activation on its way to the next stage
        return PathLabel::GpuComm;
    default:
        return PathLabel::Idle;
    }
}

// One stretch of a CPU thread's time and the innermost CPU-work op running in it (-1: none).
struct OpPiece {
    TimeNs start = 0, end = 0;
    std::int64_t index = -1;
};

// The innermost CPU-work op (graph/CpuCoverage.h) of a thread track at each time of [a, b), in time
// order, adjacent pieces of one op merged. With properly nested events the ops covering t are the
// last event starting at or before t and its ancestors, so one binary search and a parent walk
// find each piece.
std::vector<OpPiece> innermostOps(const Rank& rank, const Track& track, TimeNs a, TimeNs b) {
    const EventColumns& ev = track.events;
    const bool hasParents = ev.parent.size() == ev.size();
    std::vector<OpPiece> out;
    // The first event starting after t: one binary search, then t only moves up to the next
    // event's start, so the index moves on by a step at a time.
    std::size_t next =
        static_cast<std::size_t>(std::upper_bound(ev.start.begin(), ev.start.end(), a) - ev.start.begin());
    for (TimeNs t = a; t < b;) {
        while (next < ev.size() && ev.start[next] <= t)
            ++next;
        std::int64_t c = static_cast<std::int64_t>(next) - 1;
        while (c >= 0 && !(ev.end(static_cast<std::size_t>(c)) > t &&
                           isCpuWorkEvent(rank, track, static_cast<std::size_t>(c)))) {
            const std::int64_t up = hasParents ? ev.parent[static_cast<std::size_t>(c)] : -1;
            c = up < c ? up : -1; // a parent precedes its child; anything else ends the walk
        }
        TimeNs end = b;
        if (next < ev.size()) end = std::min(end, ev.start[next]);
        if (c >= 0) end = std::min(end, ev.end(static_cast<std::size_t>(c)));
        if (!out.empty() && out.back().index == c && out.back().end == t)
            out.back().end = end;
        else
            out.push_back({t, end, c});
        t = end;
    }
    return out;
}

} // namespace

std::string_view pathSegmentName(const ExecutionGraph& g, const PathSegment& s) {
    if (s.label == PathLabel::UnexplainedWait) return pathLabelName(s.label);
    if (s.op.valid()) return g.rankOf(s.node).name(s.op);
    if (s.label == PathLabel::LateStart) return pathLabelName(s.label);
    return g.nodeName(s.node);
}

EmbeddingWork pathSegmentWork(const ExecutionGraph& g, const PathSegment& s) {
    if (s.node == kNoNode || s.node >= g.nodes.size()) return EmbeddingWork::None;
    if (s.label != PathLabel::GpuCompute && s.label != PathLabel::GpuComm &&
        s.label != PathLabel::CollectiveWait)
        return EmbeddingWork::None;
    const GraphNode& n = g.nodes[s.node];
    if (n.kind != NodeKind::GpuOp && n.kind != NodeKind::Collective) return EmbeddingWork::None;
    return embeddingWorkOf(g.rankOf(s.node), n.event);
}

CriticalPath criticalPath(const ExecutionGraph& g, const SimResult& r, std::size_t topCount) {
    return criticalPathFrom(g, r, r.last(), topCount);
}

std::vector<PathNameShare> criticalPathByName(const ExecutionGraph& g, const CriticalPath& cp) {
    struct Acc {
        std::array<TimeNs, kPathLabelCount> byLabel{};
        std::int64_t segments = 0;
    };
    struct Key {
        std::string_view name;
        EmbeddingWork work;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::string_view>{}(k.name) * 3 + static_cast<std::size_t>(k.work);
        }
    };
    std::unordered_map<Key, Acc, KeyHash> acc;
    for (const auto& s : cp.segments) {
        Acc& a = acc[Key{pathSegmentName(g, s), pathSegmentWork(g, s)}];
        a.byLabel[static_cast<std::size_t>(s.label)] += s.end - s.start;
        ++a.segments;
    }
    std::vector<PathNameShare> out;
    out.reserve(acc.size());
    for (const auto& [key, a] : acc) {
        PathNameShare share;
        share.name = std::string(key.name);
        share.work = key.work;
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
        if (a.time != b.time) return a.time > b.time;
        return a.name != b.name ? a.name < b.name : a.work < b.work;
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

namespace {

// The walk behind every critical-path function: hands each segment of the path that ends at `end`
// to `sink`, last first. Summaries fold the segments as they come, so only the callers that keep
// them pay for the vector (on a long trace the largest allocation of a run).
template <class Sink>
void walkGraph(const ExecutionGraph& g, const SimResult& r, SimNodeRef end, Sink&& sink) {
    if (end.node == kNoNode || end.node >= g.nodes.size() || r.nodes.size() != g.nodes.size()) return;
    if (end.added >= 0 && static_cast<std::size_t>(end.added) >= r.addedRanks.count()) return;
    std::int32_t onAdded = end.added; // the added rank of the node being walked (segments carry it)
    auto add = [&](NodeId n, EdgeId e, TimeNs s, TimeNs t, PathLabel l, EventRef op = {}) {
        if (t <= s) return;
        sink(PathSegment{n, e, s, t, l, op, onAdded});
    };
    // The segments go out backwards, so pieces go in from the last.
    auto addPieces = [&](NodeId n, EdgeId e, const std::vector<PathSegment>& pieces) {
        for (auto it = pieces.rbegin(); it != pieces.rend(); ++it)
            add(n, e, it->start, it->end, it->label, it->op);
    };
    // Simulated CPU time [from, to) of node n's thread, named by the ops that ran in its measured
    // counterpart [ma, mb): pieces covered by an op are `covered` time (scaled together to
    // coveredSim, or as measured when it is negative), the rest is `uncovered` (scaled to the rest of
    // the gap), in measured order.
    auto splitByOps = [&](NodeId n, TimeNs from, TimeNs to, TimeNs ma, TimeNs mb, TimeNs coveredSim,
                          PathLabel covered, PathLabel uncovered) {
        const Rank& rank = g.rankOf(n);
        const std::uint32_t track = g.nodes[n].event.track;
        const std::vector<OpPiece> ops = innermostOps(rank, rank.tracks[track], ma, mb);
        TimeNs cm = 0, um = 0;
        for (const OpPiece& p : ops)
            (p.index >= 0 ? cm : um) += p.end - p.start;
        if (coveredSim < 0) coveredSim = std::min(cm, to - from);
        // Without measured time of one kind, the other takes the whole gap.
        if (cm == 0) coveredSim = 0;
        if (um == 0) coveredSim = to - from;
        const TimeNs uncoveredSim = to - from - coveredSim;
        std::vector<PathSegment> pieces;
        TimeNs cAcc = 0, uAcc = 0, at = from;
        auto scale = [](TimeNs v, TimeNs num, TimeNs den) {
            return den > 0
                       ? static_cast<TimeNs>(std::llround(static_cast<double>(v) * static_cast<double>(num) /
                                                          static_cast<double>(den)))
                       : 0;
        };
        for (const OpPiece& p : ops) {
            (p.index >= 0 ? cAcc : uAcc) += p.end - p.start;
            const TimeNs next =
                std::min(to, from + scale(cAcc, coveredSim, cm) + scale(uAcc, uncoveredSim, um));
            if (next <= at) continue;
            EventRef op = p.index >= 0 ? EventRef{track, static_cast<std::uint32_t>(p.index)} : EventRef{};
            if (!pieces.empty() && pieces.back().op == op)
                pieces.back().end = next;
            else
                pieces.push_back({n, kNoEdge, at, next, p.index >= 0 ? covered : uncovered, op});
            at = next;
        }
        if (at < to && !pieces.empty())
            pieces.back().end = to; // rounding
        else if (at < to)
            pieces.push_back({n, kNoEdge, at, to, uncovered, {}});
        return pieces;
    };
    SimNodeRef cur = end;
    bool atStart = false;
    // The node an edge starts from: on the same rank as `to` (an added rank runs its source's edges),
    // but a collective edge joins two loaded ranks.
    auto fromOf = [&](const GraphEdge& edge) {
        return SimNodeRef{edge.from, edge.kind == EdgeKind::Collective ? -1 : cur.added};
    };
    // Each step moves strictly back along a DAG, so the walk ends; the bound is a safety net.
    const std::size_t bound = 4 * (g.nodes.size() + r.addedRanks.start.size()) + 4;
    for (std::size_t steps = 0; steps < bound && cur.valid(); ++steps) {
        onAdded = cur.added;
        const NodeTiming nt = r.timing(cur);
        const NodeId node = cur.node;
        if (!atStart) {
            EdgeId e = nt.endBoundBy;
            if (e == kPhantomPeers) { // held by peers outside the rank set: wait, then transfer
                // The transfer is the node's own time; before it the peers were still arriving
                // (at their measured time, or following this rank: peers.model).
                TimeNs arrival = std::clamp(nt.end - nt.own, nt.start, nt.end);
                add(node, kNoEdge, arrival, nt.end, nodeLabel(g, node));
                add(node, kNoEdge, nt.start, arrival, PathLabel::CollectiveWait);
                atStart = true;
                continue;
            }
            if (e == kAddedRankPeer) { // held by a peer on another rank of the job (added ranks)
                const SimNodeRef peer = r.heldBy(cur);
                const TimeNs trig = peer.valid() ? r.timing(peer).start : nt.start;
                add(node, kNoEdge, std::max(nt.start, trig), nt.end, nodeLabel(g, node));
                if (!peer.valid() || trig < nt.start) {
                    atStart = true;
                    continue;
                }
                cur = peer;
                atStart = true; // a collective is joined at its start
                continue;
            }
            if (e != kNoEdge) { // the end was held by a wait: own time after the release, then cross
                const GraphEdge& edge = r.edge(g, e);
                const NodeTiming from = r.timing(fromOf(edge));
                TimeNs trig = edge.triggeredByStart() ? from.start : from.end;
                add(node, kNoEdge, std::max(nt.start, trig), nt.end, nodeLabel(g, node));
                if (trig < nt.start) { // released before the node even started: continue at start
                    atStart = true;
                    continue;
                }
                cur = fromOf(edge);
                atStart = edge.triggeredByStart();
                continue;
            }
            add(node, kNoEdge, nt.start, nt.end, nodeLabel(g, node));
            atStart = true;
            continue;
        }
        EdgeId e = nt.startBoundBy;
        if (e == kNoEdge) { // the node's own release time: a boundary condition (the rank's root,
                            // a pre-window op): the time before it is the rank starting late
            // A root follows its rank's first profiled event (docs/ARCHITECTURE.md, "Boundary
            // conditions"): between that event and the call, CPU work named by the ops that ran
            // (loading data) and an unexplained wait; before the event, a late start.
            const GraphNode& gn = g.nodes[node];
            const TimeNs origin = std::min(g.ranks[gn.rank].origin, nt.start);
            TimeNs first = nt.start;
            if (gn.releaseWork > 0 || gn.releaseWait > 0) {
                first = std::clamp(g.ranks[gn.rank].origin + gn.release - gn.releaseWork - gn.releaseWait,
                                   origin, nt.start);
                const TimeNs measuredFirst =
                    g.ranks[gn.rank].origin + gn.release - gn.releaseWork - gn.releaseWait;
                const TimeNs wait = std::min(nt.start - first, gn.releaseWait);
                addPieces(node, kNoEdge,
                          splitByOps(node, first, nt.start, measuredFirst, g.measuredStart(node),
                                     nt.start - first - wait, PathLabel::Cpu, PathLabel::UnexplainedWait));
            }
            add(node, kNoEdge, origin, first, PathLabel::LateStart);
            break;
        }
        const GraphEdge& edge = r.edge(g, e);
        const NodeTiming from = r.timing(fromOf(edge));
        TimeNs trig = edge.triggeredByStart() ? from.start : from.end;
        if ((edge.kind == EdgeKind::ThreadOrder || edge.kind == EdgeKind::ThreadStart) && nt.start > trig) {
            // The gap holds CPU work (named by the innermost op that ran) and an unexplained wait,
            // which is a fixed part of the delay (docs/ARCHITECTURE.md, "CPU gaps"); both are laid
            // out in the measured order of the gap on the waiting thread.
            const TimeNs wait = std::clamp<TimeNs>(edge.delay - edge.cpuWork, 0, nt.start - trig);
            addPieces(node, e,
                      splitByOps(node, trig, nt.start, g.measuredEnd(edge.from), g.measuredStart(edge.to),
                                 nt.start - trig - wait, PathLabel::Cpu, PathLabel::UnexplainedWait));
        } else {
            add(node, e, trig, nt.start, gapLabel(edge.kind));
        }
        cur = fromOf(edge);
        atStart = edge.triggeredByStart();
    }
}

// After a block edit the walk runs on the edited run (sim/Simulator.h, EditedRun), where copied
// blocks are nodes with their own times; each segment goes out on the caller's graph: a copy's as
// its source's node (the same event), an edge the edit made as the caller's overlay edge.
template <class Sink>
void walkBackwards(const ExecutionGraph& g, const SimResult& r, SimNodeRef end, Sink&& sink) {
    if (!r.edited) {
        walkGraph(g, r, end, sink);
        return;
    }
    const EditedRun& run = *r.edited;
    const BlockEdit& edit = *run.edit;
    SimNodeRef inner = run.result.last();
    if (end != r.last()) inner = {end.node < edit.nodeOf.size() ? edit.nodeOf[end.node] : kNoNode, end.added};
    walkGraph(edit.graph, run.result, inner, [&](PathSegment s) {
        s.node = edit.sourceOf[s.node];
        if (s.edge < run.edgeInCaller.size()) s.edge = run.edgeInCaller[s.edge];
        sink(s);
    });
}

// Length, time per label and the nodes that hold the path longest, folded segment by segment.
class PathTotals {
public:
    PathTotals(const ExecutionGraph& g, std::size_t topCount) : g_(g), topCount_(topCount) {}
    void add(const PathSegment& s) {
        cp_.length += s.end - s.start;
        cp_.byLabel[static_cast<int>(s.label)] += s.end - s.start;
        switch (workOf(s)) {
        case EmbeddingWork::Lookup:
            cp_.embeddingLookup += s.end - s.start;
            break;
        case EmbeddingWork::AllToAll:
            cp_.embeddingAllToAll += s.end - s.start;
            break;
        case EmbeddingWork::None:
            break;
        }
        if (topCount_ > 0 && s.edge == kNoEdge) perNode_[AddedRankTimes::key(s.ref())] += s.end - s.start;
    }
    CriticalPath finish(std::vector<PathSegment> segments = {}) {
        cp_.segments = std::move(segments);
        for (const auto& [key, t] : perNode_)
            cp_.topNodes.push_back({AddedRankTimes::unkey(key), t});
        std::sort(cp_.topNodes.begin(), cp_.topNodes.end(), [](const auto& a, const auto& b) {
            if (a.second != b.second) return a.second > b.second;
            return a.first.node != b.first.node ? a.first.node < b.first.node : a.first.added < b.first.added;
        });
        if (cp_.topNodes.size() > topCount_) cp_.topNodes.resize(topCount_);
        return std::move(cp_);
    }

private:
    // Once per node: a node's segments (its own time and the waits before it) share its work.
    EmbeddingWork workOf(const PathSegment& s) {
        if (s.label != PathLabel::GpuCompute && s.label != PathLabel::GpuComm &&
            s.label != PathLabel::CollectiveWait)
            return EmbeddingWork::None;
        auto [it, fresh] = work_.try_emplace(s.node, EmbeddingWork::None);
        if (fresh) it->second = pathSegmentWork(g_, s);
        return it->second;
    }
    const ExecutionGraph& g_;
    std::size_t topCount_;
    std::unordered_map<NodeId, EmbeddingWork> work_;
    CriticalPath cp_;
    std::unordered_map<std::uint64_t, TimeNs> perNode_; // by AddedRankTimes::key
};

} // namespace

CriticalPath criticalPathFrom(const ExecutionGraph& g, const SimResult& r, SimNodeRef end,
                              std::size_t topCount) {
    PathTotals totals(g, topCount);
    std::vector<PathSegment> segments;
    walkBackwards(g, r, end, [&](const PathSegment& s) {
        totals.add(s);
        segments.push_back(s);
    });
    std::reverse(segments.begin(), segments.end());
    return totals.finish(std::move(segments));
}

CriticalPath criticalPathTotalsFrom(const ExecutionGraph& g, const SimResult& r, SimNodeRef end,
                                    std::size_t topCount,
                                    const std::function<void(const PathSegment&)>& visit) {
    PathTotals totals(g, topCount);
    walkBackwards(g, r, end, [&](const PathSegment& s) {
        totals.add(s);
        if (visit) visit(s);
    });
    return totals.finish();
}

CriticalPath criticalPathTotals(const ExecutionGraph& g, const SimResult& r, std::size_t topCount) {
    return criticalPathTotalsFrom(g, r, r.last(), topCount);
}

void forEachPathSegmentBackwards(const ExecutionGraph& g, const SimResult& r, SimNodeRef end,
                                 const std::function<void(const PathSegment&)>& visit) {
    walkBackwards(g, r, end, visit);
}

} // namespace sl
