#include "sim/BlockEdits.h"

#include "models/CollectiveModel.h"
#include "sim/SetupEdits.h"
#include "structure/Structure.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <unordered_map>

namespace sl {

namespace {

constexpr std::uint32_t kNoGroup = 0xffffffffu;

std::string mbText(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f MB", bytes / 1e6);
    return buf;
}

// The edit of one layer region (a forward / backward block) of one rank.
struct RegionPlan {
    std::uint32_t rank = 0;
    int ordinal = 0; // index among the rank's regions: the same block of the schedule on every rank
                     // of the stage, so the clones of a TP collective meet their peers' clones
    bool backward = false;
    int count = 0, length = 0;
    std::vector<std::vector<NodeId>> units; // per layer block: its CPU calls and the GPU ops they launch
    int insertAfter = -1;                   // clones go between block insertAfter and insertAfter + 1
    std::vector<int> sources;               // clone k copies block sources[k]
    int dropFirst = 0, dropCount = 0;       // blocks [dropFirst, dropFirst + dropCount) are bypassed
};

struct Target {
    int stage = 0;
    int traced = 0; // layer blocks of the stage
    int wanted = 0;
};

// Per stage: its traced layer blocks and the share of `layers` it gets (proportional, largest
// remainders first, at least one).
std::vector<Target> stageTargets(const ParallelStructure& s, int layers) {
    std::vector<Target> t;
    for (int p = 0; p < std::max(1, s.pp); ++p)
        for (std::size_t i = 0; i < s.places.size(); ++i)
            if ((s.places[i].known ? s.places[i].pp : 0) == p && s.blocks[i].layers > 0) {
                t.push_back({p, s.blocks[i].layers, 0});
                break;
            }
    int total = 0;
    for (const auto& x : t)
        total += x.traced;
    if (total == 0) return {};
    std::vector<std::pair<double, std::size_t>> rest;
    int given = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const double exact = static_cast<double>(t[i].traced) * layers / total;
        t[i].wanted = static_cast<int>(std::floor(exact));
        given += t[i].wanted;
        rest.push_back({exact - t[i].wanted, i});
    }
    std::stable_sort(rest.begin(), rest.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; given < layers && i < rest.size(); ++i, ++given)
        ++t[rest[i].second].wanted;
    for (auto& x : t)
        x.wanted = std::max(1, x.wanted);
    return t;
}

TimeNs scaledNs(TimeNs v, double f) {
    return static_cast<TimeNs>(std::llround(static_cast<double>(v) * f));
}

constexpr std::uint32_t kOriginal = 0xffffffffu;

// A run of blocks of one rank whose order an edit rewrites (docs/Structure.md, "Block edits").
// `sequence` is the new order: (block, label); kOriginal stands for the traced block itself (each
// at most once; one left out is dropped), any other label for a copy. Copies with the same label
// on different ranks are the same block of the new job: their collectives meet.
struct BlockRun {
    std::uint32_t rank = 0;
    std::vector<std::vector<NodeId>> units; // each block's nodes, by measured start
    std::vector<std::pair<int, std::uint32_t>> sequence;
};

struct Applied {
    std::int64_t copiedGroups = 0, unmatchedCopies = 0, phantoms = 0;
};

// The nodes of a block: the runtime calls of thread P that start inside [ts, te) and the GPU ops
// they launch, by measured start.
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

// Builds out.graph (adjacency included, not validated), nodeOf, sourceOf, edgeOrigin and kept
// from the caller's graph and the runs.
Applied applyRuns(const ExecutionGraph& g, const std::vector<BlockRun>& runs, BlockEdit& out,
                  const std::vector<std::uint8_t>& notCopied = {}) {
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
    // instance[run][position]: the nodes (in the copy) of each sequence entry.
    std::vector<std::vector<std::vector<NodeId>>> instance(runs.size());
    for (std::size_t ri = 0; ri < runs.size(); ++ri)
        for (auto [u, label] : runs[ri].sequence) {
            std::vector<NodeId> nodes;
            for (NodeId x : runs[ri].units[static_cast<std::size_t>(u)]) {
                if (label == kOriginal) {
                    nodes.push_back(out.nodeOf[x]);
                    continue;
                }
                if (x < notCopied.size() && notCopied[x]) continue;
                GraphNode c = g.nodes[x];
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
    e.processors = g.processors;
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
                for (NodeId y : nodes)
                    if (e.nodes[y].processor == pi) list.push_back(y);
        }
    }

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
            const std::uint32_t proc = g.nodes[a].processor;
            for (std::size_t p = 0; p < runs[ri].sequence.size(); ++p) {
                const auto [u, label] = runs[ri].sequence[p];
                if (u != unitOf[b]) continue;
                const NodeId bi = label == kOriginal ? out.nodeOf[b] : cloneOf(b, label);
                NodeId from = kNoNode;
                for (std::size_t q = p; q-- > 0 && from == kNoNode;)
                    for (NodeId y : instance[ri][q])
                        if (e.nodes[y].processor == proc) from = y;
                if (from != kNoNode && bi != kNoNode)
                    emit(ed, from, bi, label == kOriginal && from == out.nodeOf[a] ? id : kNoEdge);
            }
            continue;
        }
        if (!dropped[a] && !dropped[b]) emit(ed, out.nodeOf[a], out.nodeOf[b], id);
        const bool collective = ed.kind == EdgeKind::Collective;
        for (std::uint32_t label : labelsOf(a)) {
            const NodeId al = cloneOf(a, label), bl = cloneOf(b, label);
            if (al == kNoNode) continue; // a node copies leave out
            if (bl != kNoNode)
                emit(ed, al, bl, kNoEdge);
            else if (rb < 0 && !collective)
                emit(ed, al, out.nodeOf[b], kNoEdge);
        }
        if (ra < 0 && !collective)
            for (std::uint32_t label : labelsOf(b))
                if (cloneOf(b, label) != kNoNode) emit(ed, out.nodeOf[a], cloneOf(b, label), kNoEdge);
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
    return res;
}

} // namespace

BlockEdit editBlocks(const ExecutionGraph& g, const BlockEditKnobs& knobs) {
    BlockEdit out;
    if (knobs.layers <= 0) return out;
    const TraceSet& set = *g.trace;
    const std::string knob = "model.layers=" + std::to_string(knobs.layers);
    out.structure = recognizeStructure(set, &g);
    const ParallelStructure& s = out.structure;
    std::vector<Target> targets = stageTargets(s, knobs.layers);
    if (targets.empty()) {
        std::string why = "no repeated layer blocks found";
        out.warnings.push_back(knob + ": no layer blocks recognised (" + why + "): knob ignored");
        return out;
    }
    int traced = 0, wanted = 0;
    for (const auto& t : targets) {
        traced += t.traced;
        wanted += t.wanted;
    }
    if (static_cast<int>(targets.size()) < std::max(1, s.pp)) {
        out.warnings.push_back(knob + ": layer blocks were found on " + std::to_string(targets.size()) +
                               " of " + std::to_string(s.pp) + " pipeline stages only: knob ignored");
        return out;
    }
    if (wanted == traced) {
        out.notes.push_back(knob + " is the traced number of layer blocks: nothing to add or drop");
        return out;
    }
    const std::size_t n = g.nodes.size();

    // Processors by (rank, track), to find a block's calls.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> procOf;
    for (std::uint32_t p = 0; p < g.processors.size(); ++p)
        procOf[{g.processors[p].rank, g.processors[p].track}] = p;

    // 1. The plan: per rank, per region, which blocks are copied or bypassed.
    std::vector<RegionPlan> plans;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const int stage = s.places[r].known ? s.places[r].pp : 0;
        auto t =
            std::find_if(targets.begin(), targets.end(), [&](const Target& x) { return x.stage == stage; });
        const int delta = t->wanted - t->traced;
        if (delta == 0) continue;
        const Rank& rank = set.ranks[r];
        std::vector<LayerRegion> regions = layerRegions(rank);
        int ordinal = -1;
        for (const LayerRegion& lr : regions) {
            ++ordinal;
            const int c = lr.rep.count;
            // A region whose repetition is not about the recognised layer count repeats something
            // else (a rotation of the layer block loses at most one): left as traced.
            if (c < 2 || std::abs(c - t->traced) > 1) continue;
            if (c + delta < 1) {
                out.warnings.push_back(knob + ": rank " + std::to_string(rank.rank) + " has blocks of " +
                                       std::to_string(c) + " layers, too few to drop " +
                                       std::to_string(-delta) + ": knob ignored");
                return BlockEdit{false, {}, {}, {}, {}, 0, {}, out.warnings, {}};
            }
            auto proc = procOf.find({r, lr.track});
            if (proc == procOf.end()) continue; // a thread without runtime calls: nothing to copy
            const Processor& P = g.processors[proc->second];
            const auto& ev = rank.tracks[lr.track].events;
            RegionPlan plan;
            plan.rank = r;
            plan.ordinal = ordinal;
            plan.backward = lr.backward;
            plan.count = c;
            plan.length = lr.rep.length;
            for (int u = 0; u < c; ++u) {
                const std::uint32_t firstChild =
                    lr.children[lr.rep.first + static_cast<std::size_t>(u * lr.rep.length)];
                const std::uint32_t lastChild =
                    lr.children[lr.rep.first + static_cast<std::size_t>((u + 1) * lr.rep.length) - 1];
                const TimeNs ts = ev.start[firstChild], te = ev.end(lastChild);
                plan.units.push_back(blockNodes(g, P, ts, te));
            }
            if (delta > 0) {
                std::vector<int> interior;
                for (int u = c >= 3 ? 1 : 0; u < (c >= 3 ? c - 1 : c); ++u)
                    interior.push_back(u);
                for (int k = 0; k < delta; ++k)
                    plan.sources.push_back(interior[static_cast<std::size_t>(k) % interior.size()]);
                plan.insertAfter = c / 2 - 1;
            } else {
                plan.dropCount = -delta;
                plan.dropFirst = c - plan.dropCount >= 2 ? (c - plan.dropCount) / 2 : 0;
            }
            plans.push_back(std::move(plan));
        }
    }
    if (plans.empty()) {
        out.warnings.push_back(knob + ": no layer blocks were found inside the graph's window: knob ignored");
        return out;
    }

    // 2.-6. The edited copy: each region's blocks in their new order.
    std::vector<BlockRun> runs;
    for (const auto& p : plans) {
        BlockRun run;
        run.rank = p.rank;
        run.units = p.units;
        for (int u = 0; u < p.count; ++u) {
            if (u < p.dropFirst || u >= p.dropFirst + p.dropCount) run.sequence.push_back({u, kOriginal});
            if (u == p.insertAfter)
                for (std::size_t k = 0; k < p.sources.size(); ++k)
                    run.sequence.push_back({p.sources[k], static_cast<std::uint32_t>(p.ordinal) << 16 |
                                                              static_cast<std::uint32_t>(k)});
        }
        runs.push_back(std::move(run));
    }
    const Applied applied = applyRuns(g, runs, out);
    ExecutionGraph& e = out.graph;
    const std::int64_t copiedGroups = applied.copiedGroups, unmatchedCopies = applied.unmatchedCopies,
                       phantoms = applied.phantoms;

    // 7. The optimizer updates every parameter: its kernels (launched inside Optimizer.step)
    // scale with the rank's gradient bytes (the DP all-reduces, copied and dropped with their
    // blocks), else with the layer count.
    std::vector<CollectiveCall> calls = collectiveCalls(g);
    std::vector<double> gradBytes(set.ranks.size(), 0), gradDelta(set.ranks.size(), 0);
    std::vector<std::uint8_t> isGrad(n, 0);
    for (const auto& c : calls)
        if (c.dataParallel && c.bytes > 0 &&
            (c.type == CollectiveType::AllReduce || c.type == CollectiveType::ReduceScatter)) {
            gradBytes[g.nodes[c.node].rank] += static_cast<double>(c.bytes);
            isGrad[c.node] = 1;
        }
    std::unordered_map<NodeId, double> bytesOf;
    for (const auto& c : calls)
        if (isGrad[c.node]) bytesOf[c.node] = static_cast<double>(c.bytes);
    for (const auto& p : plans) {
        for (int src : p.sources)
            for (NodeId x : p.units[static_cast<std::size_t>(src)])
                if (isGrad[x]) gradDelta[p.rank] += bytesOf[x];
        for (int u = p.dropFirst; u < p.dropFirst + p.dropCount; ++u)
            for (NodeId x : p.units[static_cast<std::size_t>(u)])
                if (isGrad[x]) gradDelta[p.rank] -= bytesOf[x];
    }
    std::vector<int> byBytes, byLayers;
    double bytesBefore = 0, bytesAfter = 0;
    std::int64_t optimizerOps = 0;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const int stage = s.places[r].known ? s.places[r].pp : 0;
        auto t =
            std::find_if(targets.begin(), targets.end(), [&](const Target& x) { return x.stage == stage; });
        if (t->wanted == t->traced) continue;
        double f = static_cast<double>(t->wanted) / static_cast<double>(t->traced);
        if (gradBytes[r] > 0 && gradDelta[r] != 0) {
            f = (gradBytes[r] + gradDelta[r]) / gradBytes[r];
            byBytes.push_back(set.ranks[r].rank);
            bytesBefore = std::max(bytesBefore, gradBytes[r]);
            bytesAfter = std::max(bytesAfter, gradBytes[r] + gradDelta[r]);
        } else {
            byLayers.push_back(set.ranks[r].rank);
        }
        const Rank& rank = set.ranks[r];
        for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
            const auto& ev = rank.tracks[ti].events;
            auto proc = procOf.find({r, ti});
            if (rank.tracks[ti].isGpu() || proc == procOf.end()) continue;
            const Processor& P = g.processors[proc->second];
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                if (ev.kind[i] != EventKind::UserAnnotation ||
                    rank.strings.str(ev.name[i]).rfind("Optimizer.step", 0) != 0)
                    continue;
                auto it = std::lower_bound(P.nodes.begin(), P.nodes.end(), ev.start[i],
                                           [&](NodeId x, TimeNs v) { return g.measuredStart(x) < v; });
                for (; it != P.nodes.end() && g.measuredStart(*it) < ev.end(i); ++it)
                    for (EdgeId id : g.outEdges(*it))
                        if (g.edges[id].kind == EdgeKind::Launch && out.nodeOf[g.edges[id].to] != kNoNode) {
                            auto& node = e.nodes[out.nodeOf[g.edges[id].to]];
                            node.duration = scaledNs(node.duration, f);
                            ++optimizerOps;
                        }
            }
        }
    }

    e.buildAdjacency();
    try {
        e.validate();
    } catch (const GraphError& err) {
        out.warnings.push_back(knob + ": the edited graph is not valid (" + err.what() + "): knob ignored");
        return BlockEdit{false, {}, {}, {}, {}, 0, {}, out.warnings, {}};
    }
    out.active = true;

    // What was done, per stage.
    for (const auto& t : targets) {
        std::vector<int> ranks;
        const RegionPlan* first = nullptr;
        int regions = 0, fwd = 0;
        for (const auto& p : plans) {
            const std::uint32_t r = p.rank;
            if ((s.places[r].known ? s.places[r].pp : 0) != t.stage) continue;
            ranks.push_back(set.ranks[r].rank);
            if (!first) first = &p;
            if (p.rank == first->rank) {
                ++regions;
                fwd += p.backward ? 0 : 1;
            }
        }
        if (!first) continue;
        std::string what = t.wanted > t.traced
                               ? "repeated layer blocks " + runsText(first->sources) + " of " +
                                     std::to_string(first->count) + " after block " +
                                     std::to_string(first->insertAfter)
                               : "dropped layer blocks " + std::to_string(first->dropFirst) + ".." +
                                     std::to_string(first->dropFirst + first->dropCount - 1) + " of " +
                                     std::to_string(first->count);
        out.notes.push_back(knob + ": " + what + " in " + std::to_string(regions) + " blocks (" +
                            std::to_string(fwd) + " forward, " + std::to_string(regions - fwd) +
                            " backward) on ranks " + idRangesText(ranks) +
                            (s.pp > 1 ? " (stage " + std::to_string(t.stage) + ")" : "") + ": " +
                            std::to_string(t.traced) + " -> " + std::to_string(t.wanted) + " layers");
    }
    if (wanted != knobs.layers)
        out.warnings.push_back(knob + ": the stages get whole layer blocks: " + std::to_string(wanted) +
                               " layers simulated");
    if (copiedGroups > 0)
        out.notes.push_back("copied " + std::to_string(copiedGroups) +
                            " collectives with their blocks (every member rank copies the same block)");
    if (optimizerOps > 0)
        out.notes.push_back(
            "optimizer kernels (" + std::to_string(optimizerOps) + ") re-timed with the parameters: " +
            (byBytes.empty() ? std::string()
                             : "ranks " + idRangesText(byBytes) + " by their data-parallel gradient bytes (" +
                                   mbText(bytesBefore) + " -> " + mbText(bytesAfter) + ")") +
            (byBytes.empty() || byLayers.empty() ? "" : "; ") +
            (byLayers.empty() ? std::string() : "ranks " + idRangesText(byLayers) + " by the layer ratio"));
    out.notes.push_back(
        "copied layer blocks are simulated but not drawn; dropped ones have no simulated time");
    if (unmatchedCopies > 0)
        out.warnings.push_back(knob + ": " + std::to_string(unmatchedCopies) +
                               " copied collective kernels have peers outside every copied block: they "
                               "do not wait for peers");
    if (phantoms > 0)
        out.warnings.push_back(
            knob + ": " + std::to_string(phantoms) +
            " copied collectives had peers outside the rank set: the copies do not wait for them");
    return out;
}

namespace {

// The 1F1B order of a pipeline stage (Megatron-LM's, the generator's): warm-up forwards, then
// alternating forward / backward, then the remaining backwards. m >= 0: forward of micro-batch
// m, -(m + 1): its backward.
std::vector<int> oneFOneB(int stages, int stage, int microbatches) {
    const int warmup = std::min(stages - stage - 1, microbatches);
    std::vector<int> order;
    for (int m = 0; m < warmup; ++m)
        order.push_back(m);
    for (int m = warmup; m < microbatches; ++m) {
        order.push_back(m);
        order.push_back(-(m - warmup + 1));
    }
    for (int m = microbatches - warmup; m < microbatches; ++m)
        order.push_back(-(m + 1));
    return order;
}

// The micro-batch index a block annotation ends with (forward_step#3 -> 3), -1 without.
int trailingNumber(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])))
        --i;
    return i == name.size() ? -1 : std::stoi(std::string(name.substr(i)));
}

} // namespace

BlockEdit editMicrobatches(const ExecutionGraph& g, int microbatches) {
    BlockEdit out;
    if (microbatches <= 0) return out;
    const TraceSet& set = *g.trace;
    const std::string knob = "pp.microbatches=" + std::to_string(microbatches);
    out.structure = recognizeStructure(set, &g);
    const ParallelStructure& s = out.structure;
    const int M = s.microbatches, N = microbatches;
    if (M == 0) {
        out.warnings.push_back(
            knob + ": no micro-batch blocks recognised (forward_step#N / backward_step#N): knob ignored");
        return out;
    }
    if (N == M) {
        out.notes.push_back(knob + " is the traced number of micro-batches: nothing to add or drop");
        return out;
    }
    auto ignore = [&](const std::string& why) {
        BlockEdit none;
        none.warnings.push_back(knob + ": " + why + ": knob ignored");
        return none;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> procOf;
    for (std::uint32_t p = 0; p < g.processors.size(); ++p)
        procOf[{g.processors[p].rank, g.processors[p].track}] = p;
    // Micro-batch m of the new job runs as block m (m < M - 1), the traced last block (m = N - 1:
    // it carries the gradient all-reduces), or a copy of an interior block (of block 0 with two
    // or one traced micro-batches). Copies never repeat a gradient all-reduce (with one traced
    // micro-batch its only backward has them): gradients are synchronised once per step.
    std::vector<int> interior;
    for (int m = M >= 3 ? 1 : 0; m < std::max(1, M - 1); ++m)
        interior.push_back(m);
    std::vector<std::uint8_t> gradient(g.nodes.size(), 0);
    for (const auto& c : collectiveCalls(g))
        if (c.dataParallel &&
            (c.type == CollectiveType::AllReduce || c.type == CollectiveType::ReduceScatter))
            gradient[c.node] = 1;
    auto sourceOf = [&](int m) {
        if (m == N - 1) return M - 1;
        if (m < M - 1) return m;
        return interior[static_cast<std::size_t>(m - (M - 1)) % interior.size()];
    };
    std::vector<BlockRun> runs;
    std::vector<int> ranks, copied;
    for (int m = 0; m < N; ++m)
        if (!(m < M - 1 || m == N - 1)) copied.push_back(sourceOf(m));
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        const int stage = s.places[r].known ? s.places[r].pp : 0;
        // Steps: each ProfilerStep#N is a run of its own.
        std::vector<std::pair<TimeNs, TimeNs>> steps;
        for (const Track& t : rank.tracks) {
            if (t.isGpu()) continue;
            for (std::uint32_t i = 0; i < t.events.size(); ++i)
                if (t.events.kind[i] == EventKind::UserAnnotation &&
                    rank.strings.str(t.events.name[i]).rfind("ProfilerStep#", 0) == 0)
                    steps.push_back({t.events.start[i], t.events.end(i)});
        }
        std::sort(steps.begin(), steps.end());
        if (steps.empty())
            steps.push_back({std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max()});
        std::vector<LayerRegion> regions = layerRegions(rank);
        for (std::size_t st = 0; st < steps.size(); ++st) {
            BlockRun run;
            run.rank = r;
            std::map<int, int> unitOf; // m (forward) / -(m + 1) (backward) -> unit
            std::vector<int> traced;   // the traced order
            for (const LayerRegion& lr : regions) {
                const auto& ev = rank.tracks[lr.track].events;
                const TimeNs ts = ev.start[lr.parent], te = ev.end(lr.parent);
                if (ts < steps[st].first || ts >= steps[st].second) continue;
                const int m = trailingNumber(rank.strings.str(ev.name[lr.parent]));
                auto proc = procOf.find({r, lr.track});
                if (m < 0 || proc == procOf.end()) continue;
                const int item = lr.backward ? -(m + 1) : m;
                unitOf[item] = static_cast<int>(run.units.size());
                run.units.push_back(blockNodes(g, g.processors[proc->second], ts, te));
                traced.push_back(item);
            }
            if (traced.empty()) continue;
            if (traced != oneFOneB(std::max(1, s.pp), stage, M))
                return ignore("rank " + std::to_string(rank.rank) + " does not run its " + std::to_string(M) +
                              " micro-batches in 1F1B order");
            for (int item : oneFOneB(std::max(1, s.pp), stage, N)) {
                const bool backward = item < 0;
                const int m = backward ? -item - 1 : item;
                const int src = sourceOf(m);
                const bool original = m < M - 1 || m == N - 1;
                const auto label = static_cast<std::uint32_t>(st) << 20 | (backward ? 1u << 16 : 0u) |
                                   static_cast<std::uint32_t>(m);
                run.sequence.push_back(
                    {unitOf.at(backward ? -(src + 1) : src), original ? kOriginal : label});
            }
            runs.push_back(std::move(run));
        }
        ranks.push_back(rank.rank);
    }
    if (runs.empty()) return ignore("no micro-batch blocks inside the graph's window");
    const Applied applied = applyRuns(g, runs, out, gradient);
    try {
        out.graph.validate();
    } catch (const GraphError& err) {
        return ignore(std::string("the edited graph is not valid (") + err.what() + ")");
    }
    out.active = true;
    out.notes.push_back(
        knob + ": " + std::to_string(M) + " -> " + std::to_string(N) + " micro-batches per step on ranks " +
        idRangesText(ranks) + ": " +
        (N > M ? "micro-batches " + std::to_string(M - 1) + ".." + std::to_string(N - 2) +
                     " are copies of the forward / backward blocks of micro-batches " + runsText(copied) +
                     " and the traced last one (" + std::to_string(M - 1) + ") stays last"
               : "micro-batches " + std::to_string(N - 1) + ".." + std::to_string(M - 2) +
                     " dropped, the traced last one (" + std::to_string(M - 1) + ") stays last") +
        "; 1F1B order rebuilt for " + std::to_string(std::max(1, s.pp)) +
        " stages with the sends and receives");
    if (applied.copiedGroups > 0)
        out.notes.push_back(
            "copied " + std::to_string(applied.copiedGroups) +
            " collectives with their blocks (tensor-parallel all-reduces, pipeline sends and receives)");
    out.notes.push_back(
        "copied micro-batch blocks are simulated but not drawn; dropped ones have no simulated time");
    if (applied.unmatchedCopies > 0)
        out.warnings.push_back(
            knob + ": " + std::to_string(applied.unmatchedCopies) +
            " copied collective kernels have peers outside every copied block: they do not wait for peers");
    return out;
}

SimResult simulateWithBlockEdits(const ExecutionGraph& g, const SimKnobs& knobs, const SimOptions& options) {
    // One block edit per run: model.layers, else pp.microbatches (a copy's measured times are its
    // source's, so the blocks of an edited copy cannot be found again).
    SimKnobs rest = knobs;
    rest.modelLayers = 0;
    rest.ppMicrobatches = 0;
    BlockEdit edit = knobs.modelLayers > 0 ? editBlocks(g, BlockEditKnobs{knobs.modelLayers})
                                           : editMicrobatches(g, knobs.ppMicrobatches);
    if (knobs.modelLayers > 0 && knobs.ppMicrobatches > 0)
        edit.warnings.push_back("pp.microbatches=" + std::to_string(knobs.ppMicrobatches) +
                                " together with model.layers: not combined yet, pp.microbatches ignored");
    SimResult r = simulate(edit.active ? edit.graph : g, rest, options);
    r.warnings.insert(r.warnings.begin(), edit.warnings.begin(), edit.warnings.end());
    r.setup.notes.insert(r.setup.notes.end(), edit.notes.begin(), edit.notes.end());
    if (!edit.active) return r;
    // A block edit keeps the layout. Unless dp.degree already described the new job, report the
    // degrees and coordinates the edit was planned on, not the defaults of an unedited setup (all 1).
    if (!r.setup.edited) {
        const ParallelStructure& layout = edit.structure;
        if (layout.recognised) {
            r.setup.dp = layout.dp;
            r.setup.tp = layout.tp;
            r.setup.pp = layout.pp;
            for (auto& rank : r.setup.ranks)
                if (rank.source < layout.places.size()) {
                    rank.dp = layout.places[rank.source].dp;
                    rank.tp = layout.places[rank.source].tp;
                    rank.pp = layout.places[rank.source].pp;
                }
        }
    }
    r.setup.edited = true;
    // Back onto the caller's graph: its nodes keep their times in the edited run; an edge the
    // edit made (or re-pointed) binds as the caller's edge it came from, a new one as none.
    auto mapEdge = [&](EdgeId id) {
        if (id == kPhantomPeers || id == kAddedRankPeer) return id;
        return id < edit.edgeOrigin.size() ? edit.edgeOrigin[id] : kNoEdge;
    };
    std::vector<NodeTiming> nodes(g.nodes.size());
    TimeNs lastEnd = 0;
    NodeId last = kNoNode;
    for (NodeId i = 0; i < g.nodes.size(); ++i) {
        const NodeId x = edit.nodeOf[i];
        if (x == kNoNode || x >= r.nodes.size()) continue;
        nodes[i] = r.nodes[x];
        nodes[i].startBoundBy = mapEdge(nodes[i].startBoundBy);
        nodes[i].endBoundBy = mapEdge(nodes[i].endBoundBy);
        const TimeNs rel = nodes[i].end - g.ranks[g.nodes[i].rank].origin;
        if (nodes[i].end >= 0 && !r.setup.isDropped(g.nodes[i].rank) && (last == kNoNode || rel > lastEnd)) {
            lastEnd = rel;
            last = i;
        }
    }
    if (r.lastNode >= edit.kept) r.lastAdded = -1; // it ended in a copied block: the loaded ranks' last
    r.lastNode = r.lastNode < edit.kept ? edit.sourceOf[r.lastNode] : last;
    // The added ranks (dp.degree) ran the edited copy of their source: their times go back onto the
    // caller's nodes the same way; copied blocks have none.
    if (!r.addedRanks.empty()) {
        const AddedRankTimes inner = std::move(r.addedRanks);
        AddedRankTimes& out = r.addedRanks;
        out.setupIndex = inner.setupIndex;
        out.source = inner.source;
        out.rankId = inner.rankId;
        out.summary = inner.summary;
        out.indexNodes(g);
        out.start.assign(out.offset.back(), -1);
        out.end.assign(out.offset.back(), -1);
        out.startBy.assign(out.offset.back(), kNoEdge);
        out.endBy.assign(out.offset.back(), kNoEdge);
        auto back = [&](SimNodeRef ref) { // an edited-graph node back to the caller's, if kept
            ref.node = ref.node < edit.kept ? edit.sourceOf[ref.node] : kNoNode;
            return ref;
        };
        for (std::size_t a = 0; a < out.count(); ++a)
            for (NodeId i : out.rankNodes[out.source[a]]) {
                const NodeId x = edit.nodeOf[i];
                if (x == kNoNode || x >= inner.slotOf.size()) continue;
                const SimNodeRef in{x, static_cast<std::int32_t>(a)};
                const std::size_t from = inner.slot(in), to = out.slot({i, static_cast<std::int32_t>(a)});
                out.start[to] = inner.start[from];
                out.end[to] = inner.end[from];
                out.startBy[to] = mapEdge(inner.startBy[from]);
                out.endBy[to] = mapEdge(inner.endBy[from]);
            }
        for (const auto& [key, peer] : inner.heldBy) {
            const SimNodeRef held =
                back({static_cast<NodeId>(key & 0xffffffffu), static_cast<std::int32_t>(key >> 32) - 1});
            const SimNodeRef by = back(peer);
            if (held.valid() && by.valid()) out.heldBy.emplace(AddedRankTimes::key(held), by);
        }
    }
    if (options.timeline)
        for (std::size_t c = edit.kept; c < edit.graph.nodes.size() && c < r.nodes.size(); ++c) {
            const GraphNode& node = edit.graph.nodes[c];
            if ((node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective) || r.nodes[c].start < 0)
                continue;
            r.timeline.added.push_back({node.rank, node.event, r.nodes[c].start, r.nodes[c].end});
        }
    r.nodes = std::move(nodes);
    r.addedEdges = nullptr; // comm.overlap=false's overlay was laid over the edited copy's nodes
    return r;
}

} // namespace sl
