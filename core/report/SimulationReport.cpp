#include "report/SimulationReport.h"

#include "report/ReportNumbersJson.h"
#include "report/SimulationNumbers.h"

#include "sim/GpuSwap.h"

#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"
#include "analysis/KnobEffect.h"
#include "analysis/PinnedTime.h"
#include "analysis/Throughput.h"
#include "analysis/TraceInfo.h"
#include "base/Rounding.h"
#include "graph/ChakraGraph.h"
#include "models/KernelClass.h"
#include "structure/CollectiveCalls.h"

#include <array>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include <cmath>

namespace sl {

namespace {

// A set without measured times (Chakra input, docs/Chakra.md): every measured figure and every
// error against it is null, not 0, and measured_times says why. The one place that decides this
// for `simulate --json`, `report` (JSON, CSV, HTML) and the GUI's export.
void dropMeasured(nlohmann::json& j) {
    j["measured_times"] = false;
    for (const char* k : {"measured_us", "error_pct"})
        if (j.contains("iteration")) j["iteration"][k] = nullptr;
    for (const char* k : {"kernel_start_error_us", "kernel_start_error_pct"})
        if (j.contains(k)) j[k] = nullptr;
    if (j.contains("ranks"))
        for (auto& r : j["ranks"]) {
            for (const char* k : {"measured_us", "error_pct", "gpu_span_error_pct", "exposed_comm_error_pct",
                                  "idle_error_pct"})
                if (r.contains(k)) r[k] = nullptr;
            r.erase("measured");
        }
}

nlohmann::json latencyByApi(const RankWindow& w) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [api, v] : w.launchLatencyByApi)
        j[api] = us(v);
    return j;
}

double errorPct(TimeNs simulated, TimeNs measured) {
    if (measured <= 0) return 0;
    return pct(100.0 * std::abs(static_cast<double>(simulated - measured)) / static_cast<double>(measured));
}

// GPU time per kernel class of every rank, measured and simulated ("communication" for
// collective kernels; a waiting collective counts its whole span, as in the timeline).
struct ClassTimes {
    std::vector<std::array<TimeNs, kKernelClassCount + 1>> measured, simulated;
};
ClassTimes classTimes(const ExecutionGraph& g, const SimResult& res) {
    ClassTimes c;
    c.measured.assign(g.trace->ranks.size(), {});
    c.simulated.assign(g.trace->ranks.size(), {});
    KernelClassifier classifier;
    // The class of each (rank, name, event kind), found once: kernel names repeat by the thousand
    // and classifying one runs the class patterns.
    std::unordered_map<std::uint64_t, std::size_t> known;
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const auto& node = g.nodes[n];
        if (node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective) continue;
        std::size_t cls = kKernelClassCount; // communication
        if (node.kind != NodeKind::Collective) {
            const EventColumns& ev = g.rankOf(n).tracks[node.event.track].events;
            const EventKind kind = ev.kind[node.event.index];
            const std::uint64_t key = (std::uint64_t{node.rank} << 40) |
                                      (std::uint64_t{static_cast<std::uint8_t>(kind)} << 32) |
                                      ev.name[node.event.index];
            auto [it, fresh] = known.try_emplace(key, kKernelClassCount);
            if (fresh && !isCommunicationKernelName(g.nodeName(n)))
                it->second = static_cast<std::size_t>(classifier.classify(g.nodeName(n), kind));
            cls = it->second;
        }
        c.measured[node.rank][cls] += g.measuredEnd(n) - g.measuredStart(n);
        if (n < res.nodes.size() && res.nodes[n].start >= 0)
            c.simulated[node.rank][cls] += res.nodes[n].end - res.nodes[n].start;
    }
    return c;
}

nlohmann::json classJson(const std::array<TimeNs, kKernelClassCount + 1>& t) {
    nlohmann::json j = nlohmann::json::object();
    for (int k = 0; k < kKernelClassCount; ++k)
        j[std::string(kernelClassName(static_cast<KernelClass>(k)))] = us(t[static_cast<std::size_t>(k)]);
    j["communication"] = us(t[kKernelClassCount]);
    return j;
}

// What simulationNumbers() and simulationResultJson() both compute of a run.
struct RunParts {
    Throughput throughput; // applies only against a replay
    Rate rate;
    std::vector<RankBreakdown> simulated, measured;
    std::vector<CommSplit> simulatedSplit;
    CriticalPath path; // the job's critical path (totals), walked with the ranks' pins
    std::vector<RankPinnedTime> pins;
};

RunParts runParts(const ExecutionGraph& g, const SimResult& res, const SimKnobs& knobs,
                  const SimResult* replay, const SimKnobs* replayKnobs) {
    RunParts p;
    if (replay)
        p.throughput = throughputVsBaseline(g, *replay, replayKnobs ? *replayKnobs : SimKnobs{}, res, knobs);
    // Samples and tokens per second where the batch is given: the what-if's own batch.* knobs,
    // else the baseline's (the batch describes the trace, docs/Scaling.md).
    p.rate = runRate(g, res, knobs, replayKnobs);
    p.simulated = simulatedBreakdown(*g.trace, res.timeline);
    p.measured = measuredBreakdown(*g.trace, &g);
    p.simulatedSplit = simulatedCommSplit(g, res);
    // Pinned time per rank: measured time without a cause on the critical path that ends on the
    // rank (analysis/PinnedTime.h); the path of this run, so a what-if says what still holds it.
    p.pins = pinnedTime(g, res, &p.path);
    return p;
}

BreakdownNumbers breakdownNumbers(const RankBreakdown& b) {
    return {us(b.compute), us(b.communication), us(b.exposedCommunication), us(b.memory),
            us(b.idle),    us(b.span),          pct(b.overlapPct())};
}

// gpu_swap's rows as sim/GpuSwap.h's gpuSwapJson() rounds them (µs to the nanosecond).
double swapUs(TimeNs t) {
    return static_cast<double>(std::llround(static_cast<double>(t) / 1000.0 * 1000.0)) / 1000.0;
}
GpuSwapRowNumbers swapRowNumbers(const GpuSwapRow& r) {
    return {r.name,
            std::string(kernelClassName(r.cls)),
            r.kernels,
            r.withShapes,
            swapUs(r.measured),
            swapUs(r.predicted),
            round3(r.speedup())};
}
GpuSwapNumbers swapNumbers(const GpuSwap& swap) {
    GpuSwapNumbers n;
    n.source = swap.source->name;
    n.target = swap.target->name;
    n.linkRatio = round3(swap.linkRatio);
    n.withoutShapesKernels = swap.withoutShapes;
    n.withoutShapesUs = swapUs(swap.withoutShapesTime);
    for (const auto& c : swap.classes)
        if (c.kernels > 0) {
            n.byClass.push_back(swapRowNumbers(c));
            n.byClass.back().name.clear();
        }
    constexpr std::size_t kTopKernels = 15; // gpuSwapJson's default
    for (std::size_t i = 0; i < swap.kernels.size() && i < kTopKernels; ++i)
        n.topKernels.push_back(swapRowNumbers(swap.kernels[i]));
    return n;
}

RankNumbers rankNumbers(const ExecutionGraph& g, const SimResult& res, const RunParts& p, std::size_t r,
                        bool measured) {
    const RankSimSummary& s = res.ranks[r];
    RankNumbers rn;
    rn.rank = s.rank;
    rn.simulatedUs = us(s.simulated());
    if (measured) {
        rn.measuredUs = us(s.measured());
        rn.errorPct = pct(s.errorPct());
        rn.gpuSpanErrorPct = pct(s.gpuSpanErrorPct());
        if (r < p.measured.size()) rn.measured = breakdownNumbers(p.measured[r]);
    }
    if (r < p.simulated.size()) {
        rn.simulated = breakdownNumbers(p.simulated[r]);
        rn.computeUs = rn.simulated->computeUs;
        rn.exposedCommUs = rn.simulated->exposedCommUs;
        rn.idleUs = rn.simulated->idleUs;
    }
    if (r < p.simulatedSplit.size()) rn.commWaitUs = us(p.simulatedSplit[r].wait);
    rn.unexplainedWaitUs = us(g.ranks[r].unexplainedWait);
    rn.unexplainedGpuWaitUs = us(g.ranks[r].unexplainedGpuWait);
    rn.prewindowOps = g.ranks[r].prewindowOps;
    if (r < p.pins.size()) {
        rn.pinnedSharePct = pct(p.pins[r].sharePct());
        rn.largestPin = describePin(g, p.pins[r].largest);
    }
    return rn;
}

SimulationNumbers numbersOf(const ExecutionGraph& g, const SimResult& res, const RunParts& p) {
    SimulationNumbers n;
    n.measuredTimes = !isUnmeasuredSet(*g.trace);
    if (n.measuredTimes) {
        n.measuredUs = us(res.measuredIteration);
        n.errorPct = pct(res.iterationErrorPct());
    }
    n.simulatedUs = us(res.simulatedIteration);
    if (p.throughput.applies) {
        n.throughputVsBaseline = pct(p.throughput.throughputRatio);
        n.scalingEfficiency = pct(p.throughput.efficiency);
        n.baselineUs = us(p.throughput.baselineStep);
        n.throughputNote = p.throughput.sentence;
    }
    if (p.rate.known()) {
        if (p.rate.samplesPerSecond > 0) n.samplesPerSecond = pct(p.rate.samplesPerSecond);
        n.rateNote = rateText(p.rate);
    }
    n.criticalPathUs = us(p.path.length);
    for (std::size_t l = 0; l < n.criticalPath.size(); ++l)
        n.criticalPath[l] = {us(p.path.byLabel[l]), pct(p.path.sharePct(p.path.byLabel[l]))};
    for (const auto& [ref, t] : p.path.topNodes)
        n.topEvents.push_back({std::string(g.nodeName(ref.node)), res.rankId(g, ref),
                               std::string(nodeKindName(g.nodes[ref.node].kind)), us(t)});
    if (n.measuredTimes) {
        const StartErrorStats& e = res.kernelStartError;
        n.kernelStart =
            KernelStartNumbers{round3(e.medianUs), round3(e.p90Us), round3(e.maxUs),       e.count,
                               pct(e.medianPct),   pct(e.p90Pct),   pct(e.within1PctShare)};
    }
    if (res.gpuSwap && res.gpuSwap->active()) n.gpuSwap = swapNumbers(*res.gpuSwap);
    for (std::size_t r = 0; r < res.ranks.size(); ++r)
        n.ranks.push_back(rankNumbers(g, res, p, r, n.measuredTimes));
    return n;
}

} // namespace

SimulationNumbers simulationNumbers(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const SimResult* replay,
                                    const SimKnobs* replayKnobs) {
    return numbersOf(graph, result, runParts(graph, result, knobs, replay, replayKnobs));
}

Rate runRate(const ExecutionGraph& g, const SimResult& res, const SimKnobs& knobs,
             const SimKnobs* baselineKnobs) {
    SimKnobs batch = knobs;
    if (baselineKnobs && batch.batchSamples <= 0 && batch.batchTokens <= 0) {
        batch.batchSamples = baselineKnobs->batchSamples;
        batch.batchTokens = baselineKnobs->batchTokens;
    }
    if (batch.batchSamples <= 0 && batch.batchTokens <= 0) return {};
    return rateOf(batch, stepWork(g, knobs, res).samples, res.simulatedIteration);
}

SimulationReport simulationReport(const ExecutionGraph& g, const SimResult& res, const SimKnobs& knobs,
                                  const SimResult* replay, const SimKnobs* replayKnobs,
                                  const ReportSource* source) {
    const RunParts run = runParts(g, res, knobs, replay, replayKnobs);
    SimulationReport out;
    ReportNumbers& numbers = out.numbers;
    numbers.run = numbersOf(g, res, run);
    numbers.knobs = knobs.toJson();
    numbers.changedKnobs = changedKnobs(numbers.knobs);
    if (source) numbers.source = *source;
    nlohmann::json& j = out.json;
    // The fields the typed numbers do not carry; writeReportNumbers() adds theirs below.
    j["iteration"] = nlohmann::json::object();
    addThroughputJson(j["iteration"], run.throughput);
    addRateJson(j["iteration"], run.rate);
    // Breakdown (HTA definitions): simulated at the top level of each rank, measured in `measured`.
    const std::vector<RankBreakdown>& sim = run.simulated;
    const std::vector<RankBreakdown>& meas = run.measured;
    std::vector<StreamIdle> idle = measuredStreamIdle(g);
    const ClassTimes classes = classTimes(g, res);
    // Idle time per GPU stream (span minus busy time), measured and simulated: the per-stream drift
    // that a rank's iteration hides.
    std::map<std::tuple<std::uint32_t, std::int64_t, std::int64_t>, std::pair<TimeNs, TimeNs>> streamIdle;
    for (const auto& p : g.processors) {
        if (!p.gpu || p.nodes.empty()) continue;
        const Track& t = g.trace->ranks[p.rank].tracks[p.track];
        TimeNs mBusy = 0, sBusy = 0, mLo = g.measuredStart(p.nodes.front()), mHi = mLo;
        TimeNs sLo = std::numeric_limits<TimeNs>::max(), sHi = std::numeric_limits<TimeNs>::min();
        for (NodeId n : p.nodes) {
            mBusy += g.measuredEnd(n) - g.measuredStart(n);
            mHi = std::max(mHi, g.measuredEnd(n));
            if (n < res.nodes.size() && res.nodes[n].start >= 0) {
                sBusy += res.nodes[n].end - res.nodes[n].start;
                sLo = std::min(sLo, res.nodes[n].start);
                sHi = std::max(sHi, res.nodes[n].end);
            }
        }
        const TimeNs mIdle = std::max<TimeNs>(0, (mHi - mLo) - mBusy);
        const TimeNs sIdle = sHi > sLo ? std::max<TimeNs>(0, (sHi - sLo) - sBusy) : 0;
        streamIdle[{p.rank, t.device(), t.stream()}] = {mIdle, sIdle};
    }
    const std::vector<CommSplit> splitMeasured = measuredCommSplit(g);
    const std::vector<CommSplit>& splitSimulated = run.simulatedSplit;
    auto splitJson = [](nlohmann::json& into, const CommSplit& c) {
        into["comm_wait_us"] = us(c.wait);
        into["comm_transfer_us"] = us(c.transfer);
        into["exposed_comm_wait_us"] = us(c.exposedWait);
        into["exposed_comm_transfer_us"] = us(c.exposedTransfer);
    };
    // The breakdown's own fields are typed (BreakdownNumbers); these parts are not.
    auto breakdownJson = [](const RankBreakdown& b) {
        nlohmann::json parts = nlohmann::json::object();
        // Parts of compute and comm, only for the ranks of a job that exchanges embeddings (a
        // recommendation model's sharded tables): a transformer's token-embedding kernels are lookups
        // by name too, and its report stays as it was.
        if (b.embeddingAllToAll > 0) {
            parts["embedding_lookup_us"] = us(b.embeddingLookup);
            parts["embedding_all_to_all_us"] = us(b.embeddingAllToAll);
        }
        return parts;
    };
    const std::vector<RankPinnedTime>& pins = run.pins;
    nlohmann::json ranks = nlohmann::json::array();
    for (std::size_t r = 0; r < res.ranks.size(); ++r) {
        const auto& s = res.ranks[r];
        nlohmann::json streams = nlohmann::json::array();
        for (const auto& si : idle)
            if (si.rank == s.rank) {
                nlohmann::json sj = {{"device", si.device},
                                     {"stream", si.stream},
                                     {"host_wait_us", us(si.hostWait)},
                                     {"dependency_wait_us", us(si.dependencyWait)},
                                     {"other_us", us(si.other)}};
                auto it = streamIdle.find({static_cast<std::uint32_t>(r), si.device, si.stream});
                if (it != streamIdle.end()) {
                    sj["idle_us"] = us(it->second.first);
                    sj["simulated_idle_us"] = us(it->second.second);
                    sj["idle_error_pct"] = errorPct(it->second.second, it->second.first);
                }
                streams.push_back(sj);
            }
        nlohmann::json rankJson = r < sim.size() ? breakdownJson(sim[r]) : nlohmann::json::object();
        if (r < meas.size()) rankJson["measured"] = breakdownJson(meas[r]);
        if (r < meas.size() && r < sim.size()) {
            rankJson["exposed_comm_error_pct"] =
                errorPct(sim[r].exposedCommunication, meas[r].exposedCommunication);
            rankJson["idle_error_pct"] = errorPct(sim[r].idle, meas[r].idle);
        }
        rankJson["by_class_us"] = classJson(classes.simulated[r]);
        if (r < splitSimulated.size()) splitJson(rankJson, splitSimulated[r]);
        if (rankJson.contains("measured") && r < splitMeasured.size())
            splitJson(rankJson["measured"], splitMeasured[r]);
        if (rankJson.contains("measured"))
            rankJson["measured"]["by_class_us"] = classJson(classes.measured[r]);
        rankJson["measured_gpu_span_us"] = us(s.measuredGpuEnd - s.measuredGpuStart);
        rankJson["simulated_gpu_span_us"] = us(s.simulatedGpuEnd - s.simulatedGpuStart);
        rankJson["prewindow_queued"] = g.ranks[r].prewindowQueued;
        rankJson["graph_kernels"] = g.ranks[r].graphKernels;
        rankJson["device_waits"] = g.ranks[r].deviceWaits;
        if (r < pins.size()) {
            nlohmann::json parts = nlohmann::json::object();
            for (int k = 0; k < kPinKindCount; ++k)
                parts[std::string(pinKindName(static_cast<PinKind>(k)))] =
                    us(pins[r].byKind[static_cast<std::size_t>(k)]);
            rankJson["pinned_us"] = parts;
        }
        rankJson["threads_released_at_measured"] = g.ranks[r].threadsReleasedAtMeasured;
        rankJson["cross_stream_window_us"] = us(g.ranks[r].crossStreamTolerance);
        rankJson["stream_idle"] = streams;
        ranks.push_back({{"step_window", g.ranks[r].hasStep},
                         {"typical_launch_latency_us", us(g.ranks[r].typicalLaunchLatency)},
                         {"launch_latency_by_api_us", latencyByApi(g.ranks[r])},
                         {"cross_stream_delay_us", us(g.ranks[r].crossStreamDelay)}});
        ranks.back().update(rankJson);
    }
    j["ranks"] = ranks;
    nlohmann::json edges = nlohmann::json::object();
    for (int k = 0; k < kEdgeKindCount; ++k)
        edges[std::string(edgeKindName(static_cast<EdgeKind>(k)))] = g.stats.edgesByKind[k];
    j["graph"] = {{"nodes", g.nodes.size()},
                  {"edges", edges},
                  {"inferred_cross_stream", g.stats.inferredCrossStream},
                  {"wait_event_edges", g.stats.waitEventEdges},
                  {"collectives_matched", g.stats.collectivesMatched},
                  {"collectives_unmatched", g.stats.collectivesUnmatched},
                  {"phantom_collectives", g.stats.phantomCollectives},
                  {"sm_contention_edges", g.stats.smContentionEdges},
                  {"thread_start_edges", g.stats.threadStartEdges},
                  {"prewindow_ops", g.stats.prewindowOps},
                  {"prewindow_queued", g.stats.prewindowQueued},
                  {"graph_kernels", g.stats.graphKernels},
                  {"device_wait_edges", g.stats.deviceWaitEdges}};
    // A setup edit (dp.degree): the predicted job, which may have more ranks than were measured;
    // `ranks` above are the loaded ones, each rank here names the loaded rank whose numbers it has
    // (docs/Structure.md). Collective transfer time by type shows what the new groups cost.
    if (res.setup.edited) {
        const SimulatedSetup& st = res.setup;
        nlohmann::json sr = nlohmann::json::array(), dropped = nlohmann::json::array();
        // Each rank's own simulated iteration: an added rank runs its source rank's program
        // (`source_rank`) with times of its own (a straggler or jitter can hold it).
        std::vector<const RankSimSummary*> own(st.ranks.size(), nullptr);
        for (std::size_t a = 0; a < res.addedRanks.count(); ++a)
            own[res.addedRanks.setupIndex[a]] = &res.addedRanks.summary[a];
        // pp.degree: a stage > 0 of a loaded rank's column has its own summary (res.laneSummary).
        const std::size_t lanes = res.ranks.empty() ? 1 : res.laneSummary.size() / res.ranks.size();
        for (std::size_t i = 0; i < st.ranks.size(); ++i) {
            const auto& r = st.ranks[i];
            const std::size_t lane = static_cast<std::size_t>(r.lane);
            const bool stage = !own[i] && lane > 0 && lane < lanes &&
                               res.laneSummary[r.source * lanes + lane].rank == r.rank;
            const RankSimSummary& sum = own[i]  ? *own[i]
                                        : stage ? res.laneSummary[r.source * lanes + lane]
                                                : res.ranks[r.source];
            sr.push_back({{"rank", r.rank},
                          {"measured", r.measured},
                          {"source_rank", g.trace->ranks[r.source].rank},
                          {"dp", r.dp},
                          {"tp", r.tp},
                          {"pp", r.pp},
                          {"lane", r.lane},
                          {"simulated_us", us(sum.simulated())},
                          {"simulated_gpu_us", us(sum.simulatedGpuEnd - sum.simulatedGpuStart)}});
        }
        for (std::size_t i = 0; i < st.dropped.size(); ++i)
            if (st.dropped[i]) dropped.push_back(g.trace->ranks[i].rank);
        std::map<std::string, std::pair<TimeNs, TimeNs>> byType; // traced, simulated transfer
        for (const auto& c : collectiveCalls(g)) {
            if (c.node >= res.nodes.size() || st.isDropped(g.nodes[c.node].rank)) continue;
            auto& v = byType[std::string(collectiveTypeName(c.type))];
            v.first += g.nodes[c.node].duration;
            v.second += res.nodes[c.node].own;
        }
        nlohmann::json types = nlohmann::json::object();
        for (const auto& [t, v] : byType)
            types[t] = {{"traced_transfer_us", us(v.first)}, {"simulated_transfer_us", us(v.second)}};
        j["setup"] = {{"world", st.world},
                      {"dp", st.dp},
                      {"tp", st.tp},
                      {"pp", st.pp},
                      {"added_ranks", st.added()},
                      {"dropped_ranks", dropped},
                      {"ranks", sr},
                      {"collective_transfer_by_type", types},
                      {"notes", st.notes}};
    }
    // data.workers with the cores unknown: both ends of the range; the iteration is the first.
    if (res.dataLoader.applies)
        j["data_loader"] = {{"workers", res.dataLoader.workers},
                            {"cores", nullptr},
                            {"iteration_is", "free_cores"},
                            {"free_cores_iteration_us", us(res.dataLoader.freeCoresIteration)},
                            {"busy_cores", res.dataLoader.busyCores},
                            {"busy_cores_iteration_us", us(res.dataLoader.busyCoresIteration)},
                            {"note", res.dataLoader.note}};
    // gpu.target: predicted speedup per kernel class and top kernel, kernels without shapes.
    if (res.gpuSwap) j["gpu_swap"] = gpuSwapJson(*res.gpuSwap);
    // The warnings of the load (each rank's, then the set's), the graph and the run, as lines and as
    // counters by kind (`warning_stats`, the shape of `info`'s: docs/Diagnostics.md).
    Warnings warnings;
    for (const auto& rank : g.trace->ranks)
        warnings.append(rank.warnings, "rank " + std::to_string(rank.rank) + ": ");
    for (const Warnings* list : {&g.trace->warnings, &g.warnings, &res.warnings})
        warnings.append(*list);
    if (replay && !knobs.isReplay()) {
        KnobEffect effect = explainKnobEffect(g, *replay, res, knobs);
        j["knob_effect"] = {{"iteration_change_pct", pct(effect.iterationChangePct)},
                            {"target_share_of_critical_path_pct", pct(effect.targetSharePct)},
                            {"pinned_share_of_critical_path_pct", pct(effect.pinnedSharePct)},
                            {"largest_pin", effect.largestPin},
                            {"note", effect.note}};
        if (std::abs(effect.iterationChangePct) < 1.0) warnings.add(Warn::KnobEffectSmall, effect.note);
        if (effect.hostSharePct >= 0 && j.contains("gpu_swap")) {
            j["gpu_swap"]["host_share_of_critical_path_pct"] = pct(effect.hostSharePct);
            j["gpu_swap"]["host_knobs_set"] =
                knobs.hostDispatch != 1.0 || knobs.hostCompute != 1.0 || knobs.cpuSpeedup != 1.0;
        }
        if (!effect.hostNote.empty())
            warnings.addForKnob("gpu.target", Warn::GpuTargetHostAsTraced, effect.hostNote);
    }
    numbers.warnings = warnings.lines();
    j["warning_stats"] = warningStatsJson(warnings);
    writeReportNumbers(j, numbers);
    if (!numbers.run.measuredTimes) dropMeasured(j);
    return out;
}

nlohmann::json simulationResultJson(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const SimResult* replay,
                                    const SimKnobs* replayKnobs) {
    return simulationReport(graph, result, knobs, replay, replayKnobs, nullptr).json;
}

std::vector<std::string> changedKnobs(const nlohmann::json& knobs) {
    const nlohmann::json defaults = SimKnobs{}.toJson();
    std::vector<std::string> changed;
    for (auto it = knobs.begin(); it != knobs.end(); ++it) {
        auto d = defaults.find(it.key());
        if (d == defaults.end() || *d != it.value()) changed.push_back(it.key());
    }
    return changed;
}

nlohmann::json simulationReportJson(const ExecutionGraph& graph, const SimResult& result,
                                    const SimKnobs& knobs, const std::vector<std::string>& paths, int step,
                                    const SimResult* replay) {
    const ReportSource source{paths, step};
    return simulationReport(graph, result, knobs, replay, nullptr, &source).json;
}

} // namespace sl
