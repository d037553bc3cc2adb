#include "sim/KnobTiming.h"

#include "models/KernelClass.h"
#include "sim/CollectiveKnobs.h"
#include "sim/CpuRegions.h"
#include "sim/EmbeddingWhatIf.h"
#include "sim/GpuSwap.h"
#include "structure/CollectiveCalls.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <unordered_map>

namespace sl {

namespace {

TimeNs scaled(TimeNs v, double f) {
    // x 1 is most calls (every rank but a straggler has host 1): the same value without the
    // rounding call (exact: times are far below 2^53 ns).
    if (f == 1.0) return v;
    return static_cast<TimeNs>(std::llround(static_cast<double>(v) * f));
}

// Collective transfer times under comm.model / dp.scale (before comm.speedup and straggler),
// written into `base` (indexed by node). Only collective kernel nodes change.
void retimeCollectives(const ExecutionGraph& g, const SimKnobs& k, const GpuSwap* swap,
                       const SetupEditPlan& plan, std::vector<TimeNs>& base,
                       std::vector<std::uint8_t>& removed, Warnings& warnings) {
    const bool alphaBeta = k.commModel == CommModel::AlphaBeta;
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
        // tp.degree=1: a tensor-parallel group of one rank has nothing to reduce.
        if (edited && n2 <= 1 && n > 1) {
            d = 0;
            if (removed.empty()) removed.assign(g.nodes.size(), 0);
            removed[c.node] = 1;
        }
        if (link && !spans2 && !modelled) {
            const auto& p = measuredLinks.params[static_cast<std::size_t>(commParamGroup(c.type))][0];
            const double busBytes = c.bytes > 0 ? static_cast<double>(c.bytes) * busFactor(c.type, n2) : -1;
            d = swap->collectiveTime(d, busBytes, p.GBps);
        }
        base[c.node] = d;
    }
    if (withoutBytes > 0)
        warnings.addForKnob(
            "comm.model", Warn::AlphaBetaNoSize,
            "comm.model=alpha-beta: " + std::to_string(withoutBytes) +
                " collective kernels have no size metadata (In/Out msg nelems, dtype): they keep "
                "their measured transfer times",
            withoutBytes);
    if (scaleDp && dpCalls == 0)
        warnings.addForKnob(
            "dp.scale", Warn::DpScaleNoCollectives,
            "dp.scale: no data-parallel collectives found (no process group described as dp, and "
            "no all-reduce): nothing was re-timed");
    if (unknownLink > 0)
        warnings.add(
            Warn::CommLocalityUnknown,
            std::to_string(unknownLink) +
                " collective kernels cross nodes differently in the new setup, but no bandwidth is "
                "known for both localities (no message sizes, or nothing measured across nodes): only "
                "their group size was re-timed; set comm.intra_node_GBps and comm.inter_node_GBps",
            unknownLink);
    if (spanned && model.interFromIntra)
        warnings.add(Warn::CommNoInterNodeBandwidth,
                     "no inter-node bandwidth (set comm.inter_node_GBps): collectives spanning nodes use "
                     "the intra-node values");
}

// The host calls of the collectives a new layout removes (tp.degree=1): for each, the outermost op
// around its launch on its thread that launches nothing else (the c10d call with its event record
// and wait, and the tensor-parallel region around it where the trace shows one).
std::vector<RemovedSpan> removedCommSpans(const ExecutionGraph& g, const std::vector<std::uint8_t>& removed) {
    std::vector<RemovedSpan> out;
    if (removed.empty()) return out;
    for (NodeId c = 0; c < g.nodes.size(); ++c) {
        if (!removed[c]) continue;
        NodeId call = kNoNode;
        for (EdgeId e : g.inEdges(c))
            if (g.edges[e].kind == EdgeKind::Launch) call = g.edges[e].from;
        if (call == kNoNode) continue;
        const GraphNode& launch = g.nodes[call];
        const Processor& p = g.processors[launch.processor];
        const auto& ev = g.trace->ranks[launch.rank].tracks[launch.event.track].events;
        auto launchesOnlyRemoved = [&](TimeNs from, TimeNs to) {
            auto it = std::lower_bound(p.nodes.begin(), p.nodes.end(), from,
                                       [&](NodeId x, TimeNs v) { return g.measuredStart(x) < v; });
            for (; it != p.nodes.end() && g.measuredStart(*it) < to; ++it)
                for (EdgeId id : g.outEdges(*it))
                    if (g.edges[id].kind == EdgeKind::Launch && !removed[g.edges[id].to]) return false;
            return true;
        };
        RemovedSpan span{launch.processor, 0, 0};
        for (std::int32_t a = ev.parent[launch.event.index]; a >= 0;
             a = ev.parent[static_cast<std::size_t>(a)]) {
            const auto i = static_cast<std::size_t>(a);
            if (!launchesOnlyRemoved(ev.start[i], ev.end(i))) break;
            span.start = ev.start[i];
            span.end = ev.end(i);
        }
        if (span.end > span.start) out.push_back(span);
    }
    return out;
}

} // namespace

KnobTiming::KnobTiming(const ExecutionGraph& g, const SimKnobs& k, const SetupEditPlan& plan,
                       Warnings& warnings)
    : g_(g), plan_(plan) {
    // comm.overlap only adds edges (in simulate), peers.model is read by simulate and the rank
    // variation (stragglers, jitter) is applied per rank: with every other knob at its default,
    // the graph's own durations and delays are the answer.
    SimKnobs jobKnobs = k;
    jobKnobs.commOverlap = true;
    jobKnobs.peersModel = SimKnobs{}.peersModel;
    jobKnobs.stragglerRank = -1;
    jobKnobs.stragglerSlowdown = 1.0;
    jobKnobs.stragglerRanks.clear();
    jobKnobs.nodeSlowdown.clear();
    jobKnobs.jitterPct = 0;
    jobKnobs.jitterSeed = SimKnobs{}.jitterSeed;
    replay_ = jobKnobs.isReplay() && !hasRankVariation(k);
    if (replay_) return;
    KernelClassifier classifier;
    for (const auto& [cls, re] : k.kernelClassPattern)
        if (auto c = kernelClassFromName(cls)) classifier.setPattern(*c, re);
    // gpu.target: a duration factor per GPU op and the link ratio (sim/GpuSwap.h).
    if (!k.gpuTarget.empty()) {
        try {
            auto swap = std::make_shared<GpuSwap>(planGpuSwap(g, k.gpuTarget, k.gpuSource, classifier));
            warnings.append(swap->warnings);
            swap_ = std::move(swap);
        } catch (const GpuTableError& e) {
            warnings.addForKnob("gpu.target", Warn::GpuTargetUnknown,
                                std::string(e.what()) + "; gpu.target was ignored");
        }
    }
    const GpuSwap* swap = swap_.get();
    base_.resize(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        base_[i] = g.nodes[i].duration;
    retimeCollectives(g, k, swap, plan, base_, removedComm_, warnings);
    // embedding.plan: lookups and their all-to-alls re-timed for another placement of the tables
    // (sim/EmbeddingWhatIf.h). The lookup model already predicts on gpu.target's GPU, so the
    // swap's own factor is taken back out of those kernels.
    for (const auto& [node, f] : embeddingWhatIfForKnobs(g, k, warnings).nodeFactors) {
        double ff = f;
        if (swap && swap->active() && g.nodes[node].kind == NodeKind::GpuOp && swap->nodeFactor[node] > 0)
            ff /= swap->nodeFactor[node];
        base_[node] = std::max<TimeNs>(1, scaled(base_[node], ff));
    }
    std::vector<std::regex> regexes;
    for (const auto& [re, s] : k.kernelSpeedup)
        regexes.emplace_back(re);
    const CpuRegions regions(
        g, k.cpuRegionSpeedup, DataLoaderKnobs{k.dataWorkers, k.dataSpeedup, k.dataCores},
        HostFactors{1.0 / k.hostDispatch, 1.0 / k.hostCompute}, removedCommSpans(g, removedComm_));
    if (k.hostCompute != 1.0 && regions.computeTime() == 0)
        warnings.addForKnob("host.compute", Warn::HostComputeNone,
                            "host.compute: no CPU compute found (every CPU op issues GPU work or is part of "
                            "a GPU op's dispatch): nothing was re-timed");
    if (k.dataCores > 0 && k.dataWorkers == 0)
        warnings.addForKnob("data.cores", Warn::KnobNoEffect,
                            "data.cores without data.workers changes nothing: the cores are shared by worker "
                            "processes only");
    if ((k.dataWorkers > 0 || k.dataSpeedup != 1.0) && regions.dataWaits() == 0)
        warnings.addForKnob(k.dataWorkers > 0 ? "data.workers" : "data.speedup", Warn::DataKnobsNoLoader,
                            "data.workers / data.speedup: the trace has no DataLoader iterator ops (such as "
                            "enumerate(DataLoader)#...__next__): nothing was re-timed");
    cpuFactor_ = 1.0 / k.cpuSpeedup;
    commSpeedup_ = k.commSpeedup;
    launch_ = k.launchLatencyUs >= 0 ? static_cast<TimeNs>(std::llround(k.launchLatencyUs * 1000.0)) : -1;
    // Factor per name for GPU ops, computed once per distinct name (names repeat across ranks).
    factor_.assign(g.nodes.size(), 1.0);
    work_.assign(g.nodes.size(), Work::Cpu);
    std::unordered_map<std::string_view, double> byName;
    std::vector<std::unordered_map<StringId, double>> cache(g.trace->ranks.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const auto& n = g.nodes[i];
        const Rank& rank = g.trace->ranks[n.rank];
        if (n.kind == NodeKind::CpuCall || n.kind == NodeKind::SyncCall) {
            factor_[i] = regions.nodeFactor(static_cast<NodeId>(i));
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
                    if (!k.computeClassSpeedup.empty())
                        ff /= k.computeClassSpeedup[classifier.classify(nm, kind)];
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
        factor_[i] = it->second;
        // A straggler's GPU and host are slow; the network its collectives transfer over is not.
        work_[i] = n.kind != NodeKind::Collective && !isCommunicationKernelName(rank.strings.str(name))
                       ? Work::GpuCompute
                       : Work::Comm;
    }
    // The root's time between the rank's first event and its first call: CPU work scales like any
    // other (cpu.speedup, host.*, cpu.speedup[<regex>], a straggler host), the uncovered rest only with a
    // straggler. The time before the first event stays (a late start).
    rootWork_.assign(g.nodes.size(), 0);
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& n = g.nodes[i];
        if (n.releaseWork == 0 && n.releaseWait == 0) continue;
        const TimeNs first = n.release - n.releaseWork - n.releaseWait;
        const TimeNs origin = g.ranks[n.rank].origin;
        rootWork_[i] = regions.work(static_cast<NodeId>(i), origin + first,
                                    g.measuredStart(static_cast<NodeId>(i)), n.releaseWork);
    }
    edgeWork_.assign(g.edges.size(), 0);
    neverBinds_.assign(g.edges.size(), 0);
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        const auto& e = g.edges[i];
        switch (e.kind) {
        case EdgeKind::ThreadOrder:
        case EdgeKind::ThreadStart:
            // Unexplained waits stay (but a straggler host is slower at everything); CPU work
            // scales with the host knobs and inside cpu.speedup[] regions (the gap lies on the
            // thread of `to`).
            edgeWork_[i] = regions.work(e.to, g.measuredEnd(e.from), g.measuredStart(e.to), e.cpuWork);
            break;
        case EdgeKind::Sync:
            // A host sync inside a removed region (cpu.speedup[aten::item]=inf) no longer waits.
            neverBinds_[i] = regions.nodeFactor(e.to) == 0.0;
            break;
        case EdgeKind::Collective:
            // A replica that dp.degree dropped no longer takes part in its collectives.
            neverBinds_[i] =
                plan.setup.isDropped(g.nodes[e.from].rank) && !plan.setup.isDropped(g.nodes[e.to].rank);
            break;
        default:
            break;
        }
    }
}

TimeNs KnobTiming::duration(NodeId i, const RankVariation& v) const {
    if (replay_) return g_.nodes[i].duration;
    if (work_[i] == Work::Cpu) return scaled(base_[i], cpuFactor_ * v.host * factor_[i]);
    double f = factor_[i];
    if (work_[i] == Work::GpuCompute && v.gpu != 1.0) f *= v.gpu;
    if (swap_) f *= swap_->nodeFactor[i];
    // dp.strong: the work of a smaller per-rank batch (SetupEditPlan::scaledWork).
    if (!plan_.scaledWork.empty() && plan_.scaledWork[i]) f *= plan_.workFactor;
    // tp.degree: the kernel re-shaped for the new degree (sim/TensorShards.h).
    if (!plan_.shardFactor.empty()) f *= plan_.shardFactor[i];
    return scaled(base_[i], f);
}

KnobTiming::VariedBy KnobTiming::durationVariedBy(NodeId i) const {
    if (replay_) return VariedBy::None;
    switch (work_[i]) {
    case Work::Cpu:
        return VariedBy::Host;
    case Work::GpuCompute:
        return VariedBy::Gpu;
    default:
        return VariedBy::None;
    }
}

TimeNs KnobTiming::delay(EdgeId id, const RankVariation& v) const {
    const GraphEdge& e = g_.edges[id];
    if (replay_) return e.delay;
    if (neverBinds_[id]) return kEdgeNeverBinds;
    // A removed collective (tp.degree=1) passes its stream's order and the event waits on it at
    // once: no kernel launches, so no launch latency and no gap behind it.
    if (!removedComm_.empty() &&
        ((removedComm_[e.from] && (e.kind == EdgeKind::StreamOrder || e.kind == EdgeKind::CrossStream)) ||
         (removedComm_[e.to] && e.kind == EdgeKind::Launch)))
        return 0;
    switch (e.kind) {
    case EdgeKind::ThreadOrder:
    case EdgeKind::ThreadStart:
        return scaled(e.delay - e.cpuWork, v.host) + scaled(edgeWork_[id], cpuFactor_ * v.host);
    case EdgeKind::Launch: {
        const TimeNs fixed = launch_ >= 0 ? launch_ + e.wait : e.delay - e.cpuWork;
        return fixed + scaled(e.cpuWork, cpuFactor_ * v.host * factor_[e.from]);
    }
    case EdgeKind::Collective:
        return duration(e.to, v);    // end >= peer arrival + own transfer time
    case EdgeKind::PipelineTransfer: // modelled by the pipeline edit on the new job's link
        return scaled(e.delay, 1.0 / commSpeedup_);
    default:
        return e.delay;
    }
}

TimeNs KnobTiming::release(NodeId i, const RankVariation& v) const {
    const GraphNode& n = g_.nodes[i];
    if (replay_ || (n.releaseWork == 0 && n.releaseWait == 0)) return n.release;
    const TimeNs first = n.release - n.releaseWork - n.releaseWait;
    return first + scaled(n.releaseWait, v.host) + scaled(rootWork_[i], cpuFactor_ * v.host);
}

} // namespace sl
