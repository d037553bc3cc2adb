#include "sim/BlockEdits.h"
#include "sim/CollectiveKnobs.h"
#include "sim/edits/GraphSplice.h"
#include "sim/edits/MicrobatchPlan.h"
#include "sim/edits/PipelineSplit.h"
#include "sim/edits/StageUnits.h"

#include "models/GpuTable.h"
#include "models/PipelineSchedule.h"
#include "sim/LayoutKnobs.h"
#include "structure/CollectiveCalls.h"
#include "structure/ModelShape.h"
#include "structure/Structure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

// pp.degree (docs/Layouts.md, "pp.degree"): each trace rank becomes the column of pipeline stages of
// its (data, tensor) place. Stage j of the column is lane j of the rank: a copy of its threads and
// streams that runs the layers of stage j in stage j's 1F1B order; stage-to-stage transfers are
// PipelineTransfer edges between the lanes.
namespace sl {

using namespace edits;

namespace {

std::string fixed(double v, int digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// The compute stream of a step: the GPU processor that runs most of its layers' ops.
std::uint32_t computeStream(const ExecutionGraph& g, const StepUnits& su) {
    std::map<std::uint32_t, std::size_t> ops;
    for (const auto& mu : su.blocks)
        for (int u : mu.layers)
            for (NodeId x : su.units[static_cast<std::size_t>(u)])
                if (g.nodes[x].kind == NodeKind::GpuOp) ++ops[g.nodes[x].processor];
    std::uint32_t best = 0xffffffffu;
    std::size_t most = 0;
    for (const auto& [p, c] : ops)
        if (c > most) {
            most = c;
            best = p;
        }
    return best;
}

// The time of one stage-to-stage transfer of `bytes` between two ranks of the new job: the collective
// model of the knobs (calibrated on the trace where they leave it open), else the GPU table's link.
TimeNs transferTime(const ExecutionGraph& g, const SimKnobs& knobs, const CollectiveModel& model,
                    std::int64_t bytes, bool spansNodes, const std::string& knob, std::string& from) {
    const TimeNs t = model.time(CollectiveType::Send, bytes, 2, spansNodes);
    if (t >= 0) {
        from = "the collective model of the trace and the comm.* knobs";
        return t;
    }
    const GpuSpec* gpu = nullptr;
    try {
        gpu = &sourceGpu(*g.trace, GpuTable::builtin(), knobs.gpuSource);
    } catch (const GpuTableError& e) {
        throw KnobError(knob + ": no collective to calibrate the transfers on, and " + e.what());
    }
    if (gpu->linkGBps <= 0)
        throw KnobError(knob + ": no collective to calibrate the transfers on, and no link bandwidth for " +
                        gpu->name + " in the GPU table");
    from = "10 us + bytes over " + gpu->name + "'s link";
    return static_cast<TimeNs>(std::llround(10000.0 + static_cast<double>(bytes) / (gpu->linkGBps / 2.0)));
}

} // namespace

BlockEdit editPipeline(const ExecutionGraph& g, const SimKnobs& knobs) {
    BlockEdit out;
    const int N = knobs.ppDegree;
    if (N <= 0) return out;
    const TraceSet& set = *g.trace;
    const std::string knob = "pp.degree=" + std::to_string(N);
    out.structure = recognizeStructure(set, &g);
    const ParallelStructure& s = out.structure;
    if (!s.recognised)
        throw KnobError(knob + ": no parallel layout recognised (" +
                        (s.notes.empty() ? std::string("no layout") : s.notes.front()) + ")");
    const int T = std::max(1, s.pp);
    if (N == T) {
        if (knobs.ppSplit != PipelineSplit::Even)
            throw KnobError(
                knob + " pp.split=" + pipelineSplitText(knobs) + ": " + knob +
                " is the traced layout, whose layers stay on their stages (pp.split changes nothing)");
        out.notes.push_back(knob + " is the traced layout: nothing to add or drop");
        return out;
    }
    if (N % T != 0)
        throw KnobError(knob + ": " + std::to_string(N) + " is not a multiple of the traced " +
                        std::to_string(T) + " stages (merging stages would put two traced ranks on one)");
    // Each traced stage p becomes stages p x k .. p x k + k - 1 of its column; its traced sends and
    // receives stay on the column's end lanes (forward receive lane 0, send lane k - 1; backward the
    // reverse), matched collectives between columns.
    const int k = N / T; // stages per column
    const int M = s.microbatches;
    if (M <= 0)
        throw KnobError(knob + ": no micro-batch blocks recognised (forward_step#N / backward_step#N markers "
                               "tell the forward from the backward)");
    const int L = s.layers;
    if (L <= 0)
        throw KnobError(knob +
                        ": no layer blocks recognised (the forward and backward blocks repeat no layer)");
    // pp.split's errors that need no units come before the others; pp.split=time reads the units.
    std::vector<StepUnits> steps;
    bool unitsFound = false;
    auto findUnits = [&] {
        if (!unitsFound) steps = stageUnits(g, L / T, knob);
        unitsFound = true;
    };
    const std::vector<int> stageLayers = stageLayerCounts(
        knobs, L, N, T,
        [&] {
            findUnits();
            return measuredLayerTimes(g, steps, L);
        },
        knob);
    const ModelShape shape = recognizeModelShape(set, s.tp, kernelCostsOf(set));
    if (!shape.recognised || shape.elementBytes <= 0)
        throw KnobError(knob +
                        ": the activation size is unknown (the stage-to-stage transfers are sized from "
                        "the layer norms' shapes: a trace profiled with record_shapes=True)");
    findUnits();
    // Lane j of a column runs the rank's own layers [firstLayer[j], firstLayer[j + 1]); an uneven
    // split comes only from T = 1 (one column of N lanes), so every column shares these bounds.
    std::vector<int> firstLayer{0};
    for (int j = 0; j < k; ++j)
        firstLayer.push_back(firstLayer.back() + stageLayers[static_cast<std::size_t>(j)]);
    auto tracedStage = [&](std::uint32_t r) { return s.places[r].known ? s.places[r].pp : 0; };
    // pp.microbatches: Mp micro-batches per step by its rule (sim/edits/MicrobatchPlan.h); copies of a
    // block's units keep their stage and never repeat a gradient all-reduce.
    const int Mp = knobs.ppMicrobatches > 0 ? knobs.ppMicrobatches : M;
    const MicrobatchSources sources(M, Mp);

    // 1. The runs: per rank and step, lane j runs its head (a copy on lanes > 0), stage j's units of
    // every micro-batch in stage j's 1F1B order, and its tail.
    // blockOfEntry: per run and sequence entry, the micro-batch block it belongs to (m forward,
    // -(m + 1) backward; kNoBlock for heads and tails).
    constexpr int kNoBlock = 1 << 30;
    std::vector<BlockRun> runs;
    std::vector<std::vector<int>> blockOfEntry;
    std::map<std::uint32_t, int> stepOfRank;
    for (const StepUnits& su : steps) {
        const int st = stepOfRank[su.rank]++;
        BlockRun run;
        run.rank = su.rank;
        run.units = su.units;
        auto blockOf = [&](int m, bool backward) -> const MicrobatchUnits& {
            for (const auto& mu : su.blocks)
                if (mu.microbatch == m && mu.backward == backward) return mu;
            throw KnobError(knob + ": rank " + std::to_string(set.ranks[su.rank].rank) + " has no " +
                            (backward ? "backward" : "forward") + " block of micro-batch " +
                            std::to_string(m));
        };
        std::vector<int> entries;
        const int p = tracedStage(su.rank);
        for (int j = 0; j < k; ++j) {
            const auto lane = static_cast<std::uint8_t>(j);
            const int lo = firstLayer[static_cast<std::size_t>(j)],
                      hi = firstLayer[static_cast<std::size_t>(j) + 1];
            int block = kNoBlock;
            auto push = [&](int unit, std::uint32_t label) {
                if (unit < 0) return;
                run.sequence.push_back({unit, label});
                run.lane.push_back(lane);
                entries.push_back(block);
            };
            const std::uint32_t copy =
                j == 0 ? kOriginal
                       : 0x40000000u | static_cast<std::uint32_t>(st) << 12 | static_cast<std::uint32_t>(j);
            push(su.head, copy);
            for (int item : oneFOneBSchedule(N, p * k + j, Mp)) {
                const bool backward = item < 0;
                const int m = backward ? -item - 1 : item;
                const MicrobatchUnits& mu = blockOf(sources.source(m), backward);
                const std::uint32_t label =
                    sources.original(m) ? kOriginal
                                        : microbatchCopyLabel(static_cast<std::size_t>(st), backward, m);
                block = item;
                if (!backward) {
                    if (j == 0) push(mu.prefix, label);
                    for (int l = lo; l < hi; ++l)
                        push(mu.layers[static_cast<std::size_t>(l)], label);
                    if (j == k - 1) push(mu.suffix, label);
                } else {
                    if (j == k - 1) push(mu.prefix, label);
                    for (int l = hi; l-- > lo;)
                        push(mu.layers[static_cast<std::size_t>(l)], label);
                    if (j == 0) push(mu.suffix, label);
                }
                block = kNoBlock;
            }
            push(su.tail, copy);
        }
        runs.push_back(std::move(run));
        blockOfEntry.push_back(std::move(entries));
    }
    Applied applied = applyRuns(g, runs, out, gradientCollectives(g));
    ExecutionGraph& e = out.graph;
    out.laneOf = applied.laneOf;
    out.laneOf.resize(e.nodes.size(), 0);
    out.stages = N;

    // 2. The optimizer of stage q updates stage q's parameters: its kernels (launched inside
    // Optimizer.step*) run x params(stage q) / params(traced stage). Per layer 12H^2 + 13H; the
    // embedding's V x H on the first stage; the LM head's V x H and the final norm's 2H on the last.
    const double H = static_cast<double>(shape.hidden);
    const double V = static_cast<double>(shape.vocabPerRank) * s.tp;
    const double P = 12.0 * H * H + 13.0 * H, E = V * H, Hd = V > 0 ? V * H + 2.0 * H : 0.0;
    auto params = [&](int layers, int stage, int stages) {
        return layers * P + (stage == 0 ? E : 0.0) + (stage == stages - 1 ? Hd : 0.0);
    };
    std::vector<double> optimizerFactor(static_cast<std::size_t>(N)); // by the new stage
    for (int q = 0; q < N; ++q)
        optimizerFactor[static_cast<std::size_t>(q)] =
            params(stageLayers[static_cast<std::size_t>(q)], q, N) / params(L / T, q / k, T);
    std::vector<std::uint8_t> optimizerOp(g.nodes.size(), 0);
    for (const StepUnits& su : steps)
        for (const auto& [from, to] : su.optimizer)
            for (NodeId x : blockNodes(g, g.processors[su.thread], from, to))
                if (g.nodes[x].kind == NodeKind::GpuOp) optimizerOp[x] = 1;
    std::int64_t scaledOptimizer = 0;
    for (NodeId y = 0; y < e.nodes.size(); ++y)
        if (optimizerOp[out.sourceOf[y]]) {
            e.nodes[y].duration = std::max<TimeNs>(
                1, scaledNs(e.nodes[y].duration, optimizerFactor[static_cast<std::size_t>(
                                                     tracedStage(e.nodes[y].rank) * k + out.laneOf[y])]));
            ++scaledOptimizer;
        }

    // 3. The transfers: micro-batch m's activation from stage j's last compute op of its forward to
    // stage j + 1's first; its gradient back from stage j + 1's backward to stage j's. The receive
    // is posted when the receiver's compute stream reaches it (ProcessGroupNCCL's stream waits for
    // the current one) and the transfer needs both ends: a second edge, from the receiver's op before
    // the block, carries the transfer too.
    std::vector<std::uint32_t> position(e.nodes.size(), 0);
    for (const Processor& proc : e.processors)
        for (std::uint32_t at = 0; at < proc.nodes.size(); ++at)
            position[proc.nodes[at]] = at;
    const std::int64_t bytes = shape.tokens * shape.hidden * shape.elementBytes;
    const int gpusPerNode = gpusPerNodeOf(set, knobs.commGpusPerNode);
    const int tpNew = knobs.tpDegree > 0 ? knobs.tpDegree : s.tp;
    const int dpNew = knobs.dpDegree > 0 ? knobs.dpDegree
                      : knobs.parallelGpus > 0 && tpNew * N > 0
                          ? std::max(1, knobs.parallelGpus / (tpNew * N))
                          : s.dp;
    const CollectiveModel model = collectiveModelFor(g, knobs, collectiveCalls(g), nullptr);
    std::string timedBy;
    std::map<bool, TimeNs> timeBySpan;
    std::int64_t transfers = 0, acrossNodes = 0;
    TimeNs longest = 0;
    for (std::size_t ri = 0; ri < runs.size(); ++ri) {
        const StepUnits& su = steps[ri];
        const std::uint32_t stream = computeStream(g, su);
        const RankPlace& place = s.places[su.rank];
        // The compute-stream ops of block `item` on lane j, in its order.
        auto computeOps = [&](int item, int j) {
            std::vector<NodeId> ops;
            for (std::size_t p = 0; p < runs[ri].sequence.size(); ++p)
                if (blockOfEntry[ri][p] == item && runs[ri].lane[p] == j)
                    for (NodeId y : applied.instances[ri][p])
                        if (g.nodes[out.sourceOf[y]].processor == stream) ops.push_back(y);
            return ops;
        };
        const int first = tracedStage(su.rank) * k; // the column's first stage
        // A column the new layout drops (its place beyond the new dp or tp) keeps its edges but has
        // no id in the new job: its transfers are neither counted nor placed on a node.
        const bool kept = place.dp < dpNew && place.tp < tpNew;
        for (int item : oneFOneBSchedule(1, 0, Mp))
            for (int j = 0; j + 1 < k; ++j) {
                const bool backward = item < 0;
                const int sender = backward ? j + 1 : j, receiver = backward ? j : j + 1;
                const std::vector<NodeId> a = computeOps(item, sender), b = computeOps(item, receiver);
                if (a.empty() || b.empty()) continue;
                const int idA =
                    ParallelStructure::megatronRank(first + sender, place.dp, place.tp, dpNew, tpNew);
                const int idB =
                    ParallelStructure::megatronRank(first + receiver, place.dp, place.tp, dpNew, tpNew);
                const bool spans = kept && gpusPerNode > 0 && idA / gpusPerNode != idB / gpusPerNode;
                auto known = timeBySpan.find(spans);
                if (known == timeBySpan.end())
                    known =
                        timeBySpan.emplace(spans, transferTime(g, knobs, model, bytes, spans, knob, timedBy))
                            .first;
                GraphEdge t;
                t.kind = EdgeKind::PipelineTransfer;
                t.from = a.back();
                t.to = b.front();
                t.delay = knobs.ppTransfers ? known->second : 0;
                e.edges.push_back(t);
                out.edgeOrigin.push_back(kNoEdge);
                const std::uint32_t at = position[b.front()];
                if (at > 0) { // the receive, posted after the receiver's op before the block
                    t.from = e.processors[e.nodes[b.front()].processor].nodes[at - 1];
                    e.edges.push_back(t);
                    out.edgeOrigin.push_back(kNoEdge);
                }
                if (!kept) continue;
                ++transfers;
                acrossNodes += spans ? 1 : 0;
                longest = std::max(longest, known->second);
            }
    }

    // 4. Roots: each lane's first call on the main thread starts at its column root's release (a
    // boundary condition of the new rank, as the traced rank's root is).
    std::int64_t laneRoots = 0;
    for (std::size_t pi = g.processors.size(); pi < e.processors.size(); ++pi) {
        const Processor& lane = e.processors[pi];
        if (lane.gpu || lane.nodes.empty()) continue;
        for (const StepUnits& su : steps) {
            if (su.rank != lane.rank || g.processors[su.thread].track != lane.track) continue;
            const NodeId root = out.nodeOf[g.processors[su.thread].nodes.front()];
            if (root == kNoNode) break;
            GraphNode& first = e.nodes[lane.nodes.front()];
            first.release = e.nodes[root].release;
            first.releaseWork = e.nodes[root].releaseWork;
            first.releaseWait = e.nodes[root].releaseWait;
            ++laneRoots;
            break;
        }
    }
    e.buildAdjacency();
    try {
        e.validate();
    } catch (const GraphError& err) {
        throw KnobError(knob + ": the pipeline schedule is not a valid graph (" + err.what() + ")");
    }
    out.active = true;

    std::string splitText;
    for (int n : stageLayers)
        splitText.append(splitText.empty() ? "" : ",").append(std::to_string(n));
    splitText += " layers";
    std::vector<int> ranks;
    for (const auto& p : s.places)
        ranks.push_back(p.rank);
    out.notes.push_back(knob + ": " + std::to_string(T) + " -> " + std::to_string(N) +
                        " pipeline stages; each of ranks " + idRangesText(ranks) + " becomes the column of " +
                        std::to_string(k) + " stages of its (data, tensor" + (T > 1 ? ", pipeline" : "") +
                        ") place" + (T > 1 ? " (its traced sends and receives on the column's ends)" : "") +
                        ", stages of " + splitText + " (pp.split=" + pipelineSplitText(knobs) + "; " +
                        std::to_string(L) +
                        " layers in all), the embedding on stage 0 and the "
                        "final norm, LM head and loss on stage " +
                        std::to_string(N - 1) + "; each stage runs " +
                        (Mp == M ? "the " + std::to_string(M) + " traced micro-batches"
                                 : std::to_string(Mp) + " micro-batches (traced " + std::to_string(M) +
                                       "; pp.microbatches' rule: copies of micro-batches " +
                                       runsText(sources.copied()) + " without their gradient all-reduces)") +
                        " in its 1F1B order");
    out.notes.push_back(
        "modelled, not measured: " + std::to_string(transfers) + " stage-to-stage transfers (2 x " +
        std::to_string(Mp) + " micro-batches x " + std::to_string(k - 1) + " per column and step), " +
        std::to_string(bytes) + " bytes each (" + std::to_string(shape.tokens) + " tokens x hidden " +
        std::to_string(shape.hidden) + " x " + std::to_string(shape.elementBytes) + " bytes), " +
        (knobs.ppTransfers ? fixed(static_cast<double>(longest) / 1000.0, 1) + " us at most (" + timedBy + ")"
                           : std::string("free (pp.transfers=false)")) +
        (acrossNodes > 0 ? ", " + std::to_string(acrossNodes) + " of them across nodes" : std::string()) +
        "; the c10d host calls of the sends and receives are not modelled and transfers count as idle time, "
        "not communication");
    std::string factors;
    for (int j = 0; j < N; ++j)
        factors += (j ? ", " : "") + fixed(optimizerFactor[static_cast<std::size_t>(j)], 3);
    out.notes.push_back(
        "modelled, not measured: " + std::to_string(scaledOptimizer) +
        " optimizer kernels x the parameters of their stage over the traced stage's (stages 0.." +
        std::to_string(N - 1) + ": " + factors + (V > 0 ? ")" : "; no vocabulary found: by layers)"));
    out.notes.push_back(
        "new stages: the first call of each new stage of a column (" + std::to_string(laneRoots) +
        " lanes) starts at its column root's release, a boundary condition; the steps' heads and tails "
        "(optimizer, loss.item) are copies on every new stage; new stages are simulated, not drawn and not "
        "in "
        "the GPU time breakdowns (those are the traced ranks' first stage of their column)");
    // Dependencies the splice could not keep inside one stage (work outside the micro-batch blocks
    // tied to a moved block): said, with their count.
    if (applied.crossLaneDropped > 0)
        out.notes.push_back(
            "dropped " + std::to_string(applied.crossLaneDropped) +
            " traced dependencies between two stages of a column (work outside the micro-batch "
            "blocks tied to a block another stage now runs)");
    return out;
}

} // namespace sl
