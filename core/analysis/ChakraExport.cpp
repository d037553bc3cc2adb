#include "analysis/ChakraExport.h"

#include "models/CollectiveModel.h"

#include <algorithm>
#include <map>
#include <queue>
#include <unordered_map>

namespace sl {

namespace {

struct Dep {
    NodeId from;
    TimeNs delay; // kept as a delay node when possible
};

} // namespace

ChakraFile chakraFromGraph(const ExecutionGraph& g, std::uint32_t rankIndex, ChakraExportStats* statsOut) {
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
                rank.sourcePath +
                ": the dependencies of this rank form a cycle once host syncs are folded into thread "
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
            ++stats.collectives;
            c.type = call.type == CollectiveType::Send   ? ChakraNodeType::CommSend
                     : call.type == CollectiveType::Recv ? ChakraNodeType::CommRecv
                                                         : ChakraNodeType::CommColl;
            // Send/recv pairs of one call (NCCL's all-to-all) are an all-to-all in Chakra's terms.
            c.commType = call.type == CollectiveType::SendRecv ? static_cast<int>(ChakraCommType::AllToAll)
                                                               : chakraCommTypeOf(call.type);
            if (call.bytes >= 0)
                c.commSize = call.bytes;
            else
                ++stats.unsized;
            c.commGroup = call.processGroup;
        }
        f.nodes.push_back(std::move(c));
        ++stats.nodes;
    }
    if (statsOut) *statsOut = stats;
    return f;
}

} // namespace sl
