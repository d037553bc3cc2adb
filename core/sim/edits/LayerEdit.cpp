#include "sim/BlockEdits.h"
#include "sim/edits/GraphSplice.h"

#include "structure/CollectiveCalls.h"
#include "structure/Structure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

// model.layers (docs/Structure.md, "model.layers"): the layer planner.
namespace sl {

using namespace edits;

namespace {

std::string mbText(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f MB", bytes / 1e6);
    return buf;
}

// The edit of one layer region (a forward / backward block) of one rank.
struct RegionPlan {
    std::uint32_t rank = 0;
    int ordinal = 0; // index among the rank's regions: the same block of the schedule on every rank
                     // of the stage, so the clones of a TP collective meet their peers' clones
    bool backward = false;
    int count = 0, length = 0;
    std::vector<std::vector<NodeId>> units; // per layer block: its CPU calls and the GPU ops they launch
    int insertAfter = -1;                   // clones go between block insertAfter and insertAfter + 1
    std::vector<int> sources;               // clone k copies block sources[k]
    int dropFirst = 0, dropCount = 0;       // blocks [dropFirst, dropFirst + dropCount) are bypassed
};

struct Target {
    int stage = 0;
    int traced = 0; // layer blocks of the stage
    int wanted = 0;
};

// Per stage: its traced layer blocks and the share of `layers` it gets (proportional, largest
// remainders first, at least one).
std::vector<Target> stageTargets(const ParallelStructure& s, int layers) {
    std::vector<Target> t;
    for (int p = 0; p < std::max(1, s.pp); ++p)
        for (std::size_t i = 0; i < s.places.size(); ++i)
            if ((s.places[i].known ? s.places[i].pp : 0) == p && s.blocks[i].layers > 0) {
                t.push_back({p, s.blocks[i].layers, 0});
                break;
            }
    int total = 0;
    for (const auto& x : t)
        total += x.traced;
    if (total == 0) return {};
    std::vector<std::pair<double, std::size_t>> rest;
    int given = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const double exact = static_cast<double>(t[i].traced) * layers / total;
        t[i].wanted = static_cast<int>(std::floor(exact));
        given += t[i].wanted;
        rest.push_back({exact - t[i].wanted, i});
    }
    std::stable_sort(rest.begin(), rest.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; given < layers && i < rest.size(); ++i, ++given)
        ++t[rest[i].second].wanted;
    for (auto& x : t)
        x.wanted = std::max(1, x.wanted);
    return t;
}

} // namespace

BlockEdit editBlocks(const ExecutionGraph& g, const BlockEditKnobs& knobs) {
    BlockEdit out;
    if (knobs.layers <= 0) return out;
    const TraceSet& set = *g.trace;
    const std::string knob = "model.layers=" + std::to_string(knobs.layers);
    out.structure = recognizeStructure(set, &g);
    const ParallelStructure& s = out.structure;
    std::vector<Target> targets = stageTargets(s, knobs.layers);
    if (targets.empty()) {
        std::string why = "no repeated layer blocks found";
        out.warnings.addForKnob("model.layers", Warn::BlockEditIgnored,
                                knob + ": no layer blocks recognised (" + why + "): knob ignored");
        return out;
    }
    int traced = 0, wanted = 0;
    for (const auto& t : targets) {
        traced += t.traced;
        wanted += t.wanted;
    }
    if (static_cast<int>(targets.size()) < std::max(1, s.pp)) {
        out.warnings.addForKnob("model.layers", Warn::BlockEditIgnored,
                                knob + ": layer blocks were found on " + std::to_string(targets.size()) +
                                    " of " + std::to_string(s.pp) + " pipeline stages only: knob ignored");
        return out;
    }
    if (wanted == traced) {
        out.notes.push_back(knob + " is the traced number of layer blocks: nothing to add or drop");
        return out;
    }
    const std::size_t n = g.nodes.size();

    // Processors by (rank, track), to find a block's calls.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> procOf;
    for (std::uint32_t p = 0; p < g.processors.size(); ++p)
        procOf[{g.processors[p].rank, g.processors[p].track}] = p;

    // 1. The plan: per rank, per region, which blocks are copied or bypassed.
    std::vector<RegionPlan> plans;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const int stage = s.places[r].known ? s.places[r].pp : 0;
        auto t =
            std::find_if(targets.begin(), targets.end(), [&](const Target& x) { return x.stage == stage; });
        const int delta = t->wanted - t->traced;
        if (delta == 0) continue;
        const Rank& rank = set.ranks[r];
        std::vector<LayerRegion> regions = layerRegions(rank);
        int ordinal = -1;
        for (const LayerRegion& lr : regions) {
            ++ordinal;
            const int c = lr.rep.count;
            // A region whose repetition is not about the recognised layer count repeats something
            // else (a rotation of the layer block loses at most one): left as traced.
            if (c < 2 || std::abs(c - t->traced) > 1) continue;
            if (c + delta < 1) {
                out.warnings.addForKnob("model.layers", Warn::BlockEditIgnored,
                                        knob + ": rank " + std::to_string(rank.rank) + " has blocks of " +
                                            std::to_string(c) + " layers, too few to drop " +
                                            std::to_string(-delta) + ": knob ignored");
                return BlockEdit{false, {}, {}, {}, {}, 0, {}, out.warnings, {}, 0, {}};
            }
            auto proc = procOf.find({r, lr.track});
            if (proc == procOf.end()) continue; // a thread without runtime calls: nothing to copy
            const Processor& P = g.processors[proc->second];
            const auto& ev = rank.tracks[lr.track].events;
            RegionPlan plan;
            plan.rank = r;
            plan.ordinal = ordinal;
            plan.backward = lr.backward;
            plan.count = c;
            plan.length = lr.rep.length;
            for (int u = 0; u < c; ++u) {
                const std::uint32_t firstChild =
                    lr.children[lr.rep.first + static_cast<std::size_t>(u * lr.rep.length)];
                const std::uint32_t lastChild =
                    lr.children[lr.rep.first + static_cast<std::size_t>((u + 1) * lr.rep.length) - 1];
                const TimeNs ts = ev.start[firstChild], te = ev.end(lastChild);
                plan.units.push_back(blockNodes(g, P, ts, te));
            }
            if (delta > 0) {
                std::vector<int> interior;
                for (int u = c >= 3 ? 1 : 0; u < (c >= 3 ? c - 1 : c); ++u)
                    interior.push_back(u);
                for (int k = 0; k < delta; ++k)
                    plan.sources.push_back(interior[static_cast<std::size_t>(k) % interior.size()]);
                plan.insertAfter = c / 2 - 1;
            } else {
                plan.dropCount = -delta;
                plan.dropFirst = c - plan.dropCount >= 2 ? (c - plan.dropCount) / 2 : 0;
            }
            plans.push_back(std::move(plan));
        }
    }
    if (plans.empty()) {
        out.warnings.addForKnob("model.layers", Warn::BlockEditIgnored,
                                knob +
                                    ": no layer blocks were found inside the graph's window: knob ignored");
        return out;
    }

    // 2.-6. The edited copy: each region's blocks in their new order.
    std::vector<BlockRun> runs;
    for (const auto& p : plans) {
        BlockRun run;
        run.rank = p.rank;
        run.units = p.units;
        for (int u = 0; u < p.count; ++u) {
            if (u < p.dropFirst || u >= p.dropFirst + p.dropCount) run.sequence.push_back({u, kOriginal});
            if (u == p.insertAfter)
                for (std::size_t k = 0; k < p.sources.size(); ++k)
                    run.sequence.push_back({p.sources[k], static_cast<std::uint32_t>(p.ordinal) << 16 |
                                                              static_cast<std::uint32_t>(k)});
        }
        runs.push_back(std::move(run));
    }
    const Applied applied = applyRuns(g, runs, out);
    ExecutionGraph& e = out.graph;
    const std::int64_t copiedGroups = applied.copiedGroups, unmatchedCopies = applied.unmatchedCopies,
                       phantoms = applied.phantoms;

    // 7. The optimizer updates every parameter: its kernels (launched inside Optimizer.step)
    // scale with the rank's gradient bytes (the DP all-reduces, copied and dropped with their
    // blocks), else with the layer count.
    std::vector<CollectiveCall> calls = collectiveCalls(g);
    std::vector<double> gradBytes(set.ranks.size(), 0), gradDelta(set.ranks.size(), 0);
    std::vector<std::uint8_t> isGrad(n, 0);
    for (const auto& c : calls)
        if (c.dataParallel && c.bytes > 0 &&
            (c.type == CollectiveType::AllReduce || c.type == CollectiveType::ReduceScatter)) {
            gradBytes[g.nodes[c.node].rank] += static_cast<double>(c.bytes);
            isGrad[c.node] = 1;
        }
    std::unordered_map<NodeId, double> bytesOf;
    for (const auto& c : calls)
        if (isGrad[c.node]) bytesOf[c.node] = static_cast<double>(c.bytes);
    for (const auto& p : plans) {
        for (int src : p.sources)
            for (NodeId x : p.units[static_cast<std::size_t>(src)])
                if (isGrad[x]) gradDelta[p.rank] += bytesOf[x];
        for (int u = p.dropFirst; u < p.dropFirst + p.dropCount; ++u)
            for (NodeId x : p.units[static_cast<std::size_t>(u)])
                if (isGrad[x]) gradDelta[p.rank] -= bytesOf[x];
    }
    std::vector<int> byBytes, byLayers;
    double bytesBefore = 0, bytesAfter = 0;
    std::int64_t optimizerOps = 0;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const int stage = s.places[r].known ? s.places[r].pp : 0;
        auto t =
            std::find_if(targets.begin(), targets.end(), [&](const Target& x) { return x.stage == stage; });
        if (t->wanted == t->traced) continue;
        double f = static_cast<double>(t->wanted) / static_cast<double>(t->traced);
        if (gradBytes[r] > 0 && gradDelta[r] != 0) {
            f = (gradBytes[r] + gradDelta[r]) / gradBytes[r];
            byBytes.push_back(set.ranks[r].rank);
            bytesBefore = std::max(bytesBefore, gradBytes[r]);
            bytesAfter = std::max(bytesAfter, gradBytes[r] + gradDelta[r]);
        } else {
            byLayers.push_back(set.ranks[r].rank);
        }
        const Rank& rank = set.ranks[r];
        for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
            const auto& ev = rank.tracks[ti].events;
            auto proc = procOf.find({r, ti});
            if (rank.tracks[ti].isGpu() || proc == procOf.end()) continue;
            const Processor& P = g.processors[proc->second];
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                if (ev.kind[i] != EventKind::UserAnnotation ||
                    rank.strings.str(ev.name[i]).rfind("Optimizer.step", 0) != 0)
                    continue;
                auto it = std::lower_bound(P.nodes.begin(), P.nodes.end(), ev.start[i],
                                           [&](NodeId x, TimeNs v) { return g.measuredStart(x) < v; });
                for (; it != P.nodes.end() && g.measuredStart(*it) < ev.end(i); ++it)
                    for (EdgeId id : g.outEdges(*it))
                        if (g.edges[id].kind == EdgeKind::Launch && out.nodeOf[g.edges[id].to] != kNoNode) {
                            auto& node = e.nodes[out.nodeOf[g.edges[id].to]];
                            node.duration = scaledNs(node.duration, f);
                            ++optimizerOps;
                        }
            }
        }
    }

    e.buildAdjacency();
    try {
        e.validate();
    } catch (const GraphError& err) {
        out.warnings.addForKnob("model.layers", Warn::BlockEditIgnored,
                                knob + ": the edited graph is not valid (" + err.what() + "): knob ignored");
        return BlockEdit{false, {}, {}, {}, {}, 0, {}, out.warnings, {}, 0, {}};
    }
    out.active = true;

    // What was done, per stage.
    for (const auto& t : targets) {
        std::vector<int> ranks;
        const RegionPlan* first = nullptr;
        int regions = 0, fwd = 0;
        for (const auto& p : plans) {
            const std::uint32_t r = p.rank;
            if ((s.places[r].known ? s.places[r].pp : 0) != t.stage) continue;
            ranks.push_back(set.ranks[r].rank);
            if (!first) first = &p;
            if (p.rank == first->rank) {
                ++regions;
                fwd += p.backward ? 0 : 1;
            }
        }
        if (!first) continue;
        std::string what = t.wanted > t.traced
                               ? "repeated layer blocks " + runsText(first->sources) + " of " +
                                     std::to_string(first->count) + " after block " +
                                     std::to_string(first->insertAfter)
                               : "dropped layer blocks " + std::to_string(first->dropFirst) + ".." +
                                     std::to_string(first->dropFirst + first->dropCount - 1) + " of " +
                                     std::to_string(first->count);
        out.notes.push_back(knob + ": " + what + " in " + std::to_string(regions) + " blocks (" +
                            std::to_string(fwd) + " forward, " + std::to_string(regions - fwd) +
                            " backward) on ranks " + idRangesText(ranks) +
                            (s.pp > 1 ? " (stage " + std::to_string(t.stage) + ")" : "") + ": " +
                            std::to_string(t.traced) + " -> " + std::to_string(t.wanted) + " layers");
    }
    if (wanted != knobs.layers)
        out.warnings.addForKnob("model.layers", Warn::LayerEditRounded,
                                knob + ": the stages get whole layer blocks: " + std::to_string(wanted) +
                                    " layers simulated");
    if (copiedGroups > 0)
        out.notes.push_back("copied " + std::to_string(copiedGroups) +
                            " collectives with their blocks (every member rank copies the same block)");
    if (optimizerOps > 0)
        out.notes.push_back(
            "optimizer kernels (" + std::to_string(optimizerOps) + ") re-timed with the parameters: " +
            (byBytes.empty() ? std::string()
                             : "ranks " + idRangesText(byBytes) + " by their data-parallel gradient bytes (" +
                                   mbText(bytesBefore) + " -> " + mbText(bytesAfter) + ")") +
            (byBytes.empty() || byLayers.empty() ? "" : "; ") +
            (byLayers.empty() ? std::string() : "ranks " + idRangesText(byLayers) + " by the layer ratio"));
    out.notes.push_back(
        "copied layer blocks are simulated but not drawn; dropped ones have no simulated time");
    if (unmatchedCopies > 0)
        out.warnings.addForKnob("model.layers", Warn::BlockCopyPeersOutside,
                                knob + ": " + std::to_string(unmatchedCopies) +
                                    " copied collective kernels have peers outside every copied block: they "
                                    "do not wait for peers",
                                unmatchedCopies);
    if (phantoms > 0)
        out.warnings.addForKnob(
            "model.layers", Warn::BlockCopyPhantomPeers,
            knob + ": " + std::to_string(phantoms) +
                " copied collectives had peers outside the rank set: the copies do not wait for them",
            phantoms);
    return out;
}

} // namespace sl
