#include "sim/SetupEdits.h"

#include "sim/JobRankIds.h"
#include "sim/Knobs.h"
#include "sim/TensorShards.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace sl {

std::size_t SimulatedSetup::added() const {
    return static_cast<std::size_t>(
        std::count_if(ranks.begin(), ranks.end(), [](const SimulatedRank& r) { return !r.measured; }));
}

std::size_t SimulatedSetup::droppedCount() const {
    return static_cast<std::size_t>(std::count(dropped.begin(), dropped.end(), std::uint8_t{1}));
}

SimulatedSetup measuredSetup(const ExecutionGraph& g) {
    SimulatedSetup s;
    const auto& set = *g.trace;
    s.dropped.assign(set.ranks.size(), 0);
    for (std::uint32_t i = 0; i < set.ranks.size(); ++i) {
        SimulatedRank r;
        r.rank = set.ranks[i].rank;
        r.source = i;
        s.ranks.push_back(r);
        s.world = std::max(s.world, set.ranks[i].worldSize);
    }
    s.world = std::max(s.world, static_cast<int>(set.ranks.size()));
    return s;
}

std::string runsText(const std::vector<int>& values) {
    std::string out;
    for (std::size_t i = 0; i < values.size();) {
        std::size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1)
            ++j;
        if (!out.empty()) out += ", ";
        out += std::to_string(values[i]);
        if (j > i) out += ".." + std::to_string(values[j]);
        i = j + 1;
    }
    return out;
}

std::string idRangesText(std::vector<int> ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return runsText(ids);
}

namespace {

bool spans(const std::vector<int>& ids, int gpusPerNode) {
    if (gpusPerNode <= 0 || ids.empty()) return false;
    for (int id : ids)
        if (id / gpusPerNode != ids.front() / gpusPerNode) return true;
    return false;
}

struct Coord {
    int pp = 0, dp = 0, tp = 0;
    friend bool operator<(const Coord& a, const Coord& b) {
        return std::tie(a.pp, a.dp, a.tp) < std::tie(b.pp, b.dp, b.tp);
    }
};

// Rank ids of the job's places, dense by (pp, dp, tp): looked up once per member of every
// collective call, so at 131,072 replicas a tree of places was most of the setup's time.
class JobIds {
public:
    JobIds(int pp, int dp, int tp) : dp_(dp), tp_(tp), ids_(index({pp, 0, 0}), -1) {}
    int at(Coord c) const { // -1: not a place of the job
        if (c.pp < 0 || c.dp < 0 || c.tp < 0 || c.dp >= dp_ || c.tp >= tp_) return -1;
        return index(c) < ids_.size() ? ids_[index(c)] : -1;
    }
    void set(Coord c, int id) { ids_[index(c)] = id; }
    const std::vector<int>& all() const { return ids_; }

private:
    std::size_t index(Coord c) const {
        auto z = [](int v) { return static_cast<std::size_t>(v); };
        return (z(c.pp) * z(dp_) + z(c.dp)) * z(tp_) + z(c.tp);
    }
    int dp_, tp_;
    std::vector<int> ids_;
};

// Rank ids in the job of n replicas of tensor-parallel degree m and `stages` pipeline stages:
// Megatron order when the trace follows it, else loaded ranks keep their ids and new places take the
// ids after the traced world.
JobIds jobRankIds(const ParallelStructure& s, int n, int m, int stages) {
    std::map<Coord, std::uint32_t> loaded; // coordinate -> trace rank index
    for (std::uint32_t i = 0; i < s.places.size(); ++i)
        loaded[{s.places[i].pp, s.places[i].dp, s.places[i].tp}] = i;
    JobIds newIds(stages, n, m);
    int nextId = s.world;
    for (int p = 0; p < stages; ++p)
        for (int d = 0; d < n; ++d)
            for (int t = 0; t < m; ++t) {
                int id = 0;
                if (s.megatronOrder)
                    id = ParallelStructure::megatronRank(p, d, t, n, m);
                else if (d < s.dp && t < s.tp && p < s.pp) {
                    auto it = loaded.find({p, d, t});
                    id = it != loaded.end() ? s.places[it->second].rank
                                            : ParallelStructure::megatronRank(p, d, t, s.dp, s.tp);
                } else
                    id = nextId++;
                newIds.set({p, d, t}, id);
            }
    return newIds;
}

// The layout knobs as the user wrote them, for notes and errors ("tp.degree=4 parallel.gpus=8").
std::string layoutKnobText(const SetupKnobs& k) {
    std::string t;
    auto add = [&](const char* key, int v) {
        if (v <= 0) return;
        if (!t.empty()) t += ' ';
        t.append(key).append("=").append(std::to_string(v));
    };
    add("tp.degree", k.tpDegree);
    add("parallel.gpus", k.parallelGpus);
    add("dp.degree", k.dpDegree);
    add("pp.degree", k.ppDegree);
    return t;
}

void planLayout(const ExecutionGraph& g, const SetupKnobs& k, const std::vector<CollectiveCall>& calls,
                int gpusPerNode, SetupEditPlan& plan) {
    const auto& set = *g.trace;
    const bool layoutKnob = k.tpDegree > 0 || k.parallelGpus > 0 || k.ppDegree > 0; // errors, never ignored
    const std::string knob = layoutKnobText(k);
    const bool strongAsked = k.dpStrong || k.parallelGpus > 0;
    ParallelStructure s = recognizeStructure(set, &g, strongAsked); // blocks: strong scaling only
    if (!s.recognised) {
        std::string why = s.notes.empty() ? std::string("no layout") : s.notes.front();
        if (layoutKnob) throw KnobError(knob + ": no parallel layout recognised (" + why + ")");
        plan.warnings.addForKnob("dp.degree", Warn::SetupEditIgnored,
                                 knob + ": no data-parallel layout recognised (" + why + "): knob ignored");
        return;
    }
    const int dp0 = s.dp, tp0 = s.tp, pp0 = s.pp;
    // pp.degree: each traced stage is a column of `lanes` stages laid out in its rank (BlockEdit::laneOf).
    const int pp = k.ppDegree > 0 ? k.ppDegree : pp0, lanes = pp / pp0;
    auto laneOf = [&](NodeId x) { return k.laneOf && x < k.laneOf->size() ? (*k.laneOf)[x] : 0; };
    const int tp = k.tpDegree > 0 ? k.tpDegree : tp0;
    int n = k.dpDegree > 0 ? k.dpDegree : dp0;
    if (k.parallelGpus > 0) {
        // The GPU count stays: data parallelism takes what tensor and pipeline parallelism leave.
        if (k.parallelGpus % (tp * pp) != 0)
            throw KnobError(knob + ": " + std::to_string(k.parallelGpus) +
                            " GPUs cannot be laid out with TP " + std::to_string(tp) + " x PP " +
                            std::to_string(pp) + " (not a multiple of " + std::to_string(tp * pp) + ")");
        const int want = k.parallelGpus / (tp * pp);
        if (k.dpDegree > 0 && k.dpDegree != want)
            throw KnobError(knob + ": dp.degree=" + std::to_string(k.dpDegree) + " with " +
                            std::to_string(k.parallelGpus) + " GPUs needs dp " + std::to_string(want));
        n = want;
    }
    const bool strong = k.dpStrong || (k.parallelGpus > 0 && n != dp0);
    if (n == dp0 && tp == tp0 && pp == pp0) {
        plan.setup.notes.push_back(knob + " is the traced layout: nothing to add or drop");
        if (!strong) return;
    }
    if (dp0 == 1 && n > 1)
        plan.warnings.addForKnob(
            "dp.degree", Warn::DpNoGradientSync,
            knob + ": the trace has no data parallelism (dp 1), so no gradient all-reduce "
                   "to re-size; the new replicas' gradient synchronisation is not modelled");
    plan.active = true;
    auto& setup = plan.setup;
    setup.edited = true;
    setup.dp = n;
    setup.tp = tp;
    setup.pp = pp;
    setup.world = n * tp * pp;
    std::string shardNote;
    if (tp != tp0) {
        const TensorShards shards =
            planTensorShards(g, tp0, tp, k.gpuSource, gpusPerNode, k.tpResizeComm, k.tpReshape);
        plan.shardFactor = shards.nodeFactor;
        shardNote = "modelled, not measured: " + std::to_string(shards.gemms) + " sharded GEMMs, " +
                    std::to_string(shards.attention) + " attention kernels (" + std::to_string(shards.heads) +
                    " heads / " + std::to_string(tp) + "), " + std::to_string(shards.activations) +
                    " kernels on sharded activations and " + std::to_string(shards.optimizer) +
                    " optimizer kernels re-shaped for tp " + std::to_string(tp) + " (hidden " +
                    std::to_string(shards.hidden) + ", " + std::to_string(shards.tokens) +
                    " tokens per micro-batch): each kernel's measured time x the " + shards.gpu +
                    " roofline of its new shapes over its traced ones";
        if (shards.sequenceParallel)
            shardNote += "; sequence parallel: " + std::to_string(shards.sequenceOps) +
                         " norm and residual kernels on the sequence split re-shaped for tp " +
                         std::to_string(tp);
        if (shards.insertedAllReduces > 0)
            shardNote += "; modelled, not measured: " + std::to_string(shards.insertedAllReduces) +
                         " tensor-parallel all-reduces the tp 1 trace lacks, " +
                         std::to_string(static_cast<long long>(std::llround(shards.insertedUs))) +
                         " us each (" + shards.insertedFrom + ", " + std::to_string(shards.tokens) + " x " +
                         std::to_string(shards.hidden) +
                         " BF16), added to the GEMM each follows on the compute stream (not drawn as "
                         "collectives; counted as compute)";
        if (shards.withoutShapes > 0)
            shardNote +=
                "; " + std::to_string(shards.withoutShapes) + " GPU ops without shapes kept as measured";
    }
    setup.ranks.clear();

    std::map<Coord, std::uint32_t> loaded; // coordinate -> trace rank index
    for (std::uint32_t i = 0; i < s.places.size(); ++i)
        loaded[{s.places[i].pp, s.places[i].dp, s.places[i].tp}] = i;
    const JobIds newIds = jobRankIds(s, n, tp, pp);
    auto idOf = [&](Coord c) { return newIds.at(c); };

    // The ranks of the new job: loaded ranks of replicas below n, then clones.
    std::vector<int> dropped, renumbered, cloneIds, cloneSources, missing, stageIds;
    setup.dropped.assign(set.ranks.size(), 0);
    for (std::uint32_t i = 0; i < s.places.size(); ++i) {
        const auto& p = s.places[i];
        if (p.dp >= n || p.tp >= tp) {
            setup.dropped[i] = 1;
            dropped.push_back(p.rank);
            continue;
        }
        SimulatedRank r;
        r.rank = idOf({p.pp * lanes, p.dp, p.tp});
        r.source = i;
        r.dp = p.dp;
        r.tp = p.tp;
        r.pp = p.pp * lanes;
        if (r.rank != p.rank) renumbered.push_back(p.rank);
        setup.ranks.push_back(r);
        for (int j = 1; j < lanes; ++j) { // the stages of its column: new ranks, not measured
            SimulatedRank stage = r;
            stage.rank = idOf({p.pp * lanes + j, p.dp, p.tp});
            stage.pp = p.pp * lanes + j;
            stage.measured = false;
            stage.lane = j;
            setup.ranks.push_back(stage);
            stageIds.push_back(stage.rank);
        }
    }
    std::vector<SimulatedRank> clones;
    for (int p = 0; p < pp0; ++p)
        for (int d = 0; d < n; ++d)
            for (int t = 0; t < tp; ++t) {
                if (d < dp0 && t < tp0) continue; // a traced place
                // The loaded replica d mod dp0 at the same tensor (mod the traced degree) and pipeline
                // place, else any loaded one.
                auto it = loaded.find({p, d % dp0, t % tp0});
                for (int alt = 0; it == loaded.end() && alt < dp0; ++alt)
                    it = loaded.find({p, alt, t % tp0});
                for (int j = 0; j < lanes; ++j) {
                    const int id = idOf({p * lanes + j, d, t});
                    if (it == loaded.end()) {
                        missing.push_back(id);
                        continue;
                    }
                    SimulatedRank r;
                    r.rank = id;
                    r.source = it->second;
                    r.measured = false;
                    r.dp = d;
                    r.tp = t;
                    r.pp = p * lanes + j;
                    r.lane = j;
                    clones.push_back(r);
                    cloneIds.push_back(id);
                    if (j == 0) cloneSources.push_back(set.ranks[it->second].rank);
                }
            }
    std::sort(setup.ranks.begin(), setup.ranks.end(),
              [](const SimulatedRank& a, const SimulatedRank& b) { return a.rank < b.rank; });
    std::sort(clones.begin(), clones.end(),
              [](const SimulatedRank& a, const SimulatedRank& b) { return a.rank < b.rank; });
    setup.ranks.insert(setup.ranks.end(), clones.begin(), clones.end());

    const std::string scaling = strong ? "strong scaling: the global batch stays, per-rank work x " +
                                             std::to_string(dp0) + "/" + std::to_string(n)
                                       : "weak scaling: per-rank work as traced";
    std::string tpText =
        tp == tp0 ? std::string()
                  : "tensor-parallel degree " + std::to_string(tp0) + " -> " + std::to_string(tp) + ", ";
    if (pp != pp0)
        tpText += "pipeline-parallel degree " + std::to_string(pp0) + " -> " + std::to_string(pp) + ", ";
    setup.notes.push_back(knob + ": " + tpText + "data-parallel degree " + std::to_string(dp0) + " -> " +
                          std::to_string(n) + " (" + scaling + "), world " + std::to_string(s.world) +
                          " -> " + std::to_string(setup.world));
    if (!stageIds.empty())
        setup.notes.push_back("new ranks " + idRangesText(stageIds) + ": stages 1.." +
                              std::to_string(lanes - 1) +
                              " of the columns of the loaded ranks (pp.degree), simulated with them");
    if (!cloneIds.empty())
        setup.notes.push_back(
            "added ranks " + idRangesText(cloneIds) + ": clones of ranks " + idRangesText(cloneSources) +
            " (the loaded rank at replica d mod " + std::to_string(dp0) +
            (tp == tp0 ? std::string(" with the same tensor / pipeline place")
                       : " at tensor place t mod " + std::to_string(tp0) + " and the same pipeline place") +
            ", else one loaded there), each simulated on its own");
    if (!dropped.empty() && tp != tp0)
        setup.notes.push_back("dropped ranks " + idRangesText(dropped) +
                              " (places beyond the new degrees; their collectives no longer wait for them)");
    else if (!dropped.empty())
        setup.notes.push_back("dropped replicas " + std::to_string(n) + ".." + std::to_string(dp0 - 1) +
                              ": ranks " + idRangesText(dropped) +
                              " (their collectives no longer wait for them)");
    if (!renumbered.empty())
        setup.notes.push_back("ranks " + idRangesText(renumbered) +
                              " get new ids in the new job (Megatron order "
                              "with dp " +
                              std::to_string(n) + (tp == tp0 ? "" : " and tp " + std::to_string(tp)) +
                              "); results keep the traced ids");
    if (!missing.empty())
        plan.warnings.addForKnob(
            "dp.degree", Warn::DpRanksNotCloned,
            knob + ": ranks " + idRangesText(missing) +
                " have no loaded rank at their tensor / pipeline place to clone: left out",
            static_cast<std::int64_t>(missing.size()));

    // Collectives: a group whose members span replicas grows or shrinks with the data-parallel
    // degree; every group's members get their new ids, so node spans follow the new layout.
    const double factor = static_cast<double>(dp0) / static_cast<double>(n);
    plan.calls.assign(calls.size(), CallResize{});
    std::unordered_map<int, RankPlace> placeById; // the loaded ranks (every member lookup below)
    for (const auto& p : s.places)
        placeById.emplace(p.rank, p);
    std::int64_t resized = 0, unplaced = 0, tensorCalls = 0;
    std::map<std::string, std::int64_t> byType;
    struct Group {
        int members = 0;
        bool spansNodes = false;
    };
    std::map<std::pair<std::set<std::pair<int, int>>, std::set<int>>, Group> groups;
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const auto& c = calls[i];
        auto& r = plan.calls[i];
        r.groupSize = c.groupSize;
        r.spansNodes = c.spansNodes(gpusPerNode);
        std::vector<Coord> members;
        bool placed = !c.ranks.empty();
        // pp.degree: a call runs on its lane's stage of every member's column.
        const int stageOffset = c.node < g.nodes.size() ? laneOf(c.node) : 0;
        for (int id : c.ranks) {
            auto known = placeById.find(id);
            RankPlace p = known != placeById.end() ? known->second : s.placeOf(id);
            if (!p.known) placed = false;
            members.push_back({p.pp * lanes + stageOffset, p.dp, p.tp});
        }
        std::set<int> dps, tps;
        for (const auto& m : members) {
            dps.insert(m.dp);
            tps.insert(m.tp);
        }
        const bool replicated = placed ? dps.size() > 1 : c.dataParallel;
        // A group over every tensor place of its replica (TP all-reduces) takes the new degree's.
        const bool tensor =
            k.tpResizeComm && placed && tps.size() > 1 && static_cast<int>(tps.size()) == tp0 && !replicated;
        r.replicated = replicated;
        if (!placed && !c.ranks.empty()) ++unplaced;
        if (placed) {
            std::set<std::pair<int, int>> slots; // (pp, tp) places of the members
            for (const auto& m : members) {
                if (tensor)
                    for (int t = 0; t < tp; ++t)
                        slots.insert({m.pp, t});
                else if (m.tp < tp)
                    slots.insert({m.pp, m.tp});
            }
            std::vector<int> ds;
            if (replicated && static_cast<int>(dps.size()) == dp0)
                for (int d = 0; d < n; ++d)
                    ds.push_back(d);
            else
                for (int d : dps)
                    if (d < n || !replicated) ds.push_back(d);
            // Calls of one group repeat (every gradient bucket): the group's members are listed
            // once per (places, replicas), which at 131,072 replicas is the setup's cost.
            auto [group, fresh] = groups.try_emplace({slots, dps});
            if (fresh) {
                std::vector<int> ids;
                for (const auto& [p, t] : slots)
                    for (int d : ds)
                        ids.push_back(d < n ? idOf({p, d, t}) : -1);
                ids.erase(std::remove(ids.begin(), ids.end(), -1), ids.end());
                group->second = {static_cast<int>(ids.size()), !ids.empty() && spans(ids, gpusPerNode)};
            }
            if ((replicated || tensor) && group->second.members > 0) r.groupSize = group->second.members;
            if (group->second.members > 0) r.spansNodes = group->second.spansNodes;
        } else if (replicated) {
            r.groupSize = std::max(1, static_cast<int>(std::llround(c.groupSize / factor)));
            r.spansNodes = r.spansNodes || r.groupSize > gpusPerNode;
        }
        // Strong scaling: activations (tensor / pipeline traffic) shrink with the per-rank batch;
        // gradients (the replicated groups) keep their size.
        if (strong && !replicated) r.bytesFactor = factor;
        // Each rank holds parameters / TP: its gradients shrink or grow with the degree.
        if (replicated && tp != tp0) r.bytesFactor *= static_cast<double>(tp0) / static_cast<double>(tp);
        r.changed =
            r.groupSize != c.groupSize || r.spansNodes != c.spansNodes(gpusPerNode) || r.bytesFactor != 1.0;
        if (tensor && r.groupSize != c.groupSize && !setup.isDropped(g.nodes[c.node].rank)) ++tensorCalls;
        if (r.changed) {
            ++resized;
            ++byType[std::string(collectiveTypeName(c.type))];
        }
    }
    if (!shardNote.empty())
        setup.notes.push_back(k.tpReshape ? shardNote
                                          : "tp.reshape=false: sharded kernels keep their "
                                            "traced times");
    if (tp != tp0 && !k.tpResizeComm)
        setup.notes.push_back("tp.resize_comm=false: tensor-parallel collectives keep their traced groups");
    if (tensorCalls > 0)
        setup.notes.push_back(
            tp == 1 ? "removed " + std::to_string(tensorCalls) +
                          " tensor-parallel collective kernels (tp 1) with their host calls (the c10d call, "
                          "its event record and wait)"
                    : "modelled, not measured: " + std::to_string(tensorCalls) +
                          " tensor-parallel collective kernels re-timed for groups of " + std::to_string(tp) +
                          " by the collective model (the new ranks' links: NVLink within a node, the "
                          "network beyond)");
    if (resized > 0) {
        std::string types;
        for (const auto& [t, cnt] : byType)
            types += (types.empty() ? "" : ", ") + std::to_string(cnt) + " " + t;
        setup.notes.push_back("re-sized " + std::to_string(resized) +
                              " collective kernels to the new groups (" + types + ")");
    }
    if (unplaced > 0)
        plan.warnings.addForKnob(
            "dp.degree", Warn::DpCollectivesUnplaced,
            knob + ": " + std::to_string(unplaced) +
                " collective kernels have members outside the recognised layout: kept as traced",
            unplaced);

    // Strong scaling: compute work inside the micro-batch blocks shrinks; the optimizer and other
    // work outside them (parameter-sized) stays.
    if (strong && n != dp0) {
        plan.workFactor = factor;
        plan.scaledWork.assign(g.nodes.size(), 0);
        bool unmarked = false;
        for (NodeId id = 0; id < g.nodes.size(); ++id) {
            const auto& node = g.nodes[id];
            if (node.kind != NodeKind::GpuOp || isCommunicationKernelName(g.nodeName(id))) continue;
            const auto& b = s.blocks[node.rank];
            if (b.stepSpans.empty()) {
                unmarked = true;
                plan.scaledWork[id] = 1;
                continue;
            }
            TimeNs launched = g.measuredStart(id);
            for (EdgeId e : g.inEdges(id))
                if (g.edges[e].kind == EdgeKind::Launch) launched = g.measuredStart(g.edges[e].from);
            for (const auto& [from, to] : b.stepSpans)
                if (launched >= from && launched <= to) plan.scaledWork[id] = 1;
        }
        if (unmarked)
            setup.notes.push_back("dp.strong: no micro-batch markers on some ranks: every compute kernel of "
                                  "those ranks scales with the per-rank batch");
    }
}

} // namespace

SetupEditPlan planSetupEdits(const ExecutionGraph& g, const SetupKnobs& k,
                             const std::vector<CollectiveCall>& calls, int gpusPerNode) {
    SetupEditPlan plan;
    plan.setup = measuredSetup(g);
    if (k.dpDegree > 0 || k.tpDegree > 0 || k.parallelGpus > 0 || k.ppDegree > 0)
        planLayout(g, k, calls, gpusPerNode, plan);
    else if (k.dpStrong)
        plan.warnings.addForKnob("dp.strong", Warn::KnobNoEffect,
                                 "dp.strong=true without dp.degree changes nothing");
    return plan;
}

int largestJobRankId(const ParallelStructure& s, int dpDegree, int tpDegree, int ppDegree) {
    int most = -1;
    for (const RankPlace& p : s.places)
        most = std::max(most, p.rank);
    const int dp = dpDegree > 0 ? dpDegree : s.dp, tp = tpDegree > 0 ? tpDegree : s.tp;
    const int pp = ppDegree > 0 ? ppDegree : s.pp;
    if (!s.recognised || (dp == s.dp && tp == s.tp && pp == s.pp)) return most;
    most = -1; // the places beyond the new degrees are dropped
    const JobIds ids = jobRankIds(s, dp, tp, pp);
    for (int id : ids.all())
        most = std::max(most, id);
    return most;
}

} // namespace sl
