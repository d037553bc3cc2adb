#include "sim/Simulator.h"

#include "models/CollectiveModel.h"
#include "sim/BlockEdits.h"
#include "sim/KnobTiming.h"
#include "sim/NoOverlapTransform.h"
#include "sim/RankVariation.h"
#include "sim/SetupEdits.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sl {

double RankSimSummary::errorPct() const {
    TimeNs m = measured();
    if (m <= 0) return 0;
    return 100.0 * std::abs(static_cast<double>(simulated() - m)) / static_cast<double>(m);
}

double RankSimSummary::gpuSpanErrorPct() const {
    TimeNs m = measuredGpuEnd - measuredGpuStart;
    if (m <= 0) return 0;
    return 100.0 * std::abs(static_cast<double>((simulatedGpuEnd - simulatedGpuStart) - m)) /
           static_cast<double>(m);
}

double SimResult::iterationErrorPct() const {
    if (measuredIteration <= 0) return 0;
    return 100.0 * std::abs(static_cast<double>(simulatedIteration - measuredIteration)) /
           static_cast<double>(measuredIteration);
}

NodeTiming SimResult::timing(SimNodeRef r) const {
    if (r.added < 0) return r.node < nodes.size() ? nodes[r.node] : NodeTiming{};
    const std::size_t s = addedRanks.slot(r);
    NodeTiming t;
    t.start = addedRanks.start[s];
    t.end = addedRanks.end[s];
    t.startBoundBy = addedRanks.startBy[s];
    t.endBoundBy = addedRanks.endBy[s];
    // An added rank's own time: its whole span where nothing held its end, else the source's own
    // time (a collective's transfer, which no rank variation changes).
    t.own = t.endBoundBy == kNoEdge ? t.end - t.start : (r.node < nodes.size() ? nodes[r.node].own : 0);
    return t;
}

void AddedRankTimes::indexNodes(const ExecutionGraph& g) {
    rankNodes.assign(g.trace->ranks.size(), {});
    slotOf.assign(g.nodes.size(), 0);
    for (NodeId i = 0; i < g.nodes.size(); ++i) {
        auto& list = rankNodes[g.nodes[i].rank];
        slotOf[i] = static_cast<std::uint32_t>(list.size());
        list.push_back(i);
    }
    offset.assign(count() + 1, 0);
    for (std::size_t a = 0; a < count(); ++a)
        offset[a + 1] = offset[a] + rankNodes[source[a]].size();
}

int SimResult::rankId(const ExecutionGraph& g, SimNodeRef r) const {
    if (r.added >= 0) return addedRanks.rankId[static_cast<std::size_t>(r.added)];
    return g.trace->ranks[g.nodes[r.node].rank].rank;
}

SimNodeRef SimResult::heldBy(SimNodeRef r) const {
    auto it = addedRanks.heldBy.find(AddedRankTimes::key(r));
    return it == addedRanks.heldBy.end() ? SimNodeRef{} : it->second;
}

namespace {

constexpr TimeNs kMinTime = std::numeric_limits<TimeNs>::min() / 4;

// The job's ranks as the scheduler sees them: the loaded ranks own the graph's node ids [0, n); each
// added rank owns a run of virtual ids after them, one per node of its source rank
// (docs/AddedRanks.md). With added ranks, collectives meet in rendezvous: one per matched
// collective and replica (one for all replicas when the group spans them), so an added rank's copy
// meets the members of its own group in the new job.
struct JobLayout {
    std::size_t n = 0;     // graph nodes
    std::size_t total = 0; // n + every added rank's slots
    // Rendezvous (with added ranks only): per virtual collective node, its rendezvous; members CSR.
    std::vector<std::uint32_t> rdvOfNode;   // per graph node (loaded ranks), or kNone
    std::vector<std::uint32_t> collIndex;   // per graph node: position among its rank's rendezvous nodes
    std::vector<std::size_t> addedCollBase; // per added rank: first entry in rdvOfAdded
    std::vector<std::uint32_t> rdvOfAdded;
    std::vector<std::size_t> rdvOffsets;
    std::vector<std::uint64_t> rdvMembers; // virtual ids
    static constexpr std::uint32_t kNone = 0xffffffffu;

    bool rendezvous() const { return !rdvOffsets.empty(); }
};

// Fills AddedRankTimes' layout (source, offsets, slots) and the rendezvous of the added ranks' job.
JobLayout layoutJob(const ExecutionGraph& g, const SetupEditPlan& plan,
                    const std::vector<CollectiveCall>& calls, AddedRankTimes& added) {
    JobLayout L;
    L.n = g.nodes.size();
    L.total = L.n;
    const auto& setup = plan.setup;
    for (std::uint32_t i = 0; i < setup.ranks.size(); ++i)
        if (!setup.ranks[i].measured) {
            added.setupIndex.push_back(i);
            added.source.push_back(setup.ranks[i].source);
            added.rankId.push_back(setup.ranks[i].rank);
        }
    if (added.empty()) return L;
    const std::size_t R = g.trace->ranks.size();
    added.indexNodes(g);
    L.total = L.n + added.offset.back();

    // Which matched collectives join every replica (CallResize::replicated).
    std::vector<std::uint8_t> replicated(g.collectives.size(), 0);
    for (std::size_t c = 0; c < calls.size() && c < plan.calls.size(); ++c) {
        const NodeId node = calls[c].node;
        if (node < L.n && plan.calls[c].replicated && g.nodes[node].collective < g.collectives.size())
            replicated[g.nodes[node].collective] = 1;
    }
    auto inRendezvous = [&](NodeId x) {
        const std::uint32_t gi = g.nodes[x].collective;
        return gi < g.collectives.size() && g.collectives[gi].complete;
    };
    std::vector<std::uint32_t> collCount(R, 0);
    L.collIndex.assign(L.n, JobLayout::kNone);
    for (NodeId i = 0; i < L.n; ++i)
        if (inRendezvous(i)) L.collIndex[i] = collCount[g.nodes[i].rank]++;
    std::unordered_map<std::uint64_t, std::uint32_t> rdvIds;
    std::vector<std::uint32_t> rdvSize;
    auto rdvFor = [&](NodeId x, int dp) {
        const std::uint32_t gi = g.nodes[x].collective;
        const std::uint64_t key =
            (static_cast<std::uint64_t>(gi) << 32) | static_cast<std::uint32_t>(replicated[gi] ? -1 : dp);
        auto [it, fresh] = rdvIds.try_emplace(key, static_cast<std::uint32_t>(rdvSize.size()));
        if (fresh) rdvSize.push_back(0);
        ++rdvSize[it->second];
        return it->second;
    };
    std::vector<int> loadedDp(R, 0);
    for (const auto& r : setup.ranks)
        if (r.measured) loadedDp[r.source] = r.dp;
    L.rdvOfNode.assign(L.n, JobLayout::kNone);
    for (NodeId i = 0; i < L.n; ++i)
        if (L.collIndex[i] != JobLayout::kNone && !setup.isDropped(g.nodes[i].rank))
            L.rdvOfNode[i] = rdvFor(i, loadedDp[g.nodes[i].rank]);
    L.addedCollBase.assign(added.count() + 1, 0);
    for (std::size_t a = 0; a < added.count(); ++a)
        L.addedCollBase[a + 1] = L.addedCollBase[a] + collCount[added.source[a]];
    L.rdvOfAdded.assign(L.addedCollBase.back(), JobLayout::kNone);
    for (std::size_t a = 0; a < added.count(); ++a) {
        const int dp = setup.ranks[added.setupIndex[a]].dp;
        for (NodeId x : added.rankNodes[added.source[a]])
            if (L.collIndex[x] != JobLayout::kNone)
                L.rdvOfAdded[L.addedCollBase[a] + L.collIndex[x]] = rdvFor(x, dp);
    }
    L.rdvOffsets.assign(rdvSize.size() + 1, 0);
    for (std::size_t r = 0; r < rdvSize.size(); ++r)
        L.rdvOffsets[r + 1] = L.rdvOffsets[r] + rdvSize[r];
    L.rdvMembers.assign(L.rdvOffsets.back(), 0);
    std::vector<std::size_t> fillAt(L.rdvOffsets.begin(), L.rdvOffsets.end() - 1);
    for (NodeId i = 0; i < L.n; ++i)
        if (L.rdvOfNode[i] != JobLayout::kNone) L.rdvMembers[fillAt[L.rdvOfNode[i]]++] = i;
    for (std::size_t a = 0; a < added.count(); ++a)
        for (NodeId x : added.rankNodes[added.source[a]])
            if (L.collIndex[x] != JobLayout::kNone)
                L.rdvMembers[fillAt[L.rdvOfAdded[L.addedCollBase[a] + L.collIndex[x]]]++] =
                    L.n + added.offset[a] + added.slotOf[x];
    return L;
}

void fillTimeline(const ExecutionGraph& g, SimResult& res) {
    const auto& set = *g.trace;
    res.timeline.ranks.resize(set.ranks.size());
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        auto& tr = res.timeline.ranks[r];
        tr.resize(rank.tracks.size());
        for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
            const auto& ev = rank.tracks[ti].events;
            const auto& idx = g.nodeIndex[r][ti];
            auto& out = tr[ti];
            out.start.assign(ev.size(), -1);
            out.duration.assign(ev.size(), -1);
            // Node anchors of this track: (measured start, shift).
            std::vector<std::pair<TimeNs, TimeNs>> anchors;
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                NodeId n = idx[i];
                if (n == kNoNode || n == kOutsideWindow) continue;
                const auto& nt = res.nodes[n];
                if (nt.start < 0) continue;
                out.start[i] = nt.start;
                out.duration[i] = nt.end - nt.start;
                anchors.push_back({ev.start[i], nt.start - ev.start[i]});
            }
            auto shiftAt = [&](TimeNs t) -> TimeNs {
                if (anchors.empty()) return 0;
                auto it = std::upper_bound(anchors.begin(), anchors.end(), t,
                                           [](TimeNs v, const auto& a) { return v < a.first; });
                if (it == anchors.begin()) return anchors.front().second;
                return std::prev(it)->second;
            };
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                NodeId n = idx[i];
                if (n != kNoNode) continue; // a node, or outside the window
                TimeNs s = ev.start[i] + shiftAt(ev.start[i]);
                TimeNs e = ev.end(i) + shiftAt(ev.end(i));
                out.start[i] = s;
                out.duration[i] = std::max<TimeNs>(0, e - s);
            }
        }
    }
}

} // namespace

SimResult simulate(const ExecutionGraph& g, const SimKnobs& knobs, const SimOptions& options) {
    // Block edits (model.layers, pp.microbatches) simulate an edited copy of the graph
    // (sim/BlockEdits.h).
    if (knobs.modelLayers > 0 || knobs.ppMicrobatches > 0) return simulateWithBlockEdits(g, knobs, options);
    SimResult res;
    for (const auto& u : knobs.unsupported())
        res.warnings.push_back("knob " + u + " is not simulated yet; it was ignored");
    const std::size_t n = g.nodes.size();
    const std::size_t R = g.trace->ranks.size();
    const int gpusPerNode = gpusPerNodeOf(*g.trace, knobs.commGpusPerNode);
    // Setup edits (dp.degree, dp.strong): the plan of the new job (sim/SetupEdits.h).
    SetupEditPlan plan;
    std::vector<CollectiveCall> calls;
    if (knobs.dpDegree > 0 || knobs.dpStrong) {
        calls = collectiveCalls(g);
        plan = planSetupEdits(g, SetupKnobs{knobs.dpDegree, knobs.dpStrong}, calls, gpusPerNode);
        res.warnings.insert(res.warnings.end(), plan.warnings.begin(), plan.warnings.end());
    } else {
        plan.setup = measuredSetup(g);
    }
    // Stragglers, slow nodes and jitter of every rank of the job (throws on a rank it lacks).
    const std::vector<RankVariation> variation = rankVariations(plan.setup, knobs, gpusPerNode);
    if (knobs.jitterSeed != SimKnobs{}.jitterSeed && knobs.jitterPct <= 0)
        res.warnings.push_back("jitter.seed without jitter.pct changes nothing");
    std::vector<RankVariation> loadedVar(R);
    for (std::size_t i = 0; i < plan.setup.ranks.size(); ++i)
        if (plan.setup.ranks[i].measured) loadedVar[plan.setup.ranks[i].source] = variation[i];
    const KnobTiming timing(g, knobs, plan, res.warnings);
    res.gpuSwap = timing.swap();
    AddedRankTimes& added = res.addedRanks;
    const JobLayout L = layoutJob(g, plan, calls, added);
    std::vector<RankVariation> addedVar(added.count());
    for (std::size_t a = 0; a < added.count(); ++a)
        addedVar[a] = variation[added.setupIndex[a]];
    const bool meet = L.rendezvous(); // collectives meet in rendezvous, not along graph edges
    const std::size_t N = L.total;

    // The loaded ranks' values, once; an added rank's are asked for as it runs.
    std::vector<TimeNs> duration(n), delay(g.edges.size());
    for (NodeId i = 0; i < n; ++i)
        duration[i] = timing.duration(i, loadedVar[g.nodes[i].rank]);
    for (EdgeId e = 0; e < g.edges.size(); ++e)
        delay[e] = timing.delay(e, loadedVar[g.nodes[g.edges[e].to].rank]);
    auto addedOf = [&](std::size_t u) {
        return static_cast<std::size_t>(std::upper_bound(added.offset.begin(), added.offset.end(), u - n) -
                                        added.offset.begin() - 1);
    };
    auto nodeOf = [&](std::size_t u, std::size_t a) {
        return added.rankNodes[added.source[a]][u - n - added.offset[a]];
    };
    auto durationOf = [&](std::size_t u) {
        if (u < n) return duration[u];
        const std::size_t a = addedOf(u);
        return timing.duration(nodeOf(u, a), addedVar[a]);
    };

    // comm.overlap=false: serialization edges laid over the graph (sim/NoOverlapTransform.h).
    std::shared_ptr<const NoOverlapEdges> serial;
    if (!knobs.commOverlap) {
        serial = noOverlapEdgesFor(g);
        if (serial->overlay.empty())
            res.warnings.push_back(serial->unavailable);
        else
            res.addedEdges = std::shared_ptr<const EdgeOverlay>(serial, &serial->overlay);
    }
    const EdgeOverlay* overlay = res.addedEdges.get();

    // Times are relative to each rank's origin during the run ("simulated clock").
    std::vector<TimeNs> tS(N), edgeEnd(N, kMinTime), start(N, -1), end(N, -1);
    std::vector<std::uint32_t> pendS(N, 0), pendE(N, 1);
    std::vector<EdgeId> startBy(N, kNoEdge), endBy(N, kNoEdge);
    // Peers outside the rank set (phantoms): with peers.model=follow they reach the collective the
    // measured skew after this rank does, so job-wide knobs move them with it; on a straggler rank,
    // and with peers.model=measured, they arrive when they did (docs/ARCHITECTURE.md, "Collectives
    // and phantom peers").
    const bool followPeers = knobs.peersModel != "measured";
    std::vector<std::uint8_t> followsPeers; // per virtual node with phantom peers
    auto initNode = [&](std::size_t u, NodeId i, const RankVariation& v) {
        const GraphNode& gn = g.nodes[i];
        tS[u] = timing.release(i, v);
        if (gn.phantomArrival < 0) return;
        if (followPeers && !v.straggling) {
            if (followsPeers.empty()) followsPeers.assign(N, 0);
            followsPeers[u] = 1;
            return;
        }
        edgeEnd[u] = gn.phantomArrival + (u < n ? duration[u] : timing.duration(i, v));
        endBy[u] = kPhantomPeers;
    };
    auto phantomSkew = [&](NodeId i) {
        return g.nodes[i].phantomArrival - (g.measuredStart(i) - g.ranks[g.nodes[i].rank].origin);
    };
    // Pending causes per graph node (a collective edge counts only without rendezvous).
    std::vector<std::uint32_t> pendS0(n, 0), pendE0(n, 1);
    auto pending = [&](const GraphEdge& e) {
        if (meet && e.kind == EdgeKind::Collective) return;
        ++(e.gatesEnd() ? pendE0[e.to] : pendS0[e.to]);
    };
    for (const auto& e : g.edges)
        pending(e);
    if (overlay)
        for (const auto& e : overlay->edges)
            pending(e);
    if (meet)
        for (NodeId i = 0; i < n; ++i)
            if (L.collIndex[i] != JobLayout::kNone) ++pendE0[i];
    for (NodeId i = 0; i < n; ++i) {
        pendS[i] = pendS0[i];
        pendE[i] = pendE0[i];
        initNode(i, i, loadedVar[g.nodes[i].rank]);
    }
    for (std::size_t a = 0; a < added.count(); ++a) {
        const auto& list = added.rankNodes[added.source[a]];
        for (std::size_t s = 0; s < list.size(); ++s) {
            const std::size_t u = n + added.offset[a] + s;
            pendS[u] = pendS0[list[s]];
            pendE[u] = pendE0[list[s]];
            initNode(u, list[s], addedVar[a]);
        }
    }
    // Rendezvous state: members still to arrive, the latest arrival and who it was.
    std::vector<std::uint32_t> rdvLeft(L.rdvOffsets.empty() ? 0 : L.rdvOffsets.size() - 1);
    std::vector<TimeNs> rdvLatest(rdvLeft.size(), kMinTime);
    std::vector<std::uint64_t> rdvWinner(rdvLeft.size(), 0);
    for (std::size_t r = 0; r < rdvLeft.size(); ++r)
        rdvLeft[r] = static_cast<std::uint32_t>(L.rdvOffsets[r + 1] - L.rdvOffsets[r]);
    auto rdvOf = [&](std::size_t u, NodeId i, std::size_t a) {
        if (u < n) return L.rdvOfNode[u];
        const std::uint32_t c = L.collIndex[i];
        return c == JobLayout::kNone ? c : L.rdvOfAdded[L.addedCollBase[a] + c];
    };
    // The graph edge from loaded member w to loaded member m, else kAddedRankPeer (heldBy).
    auto peerEdge = [&](std::uint64_t w, std::size_t m) -> EdgeId {
        if (w < n && m < n)
            for (EdgeId id : g.inEdges(static_cast<NodeId>(m)))
                if (g.edges[id].kind == EdgeKind::Collective && g.edges[id].from == w) return id;
        return kAddedRankPeer;
    };

    // Worklist of vertices: 2u = start of u ready, 2u+1 = end of u ready.
    std::vector<std::uint64_t> work;
    work.reserve(1024);
    for (std::size_t u = 0; u < N; ++u)
        if (pendS[u] == 0) work.push_back(2 * u);
    std::size_t processed = 0;
    const auto* edges = g.edges.data();
    const auto* outOff = g.outOffsets.data();
    const auto* outIds = g.outEdgeIds.data();
    while (!work.empty()) {
        if (options.cancel && (processed & 0xffff) == 0 && options.cancel->load(std::memory_order_relaxed)) {
            res.complete = false;
            return res;
        }
        const std::uint64_t vtx = work.back();
        work.pop_back();
        ++processed;
        const std::size_t u = vtx >> 1;
        const bool isEnd = vtx & 1;
        // The graph node u runs, and the added rank it runs on (or none).
        std::size_t a = 0;
        NodeId node = static_cast<NodeId>(u);
        std::size_t base = 0; // an added rank: the virtual id of its slot 0
        if (u >= n) {
            a = addedOf(u);
            node = nodeOf(u, a);
            base = n + added.offset[a];
        }
        TimeNs at;
        if (!isEnd) {
            start[u] = at = tS[u];
            if (!followsPeers.empty() && followsPeers[u]) {
                const TimeNs peersDone = at + phantomSkew(node) + durationOf(u);
                if (peersDone > edgeEnd[u]) {
                    edgeEnd[u] = peersDone;
                    endBy[u] = kPhantomPeers;
                }
            }
            if (meet) {
                const std::uint32_t r = rdvOf(u, node, a);
                if (r != JobLayout::kNone) {
                    if (at > rdvLatest[r]) {
                        rdvLatest[r] = at;
                        rdvWinner[r] = u;
                    }
                    if (--rdvLeft[r] == 0) // everyone arrived: transfers end together
                        for (std::size_t k = L.rdvOffsets[r]; k < L.rdvOffsets[r + 1]; ++k) {
                            const std::size_t m = L.rdvMembers[k];
                            const TimeNs val = rdvLatest[r] + durationOf(m);
                            if (val > edgeEnd[m]) {
                                edgeEnd[m] = val;
                                endBy[m] = peerEdge(rdvWinner[r], m);
                            }
                            if (--pendE[m] == 0) work.push_back(2 * m + 1);
                        }
                }
            }
        } else {
            const TimeNs own = start[u] + durationOf(u);
            if (own >= edgeEnd[u]) {
                end[u] = own;
                endBy[u] = kNoEdge;
            } else {
                end[u] = edgeEnd[u];
            }
            at = end[u];
        }
        auto relax = [&](const GraphEdge& e, EdgeId id, TimeNs d) {
            if (e.triggeredByStart() == isEnd) return;
            if (meet && e.kind == EdgeKind::Collective) return;
            const TimeNs val = at + d;
            const std::size_t to = u < n ? e.to : base + added.slotOf[e.to];
            if (e.gatesEnd()) {
                if (val > edgeEnd[to]) {
                    edgeEnd[to] = val;
                    endBy[to] = id;
                }
                if (--pendE[to] == 0) work.push_back(2 * to + 1);
            } else {
                if (val > tS[to] || (val == tS[to] && startBy[to] == kNoEdge)) {
                    tS[to] = val;
                    startBy[to] = id;
                }
                if (--pendS[to] == 0) work.push_back(2 * to);
            }
        };
        if (u < n)
            for (std::uint32_t k = outOff[node]; k < outOff[node + 1]; ++k)
                relax(edges[outIds[k]], outIds[k], delay[outIds[k]]);
        else
            for (std::uint32_t k = outOff[node]; k < outOff[node + 1]; ++k)
                relax(edges[outIds[k]], outIds[k], timing.delay(outIds[k], addedVar[a]));
        if (overlay) // overlay edges keep their delay under every knob
            for (std::uint32_t k = overlay->outOffsets[node]; k < overlay->outOffsets[node + 1]; ++k) {
                const GraphEdge& e = overlay->edges[overlay->outIds[k]];
                relax(e, static_cast<EdgeId>(g.edges.size() + overlay->outIds[k]), e.delay);
            }
        if (!isEnd && --pendE[u] == 0) work.push_back(2 * u + 1);
    }
    if (processed != 2 * N) {
        res.complete = false;
        res.warnings.push_back("the simulation could not schedule every node (dependency cycle); unscheduled "
                               "nodes have no simulated time");
    }

    // Back to each rank's clock.
    TimeNs lastEnd = kMinTime;
    res.nodes.assign(n, NodeTiming{});
    for (std::size_t i = 0; i < n; ++i) {
        auto& nt = res.nodes[i];
        if (start[i] < 0 || end[i] < 0) continue;
        TimeNs origin = g.ranks[g.nodes[i].rank].origin;
        nt.own = duration[i];
        nt.start = start[i] + origin;
        nt.end = end[i] + origin;
        nt.startBoundBy = startBy[i];
        nt.endBoundBy = endBy[i];
        if (end[i] > lastEnd && !plan.setup.isDropped(g.nodes[i].rank)) {
            lastEnd = end[i];
            res.lastNode = static_cast<NodeId>(i);
        }
    }
    if (!added.empty()) {
        const std::size_t slots = N - n;
        added.start.assign(slots, -1);
        added.end.assign(slots, -1);
        added.startBy.assign(startBy.begin() + static_cast<std::ptrdiff_t>(n), startBy.end());
        added.endBy.assign(endBy.begin() + static_cast<std::ptrdiff_t>(n), endBy.end());
        for (std::size_t a = 0; a < added.count(); ++a) {
            const TimeNs origin = g.ranks[added.source[a]].origin;
            for (std::size_t s = added.offset[a]; s < added.offset[a + 1]; ++s) {
                const std::size_t u = n + s;
                if (start[u] < 0 || end[u] < 0) {
                    added.startBy[s] = added.endBy[s] = kNoEdge;
                    continue;
                }
                added.start[s] = start[u] + origin;
                added.end[s] = end[u] + origin;
                if (end[u] > lastEnd) {
                    lastEnd = end[u];
                    res.lastNode = nodeOf(u, a);
                    res.lastAdded = static_cast<std::int32_t>(a);
                }
            }
        }
        // Who held the collectives that no graph edge explains.
        auto refOf = [&](std::uint64_t u) {
            if (u < n) return SimNodeRef{static_cast<NodeId>(u), -1};
            const std::size_t a = addedOf(u);
            return SimNodeRef{nodeOf(u, a), static_cast<std::int32_t>(a)};
        };
        for (std::size_t r = 0; r < rdvLeft.size(); ++r)
            for (std::size_t k = L.rdvOffsets[r]; k < L.rdvOffsets[r + 1]; ++k)
                if (endBy[L.rdvMembers[k]] == kAddedRankPeer)
                    added.heldBy.emplace(AddedRankTimes::key(refOf(L.rdvMembers[k])), refOf(rdvWinner[r]));
    }

    fillTimeline(g, res);

    // Per-rank iteration: first start to last end of the modelled nodes, measured and simulated
    // alike (events the graph does not model never pin it); the GPU span likewise over GPU ops.
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
        if (!plan.setup.isDropped(r))
            res.simulatedIteration = std::max(res.simulatedIteration, s.simulated());
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

    // Start-time error of GPU ops; pre-window ops are boundary conditions (released at their
    // measured start) and would flatter the figure.
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
    res.kernelStartError.count = static_cast<std::int64_t>(errs.size());
    if (!errs.empty()) {
        auto at = [](std::vector<double>& v, double q) {
            auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
            return v[k];
        };
        res.kernelStartError.medianUs = at(errs, 0.5);
        res.kernelStartError.p90Us = at(errs, 0.9);
        res.kernelStartError.maxUs = *std::max_element(errs.begin(), errs.end());
        res.kernelStartError.medianPct = at(pcts, 0.5);
        res.kernelStartError.p90Pct = at(pcts, 0.9);
        res.kernelStartError.within1PctShare =
            static_cast<double>(std::count_if(pcts.begin(), pcts.end(), [](double v) { return v <= 1.0; })) /
            static_cast<double>(pcts.size());
    }
    if (!options.timeline) res.timeline = {};
    res.setup = std::move(plan.setup);
    return res;
}

} // namespace sl
