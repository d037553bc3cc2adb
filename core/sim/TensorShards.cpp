#include "sim/TensorShards.h"

#include "models/GpuTable.h"
#include "models/KernelCost.h"
#include "models/Roofline.h"
#include "sim/CollectiveKnobs.h"
#include "sim/Knobs.h"
#include "structure/ModelShape.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace sl {

namespace {

using Dims3 = GemmDims; // M, K, N of a GEMM

// The position of the sharded feature of a layer's GEMM: its dims are the tokens, the hidden size
// and one other feature (QKV, MLP, vocabulary, or H itself for T = 1's attention output); -1 when
// the GEMM is not a layer's (no dim is the tokens, or neither feature is H).
int shardedDim(const Dims3& d, std::int64_t tokens, std::int64_t hidden) {
    int tok = -1;
    for (int i = 0; i < 3 && tok < 0; ++i)
        if (d[static_cast<std::size_t>(i)] == tokens) tok = i;
    if (tok < 0) return -1;
    int a = -1, b = -1;
    for (int i = 0; i < 3; ++i)
        if (i != tok) (a < 0 ? a : b) = i;
    const std::int64_t x = d[static_cast<std::size_t>(a)], y = d[static_cast<std::size_t>(b)];
    if (x == hidden) return b;
    if (y == hidden) return a;
    return -1;
}

OpCost gemmCost(const Dims3& d, const OpCost& like) {
    OpCost c = like;
    const double m = static_cast<double>(d[0]), k = static_cast<double>(d[1]), n = static_cast<double>(d[2]);
    c.flops = 2.0 * m * k * n;
    c.bytes = 2.0 * (m * k + k * n + m * n); // BF16 / FP16 operands: only the ratio is used
    return c;
}

// A GEMM whose output is [tokens, H] and whose contracted dim K the new degree shards.
struct Insertion {
    std::size_t rank;
    EventRef gpuOp, op;
    std::int64_t k;
};

bool inBackward(const Rank& rank, EventRef op) {
    const auto& ev = rank.tracks[op.track].events;
    for (auto p = static_cast<std::int32_t>(op.index); p >= 0; p = ev.parent[static_cast<std::size_t>(p)]) {
        const std::string_view n = rank.strings.str(ev.name[static_cast<std::size_t>(p)]);
        if (n.rfind("autograd::engine", 0) == 0 || n.find("Backward") != std::string_view::npos) return true;
    }
    return false;
}

// From T = 1 to N: Megatron all-reduces the output of each row-parallel GEMM in the forward
// (attention output, MLP down) and the input gradient of each column-parallel one in the backward
// (QKV, MLP up; not the attention output's, whose K is H, nor the LM head's, as the generator).
// The trace has no such collective to re-size, so its time joins the GEMM it follows on the
// compute stream, which waits for it. The time is the all-reduce model calibrated on the trace's
// own all-reduces inside a node (as comm.model=alpha-beta calibrates it), else latency + bytes x
// 2(N-1)/N over the GPU's link (per direction, the GPU table's both-ways figure halved).
constexpr double kTpAllReduceLatencyUs = 10.0;

void insertAllReduces(const ExecutionGraph& g, const std::vector<Insertion>& candidates, TensorShards& out,
                      const GpuSpec& gpu, int newTp, int gpusPerNode, const std::string& knob,
                      std::vector<std::unordered_map<std::uint64_t, double>>& addedUs) {
    if (gpusPerNode > 0 && newTp > gpusPerNode)
        throw KnobError(knob + ": the trace has no tensor-parallel collectives and a group of " +
                        std::to_string(newTp) + " spans nodes of " + std::to_string(gpusPerNode) +
                        " GPUs: inserting all-reduces across nodes is not modelled");
    const double bytes = static_cast<double>(out.tokens) * static_cast<double>(out.hidden) * 2.0; // BF16
    const CollectiveModel traced = collectiveModelFor(g, SimKnobs{}, collectiveCalls(g), nullptr);
    const TimeNs calibrated =
        traced.time(CollectiveType::AllReduce, static_cast<std::int64_t>(bytes), newTp, false);
    if (calibrated > 0) {
        out.insertedUs = static_cast<double>(calibrated) / 1000.0;
        out.insertedFrom = "the all-reduce model calibrated on the trace";
    } else {
        if (gpu.linkGBps <= 0)
            throw KnobError(knob +
                            ": the trace has no all-reduce to calibrate on and the GPU table no link "
                            "bandwidth for " +
                            gpu.name + " to time the inserted tensor-parallel all-reduces");
        const double busGBps = gpu.linkGBps / 2.0;
        out.insertedUs = kTpAllReduceLatencyUs + bytes * 2.0 * (newTp - 1) / newTp / (busGBps * 1e9) * 1e6;
        out.insertedFrom = "10 us + bytes x 2(N-1)/N over " + gpu.name + "'s link";
    }
    for (const auto& c : candidates) {
        const Rank& rank = g.trace->ranks[c.rank];
        if (inBackward(rank, c.op) && (c.k == out.hidden || c.k == out.vocab)) continue;
        addedUs[c.rank][c.gpuOp.packed()] = out.insertedUs;
        ++out.insertedAllReduces;
    }
}

} // namespace

TensorShards planTensorShards(const ExecutionGraph& g, int tracedTp, int newTp, const std::string& gpuSource,
                              int gpusPerNode, bool insertComm, bool reshape) {
    const std::string knob = "tp.degree=" + std::to_string(newTp);
    const TraceSet& set = *g.trace;
    TensorShards out;
    out.nodeFactor.assign(g.nodes.size(), 1.0);
    const double ratioTN = static_cast<double>(tracedTp) / static_cast<double>(newTp);

    // 1. The model: hidden size and tokens from the layer norms, heads per rank from attention
    // (structure/ModelShape.h).
    const std::vector<std::vector<KernelCostEntry>> costs = kernelCostsOf(set);
    std::vector<std::unordered_set<std::uint64_t>> withCost(set.ranks.size()); // GPU ops with shapes
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        for (const auto& e : costs[r])
            if (e.known() && e.op.valid()) withCost[r].insert(e.gpuOp.packed());
    const ModelShape model = recognizeModelShape(set, tracedTp, costs);
    if (!model.recognised)
        throw KnobError(knob +
                        ": no transformer layers recognised (tp.degree needs layer or RMS norms, attention "
                        "and GEMMs with recorded shapes: a trace profiled with record_shapes=True)");
    out.hidden = model.hidden;
    out.tokens = model.tokens;
    out.sequenceParallel = model.sequenceParallel;
    const std::int64_t headsPerRank = model.headsPerRank;
    out.heads = headsPerRank * tracedTp;
    if (out.heads % newTp != 0)
        throw KnobError(knob + ": " + std::to_string(newTp) + " does not divide the " +
                        std::to_string(out.heads) + " attention heads");
    if (out.hidden % newTp != 0)
        throw KnobError(knob + ": " + std::to_string(newTp) + " does not divide the hidden size " +
                        std::to_string(out.hidden));

    const GpuSpec* gpu = nullptr;
    try {
        gpu = &sourceGpu(set, GpuTable::builtin(), gpuSource);
    } catch (const GpuTableError& e) {
        throw KnobError(knob + ": " + e.what());
    }
    out.gpu = gpu->name;

    // 2. Per kernel: the roofline ratio of its op at the new degree.
    const double minNs = (gpu->minKernelUs > 0 ? gpu->minKernelUs : 2.0) * 1000.0;
    auto ratioOf = [&](const OpCost& before, const OpCost& after) {
        const double b = rooflineTime(*gpu, before).us(), a = rooflineTime(*gpu, after).us();
        return b > 0 ? a / b : 1.0;
    };
    auto resized = [&](std::int64_t v) { return v * tracedTp / newTp; };
    std::vector<std::unordered_map<std::uint64_t, double>> ratio(set.ranks.size());
    std::set<std::int64_t> shardedSizes; // feature sizes of the sharded GEMMs (3H/T, 4H/T, V/T...)
    std::vector<Insertion> insertions;   // T = 1: candidates for the all-reduces the trace lacks
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        for (const auto& e : costs[r]) {
            if (!e.known() || !e.op.valid()) continue;
            const std::string_view op = bareOpName(set.ranks[r].name(e.op));
            const auto shapes = set.ranks[r].opShapes(e.op);
            if (!shapes) continue;
            if (e.cost.family == OpFamily::Gemm) {
                auto d = gemmDims(op, *shapes);
                const int at = d ? shardedDim(*d, out.tokens, out.hidden) : -1;
                if (at < 0) continue;
                auto& v = (*d)[static_cast<std::size_t>(at)];
                if ((v * tracedTp) % newTp != 0) continue;
                if (v != out.hidden) shardedSizes.insert(v);
                const Dims3 before = *d;
                if (tracedTp == 1 && newTp > 1 && before[0] == out.tokens && before[2] == out.hidden &&
                    before[1] != out.tokens)
                    insertions.push_back({r, e.gpuOp, e.op, before[1]});
                v = resized(v);
                ratio[r][e.gpuOp.packed()] = ratioOf(gemmCost(before, e.cost), gemmCost(*d, e.cost));
                ++out.gemms;
            } else if (e.cost.family == OpFamily::Attention) {
                OpShapes after = *shapes;
                for (auto& d : after.dims)
                    if (d.size() >= 3 && d[1] == headsPerRank) d[1] = resized(d[1]);
                const auto b = opCost(op, *shapes, e.cls), a = opCost(op, after, e.cls);
                if (!b || !a) continue;
                ratio[r][e.gpuOp.packed()] = ratioOf(*b, *a);
                ++out.attention;
            }
        }
    shardedSizes.erase(out.tokens);
    // The vocabulary: the embedding table's rows [V / T, H] (vocabulary-parallel), else the LM
    // head's features when they are wider than the MLP's 4H / T.
    out.vocab = model.vocabPerRank * tracedTp;
    if (out.vocab == 0 && !shardedSizes.empty() && *shardedSizes.rbegin() > 4 * out.hidden / tracedTp)
        out.vocab = *shardedSizes.rbegin() * tracedTp;
    std::vector<std::unordered_map<std::uint64_t, double>> addedUs(set.ranks.size()); // per GPU op
    if (insertComm && !insertions.empty())
        insertAllReduces(g, insertions, out, *gpu, newTp, gpusPerNode, knob, addedUs);
    // Ops on sharded activations: a tensor whose last dim (or a count argument, such as the
    // embedding backward's num_weights) is a sharded feature size.
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        for (const auto& e : costs[r]) {
            if (!e.known() || !e.op.valid() || e.cost.family == OpFamily::Gemm ||
                e.cost.family == OpFamily::Attention)
                continue;
            const auto shapes = set.ranks[r].opShapes(e.op);
            if (!shapes) continue;
            OpShapes after = *shapes;
            bool changed = false, sequence = false;
            for (auto& d : after.dims)
                if (!d.empty() && shardedSizes.count(d.back()) && (d.back() * tracedTp) % newTp == 0) {
                    d.back() = resized(d.back());
                    changed = true;
                } else if (out.sequenceParallel && d.size() >= 2 && d.back() == out.hidden &&
                           leadingDims(d) * tracedTp == out.tokens) {
                    // [.., tokens / T, H] on the sequence split: one of its leading dims takes T / N.
                    for (std::size_t i = 0; i + 1 < d.size(); ++i)
                        if ((d[i] * tracedTp) % newTp == 0) {
                            d[i] = resized(d[i]);
                            changed = sequence = true;
                            break;
                        }
                }
            for (auto& c : after.concrete) {
                const std::int64_t v = std::atoll(c.c_str());
                if (v > 0 && shardedSizes.count(v) && (v * tracedTp) % newTp == 0) {
                    c = std::to_string(resized(v));
                    changed = true;
                }
            }
            if (!changed) continue;
            const std::string_view op = set.ranks[r].name(e.op);
            const auto b = opCost(op, *shapes, e.cls), a = opCost(op, after, e.cls);
            if (!b || !a) continue;
            ratio[r][e.gpuOp.packed()] = ratioOf(*b, *a);
            ++(sequence ? out.sequenceOps : out.activations);
        }

    // 3. The optimizer's kernels (launched inside Optimizer.step) update this rank's share of the
    // parameters: x T / N.
    std::vector<std::vector<std::pair<TimeNs, TimeNs>>> optimizerSpans(set.ranks.size());
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        for (const auto& track : set.ranks[r].tracks) {
            if (track.isGpu()) continue;
            const auto& ev = track.events;
            for (std::uint32_t i = 0; i < ev.size(); ++i)
                if (ev.kind[i] == EventKind::UserAnnotation &&
                    set.ranks[r].strings.str(ev.name[i]).rfind("Optimizer.step", 0) == 0)
                    optimizerSpans[r].push_back({ev.start[i], ev.end(i)});
        }
    for (NodeId i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& n = g.nodes[i];
        if (n.kind != NodeKind::GpuOp || isCommunicationKernelName(set.ranks[n.rank].name(n.event))) continue;
        double f = 1.0;
        bool found = false;
        if (auto it = ratio[n.rank].find(n.event.packed()); it != ratio[n.rank].end()) {
            f = it->second;
            found = true;
        } else {
            for (EdgeId id : g.inEdges(i)) {
                if (g.edges[id].kind != EdgeKind::Launch) continue;
                const TimeNs at = g.measuredStart(g.edges[id].from);
                for (const auto& [from, to] : optimizerSpans[n.rank])
                    if (at >= from && at <= to) found = true;
            }
            if (found) {
                f = ratioTN;
                ++out.optimizer;
            }
        }
        if (!found) {
            // Kernels the layout may shard but whose op recorded no shapes keep their time.
            const auto& ev = set.ranks[n.rank].tracks[n.event.track].events;
            if (ev.kind[n.event.index] == EventKind::Kernel && !withCost[n.rank].count(n.event.packed()))
                ++out.withoutShapes;
            continue;
        }
        // A kernel near the GPU's shortest stays near it: launch ramp and tail do not shard.
        const double m = static_cast<double>(n.duration);
        if (!reshape) f = 1.0;
        if (m > 0) f = std::max(m * f, minNs * std::min(1.0, m / minNs)) / m;
        // The inserted all-reduce that follows this GEMM on the compute stream.
        if (auto a = addedUs[n.rank].find(n.event.packed()); a != addedUs[n.rank].end() && m > 0)
            f += a->second * 1000.0 / m;
        out.nodeFactor[i] = f;
    }
    if (out.gemms == 0)
        throw KnobError(knob + ": no transformer layers recognised (no GEMM of the hidden size " +
                        std::to_string(out.hidden) + " and the tokens " + std::to_string(out.tokens) + ")");
    return out;
}

} // namespace sl
