#include "analysis/ChakraExport.h"

#include "graph/ChakraGraph.h"
#include "structure/CollectiveCalls.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

namespace sl {

namespace {

struct Dep {
    NodeId from;
    TimeNs delay; // kept as a delay node when possible
};

bool isPointToPoint(CollectiveType t) {
    return t == CollectiveType::Send || t == CollectiveType::Recv;
}

// The bandwidth and latency a size estimate divides by: the set's own fit for the type and
// locality when it has sized collectives, else its pooled fit, else the defaults the importer
// times unsized Chakra collectives with (graph/ChakraGraph.h).
AlphaBeta estimateParams(const Calibration& cal, CollectiveType type, bool inter, bool* calibrated) {
    if (const CalibrationFit* f = cal.ofGroup(commParamGroup(type), inter); f && f->fit.valid()) {
        *calibrated = true;
        return f->fit;
    }
    if (const CalibrationFit* f = cal.pooled(inter); f && f->fit.valid()) {
        *calibrated = true;
        return f->fit;
    }
    return AlphaBeta{kChakraLatencyUs, inter ? kChakraInterNodeGBps : kChakraIntraNodeGBps};
}

} // namespace

ChakraExportPlan planChakraExport(const ExecutionGraph& g) {
    ChakraExportPlan plan;
    const TraceSet& set = *g.trace;
    std::vector<CollectiveCall> calls = collectiveCalls(g);
    std::unordered_map<NodeId, const CollectiveCall*> callOf;
    for (const auto& c : calls)
        callOf[c.node] = &c;

    // Process groups: the member ranks each key names (or its matched collectives show). A group
    // of every rank of the job is ASTRA-sim's default communicator (""); any other gets an
    // integer id and an entry in the comm-group JSON.
    std::set<int> allRanks;
    for (const auto& r : set.ranks)
        allRanks.insert(r.rank);
    int world = static_cast<int>(set.ranks.size());
    for (const auto& r : set.ranks)
        world = std::max(world, r.worldSize);
    std::map<std::string, std::set<int>> ranksOf;
    for (const auto& c : calls) {
        if (isPointToPoint(c.type)) continue;
        auto& rs = ranksOf[c.processGroup];
        rs.insert(c.ranks.begin(), c.ranks.end());
        rs.insert(g.rankOf(c.node).rank);
    }
    for (const auto& [key, rs] : ranksOf) {
        const bool everyRank = static_cast<int>(rs.size()) >= world || (rs == allRanks && world <= 1);
        if (everyRank) {
            plan.pgNameOf[key] = "";
            continue;
        }
        ChakraCommGroup grp;
        grp.id = static_cast<int>(plan.groups.size()) + 1;
        grp.ranks.assign(rs.begin(), rs.end());
        grp.key = key;
        // Two keys over the same ranks stay apart (two communicators), as in the trace.
        plan.pgNameOf[key] = std::to_string(grp.id);
        plan.groups.push_back(std::move(grp));
    }

    const Calibration cal = calibrate(g, gpusPerNodeOf(set, 0));
    const int gpn = gpusPerNodeOf(set, 0);
    auto estimate = [&](const CollectiveCall& c, double transferNs) {
        const AlphaBeta p = estimateParams(cal, c.type, c.spansNodes(gpn), &plan.estimateCalibrated);
        if (!c.spansNodes(gpn)) {
            plan.estimateGBps = p.GBps;
            plan.estimateLatencyUs = p.latencyUs;
        }
        const double wire = std::max(0.0, transferNs - p.latencyUs * 1000.0) * p.GBps;
        // comm_size 0 reads as "no size" to ASTRA-sim's feeders: at least one byte.
        return std::max<std::int64_t>(1, std::llround(wire / busFactor(c.type, c.groupSize)));
    };

    // Sends and receives: the two members of a matched point-to-point pair; the tag counts the
    // messages from src to dst, so both files name the same one.
    std::map<std::pair<int, int>, int> nextTag;
    std::set<NodeId> paired;
    for (const auto& grp : g.collectives) {
        if (grp.members.size() != 2 || !grp.complete) continue;
        const CollectiveCall* a = callOf.count(grp.members[0]) ? callOf[grp.members[0]] : nullptr;
        const CollectiveCall* b = callOf.count(grp.members[1]) ? callOf[grp.members[1]] : nullptr;
        if (!a || !b || !isPointToPoint(a->type) || !isPointToPoint(b->type) || a->type == b->type) continue;
        if (a->type == CollectiveType::Recv) std::swap(a, b);
        ChakraP2p p;
        p.src = g.rankOf(a->node).rank;
        p.dst = g.rankOf(b->node).rank;
        p.tag = nextTag[{p.src, p.dst}]++;
        p.bytes = grp.bytes >= 0 ? grp.bytes : std::max(a->bytes, b->bytes);
        if (p.bytes < 0) {
            p.bytes =
                estimate(*a, (static_cast<double>(a->transfer) + static_cast<double>(b->transfer)) / 2.0);
            plan.estimatedBytes[a->node] = plan.estimatedBytes[b->node] = p.bytes;
        }
        plan.p2p[a->node] = plan.p2p[b->node] = p;
        paired.insert(a->node);
        paired.insert(b->node);
    }
    // Unsized collectives: one estimate per matched collective (the mean transfer of its
    // members), so that every rank's file carries the same size and the import matches them.
    std::map<std::uint32_t, std::pair<double, int>> transferOfGroup;
    for (const auto& c : calls)
        if (c.bytes < 0 && !isPointToPoint(c.type) && g.nodes[c.node].kind == NodeKind::Collective &&
            g.nodes[c.node].collective < g.collectives.size()) {
            auto& acc = transferOfGroup[g.nodes[c.node].collective];
            acc.first += static_cast<double>(c.transfer);
            ++acc.second;
        }
    for (const auto& c : calls) {
        if (isPointToPoint(c.type)) {
            if (!paired.count(c.node)) ++plan.unmatchedP2p;
            continue;
        }
        if (c.bytes >= 0) continue;
        double transfer = static_cast<double>(c.transfer);
        if (auto it = transferOfGroup.find(g.nodes[c.node].collective);
            g.nodes[c.node].kind == NodeKind::Collective && it != transferOfGroup.end())
            transfer = it->second.first / it->second.second;
        plan.estimatedBytes[c.node] = estimate(c, transfer);
    }
    return plan;
}

std::string chakraCommGroupJson(const ChakraExportPlan& plan) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& grp : plan.groups)
        j[std::to_string(grp.id)] = grp.ranks;
    return j.dump(2) + "\n";
}

ChakraFile chakraFromGraph(const ExecutionGraph& g, std::uint32_t rankIndex, const ChakraExportPlan& plan,
                           ChakraExportStats* statsOut) {
    ChakraExportStats stats;
    const Rank& rank = g.trace->ranks[rankIndex];
    ChakraFile f;
    f.path = rank.sourcePath;
    f.version = "0.0.4";
    f.metadata = {
        {"producer", "sightline export-chakra"},
        {"source", rank.sourcePath},
        {"rank", std::to_string(rank.rank)},
        {"world_size", std::to_string(std::max<std::size_t>(
                           g.trace->ranks.size(), static_cast<std::size_t>(std::max(0, rank.worldSize))))}};

    // Processor predecessor and successor of every node (the processor order is kept as explicit
    // dependencies).
    std::unordered_map<NodeId, NodeId> procPred, procSucc;
    for (const auto& p : g.processors)
        if (p.rank == rankIndex)
            for (std::size_t k = 1; k < p.nodes.size(); ++k) {
                procPred[p.nodes[k]] = p.nodes[k - 1];
                procSucc[p.nodes[k - 1]] = p.nodes[k];
            }
    // Node-level dependencies within the rank, one per source with the largest delay. Collective
    // edges cross ranks (the importer matches collectives again). A sync edge (GPU op -> the end of
    // the host call that waits for it) becomes a dependency of the call's successor on its thread:
    // the thread goes on once the wait is over; the call keeps its own (intrinsic) duration. A
    // launch edge is triggered by the call's start: what is left of its delay after the call ends.
    std::unordered_map<NodeId, std::map<NodeId, TimeNs>> deps;
    std::vector<NodeId> mine;
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        if (g.nodes[n].rank != rankIndex) continue;
        mine.push_back(n);
        auto& d = deps[n];
        if (auto it = procPred.find(n); it != procPred.end()) d.try_emplace(it->second, 0);
    }
    for (NodeId n : mine)
        for (std::uint32_t id : g.inEdges(n)) {
            const GraphEdge& e = g.edges[id];
            if (e.kind == EdgeKind::Collective || g.nodes[e.from].rank != rankIndex) continue;
            NodeId to = n;
            TimeNs delay = e.delay;
            if (e.kind == EdgeKind::Launch) delay = std::max<TimeNs>(0, e.delay - g.nodes[e.from].duration);
            if (e.gatesEnd()) {
                auto succ = procSucc.find(n);
                if (succ == procSucc.end()) continue;
                to = succ->second;
                delay = 0;
            }
            if (e.from == to) continue;
            auto [it, fresh] = deps[to].try_emplace(e.from, delay);
            if (!fresh) it->second = std::max(it->second, delay);
        }
    // Topological order, measured start first among the ready (the importer keeps it where free).
    {
        std::unordered_map<NodeId, std::uint32_t> pending;
        std::unordered_map<NodeId, std::vector<NodeId>> out;
        for (NodeId n : mine) {
            pending[n] = static_cast<std::uint32_t>(deps[n].size());
            for (const auto& entry : deps[n])
                out[entry.first].push_back(n);
        }
        using Key = std::pair<TimeNs, NodeId>;
        std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
        for (NodeId n : mine)
            if (pending[n] == 0) ready.push({g.measuredStart(n), n});
        std::vector<NodeId> order;
        order.reserve(mine.size());
        while (!ready.empty()) {
            NodeId n = ready.top().second;
            ready.pop();
            order.push_back(n);
            for (NodeId m : out[n])
                if (--pending[m] == 0) ready.push({g.measuredStart(m), m});
        }
        if (order.size() != mine.size())
            throw GraphError(
                rank.sourcePath,
                "the dependencies of this rank form a cycle once host syncs are folded into thread "
                "order; it cannot be written as Chakra");
        mine = std::move(order);
    }

    std::unordered_map<NodeId, const CollectiveCall*> callOf;
    std::vector<CollectiveCall> calls = collectiveCalls(g);
    for (const auto& c : calls)
        if (g.nodes[c.node].rank == rankIndex) callOf[c.node] = &c;

    std::unordered_map<NodeId, std::uint64_t> idOf;
    std::uint64_t nextId = 0;
    auto trackOf = [&](NodeId n) -> const Track& { return rank.tracks[g.nodes[n].event.track]; };
    auto delayNode = [&](NodeId on, TimeNs duration, const char* name, std::vector<std::uint64_t> after) {
        ChakraNode d;
        d.id = nextId++;
        d.name = name;
        d.type = ChakraNodeType::Comp;
        d.durationNs = duration;
        d.isCpuOp = !trackOf(on).isGpu();
        d.tid = trackOf(on).tid;
        d.dataDeps = std::move(after);
        f.nodes.push_back(std::move(d));
        ++stats.delayNodes;
        return f.nodes.back().id;
    };

    for (NodeId n : mine) {
        const GraphNode& node = g.nodes[n];
        const Track& track = trackOf(n);
        auto predIt = procPred.find(n);
        const NodeId pred = predIt == procPred.end() ? kNoNode : predIt->second;
        auto& nodeDeps = deps[n];
        std::vector<std::uint64_t> dataDeps;
        // A boundary release (a rank's or a thread's first start, a pre-window op): the node's
        // start_time_micros, which the importer takes as the earliest start of a node that is first
        // on its processor (ASTRA-sim ignores it).
        std::int64_t startNs = -1;
        if (pred == kNoNode && node.release > 0) startNs = node.release;
        bool delayKept = startNs >= 0; // a delay node would put the node behind it
        // The processor predecessor's delay first (CPU work between calls, a wait on the stream).
        if (pred != kNoNode && nodeDeps[pred] > 0) {
            dataDeps.push_back(
                delayNode(n, nodeDeps[pred], track.isGpu() ? "wait" : "cpu work", {idOf.at(pred)}));
            delayKept = true;
            nodeDeps.erase(pred);
        }
        for (const auto& [from, delay] : nodeDeps) {
            if (delay > 0 && !delayKept && pred == kNoNode) {
                // First on its processor: a delay node there is exact.
                dataDeps.push_back(delayNode(n, delay, track.isGpu() ? "wait" : "cpu work", {idOf.at(from)}));
                delayKept = true;
                continue;
            }
            if (delay > 0) {
                ++stats.droppedEdges;
                stats.droppedDelay += delay;
            }
            dataDeps.push_back(idOf.at(from));
        }
        ChakraNode c;
        c.id = nextId++;
        idOf[n] = c.id;
        c.name = std::string(g.nodeName(n));
        c.type = ChakraNodeType::Comp;
        c.durationNs = node.duration;
        c.startNs = startNs;
        c.isCpuOp = !track.isGpu();
        c.tid = track.tid;
        c.dataDeps = std::move(dataDeps);
        std::sort(c.dataDeps.begin(), c.dataDeps.end());
        if (auto it = callOf.find(n); it != callOf.end()) {
            const CollectiveCall& call = *it->second;
            // Send/recv pairs of one call (NCCL's all-to-all) are an all-to-all in Chakra's terms.
            const int commType = call.type == CollectiveType::SendRecv
                                     ? static_cast<int>(ChakraCommType::AllToAll)
                                     : chakraCommTypeOf(call.type);
            auto estimated = plan.estimatedBytes.find(n);
            if (isPointToPoint(call.type)) {
                // A send or receive is written as one only with its peer: ASTRA-sim waits for the
                // other side forever. Without one it stays GPU work of its measured duration.
                if (auto p = plan.p2p.find(n); p != plan.p2p.end()) {
                    ++stats.collectives;
                    c.type = call.type == CollectiveType::Send ? ChakraNodeType::CommSend
                                                               : ChakraNodeType::CommRecv;
                    c.commSrc = p->second.src;
                    c.commDst = p->second.dst;
                    c.commTag = p->second.tag;
                    c.commSize = p->second.bytes;
                    c.commSizeEstimated = estimated != plan.estimatedBytes.end();
                } else {
                    ++stats.unmatchedP2p;
                }
            } else if (commType >= 0) {
                ++stats.collectives;
                c.type = ChakraNodeType::CommColl;
                c.commType = commType;
                if (call.bytes >= 0) {
                    c.commSize = call.bytes;
                } else if (estimated != plan.estimatedBytes.end()) {
                    c.commSize = estimated->second;
                    c.commSizeEstimated = true;
                }
                if (auto pg = plan.pgNameOf.find(call.processGroup); pg != plan.pgNameOf.end())
                    c.commGroup = pg->second;
            }
            if (c.commSizeEstimated) ++stats.estimated;
            // Communication runs on the GPU in ASTRA-sim ("Comm node should not be on CPU").
            if (c.type != ChakraNodeType::Comp) c.isCpuOp = false;
        }
        f.nodes.push_back(std::move(c));
        ++stats.nodes;
    }
    if (statsOut) *statsOut = stats;
    return f;
}

} // namespace sl
