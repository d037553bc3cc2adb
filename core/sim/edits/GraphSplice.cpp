#include "sim/edits/GraphSplice.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace sl::edits {

TimeNs scaledNs(TimeNs v, double f) {
    return static_cast<TimeNs>(std::llround(static_cast<double>(v) * f));
}

std::vector<NodeId> blockNodes(const ExecutionGraph& g, const Processor& P, TimeNs ts, TimeNs te) {
    std::vector<NodeId> nodes;
    auto it = std::lower_bound(P.nodes.begin(), P.nodes.end(), ts,
                               [&](NodeId x, TimeNs v) { return g.measuredStart(x) < v; });
    for (; it != P.nodes.end() && g.measuredStart(*it) < te; ++it) {
        nodes.push_back(*it);
        for (EdgeId e : g.outEdges(*it))
            if (g.edges[e].kind == EdgeKind::Launch) nodes.push_back(g.edges[e].to);
    }
    std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
        return std::make_pair(g.measuredStart(a), a) < std::make_pair(g.measuredStart(b), b);
    });
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

Applied applyRuns(const ExecutionGraph& g, const std::vector<BlockRun>& runs, BlockEdit& out,
                  const std::vector<std::uint8_t>& notCopied) {
    Applied res;
    const std::size_t n = g.nodes.size();
    std::vector<std::int32_t> runOf(n, -1), unitOf(n, -1);
    std::vector<std::vector<std::vector<std::uint32_t>>> labels(runs.size()); // [run][unit]: copy labels
    std::vector<std::uint8_t> dropped(n, 0);
    for (std::size_t ri = 0; ri < runs.size(); ++ri) {
        const BlockRun& run = runs[ri];
        std::vector<std::uint8_t> used(run.units.size(), 0);
        labels[ri].resize(run.units.size());
        for (auto [u, label] : run.sequence) {
            if (label == kOriginal)
                used[static_cast<std::size_t>(u)] = 1;
            else
                labels[ri][static_cast<std::size_t>(u)].push_back(label);
        }
        for (std::size_t u = 0; u < run.units.size(); ++u)
            for (NodeId x : run.units[u]) {
                runOf[x] = static_cast<std::int32_t>(ri);
                unitOf[x] = static_cast<std::int32_t>(u);
                dropped[x] = used[u] ? 0 : 1;
            }
    }
    auto labelsOf = [&](NodeId x) -> const std::vector<std::uint32_t>& {
        static const std::vector<std::uint32_t> none;
        return runOf[x] < 0 ? none
                            : labels[static_cast<std::size_t>(runOf[x])][static_cast<std::size_t>(unitOf[x])];
    };

    // Nodes: the caller's kept nodes (in order), then the copies, run by run in sequence order.
    ExecutionGraph& e = out.graph;
    e.trace = g.trace;
    e.ranks = g.ranks;
    e.stats = g.stats;
    e.warnings = g.warnings;
    out.nodeOf.assign(n, kNoNode);
    for (NodeId i = 0; i < n; ++i)
        if (!dropped[i]) {
            out.nodeOf[i] = static_cast<NodeId>(e.nodes.size());
            e.nodes.push_back(g.nodes[i]);
            out.sourceOf.push_back(i);
        }
    out.kept = e.nodes.size();
    std::unordered_map<std::uint64_t, NodeId> cloneAt; // (caller node, label) -> copy
    auto key = [](NodeId x, std::uint32_t label) { return (static_cast<std::uint64_t>(x) << 32) | label; };
    auto cloneOf = [&](NodeId x, std::uint32_t label) {
        auto it = cloneAt.find(key(x, label));
        return it == cloneAt.end() ? kNoNode : it->second;
    };
    // Lane processors: (traced processor, lane) -> a processor of the copy after the traced ones.
    e.processors = g.processors;
    std::vector<std::uint32_t> laneBase; // per lane processor: its traced processor
    std::map<std::pair<std::uint32_t, std::uint8_t>, std::uint32_t> laneProc;
    auto processorOn = [&](std::uint32_t pi, std::uint8_t lane) {
        if (lane == 0) return pi;
        auto [it, fresh] = laneProc.try_emplace({pi, lane}, static_cast<std::uint32_t>(e.processors.size()));
        if (fresh) {
            Processor P = g.processors[pi];
            P.nodes.clear();
            e.processors.push_back(std::move(P));
            laneBase.push_back(pi);
        }
        return it->second;
    };
    auto laneOfEntry = [&](std::size_t ri, std::size_t p) -> std::uint8_t {
        return p < runs[ri].lane.size() ? runs[ri].lane[p] : 0;
    };
    bool lanes = false;
    // instance[run][position]: the nodes (in the copy) of each sequence entry.
    std::vector<std::vector<std::vector<NodeId>>> instance(runs.size());
    for (std::size_t ri = 0; ri < runs.size(); ++ri)
        for (std::size_t p = 0; p < runs[ri].sequence.size(); ++p) {
            const auto [u, label] = runs[ri].sequence[p];
            const std::uint8_t lane = laneOfEntry(ri, p);
            lanes = lanes || lane > 0;
            std::vector<NodeId> nodes;
            for (NodeId x : runs[ri].units[static_cast<std::size_t>(u)]) {
                if (label == kOriginal) {
                    nodes.push_back(out.nodeOf[x]);
                    e.nodes[out.nodeOf[x]].processor = processorOn(g.nodes[x].processor, lane);
                    continue;
                }
                if (x < notCopied.size() && notCopied[x]) continue;
                GraphNode c = g.nodes[x];
                c.processor = processorOn(g.nodes[x].processor, lane);
                c.release = 0; // a copy starts from its causes, never from a boundary condition
                c.prewindow = false;
                if (c.phantomArrival >= 0) ++res.phantoms;
                c.phantomArrival = -1;
                c.collective = kNoGroup;
                cloneAt[key(x, label)] = static_cast<NodeId>(e.nodes.size());
                nodes.push_back(static_cast<NodeId>(e.nodes.size()));
                e.nodes.push_back(c);
                out.sourceOf.push_back(x);
            }
            instance[ri].push_back(std::move(nodes));
        }

    // Processor orders: a run's nodes on a thread or stream are replaced, where the first of them
    // stood, by its sequence (dropped blocks left out).
    std::vector<EdgeId> orderIn(n, kNoEdge);
    std::vector<std::uint8_t> isOrder(g.edges.size(), 0);
    const auto traced = static_cast<std::uint32_t>(g.processors.size());
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
        const Processor& P = g.processors[pi];
        for (std::size_t k = 1; k < P.nodes.size(); ++k)
            for (EdgeId id : g.inEdges(P.nodes[k])) {
                const GraphEdge& ed = g.edges[id];
                if (ed.from == P.nodes[k - 1] &&
                    (ed.kind == EdgeKind::ThreadOrder || ed.kind == EdgeKind::StreamOrder)) {
                    orderIn[P.nodes[k]] = id;
                    isOrder[id] = 1;
                    break;
                }
            }
        auto& list = e.processors[pi].nodes;
        list.clear();
        std::vector<std::uint8_t> emitted(runs.size(), 0);
        for (NodeId x : P.nodes) {
            const std::int32_t ri = runOf[x];
            if (ri < 0) {
                list.push_back(out.nodeOf[x]);
                continue;
            }
            if (emitted[static_cast<std::size_t>(ri)]) continue;
            emitted[static_cast<std::size_t>(ri)] = 1;
            for (const auto& nodes : instance[static_cast<std::size_t>(ri)])
                for (NodeId y : nodes) {
                    const std::uint32_t q = e.nodes[y].processor;
                    if (q == pi)
                        list.push_back(y);
                    else if (q >= traced && laneBase[q - traced] == pi)
                        e.processors[q].nodes.push_back(y);
                }
        }
    }

    if (lanes) {
        res.laneOf.assign(e.nodes.size(), 0);
        for (std::size_t ri = 0; ri < runs.size(); ++ri)
            for (std::size_t p = 0; p < instance[ri].size(); ++p)
                for (NodeId y : instance[ri][p])
                    res.laneOf[y] = laneOfEntry(ri, p);
    }
    auto sameLane = [&](NodeId x, NodeId y) { return !lanes || res.laneOf[x] == res.laneOf[y]; };

    // Edges. Order edges follow the new processor orders: a kept node keeps its own incoming
    // order edge (from its new predecessor), a copy gets its source's (the gap before its block).
    auto emit = [&](GraphEdge ed, NodeId from, NodeId to, EdgeId origin) {
        ed.from = from;
        ed.to = to;
        e.edges.push_back(ed);
        out.edgeOrigin.push_back(origin);
    };
    for (const Processor& P : e.processors)
        for (std::size_t k = 1; k < P.nodes.size(); ++k) {
            const NodeId x = P.nodes[k - 1], y = P.nodes[k];
            const EdgeId id = orderIn[out.sourceOf[y]];
            // A re-pointed edge (its source was dropped or copies came before) is a new edge for
            // the caller's graph: it binds as none there.
            if (id != kNoEdge)
                emit(g.edges[id], x, y, y < out.kept && out.nodeOf[g.edges[id].from] == x ? id : kNoEdge);
            else if (y >= out.kept || x >= out.kept) {
                GraphEdge ed;
                ed.kind = P.gpu ? EdgeKind::StreamOrder : EdgeKind::ThreadOrder;
                emit(ed, x, y, kNoEdge);
            }
        }
    // Other edges. Between two blocks of one run (a receive's stream waiting for the op the
    // previous block ended with), the edge comes, for every instance of the later block, from
    // the last node on the same processor of the entries before it. Otherwise kept between kept
    // nodes; copied between copies of the same label (inside a block, and across ranks: a TP
    // collective's peers copy the same block); between a copied block and a node outside every
    // block copied with that outside node (DDP's finalize waits for a copied bucket), collectives
    // excepted.
    for (EdgeId id = 0; id < g.edges.size(); ++id) {
        if (isOrder[id]) continue;
        const GraphEdge& ed = g.edges[id];
        const NodeId a = ed.from, b = ed.to;
        const std::int32_t ra = runOf[a], rb = runOf[b];
        if (ra >= 0 && ra == rb && unitOf[a] != unitOf[b]) {
            const auto ri = static_cast<std::size_t>(rb);
            for (std::size_t p = 0; p < runs[ri].sequence.size(); ++p) {
                const auto [u, label] = runs[ri].sequence[p];
                if (u != unitOf[b]) continue;
                const NodeId bi = label == kOriginal ? out.nodeOf[b] : cloneOf(b, label);
                const std::uint8_t lane = laneOfEntry(ri, p);
                const std::uint32_t proc = processorOn(g.nodes[a].processor, lane);
                NodeId from = kNoNode;
                for (std::size_t q = p; q-- > 0 && from == kNoNode;)
                    if (laneOfEntry(ri, q) == lane)
                        for (NodeId y : instance[ri][q])
                            if (e.nodes[y].processor == proc) from = y;
                if (from != kNoNode && bi != kNoNode)
                    emit(ed, from, bi, label == kOriginal && from == out.nodeOf[a] ? id : kNoEdge);
            }
            continue;
        }
        // Between lanes only collectives (their peers on other ranks are on any lane); any other
        // traced edge that would join two lanes is dropped and counted.
        const bool collective = ed.kind == EdgeKind::Collective;
        auto emitOnLane = [&](NodeId from, NodeId to, EdgeId origin) {
            if (collective || sameLane(from, to))
                emit(ed, from, to, origin);
            else
                ++res.crossLaneDropped;
        };
        if (!dropped[a] && !dropped[b]) emitOnLane(out.nodeOf[a], out.nodeOf[b], id);
        for (std::uint32_t label : labelsOf(a)) {
            const NodeId al = cloneOf(a, label), bl = cloneOf(b, label);
            if (al == kNoNode) continue; // a node copies leave out
            if (bl != kNoNode)
                emitOnLane(al, bl, kNoEdge);
            else if (rb < 0 && !collective)
                emitOnLane(al, out.nodeOf[b], kNoEdge);
        }
        if (ra < 0 && !collective)
            for (std::uint32_t label : labelsOf(b))
                if (cloneOf(b, label) != kNoNode) emitOnLane(out.nodeOf[a], cloneOf(b, label), kNoEdge);
    }

    // Collective groups: members renumbered (groups of dropped blocks go), then one group per
    // copy of a group whose every member was copied under the same label.
    std::vector<std::uint32_t> groupOf(g.collectives.size(), kNoGroup);
    for (std::size_t gi = 0; gi < g.collectives.size(); ++gi) {
        CollectiveGroup grp = g.collectives[gi];
        grp.members.clear();
        for (NodeId m : g.collectives[gi].members)
            if (!dropped[m]) grp.members.push_back(out.nodeOf[m]);
        if (grp.members.empty()) continue;
        groupOf[gi] = static_cast<std::uint32_t>(e.collectives.size());
        e.collectives.push_back(std::move(grp));
    }
    for (std::size_t i = 0; i < out.kept; ++i)
        if (e.nodes[i].collective != kNoGroup) e.nodes[i].collective = groupOf[e.nodes[i].collective];
    for (const auto& grp : g.collectives) {
        if (grp.members.empty()) continue;
        for (std::uint32_t label : labelsOf(grp.members.front())) {
            if (cloneOf(grp.members.front(), label) == kNoNode) continue; // not copied on purpose
            CollectiveGroup copy = grp;
            copy.members.clear();
            for (NodeId m : grp.members) {
                const NodeId ml = cloneOf(m, label);
                if (ml == kNoNode) break;
                copy.members.push_back(ml);
            }
            if (copy.members.size() != grp.members.size()) {
                res.unmatchedCopies += static_cast<std::int64_t>(copy.members.size());
                continue;
            }
            for (NodeId ml : copy.members)
                e.nodes[ml].collective = static_cast<std::uint32_t>(e.collectives.size());
            e.collectives.push_back(std::move(copy));
            ++res.copiedGroups;
        }
    }

    // Events of dropped nodes leave the window (no simulated time, not drawn).
    e.nodeIndex = g.nodeIndex;
    for (auto& tracks : e.nodeIndex)
        for (auto& events : tracks)
            for (NodeId& x : events)
                if (x < n) x = out.nodeOf[x] == kNoNode ? kOutsideWindow : out.nodeOf[x];
    e.buildAdjacency();
    res.instances = std::move(instance);
    return res;
}

} // namespace sl::edits
