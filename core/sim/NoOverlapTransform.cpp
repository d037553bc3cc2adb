#include "sim/NoOverlapTransform.h"

#include "graph/ChakraGraph.h"
#include "trace/Collective.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sl {

namespace {

// The start the graph builder ordered each GPU op by: its measured start, clipped to the end of
// the ops before it on its stream (overlapping ops are serialized keeping their ends).
std::vector<TimeNs> effectiveStarts(const ExecutionGraph& g) {
    std::vector<TimeNs> eff(g.nodes.size(), 0);
    for (const auto& p : g.processors) {
        if (!p.gpu) continue;
        TimeNs prevEnd = std::numeric_limits<TimeNs>::min();
        for (NodeId n : p.nodes) {
            eff[n] = std::max(g.measuredStart(n), prevEnd);
            prevEnd = std::max(prevEnd, g.measuredEnd(n));
        }
    }
    return eff;
}

// Whether a GPU op's name is a communication kernel's, decided once per (rank, name): the names
// repeat over thousands of ops.
class CommunicationNames {
public:
    explicit CommunicationNames(const ExecutionGraph& g) : g_(g), byRank_(g.trace->ranks.size()) {}
    bool operator()(NodeId n) {
        const GraphNode& node = g_.nodes[n];
        const Rank& rank = g_.trace->ranks[node.rank];
        const StringId name = rank.tracks[node.event.track].events.name[node.event.index];
        auto [it, fresh] = byRank_[node.rank].try_emplace(name, false);
        if (fresh) it->second = isCommunicationKernelName(rank.strings.str(name));
        return it->second;
    }

private:
    const ExecutionGraph& g_;
    std::vector<std::unordered_map<StringId, bool>> byRank_;
};

} // namespace

NoOverlapEdges buildNoOverlapEdges(const ExecutionGraph& g) {
    NoOverlapEdges out;
    if (g.trace && isUnmeasuredSet(*g.trace)) {
        out.unavailable = "comm.overlap=false is not modelled for Chakra input (it has no launch "
                          "structure to serialize)";
        return out;
    }
    CommunicationNames communicationName(g);
    // Compute streams per (rank, device): GPU streams that run a kernel that is not communication.
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<std::uint32_t>> compute;
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
        const auto& p = g.processors[pi];
        if (!p.gpu) continue;
        const Track& t = g.trace->ranks[p.rank].tracks[p.track];
        for (NodeId n : p.nodes)
            if (t.events.kind[g.nodes[n].event.index] == EventKind::Kernel && !communicationName(n)) {
                compute[{p.rank, t.device()}].push_back(pi);
                break;
            }
    }
    const std::vector<TimeNs> effStart = effectiveStarts(g);
    auto& edges = out.overlay.edges;
    auto add = [&](NodeId from, NodeId to) {
        GraphEdge e;
        e.from = from;
        e.to = to;
        e.kind = EdgeKind::CrossStream;
        edges.push_back(e);
    };
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const auto& node = g.nodes[n];
        if (node.kind != NodeKind::Collective && !(node.kind == NodeKind::GpuOp && communicationName(n)))
            continue;
        const Track& t = g.trace->ranks[node.rank].tracks[node.event.track];
        auto it = compute.find({node.rank, t.device()});
        if (it == compute.end()) continue;
        for (std::uint32_t pi : it->second) {
            if (pi == node.processor) continue;
            const auto& seq = g.processors[pi].nodes;
            auto ub = std::upper_bound(seq.begin(), seq.end(), effStart[n],
                                       [&](TimeNs v, NodeId m) { return v < effStart[m]; });
            if (ub != seq.begin()) add(*std::prev(ub), n);
            if (ub != seq.end()) add(n, *ub);
        }
    }
    if (edges.empty()) {
        out.unavailable = "comm.overlap=false changes nothing here: no collective kernel runs on a "
                          "device that also runs compute kernels on another stream";
        return out;
    }
    out.overlay.buildAdjacency(g.nodes.size());
    if (findCycleNode(g, &out.overlay) != kNoNode) {
        out.overlay = {};
        out.unavailable = "comm.overlap=false cannot be simulated on this trace: serializing "
                          "collectives with compute would deadlock (ranks issue collectives of "
                          "different streams in different orders); it was ignored";
    }
    return out;
}

std::shared_ptr<const NoOverlapEdges> noOverlapEdgesFor(const ExecutionGraph& g) {
    static const char key = 0;
    return g.derived.get<NoOverlapEdges>(&key, [&] { return buildNoOverlapEdges(g); });
}

} // namespace sl
