#include "sim/Scheduler.h"

#include "base/ParallelFor.h"
#include "base/Prefault.h"
#include "sim/AddedRankProgram.h"

#include <algorithm>

namespace sl {

namespace {

// `v` with `count` more copies of `value`, appended in pieces with a look at `cancel` between them
// (false: it was raised). The job's per-vertex state is about 26 bytes a node: at 131,072 ranks
// 1.8 GB, whose first touch takes longer than closing the window should.
template <class T>
bool appendUnlessCancelled(std::vector<T>& v, std::size_t count, T value, const std::atomic<bool>* cancel) {
    constexpr std::size_t kPiece = std::size_t{1} << 18;
    const std::size_t n = v.size() + count;
    v.reserve(n);
    while (v.size() < n) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        v.resize(std::min(n, v.size() + kPiece), value);
    }
    return true;
}

// Pending causes per graph node (a collective edge counts only without rendezvous; a rendezvous
// node waits for its rendezvous too).
struct Pending {
    std::vector<std::uint32_t> start, end;
};
Pending pendingCauses(const ScheduleInputs& in) {
    const ExecutionGraph& g = in.g;
    const JobLayout& L = in.layout;
    const bool meet = L.rendezvous();
    Pending p{std::vector<std::uint32_t>(L.n, 0), std::vector<std::uint32_t>(L.n, 1)};
    auto count = [&](const GraphEdge& e) {
        if (meet && e.kind == EdgeKind::Collective) return;
        ++(e.gatesEnd() ? p.end[e.to] : p.start[e.to]);
    };
    for (const auto& e : g.edges)
        count(e);
    if (in.overlay)
        for (const auto& e : in.overlay->edges)
            count(e);
    if (meet)
        for (NodeId i = 0; i < L.n; ++i)
            if (L.collIndex[i] != JobLayout::kNone) ++p.end[i];
    return p;
}

// Count: the type of an added slot's pending causes (one byte where every node has fewer than 256:
// at 131,072 ranks 0.5 GB less to touch than four bytes each).
template <class Count> Schedule scheduleWith(const ScheduleInputs& in, Pending pending) {
    Schedule out;
    const ExecutionGraph& g = in.g;
    const KnobTiming& timing = in.timing;
    const JobLayout& L = in.layout;
    const AddedRankTimes& added = in.added;
    const std::vector<RankVariation>& loadedVar = in.loadedVar;
    const std::vector<RankVariation>& addedVar = in.addedVar;
    // The variation of the rank a node runs on: its trace rank's (or added rank's), per lane
    // (pp.degree: each lane of a column is a rank of the job).
    const std::size_t K = in.lanes;
    auto laneOf = [&](NodeId i) -> std::size_t { return in.laneOf ? (*in.laneOf)[i] : 0; };
    auto loadedV = [&](NodeId i) -> const RankVariation& {
        return loadedVar[g.nodes[i].rank * K + laneOf(i)];
    };
    auto addedV = [&](std::size_t a, NodeId i) -> const RankVariation& {
        return addedVar[a * K + laneOf(i)];
    };
    // Whether every node of added rank a runs on a host at x1 (its delays and releases as the
    // program has them): every lane's.
    auto hostX1 = [&](std::size_t a) {
        for (std::size_t k = 0; k < K; ++k)
            if (addedVar[a * K + k].host != 1.0) return false;
        return true;
    };
    const EdgeOverlay* overlay = in.overlay;
    const std::size_t n = L.n;
    const std::size_t N = L.total;
    const bool meet = L.rendezvous(); // collectives meet in rendezvous, not along graph edges
    const std::atomic<bool>* cancel = in.cancel;
    auto cancelled = [&] {
        if (!cancel || !cancel->load(std::memory_order_relaxed)) return false;
        out.cancelled = true;
        return true;
    };

    // The loaded ranks' values, once; an added rank's are asked for as it runs.
    std::vector<TimeNs>& duration = out.duration;
    duration.resize(n);
    std::vector<TimeNs> delay(g.edges.size());
    for (NodeId i = 0; i < n; ++i)
        duration[i] = timing.duration(i, loadedV(i));
    for (EdgeId e = 0; e < g.edges.size(); ++e)
        delay[e] = timing.delay(e, loadedV(g.edges[e].to));
    // An added rank's durations: the same on every rank whose host or GPU (as the node needs) runs at
    // x1, so only the others ask KnobTiming.
    auto addedDuration = [&](const SlotInfo& info, const RankVariation& v) {
        const KnobTiming::VariedBy by = info.variedBy;
        if ((by == KnobTiming::VariedBy::Host && v.host != 1.0) ||
            (by == KnobTiming::VariedBy::Gpu && v.gpu != 1.0))
            return timing.duration(info.node, v);
        return info.unitDuration;
    };

    // Times are relative to each rank's origin during the run ("simulated clock"). A node's start
    // is the latest release of its start edges, final once the last of them arrived; its end likewise
    // from its end edges and its own time: so each array holds the bound while it is pending and
    // the time once decided (a node never decided is -1 at the end). The loaded ranks' nodes and the
    // added ranks' slots have arrays of their own (the latter become AddedRankTimes' as they are).
    std::vector<TimeNs>& tS = out.start;
    std::vector<TimeNs>& edgeEnd = out.end;
    std::vector<EdgeId>& startBy = out.startBy;
    std::vector<EdgeId>& endBy = out.endBy;
    std::vector<std::uint32_t>& pendS = pending.start;
    std::vector<std::uint32_t>& pendE = pending.end;
    tS.resize(n);
    edgeEnd.assign(n, kMinTime);
    startBy.assign(n, kNoEdge);
    endBy.assign(n, kNoEdge);
    // Peers outside the rank set (phantoms): with peers.model=follow they reach the collective the
    // measured skew after this rank does, so job-wide knobs move them with it; on a straggler rank,
    // and with peers.model=measured, they arrive when they did (docs/ARCHITECTURE.md, "Collectives
    // and phantom peers").
    const bool followPeers = in.followPeers;
    auto followsPeers = [&](NodeId i, const RankVariation& v) {
        return g.nodes[i].phantomArrival >= 0 && followPeers && !v.straggling;
    };
    auto phantomSkew = [&](NodeId i) {
        return g.nodes[i].phantomArrival - (g.measuredStart(i) - g.ranks[g.nodes[i].rank].origin);
    };
    for (NodeId i = 0; i < n; ++i) {
        const RankVariation& v = loadedV(i);
        tS[i] = timing.release(i, v);
        if (g.nodes[i].phantomArrival >= 0 && !followsPeers(i, v)) {
            edgeEnd[i] = g.nodes[i].phantomArrival + duration[i];
            endBy[i] = kPhantomPeers;
        }
    }

    // The added ranks: each starts from its source's program; a host other than x1 asks KnobTiming
    // for its release times.
    const std::vector<SourceProgram> programs = sourcePrograms(g, timing, L, added, overlay, pendS, pendE);
    std::vector<TimeNs>& aS = out.addedStart;
    std::vector<TimeNs>& aEnd = out.addedEnd;
    std::vector<EdgeId>& aStartBy = out.addedStartBy;
    std::vector<EdgeId>& aEndBy = out.addedEndBy;
    // Per slot x: its pending start causes at 2x, its pending end causes at 2x + 1.
    std::vector<Count> aPend;
    std::vector<std::vector<Count>> pendTemplate(programs.size());
    for (std::size_t r = 0; r < programs.size(); ++r)
        for (std::size_t slot = 0; slot < programs[r].pendStart.size(); ++slot) {
            pendTemplate[r].push_back(static_cast<Count>(programs[r].pendStart[slot]));
            pendTemplate[r].push_back(static_cast<Count>(programs[r].pendEnd[slot]));
        }
    const std::size_t slots = N - n;
    aS.reserve(slots);
    aEnd.reserve(slots);
    aStartBy.reserve(slots);
    aEndBy.reserve(slots);
    aPend.reserve(2 * slots);
    prefaultForWriting({{aS.data(), slots * sizeof(TimeNs)},
                        {aEnd.data(), slots * sizeof(TimeNs)},
                        {aStartBy.data(), slots * sizeof(EdgeId)},
                        {aEndBy.data(), slots * sizeof(EdgeId)},
                        {aPend.data(), 2 * slots * sizeof(Count)}},
                       threadsFor(0), cancel);
    for (std::size_t a = 0; a < added.count(); ++a) {
        if (cancelled()) return out;
        const SourceProgram& p = programs[added.source[a]];
        if (hostX1(a)) {
            aS.insert(aS.end(), p.release.begin(), p.release.end());
        } else {
            for (NodeId node : added.rankNodes[added.source[a]])
                aS.push_back(timing.release(node, addedV(a, node)));
        }
        aPend.insert(aPend.end(), pendTemplate[added.source[a]].begin(), pendTemplate[added.source[a]].end());
    }
    if (!appendUnlessCancelled(aEnd, slots, kMinTime, cancel) ||
        !appendUnlessCancelled(aStartBy, slots, kNoEdge, cancel) ||
        !appendUnlessCancelled(aEndBy, slots, kNoEdge, cancel)) {
        out.cancelled = true;
        return out;
    }
    for (std::size_t a = 0; a < added.count(); ++a) {
        const std::vector<SlotInfo>& info = programs[added.source[a]].info;
        for (std::size_t s = 0; s < info.size(); ++s)
            if (info[s].phantom && !followsPeers(info[s].node, addedV(a, info[s].node))) {
                aEnd[added.offset[a] + s] =
                    g.nodes[info[s].node].phantomArrival + addedDuration(info[s], addedV(a, info[s].node));
                aEndBy[added.offset[a] + s] = kPhantomPeers;
            }
    }

    // Rendezvous state: members still to arrive, the latest arrival and who it was.
    std::vector<std::uint32_t> rdvLeft(L.rdvOffsets.empty() ? 0 : L.rdvOffsets.size() - 1);
    std::vector<TimeNs> rdvLatest(rdvLeft.size(), kMinTime);
    std::vector<std::uint64_t>& rdvWinner = out.rdvWinner;
    rdvWinner.assign(rdvLeft.size(), 0);
    for (std::size_t r = 0; r < rdvLeft.size(); ++r)
        rdvLeft[r] = static_cast<std::uint32_t>(L.rdvOffsets[r + 1] - L.rdvOffsets[r]);
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
    // A stack whose push is inlined (std::vector's grew through a call: 6% of a run).
    struct WorkStack {
        std::vector<Ready> items = std::vector<Ready>(1024);
        std::size_t size = 0;
        void push_back(const Ready& r) {
            if (size == items.size()) [[unlikely]]
                grow();
            items[size++] = r;
        }
        [[gnu::noinline]] void grow() { items.resize(2 * size); }
        bool empty() const { return size == 0; }
        Ready pop() { return items[--size]; }
    } work;
    for (std::size_t u = 0; u < n; ++u)
        if (pendS[u] == 0) work.push_back({2 * u, 0});
    for (std::size_t a = 0; a < added.count(); ++a)
        for (std::uint32_t slot : programs[added.source[a]].roots)
            work.push_back({2 * (n + added.offset[a] + slot), a});

    // Virtual node u arrives at rendezvous r at `at`; the last arrival ends every member's transfer
    // together: the latest start plus its own transfer time.
    auto arrive = [&](std::uint32_t r, std::size_t u, TimeNs at) {
        if (at > rdvLatest[r]) {
            rdvLatest[r] = at;
            rdvWinner[r] = u;
        }
        if (--rdvLeft[r] != 0) return;
        std::size_t a = 0; // the added rank of the member (members come in ascending ids)
        for (std::size_t k = L.rdvOffsets[r]; k < L.rdvOffsets[r + 1]; ++k) {
            const std::size_t m = L.rdvMembers[k];
            if (m < n) {
                const TimeNs val = rdvLatest[r] + duration[m];
                if (val > edgeEnd[m]) {
                    edgeEnd[m] = val;
                    endBy[m] = peerEdge(rdvWinner[r], m);
                }
                if (--pendE[m] == 0) work.push_back({2 * m + 1, 0});
                continue;
            }
            const std::size_t x = m - n;
            if (x < added.offset[a]) a = L.addedOf(m, added);
            while (x >= added.offset[a + 1])
                ++a;
            const SlotInfo& info = programs[added.source[a]].info[x - added.offset[a]];
            const TimeNs val = rdvLatest[r] + addedDuration(info, addedV(a, info.node));
            if (val > aEnd[x]) {
                aEnd[x] = val;
                aEndBy[x] = kAddedRankPeer;
            }
            if (--aPend[2 * x + 1] == 0) work.push_back({2 * m + 1, a});
        }
    };

    // A vertex of a loaded rank's node.
    const auto* edges = g.edges.data();
    const auto* outOff = g.outOffsets.data();
    const auto* outIds = g.outEdgeIds.data();
    auto loadedVertex = [&](std::size_t u, bool isEnd) {
        const auto node = static_cast<NodeId>(u);
        TimeNs at;
        if (!isEnd) {
            at = tS[u];
            if (followsPeers(node, loadedV(node))) {
                const TimeNs peersDone = at + phantomSkew(node) + duration[u];
                if (peersDone > edgeEnd[u]) {
                    edgeEnd[u] = peersDone;
                    endBy[u] = kPhantomPeers;
                }
            }
            if (meet && L.rdvOfNode[u] != JobLayout::kNone) arrive(L.rdvOfNode[u], u, at);
        } else {
            const TimeNs own = tS[u] + duration[u];
            if (own >= edgeEnd[u]) {
                edgeEnd[u] = own;
                endBy[u] = kNoEdge;
            }
            at = edgeEnd[u];
        }
        // Edge e fires now: from this vertex's kind, and not a collective edge where collectives
        // meet in rendezvous.
        auto relax = [&](const GraphEdge& e, EdgeId id, TimeNs d) {
            if (e.triggeredByStart() == isEnd || (meet && e.kind == EdgeKind::Collective)) return;
            const TimeNs val = at + d;
            const std::size_t to = e.to;
            if (e.gatesEnd()) {
                if (val > edgeEnd[to]) {
                    edgeEnd[to] = val;
                    endBy[to] = id;
                }
                if (--pendE[to] == 0) work.push_back({2 * to + 1, 0});
            } else {
                if (val > tS[to] || (val == tS[to] && startBy[to] == kNoEdge)) {
                    tS[to] = val;
                    startBy[to] = id;
                }
                if (--pendS[to] == 0) work.push_back({2 * to, 0});
            }
        };
        for (std::uint32_t k = outOff[node]; k < outOff[node + 1]; ++k)
            relax(edges[outIds[k]], outIds[k], delay[outIds[k]]);
        if (overlay) // overlay edges keep their delay under every knob
            for (std::uint32_t k = overlay->outOffsets[node]; k < overlay->outOffsets[node + 1]; ++k) {
                const GraphEdge& e = overlay->edges[overlay->outIds[k]];
                relax(e, static_cast<EdgeId>(g.edges.size() + overlay->outIds[k]), e.delay);
            }
        if (!isEnd && --pendE[u] == 0) work.push_back({2 * u + 1, 0});
    };

    // A vertex of added rank a's slot: its source's program, on the rank's own arrays.
    auto addedVertex = [&](std::size_t u, bool isEnd, std::size_t a) {
        const std::size_t base = added.offset[a]; // the rank's slot 0 in the added arrays
        const std::size_t x = u - n;
        const auto slot = static_cast<std::uint32_t>(x - base);
        const SourceProgram& p = programs[added.source[a]];
        const SlotInfo& info = p.info[slot];
        const RankVariation& v = addedV(a, info.node);
        TimeNs at;
        if (!isEnd) {
            at = aS[x];
            if (info.phantom && followPeers && !v.straggling) {
                const TimeNs peersDone = at + phantomSkew(info.node) + addedDuration(info, v);
                if (peersDone > aEnd[x]) {
                    aEnd[x] = peersDone;
                    aEndBy[x] = kPhantomPeers;
                }
            }
            if (info.collIndex != JobLayout::kNone)
                arrive(L.rdvOfAdded[L.addedCollBase[a] + info.collIndex], u, at);
        } else {
            const TimeNs own = aS[x] + addedDuration(info, v);
            if (own >= aEnd[x]) {
                aEnd[x] = own;
                aEndBy[x] = kNoEdge;
            }
            at = aEnd[x];
        }
        const bool x1 = hostX1(a);
        const std::uint32_t vertex = 2 * slot + (isEnd ? 1 : 0);
        for (std::uint32_t k = p.first[vertex]; k < p.first[vertex + 1]; ++k) {
            const SlotEdge& e = p.edges[k];
            // A delay follows the host of its target's rank (KnobTiming::delay).
            const TimeNs d = x1 || !(e.to & SlotEdge::kHostScaled)
                                 ? e.delay
                                 : timing.delay(e.id, addedV(a, p.info[e.to & SlotEdge::kSlot].node));
            const TimeNs val = at + d;
            const std::size_t to = base + (e.to & SlotEdge::kSlot);
            if (e.to & SlotEdge::kGatesEnd) {
                if (val > aEnd[to]) {
                    aEnd[to] = val;
                    aEndBy[to] = e.id;
                }
                if (--aPend[2 * to + 1] == 0) work.push_back({2 * (n + to) + 1, a});
            } else {
                if (val > aS[to] || (val == aS[to] && aStartBy[to] == kNoEdge)) {
                    aS[to] = val;
                    aStartBy[to] = e.id;
                }
                if (--aPend[2 * to] == 0) work.push_back({2 * (n + to), a});
            }
        }
        if (!isEnd && --aPend[2 * x + 1] == 0) work.push_back({2 * u + 1, a});
    };

    std::size_t processed = 0;
    while (!work.empty()) {
        if ((processed & 0xffff) == 0 && cancelled()) return out;
        const Ready ready = work.pop();
        ++processed;
        const std::size_t u = ready.vtx >> 1;
        const bool isEnd = ready.vtx & 1;
        if (u < n)
            loadedVertex(u, isEnd);
        else
            addedVertex(u, isEnd, ready.added);
    }
    out.complete = processed == 2 * N;
    if (!out.complete) {
        for (std::size_t u = 0; u < n; ++u) {
            if (pendS[u] != 0) tS[u] = -1;
            if (pendE[u] != 0) edgeEnd[u] = -1;
        }
        for (std::size_t x = 0; x < slots; ++x) {
            if (aPend[2 * x] != 0) aS[x] = -1;
            if (aPend[2 * x + 1] != 0) aEnd[x] = -1;
        }
    }
    return out;
}

} // namespace

Schedule scheduleJob(const ScheduleInputs& in) {
    Pending pending = pendingCauses(in);
    std::uint32_t most = 0;
    for (std::uint32_t c : pending.start)
        most = std::max(most, c);
    for (std::uint32_t c : pending.end)
        most = std::max(most, c);
    if (most <= 0xff) return scheduleWith<std::uint8_t>(in, std::move(pending));
    return scheduleWith<std::uint32_t>(in, std::move(pending));
}

} // namespace sl
