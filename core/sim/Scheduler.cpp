#include "sim/Scheduler.h"

#include <algorithm>

namespace sl {

namespace {

// `v` as `n` copies of `value`, filled in pieces with a look at `cancel` between them (false: it was
// raised). The job's per-vertex state is about 48 bytes a node: 100 MB for the 4-rank sample at
// dp.degree=4096, whose first touch takes about 0.1 s, longer than closing the window should.
template <class T>
bool fillUnlessCancelled(std::vector<T>& v, std::size_t n, T value, const std::atomic<bool>* cancel) {
    constexpr std::size_t kPiece = std::size_t{1} << 18;
    v.clear();
    v.reserve(n);
    while (v.size() < n) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        v.resize(std::min(n, v.size() + kPiece), value);
    }
    return true;
}

} // namespace

Schedule scheduleJob(const ScheduleInputs& in) {
    Schedule out;
    const ExecutionGraph& g = in.g;
    const KnobTiming& timing = in.timing;
    const JobLayout& L = in.layout;
    const AddedRankTimes& added = in.added;
    const std::vector<RankVariation>& loadedVar = in.loadedVar;
    const std::vector<RankVariation>& addedVar = in.addedVar;
    const EdgeOverlay* overlay = in.overlay;
    const std::size_t n = L.n;
    const std::size_t N = L.total;
    const bool meet = L.rendezvous(); // collectives meet in rendezvous, not along graph edges
    // The variation of the rank a node runs on: its trace rank's (or added rank's), per lane.
    const std::size_t K = in.lanes;
    auto laneOf = [&](NodeId i) -> std::size_t { return in.laneOf ? (*in.laneOf)[i] : 0; };
    auto loadedV = [&](NodeId i) -> const RankVariation& {
        return loadedVar[g.nodes[i].rank * K + laneOf(i)];
    };
    auto addedV = [&](std::size_t a, NodeId i) -> const RankVariation& {
        return addedVar[a * K + laneOf(i)];
    };

    // The loaded ranks' values, once; an added rank's are asked for as it runs.
    std::vector<TimeNs>& duration = out.duration;
    duration.resize(n);
    std::vector<TimeNs> delay(g.edges.size());
    for (NodeId i = 0; i < n; ++i)
        duration[i] = timing.duration(i, loadedV(i));
    for (EdgeId e = 0; e < g.edges.size(); ++e)
        delay[e] = timing.delay(e, loadedV(g.edges[e].to));
    auto nodeOf = [&](std::size_t u, std::size_t a) {
        return added.rankNodes[added.source[a]][u - n - added.offset[a]];
    };
    // Own time of virtual node u, which runs graph node `node` on added rank a (u >= n).
    auto durationOn = [&](std::size_t u, NodeId node, std::size_t a) {
        return u < n ? duration[u] : timing.duration(node, addedV(a, node));
    };

    // Times are relative to each rank's origin during the run ("simulated clock"). A node's start
    // is the latest release of its start edges, final once the last of them arrived; its end likewise
    // from its end edges and its own time: so each array holds the bound while it is pending and
    // the time once decided (8 bytes a node less each; a node never decided is -1 at the end).
    std::vector<TimeNs>& tS = out.start;
    std::vector<TimeNs>& edgeEnd = out.end;
    std::vector<std::uint32_t> pendS, pendE;
    std::vector<EdgeId>& startBy = out.startBy;
    std::vector<EdgeId>& endBy = out.endBy;
    const std::atomic<bool>* cancel = in.cancel;
    if (!fillUnlessCancelled(tS, N, TimeNs{0}, cancel) ||
        !fillUnlessCancelled(edgeEnd, N, kMinTime, cancel) ||
        !fillUnlessCancelled(pendS, N, std::uint32_t{0}, cancel) ||
        !fillUnlessCancelled(pendE, N, std::uint32_t{1}, cancel) ||
        !fillUnlessCancelled(startBy, N, kNoEdge, cancel) ||
        !fillUnlessCancelled(endBy, N, kNoEdge, cancel)) {
        out.cancelled = true;
        return out;
    }
    // Peers outside the rank set (phantoms): with peers.model=follow they reach the collective the
    // measured skew after this rank does, so job-wide knobs move them with it; on a straggler rank,
    // and with peers.model=measured, they arrive when they did (docs/ARCHITECTURE.md, "Collectives
    // and phantom peers").
    const bool followPeers = in.followPeers;
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
        initNode(i, i, loadedV(i));
    }
    for (std::size_t a = 0; a < added.count(); ++a) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            out.cancelled = true;
            return out;
        }
        const auto& list = added.rankNodes[added.source[a]];
        for (std::size_t s = 0; s < list.size(); ++s) {
            const std::size_t u = n + added.offset[a] + s;
            pendS[u] = pendS0[list[s]];
            pendE[u] = pendE0[list[s]];
            initNode(u, list[s], addedV(a, list[s]));
        }
    }
    // Rendezvous state: members still to arrive, the latest arrival and who it was.
    std::vector<std::uint32_t> rdvLeft(L.rdvOffsets.empty() ? 0 : L.rdvOffsets.size() - 1);
    std::vector<TimeNs> rdvLatest(rdvLeft.size(), kMinTime);
    std::vector<std::uint64_t>& rdvWinner = out.rdvWinner;
    rdvWinner.assign(rdvLeft.size(), 0);
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

    // Worklist of vertices: 2u = start of u ready, 2u+1 = end of u ready, with the added rank u
    // runs on (0 for a loaded rank's node): a vertex's successors are on its rank, so the rank is
    // looked up only for the members a rendezvous releases.
    struct Ready {
        std::uint64_t vtx;
        std::size_t added;
    };
    std::vector<Ready> work;
    work.reserve(1024);
    for (std::size_t u = 0; u < n; ++u)
        if (pendS[u] == 0) work.push_back({2 * u, 0});
    for (std::size_t a = 0; a < added.count(); ++a)
        for (std::size_t u = n + added.offset[a]; u < n + added.offset[a + 1]; ++u)
            if (pendS[u] == 0) work.push_back({2 * u, a});
    std::size_t processed = 0;
    const auto* edges = g.edges.data();
    const auto* outOff = g.outOffsets.data();
    const auto* outIds = g.outEdgeIds.data();
    while (!work.empty()) {
        if (cancel && (processed & 0xffff) == 0 && cancel->load(std::memory_order_relaxed)) {
            out.cancelled = true;
            return out;
        }
        const std::uint64_t vtx = work.back().vtx;
        const std::size_t onAdded = work.back().added;
        work.pop_back();
        ++processed;
        const std::size_t u = vtx >> 1;
        const bool isEnd = vtx & 1;
        // The graph node u runs, and the added rank it runs on (or none).
        std::size_t a = 0;
        NodeId node = static_cast<NodeId>(u);
        std::size_t base = 0; // an added rank: the virtual id of its slot 0
        if (u >= n) {
            a = onAdded;
            node = nodeOf(u, a);
            base = n + added.offset[a];
        }
        TimeNs at;
        if (!isEnd) {
            at = tS[u];
            if (!followsPeers.empty() && followsPeers[u]) {
                const TimeNs peersDone = at + phantomSkew(node) + durationOn(u, node, a);
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
                            const SimNodeRef ref = L.refOf(m, added); // its graph node and added rank
                            const std::size_t am = ref.added < 0 ? 0 : static_cast<std::size_t>(ref.added);
                            const TimeNs val = rdvLatest[r] + durationOn(m, ref.node, am);
                            if (val > edgeEnd[m]) {
                                edgeEnd[m] = val;
                                endBy[m] = peerEdge(rdvWinner[r], m);
                            }
                            if (--pendE[m] == 0) work.push_back({2 * m + 1, am});
                        }
                }
            }
        } else {
            const TimeNs own = tS[u] + durationOn(u, node, a);
            if (own >= edgeEnd[u]) {
                edgeEnd[u] = own;
                endBy[u] = kNoEdge;
            }
            at = edgeEnd[u];
        }
        // Whether edge e fires now: from this vertex's kind, and not a collective edge where
        // collectives meet in rendezvous.
        auto fires = [&](const GraphEdge& e) {
            return e.triggeredByStart() != isEnd && !(meet && e.kind == EdgeKind::Collective);
        };
        auto relax = [&](const GraphEdge& e, EdgeId id, TimeNs d) {
            if (!fires(e)) return;
            const TimeNs val = at + d;
            const std::size_t to = u < n ? e.to : base + added.slotOf[e.to];
            if (e.gatesEnd()) {
                if (val > edgeEnd[to]) {
                    edgeEnd[to] = val;
                    endBy[to] = id;
                }
                if (--pendE[to] == 0) work.push_back({2 * to + 1, a});
            } else {
                if (val > tS[to] || (val == tS[to] && startBy[to] == kNoEdge)) {
                    tS[to] = val;
                    startBy[to] = id;
                }
                if (--pendS[to] == 0) work.push_back({2 * to, a});
            }
        };
        if (u < n)
            for (std::uint32_t k = outOff[node]; k < outOff[node + 1]; ++k)
                relax(edges[outIds[k]], outIds[k], delay[outIds[k]]);
        else
            for (std::uint32_t k = outOff[node]; k < outOff[node + 1]; ++k) {
                const GraphEdge& e = edges[outIds[k]];
                if (fires(e))
                    relax(e, outIds[k], timing.delay(outIds[k], addedV(a, e.to))); // delay only if it fires
            }
        if (overlay) // overlay edges keep their delay under every knob
            for (std::uint32_t k = overlay->outOffsets[node]; k < overlay->outOffsets[node + 1]; ++k) {
                const GraphEdge& e = overlay->edges[overlay->outIds[k]];
                relax(e, static_cast<EdgeId>(g.edges.size() + overlay->outIds[k]), e.delay);
            }
        if (!isEnd && --pendE[u] == 0) work.push_back({2 * u + 1, a});
    }
    out.complete = processed == 2 * N;
    if (!out.complete)
        for (std::size_t u = 0; u < N; ++u) {
            if (pendS[u] != 0) tS[u] = -1;
            if (pendE[u] != 0) edgeEnd[u] = -1;
        }
    return out;
}

} // namespace sl
