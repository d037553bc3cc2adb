#include "sim/EmbeddingWhatIf.h"

#include "base/Error.h"
#include "models/GpuTable.h"
#include "sim/Knobs.h"
#include "trace/TraceSet.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

namespace sl {

namespace {

// The launch call of a GPU op, or an invalid ref.
std::optional<EventRef> launchCall(const Rank& rank, EventRef gpuOp) {
    const auto& ev = rank.tracks[gpuOp.track].events;
    if (ev.link[gpuOp.index] == kNoLink) return std::nullopt;
    const EventRef call = EventRef::unpack(ev.link[gpuOp.index]);
    if (call.track >= rank.tracks.size() || rank.tracks[call.track].isGpu()) return std::nullopt;
    if (call.index >= rank.tracks[call.track].events.size()) return std::nullopt;
    return call;
}

// Calls f(ref) on each range around the call, innermost first, until it returns true.
template <class F> void forEachEnclosing(const Rank& rank, EventRef call, F&& f) {
    const auto& ev = rank.tracks[call.track].events;
    for (std::int32_t p = ev.parent[call.index]; p >= 0; p = ev.parent[static_cast<std::size_t>(p)])
        if (f(EventRef{call.track, static_cast<std::uint32_t>(p)})) return;
}

// An int list as Kineto's "Concrete Inputs" or the ET writes it ("[96, 224, 288]"); empty when
// it is not one.
std::vector<std::int64_t> intList(const std::string& text) {
    std::vector<std::int64_t> out;
    if (text.size() < 2 || text.front() != '[') return out;
    std::istringstream in(text.substr(1));
    std::int64_t v = 0;
    char sep = 0;
    while (in >> v) {
        out.push_back(v);
        if (!(in >> sep) || sep == ']') break;
    }
    return out;
}

// The split sizes of the all_to_allv behind a collective kernel (docs/Embeddings.md, "What the
// trace says"): c10d::alltoall_base_(output, input, group, output_split_sizes, input_split_sizes,
// ...) around its launch, from the op's own "Concrete Inputs" or else an attached execution
// trace's node (io/EtLinker keeps those in etOpShapes). {sent to each peer, received from each}.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> splitSizesOf(const Rank& rank,
                                                                             EventRef kernel) {
    std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> out;
    if (auto call = launchCall(rank, kernel))
        forEachEnclosing(rank, *call, [&](EventRef op) {
            if (rank.name(op).find("alltoall_base") == std::string_view::npos) return false;
            std::optional<OpShapes> shapes = rank.opShapes(op);
            if (!shapes || shapes->concrete.size() < 5 || shapes->concrete[4].empty()) {
                const auto et = rank.etOpShapes.find(op.packed());
                if (et != rank.etOpShapes.end()) shapes = et->second;
            }
            if (shapes && shapes->concrete.size() >= 5) {
                out.first = intList(shapes->concrete[4]);
                out.second = intList(shapes->concrete[3]);
            }
            return true;
        });
    return out;
}

std::int64_t numelAt(const OpShapes& s, std::size_t i) {
    return i < s.dims.size() && s.isTensor(i) ? s.numel(i) : -1;
}

std::int64_t concreteInt(const OpShapes& s, std::size_t i) {
    if (i >= s.concrete.size()) return -1;
    try {
        return std::stoll(s.concrete[i]);
    } catch (...) {
        return -1;
    }
}

// Reads the lookup op's shapes into the rank's totals (docs/Embeddings.md, "What the trace says").
void readLookupOp(const Rank& rank, EventRef op, RankEmbedding& out) {
    const std::string_view name = rank.name(op);
    auto shapes = rank.opShapes(op);
    if (!shapes) return;
    const OpShapes& s = *shapes;
    const bool dense = name.starts_with("fbgemm::dense_embedding_codegen_lookup");
    if (name.starts_with("fbgemm::split_embedding_codegen_lookup") || dense) {
        // split: (placeholder, dev_weights, uvm_weights, lxu_cache_weights, weights_placements,
        // weights_offsets, D_offsets, total_D, max_D, hash_size_cumsum, total_hash_size_bits, indices,
        // offsets, ...); dense: (dev_weights, weights_offsets, D_offsets, total_D, max_D,
        // hash_size_cumsum, total_hash_size_bits, indices, offsets, ...).
        const std::size_t w = dense ? 0 : 1, wo = dense ? 1 : 5, td = dense ? 3 : 7, ix = dense ? 7 : 11,
                          of = dense ? 8 : 12;
        const std::int64_t tables = numelAt(s, wo), weights = numelAt(s, w);
        if (tables <= 0 || weights < 0) return;
        if (dense) {
            out.denseTables += static_cast<int>(tables);
            out.denseWeights += weights;
            return;
        }
        out.tables += static_cast<int>(tables);
        out.weights += weights;
        out.lookups += std::max<std::int64_t>(0, numelAt(s, ix));
        const std::int64_t offsets = numelAt(s, of);
        if (offsets > 1) out.samples = (offsets - 1) / tables;
        if (const std::int64_t d = concreteInt(s, td); d > 0) out.totalDim += d;
        return;
    }
    // aten::embedding_bag(weight, indices, offsets, ...) / aten::embedding(weight, indices, ...).
    if (s.dims.empty() || s.dims[0].size() != 2) return;
    out.tables += 1;
    out.weights += s.dims[0][0] * s.dims[0][1];
    out.totalDim += s.dims[0][1];
    out.lookups += std::max<std::int64_t>(0, numelAt(s, 1));
    if (name == "aten::embedding")
        out.samples = s.dims.size() > 1 && !s.dims[1].empty() ? s.dims[1][0] : 0;
    else if (const std::int64_t o = numelAt(s, 2); o > 0)
        out.samples = o;
}

// The collective metadata of a kernel, null without any.
const CollectiveMeta* collectiveMetaOf(const Rank& rank, EventRef kernel) {
    const auto& ev = rank.tracks[kernel.track].events;
    if (ev.kind[kernel.index] != EventKind::Kernel) return nullptr;
    const auto x = ev.extra[kernel.index];
    return x != kNoExtra && x < rank.collectives.size() ? &rank.collectives[static_cast<std::size_t>(x)]
                                                        : nullptr;
}

[[noreturn]] void bad(const std::string& file, const std::string& what) {
    throw Error(ErrorKind::Format, file, what);
}

// Least squares y = a + c x through the points; a = 0 when the x do not spread.
void fitLine(const std::vector<double>& x, const std::vector<double>& y, double& a, double& c) {
    a = 0;
    c = 1;
    const double n = static_cast<double>(x.size());
    if (x.empty()) return;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    const double var = sxx - sx * sx / n;
    if (x.size() >= 3 && var > 1e-6 * std::max(1.0, sxx)) {
        c = (sxy - sx * sy / n) / var;
        a = (sy - c * sx) / n;
        if (c > 0 && a >= 0) return;
    }
    a = 0;
    c = sx > 0 ? sy / sx : 1;
}

} // namespace

std::int64_t EmbeddingExchangeCall::pairElements(int from, int to) const {
    for (std::size_t m = 0; m < memberRanks.size() && m < sentTo.size(); ++m)
        if (memberRanks[m] == from)
            return to >= 0 && static_cast<std::size_t>(to) < sentTo[m].size()
                       ? sentTo[m][static_cast<std::size_t>(to)]
                       : -1;
    return -1;
}

bool EmbeddingInventory::any() const {
    for (const auto& r : ranks)
        if (!r.forward.empty() || !r.backward.empty()) return true;
    return false;
}

EmbeddingInventory embeddingInventory(const ExecutionGraph& g) {
    EmbeddingInventory inv;
    const TraceSet& set = *g.trace;
    inv.worldSize = static_cast<int>(set.ranks.size());
    inv.ranks.resize(set.ranks.size());
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        inv.ranks[r].rank = set.ranks[r].rank;
    std::vector<std::vector<std::uint64_t>> opsSeen(set.ranks.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& n = g.nodes[i];
        if (n.kind != NodeKind::GpuOp) continue;
        const Rank& rank = set.ranks[n.rank];
        const auto kind = embeddingLookupKernel(rank.name(n.event));
        if (kind == EmbeddingLookup::None) continue;
        RankEmbedding& re = inv.ranks[n.rank];
        (kind == EmbeddingLookup::Forward ? re.forward : re.backward).push_back(static_cast<NodeId>(i));
        (kind == EmbeddingLookup::Forward ? re.forwardTime : re.backwardTime) += n.duration;
        if (kind != EmbeddingLookup::Forward) continue;
        if (auto call = launchCall(rank, n.event))
            forEachEnclosing(rank, *call, [&](EventRef op) {
                if (!isEmbeddingLookupOp(rank.name(op))) return false;
                auto& seen = opsSeen[n.rank];
                if (std::find(seen.begin(), seen.end(), op.packed()) == seen.end()) {
                    seen.push_back(op.packed());
                    readLookupOp(rank, op, re);
                }
                return true;
            });
    }
    // A window of several profiler steps holds each step's lookup op: the tables, rows and lookups
    // are those of one step (the measured kernel times stay the window's: the calibration fits them
    // as they are). Without this a two-step window inferred twice the tables and rejected a side
    // file that described them right.
    for (std::size_t r = 0; r < inv.ranks.size(); ++r) {
        const int steps = g.ranks[r].profilerSteps;
        RankEmbedding& re = inv.ranks[r];
        if (steps < 2 || re.tables % steps != 0 || re.denseTables % steps != 0) continue;
        re.tables /= steps;
        re.weights /= steps;
        re.totalDim /= steps;
        re.lookups /= steps;
        re.denseTables /= steps;
        re.denseWeights /= steps;
    }
    for (const auto& c : g.collectives) {
        if (c.type != CollectiveType::AllToAll || c.members.empty()) continue;
        const GraphNode& first = g.nodes[c.members.front()];
        const EmbeddingExchange phase = embeddingExchangeOfLaunch(set.ranks[first.rank], first.event);
        if (phase == EmbeddingExchange::None) continue;
        EmbeddingExchangeCall x;
        x.phase = phase;
        x.members = c.members;
        TimeNs sum = 0;
        for (NodeId m : c.members) {
            sum += g.nodes[m].duration;
            x.memberRanks.push_back(set.ranks[g.nodes[m].rank].rank);
            const CollectiveMeta* meta = collectiveMetaOf(set.ranks[g.nodes[m].rank], g.nodes[m].event);
            x.inElems.push_back(meta ? meta->inNelems : -1);
            x.outElems.push_back(meta ? meta->outNelems : -1);
            auto [sent, received] = splitSizesOf(set.ranks[g.nodes[m].rank], g.nodes[m].event);
            x.sentTo.push_back(std::move(sent));
            x.receivedFrom.push_back(std::move(received));
        }
        x.transfer = sum / static_cast<TimeNs>(c.members.size());
        inv.exchanges.push_back(std::move(x));
    }
    // The pooled all-to-all sends each rank's lookups for every sample: its size over the samples
    // gives the total dimension where the lookup op did not record it.
    for (std::size_t r = 0; r < inv.ranks.size(); ++r) {
        RankEmbedding& re = inv.ranks[r];
        if (re.totalDim > 0 || re.samples <= 0) continue;
        for (const auto& x : inv.exchanges) {
            if (x.phase != EmbeddingExchange::Pooled) continue;
            for (NodeId m : x.members) {
                const GraphNode& n = g.nodes[m];
                if (n.rank != r) continue;
                const CollectiveMeta* meta = collectiveMetaOf(set.ranks[n.rank], n.event);
                if (meta && meta->inNelems > 0) re.totalDim = meta->inNelems / re.samples;
            }
            if (re.totalDim > 0) break;
        }
    }
    for (const auto& re : inv.ranks)
        if (re.samples > 0 && inv.worldSize > 0) {
            inv.batchPerRank = re.samples / inv.worldSize;
            break;
        }
    return inv;
}

std::string embeddingKnobText(const std::string& value, std::string& file) {
    const auto first = value.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && (value[first] == '{' || value[first] == '[')) {
        file = "embedding plan";
        return value;
    }
    file = value;
    std::ifstream in(value, std::ios::binary);
    if (!in) throw Error(ErrorKind::Read, value, "cannot open the file");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

EmbeddingTables embeddingTablesFor(const EmbeddingInventory& inv, const std::string& tablesPath) {
    // Plans name ranks 0..N-1 of the whole job; a partial set cannot say what the others hold.
    for (std::size_t r = 0; r < inv.ranks.size(); ++r)
        if (inv.ranks[r].rank != static_cast<int>(r))
            throw Error(ErrorKind::Format, std::string(),
                        "the embedding what-if needs every rank of the job (0.." +
                            std::to_string(inv.ranks.size() - 1) + "), the set has rank " +
                            std::to_string(inv.ranks[r].rank) + " at position " + std::to_string(r));
    if (!tablesPath.empty()) {
        std::string file;
        const std::string text = embeddingKnobText(tablesPath, file);
        EmbeddingTables t = parseEmbeddingTables(text, file);
        if (t.batchPerRank == 0) t.batchPerRank = inv.batchPerRank;
        if (inv.batchPerRank > 0 && t.batchPerRank != inv.batchPerRank)
            bad(file, "batch_per_rank " + std::to_string(t.batchPerRank) + " disagrees with the trace (" +
                          std::to_string(inv.batchPerRank) + " samples per rank)");
        if (t.batchPerRank <= 0) bad(file, "no batch_per_rank, and the trace's lookup ops do not tell it");
        for (const auto& tb : t.tables)
            if (tb.tracedRank < 0 || tb.tracedRank >= inv.worldSize)
                bad(file, "table " + tb.name + ": \"rank\" " + std::to_string(tb.tracedRank) +
                              " is not a rank of the trace (0.." + std::to_string(inv.worldSize - 1) +
                              "): where does the traced job hold it?");
        // Each rank's tables against its lookup op: count, rows x dim, lookups (1% slack).
        for (const auto& re : inv.ranks) {
            if (re.tables == 0) continue;
            int count = 0;
            double weights = 0, lookups = 0;
            for (const auto& tb : t.tables)
                if (tb.tracedRank == re.rank) {
                    ++count;
                    weights += static_cast<double>(tb.rows) * tb.dim;
                    lookups += tb.pooling * static_cast<double>(re.samples);
                }
            auto off = [](double a, double b) { return std::abs(a - b) > 0.01 * std::max(1.0, b); };
            if (count != re.tables || off(weights, static_cast<double>(re.weights)) ||
                (re.lookups > 0 && off(lookups, static_cast<double>(re.lookups))))
                bad(file, "rank " + std::to_string(re.rank) + " holds " + std::to_string(count) +
                              " tables of " + std::to_string(static_cast<std::int64_t>(weights)) +
                              " rows x dim and " + std::to_string(static_cast<std::int64_t>(lookups)) +
                              " lookups here, but the trace has " + std::to_string(re.tables) +
                              " tables of " + std::to_string(re.weights) + " and " +
                              std::to_string(re.lookups));
        }
        return t;
    }
    EmbeddingTables t;
    t.inferred = true;
    t.batchPerRank = inv.batchPerRank;
    for (const auto& re : inv.ranks) {
        if (re.tables == 0) continue;
        if (re.totalDim <= 0 || re.samples <= 0)
            throw Error(ErrorKind::Format, "",
                        "rank " + std::to_string(re.rank) +
                            ": the trace does not tell the tables' dimension or batch (no shapes on the "
                            "lookup op, no pooled all-to-all size): give a tables file");
        const int dim = static_cast<int>(re.totalDim / re.tables);
        for (int k = 0; k < re.tables; ++k) {
            EmbeddingTable tb;
            tb.name = "rank" + std::to_string(re.rank) + ".t" + std::to_string(k);
            tb.dim = std::max(1, dim);
            tb.rows = std::max<std::int64_t>(1, re.weights / (static_cast<std::int64_t>(tb.dim) * re.tables));
            tb.pooling = std::max(1e-9, static_cast<double>(re.lookups) /
                                            (static_cast<double>(re.samples) * re.tables));
            tb.tracedRank = re.rank;
            t.tables.push_back(std::move(tb));
        }
    }
    if (t.tables.empty())
        throw Error(ErrorKind::Format, "",
                    "the trace has no embedding lookup op with shapes to infer tables from");
    return t;
}

EmbeddingWhatIf planEmbeddingWhatIf(const EmbeddingInventory& inv, const EmbeddingTables& tables,
                                    const EmbeddingPlan& plan, const EmbeddingMachine& machine,
                                    const EmbeddingModelOptions& options, const EmbeddingMachine* target) {
    EmbeddingWhatIf out;
    out.machine = std::string(machine.name);
    const int W = inv.worldSize;
    const std::int64_t B = tables.batchPerRank > 0 ? tables.batchPerRank : inv.batchPerRank;
    const EmbeddingPlan traced = tracedPlan(tables);
    const auto tracedShards = planShards(traced, tables, W, B);
    const auto newShards = planShards(plan, tables, W, B);
    const auto before = lookupTimes(tracedShards, tables, W, machine);
    const auto after = lookupTimes(newShards, tables, W, target ? *target : machine);
    // Calibration on the traced plan: measured lookup time per rank against the model.
    for (int dir = 0; dir < 2; ++dir) {
        std::vector<double> x, y;
        for (std::size_t r = 0; r < inv.ranks.size(); ++r) {
            const auto& re = inv.ranks[r];
            const TimeNs m = dir == 0 ? re.forwardTime : re.backwardTime;
            if ((dir == 0 ? re.forward : re.backward).empty()) continue;
            x.push_back(dir == 0 ? before[r].forwardNs : before[r].backwardNs);
            y.push_back(static_cast<double>(m));
        }
        if (options.calibrate) fitLine(x, y, out.fitA[dir], out.fitC[dir]);
    }
    out.tracedLookupUs.resize(static_cast<std::size_t>(W));
    out.lookupUs.resize(static_cast<std::size_t>(W));
    for (std::size_t r = 0; r < inv.ranks.size(); ++r) {
        const auto& re = inv.ranks[r];
        double total = 0, totalBefore = 0;
        for (int dir = 0; dir < 2; ++dir) {
            const auto& nodes = dir == 0 ? re.forward : re.backward;
            const double now =
                out.fitA[dir] + out.fitC[dir] * (dir == 0 ? after[r].forwardNs : after[r].backwardNs);
            totalBefore +=
                out.fitA[dir] + out.fitC[dir] * (dir == 0 ? before[r].forwardNs : before[r].backwardNs);
            total += now;
            if (nodes.empty()) {
                if ((dir == 0 ? after[r].forwardNs : after[r].backwardNs) > 0)
                    bad(plan.source, "rank " + std::to_string(re.rank) +
                                         " has no embedding lookup kernel in the trace to re-time");
                continue;
            }
            const TimeNs measured = dir == 0 ? re.forwardTime : re.backwardTime;
            const double ratio = measured > 0 ? now / static_cast<double>(measured) : 1.0;
            // The kernels keep their measured split: each scales by the rank's ratio.
            for (NodeId nd : nodes)
                out.nodeFactors.emplace_back(nd, ratio);
        }
        out.tracedLookupUs[r] = totalBefore / 1000.0;
        out.lookupUs[r] = total / 1000.0;
    }
    out.tracedPooled = pooledExchange(tracedShards, tables, W, B);
    out.tracedIndices = indexExchange(tracedShards, tables, W, B);
    out.pooled = pooledExchange(newShards, tables, W, B);
    out.indices = indexExchange(newShards, tables, W, B);
    if (!options.resizeExchanges) return out;
    // The all-to-alls: latency + peak bytes / bandwidth, fitted on the traced exchanges.
    std::vector<double> x, y;
    for (const auto& e : inv.exchanges) {
        if (e.phase == EmbeddingExchange::Splits) continue;
        x.push_back(e.phase == EmbeddingExchange::Indices ? out.tracedIndices.peak()
                                                          : out.tracedPooled.peak());
        y.push_back(static_cast<double>(e.transfer));
    }
    double alpha = 0, perByte = 1;
    fitLine(x, y, alpha, perByte);
    for (const auto& e : inv.exchanges) {
        if (e.phase == EmbeddingExchange::Splits) continue;
        const bool idx = e.phase == EmbeddingExchange::Indices;
        const double was = alpha + perByte * (idx ? out.tracedIndices.peak() : out.tracedPooled.peak());
        const double now = alpha + perByte * (idx ? out.indices.peak() : out.pooled.peak());
        const double ratio = was > 0 ? now / was : 1.0;
        for (NodeId m : e.members)
            out.nodeFactors.emplace_back(m, ratio);
    }
    return out;
}

EmbeddingWhatIf embeddingWhatIfForKnobs(const ExecutionGraph& g, const SimKnobs& k, Warnings& warnings) {
    if (k.embeddingPlan.empty()) {
        if (!k.embeddingTables.empty() || !k.embeddingCalibrate || !k.embeddingResizeComm)
            warnings.addForKnob(
                "embedding.plan", Warn::KnobNoEffect,
                "embedding.tables / embedding.calibrate / embedding.resize_comm change nothing "
                "without embedding.plan");
        return {};
    }
    const EmbeddingInventory inv = embeddingInventory(g);
    std::string planFile;
    const std::string planText = embeddingKnobText(k.embeddingPlan, planFile);
    if (!inv.any()) bad(planFile, "the trace has no embedding lookup kernels to re-time");
    const EmbeddingTables tables = embeddingTablesFor(inv, k.embeddingTables);
    if (tables.inferred)
        warnings.addForKnob(
            "embedding.plan", Warn::EmbeddingTablesInferred,
            "embedding.plan: no embedding.tables, so the " + std::to_string(tables.tables.size()) +
                " tables were inferred evenly from each rank's lookup op (docs/Embeddings.md)");
    const EmbeddingPlan plan = parseEmbeddingPlan(planText, planFile, tables, inv.worldSize);
    const GpuTable& table = GpuTable::builtin();
    const EmbeddingMachine source = embeddingMachine(table.find(g.trace->ranks.front().deviceName()));
    const GpuSpec* targetGpu = k.gpuTarget.empty() ? nullptr : table.find(k.gpuTarget);
    const EmbeddingMachine target = embeddingMachine(targetGpu);
    return planEmbeddingWhatIf(inv, tables, plan, source,
                               EmbeddingModelOptions{k.embeddingCalibrate, k.embeddingResizeComm},
                               targetGpu ? &target : nullptr);
}

} // namespace sl
