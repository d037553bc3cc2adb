#include "sim/Simulator.h"

#include "models/CollectiveModel.h"
#include "models/KernelClass.h"
#include "sim/BlockEdits.h"
#include "sim/CollectiveKnobs.h"
#include "sim/CpuRegions.h"
#include "sim/GpuSwap.h"
#include "sim/NoOverlapTransform.h"
#include "sim/SetupEdits.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <unordered_map>

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

namespace {

constexpr TimeNs kMinTime = std::numeric_limits<TimeNs>::min() / 4;
// An edge delay so negative that the edge never determines a time (times stay far above it).
constexpr TimeNs kNeverBinds = kMinTime / 2;

// Effective durations and delays under the knobs (replay: the graph's own values).
struct Timing {
    std::vector<TimeNs> duration;
    std::vector<TimeNs> delay;
    std::vector<TimeNs> release; // boundary conditions: the root's CPU work before its first call scales
    std::shared_ptr<const GpuSwap> swap; // gpu.target
};

TimeNs scaled(TimeNs v, double f) {
    return static_cast<TimeNs>(std::llround(static_cast<double>(v) * f));
}

// Collective transfer times under comm.model / dp.scale (before comm.speedup and straggler),
// written into `base` (indexed by node). Only collective kernel nodes change.
void retimeCollectives(const ExecutionGraph& g, const SimKnobs& k, const GpuSwap* swap,
                       const SetupEditPlan& plan, std::vector<TimeNs>& base,
                       std::vector<std::string>& warnings) {
    const bool alphaBeta = k.commModel == "alpha-beta";
    // dp.degree gives every collective its group size, node span and message size in the new job
    // (SetupEditPlan::calls, docs/Structure.md); the re-timing below is the one dp.scale uses.
    const bool edited = plan.active && !plan.calls.empty();
    const bool scaleDp = k.dpScale != 1.0 && !edited;
    // gpu.target: transfers inside a node at the target's link bandwidth (sim/GpuSwap.h).
    const bool link = swap && swap->active() && swap->linkRatio != 1.0;
    if (!alphaBeta && !scaleDp && !link && !edited) return;
    std::vector<CollectiveCall> calls = collectiveCalls(g);
    CollectiveModel model = collectiveModelFor(g, k, calls, alphaBeta ? &warnings : nullptr);
    const CollectiveModel measuredLinks = model; // the trace's own intra-node bandwidths
    if (link && alphaBeta && k.commIntraNodeGBps <= 0)
        for (auto& p : model.params)
            p[0].GBps *= swap->linkRatio;
    std::int64_t withoutBytes = 0, dpCalls = 0, unknownLink = 0;
    bool spanned = false;
    for (std::size_t ci = 0; ci < calls.size(); ++ci) {
        const auto& c = calls[ci];
        int n = c.groupSize;
        bool spans = c.spansNodes(model.gpusPerNode);
        int n2 = n;
        bool spans2 = spans;
        double bytesFactor = 1.0;
        if (edited && ci < plan.calls.size()) {
            n2 = plan.calls[ci].groupSize;
            spans2 = plan.calls[ci].spansNodes;
            bytesFactor = plan.calls[ci].bytesFactor;
        } else if (scaleDp && c.dataParallel) {
            ++dpCalls;
            n2 = std::max(1, static_cast<int>(std::llround(static_cast<double>(n) * k.dpScale)));
            spans2 = spans || n2 > model.gpusPerNode;
        }
        spanned = spanned || spans2;
        const std::int64_t bytes2 =
            c.bytes < 0 ? -1
                        : static_cast<std::int64_t>(std::llround(static_cast<double>(c.bytes) * bytesFactor));
        TimeNs d = -1;
        if (alphaBeta) {
            d = model.time(c.type, bytes2, n2, spans2);
            if (d < 0) ++withoutBytes;
        }
        const bool modelled = d >= 0;
        if (d < 0) {
            d = c.transfer;
            if (n2 != n || spans2 != spans) { // measured time x bus-bandwidth ratio
                const auto& p = model.params[static_cast<std::size_t>(commParamGroup(c.type))];
                double bw = p[spans ? 1 : 0].GBps, bw2 = p[spans2 ? 1 : 0].GBps;
                double ratio = busFactor(c.type, n2) / std::max(1e-12, busFactor(c.type, n));
                if (bw > 0 && bw2 > 0)
                    ratio *= bw / bw2;
                else if (spans2 != spans)
                    ++unknownLink;
                d = scaled(d, ratio);
            }
            if (bytesFactor != 1.0) { // a smaller message: the model's time ratio, else proportional
                TimeNs t1 = model.time(c.type, c.bytes, n2, spans2),
                       t2 = model.time(c.type, bytes2, n2, spans2);
                d = t1 > 0 && t2 >= 0 ? scaled(d, static_cast<double>(t2) / static_cast<double>(t1))
                                      : scaled(d, bytesFactor);
            }
        }
        if (link && !spans2 && !modelled) {
            const auto& p = measuredLinks.params[static_cast<std::size_t>(commParamGroup(c.type))][0];
            const double busBytes = c.bytes > 0 ? static_cast<double>(c.bytes) * busFactor(c.type, n2) : -1;
            d = swap->collectiveTime(d, busBytes, p.GBps);
        }
        base[c.node] = d;
    }
    if (withoutBytes > 0)
        warnings.push_back("comm.model=alpha-beta: " + std::to_string(withoutBytes) +
                           " collective kernels have no size metadata (In/Out msg nelems, dtype): they keep "
                           "their measured transfer times");
    if (scaleDp && dpCalls == 0)
        warnings.push_back(
            "dp.scale: no data-parallel collectives found (no process group described as dp, and "
            "no all-reduce): nothing was re-timed");
    if (unknownLink > 0)
        warnings.push_back(
            std::to_string(unknownLink) +
            " collective kernels cross nodes differently in the new setup, but no bandwidth is "
            "known for both localities (no message sizes, or nothing measured across nodes): only "
            "their group size was re-timed; set comm.intra_node_GBps and comm.inter_node_GBps");
    if (spanned && model.interFromIntra)
        warnings.push_back(
            "no inter-node bandwidth (set comm.inter_node_GBps): collectives spanning nodes use "
            "the intra-node values");
}

Timing applyKnobs(const ExecutionGraph& g, const SimKnobs& k, const SetupEditPlan& plan,
                  std::vector<std::string>& warnings) {
    Timing t;
    t.duration.resize(g.nodes.size());
    t.delay.resize(g.edges.size());
    if (k.stragglerRank >= 0 && k.stragglerSlowdown != 1.0 && !g.trace->findRank(k.stragglerRank))
        warnings.push_back("straggler.rank " + std::to_string(k.stragglerRank) + " is not in the rank set");
    // comm.overlap only adds edges (in simulate): with every other knob at its default, the
    // graph's own durations and delays are the answer.
    SimKnobs timingKnobs = k;
    timingKnobs.commOverlap = true;
    timingKnobs.peersModel = SimKnobs{}.peersModel; // read by simulate, not a duration
    t.release.resize(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        t.release[i] = g.nodes[i].release;
    if (timingKnobs.isReplay()) {
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            t.duration[i] = g.nodes[i].duration;
        for (std::size_t i = 0; i < g.edges.size(); ++i)
            t.delay[i] = g.edges[i].delay;
        return t;
    }
    KernelClassifier classifier;
    for (const auto& [cls, re] : k.kernelClassPattern)
        if (auto c = kernelClassFromName(cls)) classifier.setPattern(*c, re);
    // gpu.target: a duration factor per GPU op and the link ratio (sim/GpuSwap.h).
    if (!k.gpuTarget.empty()) {
        try {
            auto swap = std::make_shared<GpuSwap>(planGpuSwap(g, k.gpuTarget, k.gpuSource, classifier));
            warnings.insert(warnings.end(), swap->warnings.begin(), swap->warnings.end());
            t.swap = std::move(swap);
        } catch (const GpuTableError& e) {
            warnings.push_back(std::string(e.what()) + "; gpu.target was ignored");
        }
    }
    const GpuSwap* swap = t.swap.get();
    std::vector<TimeNs> base(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        base[i] = g.nodes[i].duration;
    retimeCollectives(g, k, swap, plan, base, warnings);
    std::vector<std::regex> regexes;
    for (const auto& [re, s] : k.kernelSpeedup)
        regexes.emplace_back(re);
    const CpuRegions regions(g, k.cpuRegionSpeedup, DataLoaderKnobs{k.dataWorkers, k.dataSpeedup});
    if ((k.dataWorkers > 0 || k.dataSpeedup != 1.0) && regions.dataWaits() == 0)
        warnings.push_back("data.workers / data.speedup: the trace has no DataLoader iterator ops (such as "
                           "enumerate(DataLoader)#...__next__): nothing was re-timed");
    // CPU time factor of a rank: cpu.speedup, and the straggler's slowdown.
    std::vector<double> cpuFactor(g.trace->ranks.size(), 1.0 / k.cpuSpeedup);
    std::vector<double> stragglerFactor(g.trace->ranks.size(), 1.0);
    for (std::size_t r = 0; r < g.trace->ranks.size(); ++r)
        if (k.stragglerRank >= 0 && g.trace->ranks[r].rank == k.stragglerRank) {
            cpuFactor[r] *= k.stragglerSlowdown;
            stragglerFactor[r] = k.stragglerSlowdown;
        }
    // Factor per name for GPU ops, computed once per distinct name (names repeat across ranks).
    std::unordered_map<std::string_view, double> byName;
    std::vector<std::unordered_map<StringId, double>> cache(g.trace->ranks.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const auto& n = g.nodes[i];
        const Rank& rank = g.trace->ranks[n.rank];
        double f = 1.0;
        if (n.kind == NodeKind::CpuCall || n.kind == NodeKind::SyncCall) {
            t.duration[i] = scaled(base[i], cpuFactor[n.rank] * regions.nodeFactor(static_cast<NodeId>(i)));
            continue;
        }
        const auto& ev = rank.tracks[n.event.track].events;
        StringId name = ev.name[n.event.index];
        EventKind kind = ev.kind[n.event.index];
        auto [it, fresh] = cache[n.rank].try_emplace(name, 1.0);
        if (fresh) {
            std::string_view nm = rank.strings.str(name);
            auto [bt, bfresh] = byName.try_emplace(nm, 1.0);
            if (bfresh) {
                double ff = 1.0;
                if (n.kind == NodeKind::Collective || isCommunicationKernelName(nm)) {
                    ff = 1.0 / k.commSpeedup;
                } else {
                    if (kind == EventKind::Kernel) ff /= k.computeSpeedup;
                    if (!k.computeClassSpeedup.empty()) {
                        auto c = k.computeClassSpeedup.find(
                            std::string(kernelClassName(classifier.classify(nm, kind))));
                        if (c != k.computeClassSpeedup.end()) ff /= c->second;
                    }
                    if (!regexes.empty()) {
                        std::string s(nm);
                        for (std::size_t r = 0; r < regexes.size(); ++r)
                            if (std::regex_search(s, regexes[r])) ff /= k.kernelSpeedup[r].second;
                    }
                }
                bt->second = ff;
            }
            it->second = bt->second;
        }
        f = it->second;
        // A straggler's GPU and host are slow; the network its collectives transfer over is not.
        if (k.stragglerRank >= 0 && rank.rank == k.stragglerRank && n.kind != NodeKind::Collective &&
            !isCommunicationKernelName(rank.strings.str(name)))
            f *= k.stragglerSlowdown;
        if (swap) f *= swap->nodeFactor[i];
        // dp.strong: the work of a smaller per-rank batch (SetupEditPlan::scaledWork).
        if (!plan.scaledWork.empty() && plan.scaledWork[i]) f *= plan.workFactor;
        t.duration[i] = scaled(base[i], f);
    }
    // The root's time between the rank's first event and its first call: CPU work scales like any
    // other (cpu.speedup, cpu.speedup[<regex>], a straggler host), the uncovered rest only with a
    // straggler. The time before the first event stays (a late start).
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& n = g.nodes[i];
        if (n.releaseWork == 0 && n.releaseWait == 0) continue;
        const TimeNs first = n.release - n.releaseWork - n.releaseWait;
        const TimeNs origin = g.ranks[n.rank].origin;
        const TimeNs work = n.releaseWork - regions.saved(static_cast<NodeId>(i), origin + first,
                                                          g.measuredStart(static_cast<NodeId>(i)));
        t.release[i] = first + scaled(n.releaseWait, stragglerFactor[n.rank]) +
                       scaled(std::max<TimeNs>(0, work), cpuFactor[n.rank]);
    }
    const TimeNs launch =
        k.launchLatencyUs >= 0 ? static_cast<TimeNs>(std::llround(k.launchLatencyUs * 1000.0)) : -1;
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        const auto& e = g.edges[i];
        TimeNs d = e.delay;
        switch (e.kind) {
        case EdgeKind::ThreadOrder:
        case EdgeKind::ThreadStart: {
            // Unexplained waits stay (but a straggler host is slower at everything); CPU work
            // scales, and shrinks inside cpu.speedup[] regions (the gap lies on the thread of `to`).
            const std::uint32_t r = g.nodes[e.to].rank;
            TimeNs work = e.cpuWork - regions.saved(e.to, g.measuredEnd(e.from), g.measuredStart(e.to));
            d = scaled(e.delay - e.cpuWork, stragglerFactor[r]) +
                scaled(std::max<TimeNs>(0, work), cpuFactor[r]);
            break;
        }
        case EdgeKind::Launch: {
            TimeNs fixed = launch >= 0 ? launch + e.wait : e.delay - e.cpuWork;
            d = fixed + scaled(e.cpuWork, cpuFactor[g.nodes[e.from].rank] * regions.nodeFactor(e.from));
            break;
        }
        case EdgeKind::Sync:
            // A host sync inside a removed region (cpu.speedup[aten::item]=inf) no longer waits.
            if (regions.nodeFactor(e.to) == 0.0) d = kNeverBinds;
            break;
        case EdgeKind::Collective:
            d = t.duration[e.to]; // end >= peer arrival + own transfer time
            // A replica that dp.degree dropped no longer takes part in its collectives.
            if (plan.setup.isDropped(g.nodes[e.from].rank) && !plan.setup.isDropped(g.nodes[e.to].rank))
                d = kNeverBinds;
            break;
        default:
            break;
        }
        t.delay[i] = d;
    }
    return t;
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
    // Setup edits (dp.degree, dp.strong): the plan of the new job (sim/SetupEdits.h).
    SetupEditPlan plan;
    if (knobs.dpDegree > 0 || knobs.dpStrong) {
        plan = planSetupEdits(g, SetupKnobs{knobs.dpDegree, knobs.dpStrong}, collectiveCalls(g),
                              gpusPerNodeOf(*g.trace, knobs.commGpusPerNode));
        res.warnings.insert(res.warnings.end(), plan.warnings.begin(), plan.warnings.end());
    } else {
        plan.setup = measuredSetup(g);
    }
    Timing t = applyKnobs(g, knobs, plan, res.warnings);
    res.gpuSwap = t.swap;
    // comm.overlap=false: serialization edges laid over the graph (sim/NoOverlapTransform.h).
    std::shared_ptr<const NoOverlapEdges> serial;
    if (!knobs.commOverlap) {
        serial = noOverlapEdgesFor(g);
        if (serial->overlay.empty())
            res.warnings.push_back(serial->unavailable);
        else
            res.addedEdges = std::shared_ptr<const EdgeOverlay>(serial, &serial->overlay);
    }
    const EdgeOverlay* added = res.addedEdges.get();

    // Times are relative to each rank's origin during the run ("simulated clock").
    std::vector<TimeNs> tS(n), edgeEnd(n, kMinTime), start(n, -1), end(n, -1);
    std::vector<std::uint32_t> pendS(n, 0), pendE(n, 1);
    res.nodes.assign(n, NodeTiming{});
    // Peers outside the rank set (phantoms): with peers.model=follow they reach the collective the
    // measured skew after this rank does, so job-wide knobs move them with it; on a straggler rank,
    // and with peers.model=measured, they arrive when they did (docs/ARCHITECTURE.md, "Collectives
    // and phantom peers").
    std::vector<TimeNs> phantomSkew;
    const bool followPeers = knobs.peersModel != "measured";
    for (std::size_t i = 0; i < n; ++i) {
        tS[i] = t.release[i];
        const GraphNode& gn = g.nodes[i];
        if (gn.phantomArrival < 0) continue;
        const Rank& rank = g.trace->ranks[gn.rank];
        const bool straggling = knobs.stragglerRank == rank.rank && knobs.stragglerSlowdown != 1.0;
        if (followPeers && !straggling) {
            if (phantomSkew.empty()) phantomSkew.assign(n, kMinTime);
            phantomSkew[i] =
                gn.phantomArrival - (g.measuredStart(static_cast<NodeId>(i)) - g.ranks[gn.rank].origin);
            continue;
        }
        edgeEnd[i] = gn.phantomArrival + t.duration[i];
        res.nodes[i].endBoundBy = kPhantomPeers;
    }
    auto pending = [&](const GraphEdge& e) { ++(e.gatesEnd() ? pendE[e.to] : pendS[e.to]); };
    for (const auto& e : g.edges)
        pending(e);
    if (added)
        for (const auto& e : added->edges)
            pending(e);
    // Worklist of vertices: 2n = start of n ready, 2n+1 = end of n ready.
    std::vector<std::uint32_t> work;
    work.reserve(1024);
    for (std::uint32_t i = 0; i < n; ++i)
        if (pendS[i] == 0) work.push_back(2 * i);
    std::size_t processed = 0;
    const auto* edges = g.edges.data();
    const auto* outOff = g.outOffsets.data();
    const auto* outIds = g.outEdgeIds.data();
    while (!work.empty()) {
        if (options.cancel && (processed & 0xffff) == 0 && options.cancel->load(std::memory_order_relaxed)) {
            res.complete = false;
            return res;
        }
        std::uint32_t v = work.back();
        work.pop_back();
        ++processed;
        const NodeId node = v >> 1;
        const bool isEnd = v & 1;
        TimeNs at;
        if (!isEnd) {
            start[node] = at = tS[node];
            if (!phantomSkew.empty() && phantomSkew[node] != kMinTime) {
                const TimeNs peersDone = at + phantomSkew[node] + t.duration[node];
                if (peersDone > edgeEnd[node]) {
                    edgeEnd[node] = peersDone;
                    res.nodes[node].endBoundBy = kPhantomPeers;
                }
            }
        } else {
            TimeNs own = start[node] + t.duration[node];
            if (own >= edgeEnd[node]) {
                end[node] = own;
                res.nodes[node].endBoundBy = kNoEdge;
            } else {
                end[node] = edgeEnd[node];
            }
            at = end[node];
        }
        auto relax = [&](const GraphEdge& e, EdgeId id, TimeNs delay) {
            if (e.triggeredByStart() == isEnd) return;
            const TimeNs val = at + delay;
            const NodeId to = e.to;
            if (e.gatesEnd()) {
                if (val > edgeEnd[to]) {
                    edgeEnd[to] = val;
                    res.nodes[to].endBoundBy = id;
                }
                if (--pendE[to] == 0) work.push_back(2 * to + 1);
            } else {
                if (val > tS[to] || (val == tS[to] && res.nodes[to].startBoundBy == kNoEdge)) {
                    tS[to] = val;
                    res.nodes[to].startBoundBy = id;
                }
                if (--pendS[to] == 0) work.push_back(2 * to);
            }
        };
        for (std::uint32_t k = outOff[node]; k < outOff[node + 1]; ++k)
            relax(edges[outIds[k]], outIds[k], t.delay[outIds[k]]);
        if (added) // overlay edges keep their delay under every knob
            for (std::uint32_t k = added->outOffsets[node]; k < added->outOffsets[node + 1]; ++k) {
                const GraphEdge& e = added->edges[added->outIds[k]];
                relax(e, static_cast<EdgeId>(g.edges.size() + added->outIds[k]), e.delay);
            }
        if (!isEnd && --pendE[node] == 0) work.push_back(2 * node + 1);
    }
    if (processed != 2 * n) {
        res.complete = false;
        res.warnings.push_back("the simulation could not schedule every node (dependency cycle); unscheduled "
                               "nodes have no simulated time");
    }

    // Back to each rank's clock.
    TimeNs lastEnd = kMinTime;
    for (std::size_t i = 0; i < n; ++i) {
        auto& nt = res.nodes[i];
        if (start[i] < 0 || end[i] < 0) {
            nt.startBoundBy = nt.endBoundBy = kNoEdge;
            continue;
        }
        TimeNs origin = g.ranks[g.nodes[i].rank].origin;
        nt.own = t.duration[i];
        nt.start = start[i] + origin;
        nt.end = end[i] + origin;
        if (end[i] > lastEnd && !plan.setup.isDropped(g.nodes[i].rank)) {
            lastEnd = end[i];
            res.lastNode = static_cast<NodeId>(i);
        }
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
