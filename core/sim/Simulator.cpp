#include "sim/Simulator.h"

#include "sim/BlockEdits.h"
#include "sim/GpuOnlyKnobs.h"
#include "sim/JobLayout.h"
#include "sim/KnobTiming.h"
#include "sim/LayoutKnobs.h"
#include "sim/NoOverlapTransform.h"
#include "sim/RankVariation.h"
#include "sim/RunStatistics.h"
#include "sim/Scheduler.h"
#include "sim/SetupEdits.h"
#include "structure/CollectiveCalls.h"
#include "structure/Structure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

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

// Back to each rank's clock: the loaded ranks' node times, the added ranks' own, the node that ends
// the job and who held the collectives no graph edge explains.
void collectTimes(const ExecutionGraph& g, const SimulatedSetup& setup, const JobLayout& L, Schedule& sched,
                  SimResult& res) {
    const std::size_t n = L.n;
    const auto& start = sched.start;
    const auto& end = sched.end;
    const auto& startBy = sched.startBy;
    const auto& endBy = sched.endBy;
    const auto& duration = sched.duration;
    AddedRankTimes& added = res.addedRanks;
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
        if (end[i] > lastEnd && !setup.isDropped(g.nodes[i].rank)) {
            lastEnd = end[i];
            res.lastNode = static_cast<NodeId>(i);
        }
    }
    if (!added.empty()) {
        // Who held the collectives that no graph edge explains (read before the arrays move).
        auto refOf = [&](std::uint64_t u) { return L.refOf(static_cast<std::size_t>(u), added); };
        for (std::size_t r = 0; r < sched.rdvWinner.size(); ++r)
            for (std::size_t k = L.rdvOffsets[r]; k < L.rdvOffsets[r + 1]; ++k) {
                const std::uint64_t m = L.rdvMembers[k];
                if ((m < n ? endBy[m] : sched.addedEndBy[m - n]) == kAddedRankPeer)
                    added.heldBy.emplace(AddedRankTimes::key(refOf(m)), refOf(sched.rdvWinner[r]));
            }
        // The added ranks' slots are the schedule's own arrays: moved, not copied (at 131,072
        // ranks a copy was 1.7 GB more at the peak).
        added.start = std::move(sched.addedStart);
        added.end = std::move(sched.addedEnd);
        added.startBy = std::move(sched.addedStartBy);
        added.endBy = std::move(sched.addedEndBy);
        for (std::size_t a = 0; a < added.count(); ++a) {
            const TimeNs origin = g.ranks[added.source[a]].origin;
            for (std::size_t s = added.offset[a]; s < added.offset[a + 1]; ++s) {
                if (added.start[s] < 0 || added.end[s] < 0) {
                    added.start[s] = added.end[s] = -1;
                    added.startBy[s] = added.endBy[s] = kNoEdge;
                    continue;
                }
                if (added.end[s] > lastEnd) {
                    lastEnd = added.end[s];
                    res.lastNode = L.refOf(n + s, added).node;
                    res.lastAdded = static_cast<std::int32_t>(a);
                }
                added.start[s] += origin;
                added.end[s] += origin;
            }
        }
    }
}

// One run on a graph without block edits: plan (setup edits, rank variation, knob timing, the job's
// layout) -> schedule -> times on the ranks' clocks -> statistics.
// `edit`: the block edit g is the graph of (pp.degree lays its stages out in it), or null.
SimResult simulateJob(const ExecutionGraph& g, const SimKnobs& knobs, const SimOptions& options,
                      const BlockEdit* edit = nullptr) {
    SimResult res;
    // The flag is looked at between the stages of the plan as well as in the scheduler: at
    // dp.degree=4096 the setup edits and the layout take tens of ms each (docs/ARCHITECTURE.md,
    // "GUI": closing the window mid-run).
    const auto stop = [&] {
        if (!options.cancel || !options.cancel->load(std::memory_order_relaxed)) return false;
        res.complete = false;
        return true;
    };
    for (const auto& u : knobs.unsupported())
        res.warnings.addForKnob(u, Warn::KnobNotSimulated,
                                "knob " + u + " is not simulated yet; it was ignored");
    warnHostKnobsOnGpuOnlyRanks(g, knobs, res.warnings);
    const std::size_t R = g.trace->ranks.size();
    const int gpusPerNode = gpusPerNodeOf(*g.trace, knobs.commGpusPerNode);
    // Setup edits (dp.degree, dp.strong, tp.degree, parallel.gpus): the plan of the new job
    // (sim/SetupEdits.h).
    SetupEditPlan plan;
    std::vector<CollectiveCall> calls;
    const int stages = edit && edit->active ? edit->stages : 0;
    if (knobs.dpDegree > 0 || knobs.dpStrong || knobs.tpDegree > 0 || knobs.parallelGpus > 0 || stages > 0) {
        calls = collectiveCalls(g);
        plan = planSetupEdits(g,
                              SetupKnobs{knobs.dpDegree, knobs.dpStrong, knobs.tpDegree, knobs.parallelGpus,
                                         knobs.gpuSource, knobs.tpReshape, knobs.tpResizeComm, stages,
                                         stages > 0 ? &edit->laneOf : nullptr},
                              calls, gpusPerNode);
        res.warnings.append(plan.warnings);
    } else {
        plan.setup = measuredSetup(g);
    }
    if (stop()) return res;
    // Stragglers, slow nodes and jitter of every rank of the job (throws on a rank it lacks).
    const std::vector<RankVariation> variation = rankVariations(plan.setup, knobs, gpusPerNode);
    if (knobs.jitterSeed != SimKnobs{}.jitterSeed && knobs.jitterPct <= 0)
        res.warnings.addForKnob("jitter.seed", Warn::KnobNoEffect,
                                "jitter.seed without jitter.pct changes nothing");
    // pp.degree: every lane of a column is a rank of the job with a variation of its own.
    const std::size_t lanes = stages > 0 ? static_cast<std::size_t>(stages) : 1;
    std::vector<RankVariation> loadedVar(R * lanes);
    for (std::size_t i = 0; i < plan.setup.ranks.size(); ++i)
        if (plan.setup.ranks[i].measured) loadedVar[plan.setup.ranks[i].source * lanes] = variation[i];
    const KnobTiming timing(g, knobs, plan, res.warnings);
    res.gpuSwap = timing.swap();
    if (stop()) return res;
    AddedRankTimes& added = res.addedRanks;
    const JobLayout L = layoutJob(g, plan, calls, added);
    std::vector<RankVariation> addedVar(added.count() * lanes);
    for (std::size_t a = 0; a < added.count(); ++a)
        addedVar[a * lanes] = variation[added.setupIndex[a]];
    if (lanes > 1) { // a lane's column: the loaded rank or the added one at its (data, tensor) place
        std::map<std::pair<int, int>, std::size_t> column; // (dp, tp) -> loaded source or R + added
        for (const auto& r : plan.setup.ranks)
            if (r.measured) column[{r.dp, r.tp}] = r.source;
        for (std::size_t a = 0; a < added.count(); ++a)
            column[{plan.setup.ranks[added.setupIndex[a]].dp, plan.setup.ranks[added.setupIndex[a]].tp}] =
                R + a;
        for (std::size_t i = 0; i < plan.setup.ranks.size(); ++i) {
            const SimulatedRank& r = plan.setup.ranks[i];
            auto c = column.find({r.dp, r.tp});
            if (r.lane == 0 || c == column.end()) continue;
            const auto lane = static_cast<std::size_t>(r.lane);
            (c->second < R ? loadedVar[c->second * lanes + lane] : addedVar[(c->second - R) * lanes + lane]) =
                variation[i];
        }
    }

    // comm.overlap=false: serialization edges laid over the graph (sim/NoOverlapTransform.h).
    std::shared_ptr<const NoOverlapEdges> serial;
    if (!knobs.commOverlap) {
        serial = noOverlapEdgesFor(g);
        if (serial->overlay.empty())
            res.warnings.addForKnob("comm.overlap", Warn::NoOverlapUnavailable, serial->unavailable);
        else
            res.addedEdges = std::shared_ptr<const EdgeOverlay>(serial, &serial->overlay);
    }
    const EdgeOverlay* overlay = res.addedEdges.get();
    if (stop()) return res;

    Schedule s = scheduleJob({g, timing, L, added, loadedVar, addedVar, overlay,
                              knobs.peersModel != PeersModel::Measured, options.cancel,
                              stages > 0 ? &edit->laneOf : nullptr, lanes});
    if (s.cancelled) {
        res.complete = false;
        return res;
    }
    if (!s.complete) {
        res.complete = false;
        res.warnings.add(Warn::ScheduleIncomplete,
                         "the simulation could not schedule every node (dependency cycle); unscheduled "
                         "nodes have no simulated time");
    }
    collectTimes(g, plan.setup, L, s, res);
    // The timeline holds every event of the trace (what the views and exports draw): only built
    // for callers that ask for it.
    if (options.timeline) fillTimeline(g, res);
    summarizeRanks(g, plan.setup, res, stages > 0 ? &edit->laneOf : nullptr, lanes);
    res.kernelStartError = kernelStartError(g, res, stages > 0 ? &edit->laneOf : nullptr);
    res.setup = std::move(plan.setup);
    return res;
}

} // namespace

namespace {

// parallel.gpus keeps the global batch (docs/Layouts.md): where the traced micro-batches allow,
// each replica of the new job runs traced micro-batches x traced dp / new dp of them (Megatron's
// global batch = dp x micro-batch size x micro-batches); the setup edit then sees dp.degree, and
// pp.microbatches copies or drops the blocks. Otherwise the knobs stay and the setup edit scales
// each replica's work (strong scaling) or says why the layout cannot be made.
SimKnobs resolveLayoutKnobs(const ExecutionGraph& g, const SimKnobs& knobs, std::string& note) {
    if (knobs.parallelGpus <= 0 || knobs.ppMicrobatches > 0 || knobs.dpStrong || knobs.modelLayers > 0)
        return knobs;
    const ParallelStructure s = recognizeStructure(*g.trace, &g, true);
    const int tp = knobs.tpDegree > 0 ? knobs.tpDegree : s.tp;
    const int pp = knobs.ppDegree > 0 ? knobs.ppDegree : s.pp;
    if (!s.recognised || s.microbatches <= 0 || tp <= 0 || pp <= 0 || knobs.parallelGpus % (tp * pp) != 0)
        return knobs;
    const int n = knobs.parallelGpus / (tp * pp);
    if ((knobs.dpDegree > 0 && knobs.dpDegree != n) || (s.microbatches * s.dp) % n != 0) return knobs;
    SimKnobs k = knobs;
    k.parallelGpus = 0;
    k.dpDegree = n;
    const int m = s.microbatches * s.dp / n;
    if (m != s.microbatches) k.ppMicrobatches = m;
    note = "parallel.gpus=" + std::to_string(knobs.parallelGpus) + ": dp " + std::to_string(n) + " x tp " +
           std::to_string(tp) + " x pp " + std::to_string(pp) +
           "; the global batch stays: " + std::to_string(m) + " micro-batches per replica (traced " +
           std::to_string(s.microbatches) + " on dp " + std::to_string(s.dp) + ")";
    return k;
}

SimResult simulateKnobs(const ExecutionGraph& g, const SimKnobs& userKnobs, const SimOptions& options) {
    std::string layoutNote;
    const SimKnobs knobs = resolveLayoutKnobs(g, userKnobs, layoutNote);
    if (!layoutNote.empty()) { // one level: the resolved knobs have no parallel.gpus
        SimResult r = simulateKnobs(g, knobs, options);
        r.setup.notes.insert(r.setup.notes.begin(), layoutNote);
        return r;
    }
    // Block edits (model.layers, pp.microbatches): the job runs on an edited copy of the graph and
    // its times are mapped back onto g (sim/BlockEdits.h).
    if (!knobs.ppTransfers && knobs.ppDegree <= 0)
        throw KnobError("pp.transfers=false without pp.degree changes nothing");
    if (knobs.ppSplit != PipelineSplit::Even && knobs.ppDegree <= 0)
        throw KnobError("pp.split=" + pipelineSplitText(knobs) + " without pp.degree changes nothing");
    if (knobs.modelLayers > 0 || knobs.ppMicrobatches > 0 || knobs.ppDegree > 0) {
        const BlockEditRun run = planBlockEditRun(g, knobs);
        SimResult r = simulateJob(run.edit->active ? run.edit->graph : g, run.knobs, options, run.edit.get());
        // A cancelled run has no times to map back.
        if (!r.complete && options.cancel && options.cancel->load(std::memory_order_relaxed)) return r;
        return mapBlockEditResult(g, run, std::move(r), options);
    }
    return simulateJob(g, knobs, options);
}

} // namespace

SimResult simulate(const ExecutionGraph& g, const SimKnobs& knobs, const SimOptions& options) {
    SimResult res = simulateKnobs(g, knobs, options);
    // data.workers without data.cores: the workers got free cores; the other end of the range is the
    // pool on the cores the trace shows busy (sim/DataLoaderModel.h).
    if (knobs.dataWorkers <= 0 || knobs.dataCores > 0 || !res.complete ||
        res.warnings.has(Warn::DataKnobsNoLoader))
        return res;
    DataLoaderRange range;
    range.workers = knobs.dataWorkers;
    range.busyCores = busyCpuThreads(g);
    range.freeCoresIteration = res.simulatedIteration;
    range.busyCoresIteration = res.simulatedIteration;
    if (workerParallelism(knobs.dataWorkers, range.busyCores) < knobs.dataWorkers) {
        SimKnobs busy = knobs;
        busy.dataCores = range.busyCores;
        SimOptions quiet = options;
        quiet.timeline = false;
        const SimResult other = simulateKnobs(g, busy, quiet);
        if (!other.complete) return res;
        range.busyCoresIteration = other.simulatedIteration;
    }
    range.applies = true;
    range.note = dataLoaderRangeNote(range);
    res.dataLoader = std::move(range);
    return res;
}

} // namespace sl
