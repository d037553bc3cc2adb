#include "graph/ExecutionGraph.h"

#include "graph/ChakraGraph.h"
#include "graph/GraphBuilder.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl {

std::string_view edgeKindName(EdgeKind kind) {
    static constexpr std::array<std::string_view, kEdgeKindCount> names = {
        "thread_order", "launch",     "stream_order", "cross_stream",
        "sync",         "collective", "thread_start", "pipeline_transfer"};
    auto i = static_cast<std::size_t>(kind);
    return i < names.size() ? names[i] : std::string_view("unknown");
}

std::string_view nodeKindName(NodeKind kind) {
    switch (kind) {
    case NodeKind::CpuCall:
        return "cpu_call";
    case NodeKind::SyncCall:
        return "sync_call";
    case NodeKind::GpuOp:
        return "gpu_op";
    case NodeKind::Collective:
        return "collective";
    }
    return "unknown";
}

TimeNs ExecutionGraph::measuredStart(NodeId n) const {
    const auto& node = nodes[n];
    const Track& t = trace->ranks[node.rank].tracks[node.event.track];
    return t.events.start[node.event.index] - clockShift(node.rank, t);
}

TimeNs ExecutionGraph::measuredEnd(NodeId n) const {
    const auto& node = nodes[n];
    const Track& t = trace->ranks[node.rank].tracks[node.event.track];
    return t.events.end(node.event.index) - clockShift(node.rank, t);
}

void ExecutionGraph::buildAdjacency() {
    derived.clear();
    const std::size_t n = nodes.size();
    inOffsets.assign(n + 1, 0);
    outOffsets.assign(n + 1, 0);
    for (const auto& e : edges) {
        ++inOffsets[e.to + 1];
        ++outOffsets[e.from + 1];
    }
    for (std::size_t i = 0; i < n; ++i) {
        inOffsets[i + 1] += inOffsets[i];
        outOffsets[i + 1] += outOffsets[i];
    }
    inEdgeIds.resize(edges.size());
    outEdgeIds.resize(edges.size());
    std::vector<std::uint32_t> inPos(inOffsets.begin(), inOffsets.end() - 1);
    std::vector<std::uint32_t> outPos(outOffsets.begin(), outOffsets.end() - 1);
    for (std::uint32_t id = 0; id < edges.size(); ++id) {
        inEdgeIds[inPos[edges[id].to]++] = id;
        outEdgeIds[outPos[edges[id].from]++] = id;
    }
}

void EdgeOverlay::buildAdjacency(std::size_t nodeCount) {
    outOffsets.assign(nodeCount + 1, 0);
    for (const auto& e : edges)
        ++outOffsets[e.from + 1];
    for (std::size_t i = 0; i < nodeCount; ++i)
        outOffsets[i + 1] += outOffsets[i];
    outIds.resize(edges.size());
    std::vector<std::uint32_t> pos(outOffsets.begin(), outOffsets.end() - 1);
    for (std::uint32_t id = 0; id < edges.size(); ++id)
        outIds[pos[edges[id].from]++] = id;
}

// Kahn's algorithm on the start/end vertex graph (vertex 2n = start of n, 2n+1 = end of n).
NodeId findCycleNode(const ExecutionGraph& g, const EdgeOverlay* overlay) {
    const std::size_t n = g.nodes.size();
    if (overlay && overlay->outOffsets.size() != n + 1) overlay = nullptr;
    std::vector<std::uint32_t> indeg(2 * n, 0);
    for (std::size_t i = 0; i < n; ++i)
        indeg[2 * i + 1] = 1;
    auto count = [&](const GraphEdge& e) { ++indeg[2 * std::size_t(e.to) + (e.gatesEnd() ? 1 : 0)]; };
    for (const auto& e : g.edges)
        count(e);
    if (overlay)
        for (const auto& e : overlay->edges)
            count(e);
    auto visit = [&](const GraphEdge& e, bool isEnd, std::vector<std::uint32_t>& stack) {
        if (e.triggeredByStart() == isEnd) return;
        std::uint32_t w = 2 * e.to + (e.gatesEnd() ? 1 : 0);
        if (--indeg[w] == 0) stack.push_back(w);
    };
    std::vector<std::uint32_t> stack;
    for (std::uint32_t v = 0; v < 2 * n; ++v)
        if (indeg[v] == 0) stack.push_back(v);
    std::size_t done = 0;
    while (!stack.empty()) {
        std::uint32_t v = stack.back();
        stack.pop_back();
        ++done;
        NodeId node = v / 2;
        bool isEnd = v & 1;
        if (!isEnd && --indeg[v + 1] == 0) stack.push_back(v + 1);
        for (std::uint32_t id : g.outEdges(node))
            visit(g.edges[id], isEnd, stack);
        if (overlay)
            for (std::uint32_t k = overlay->outOffsets[node]; k < overlay->outOffsets[node + 1]; ++k)
                visit(overlay->edges[overlay->outIds[k]], isEnd, stack);
    }
    if (done == 2 * n) return kNoNode;
    for (std::uint32_t v = 0; v < 2 * n; ++v)
        if (indeg[v] > 0) return v / 2;
    return kNoNode;
}

void ExecutionGraph::validate() const {
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& e = edges[i];
        if (e.from >= nodes.size() || e.to >= nodes.size())
            throw GraphError("edge " + std::to_string(i) + " refers to a node that does not exist");
        if (e.delay < 0)
            throw GraphError(std::string(edgeKindName(e.kind)) + " edge " + std::to_string(i) + " into '" +
                             std::string(nodeName(e.to)) + "' has a negative delay");
    }
    for (const auto& n : nodes)
        if (n.duration < 0 || n.release < 0)
            throw GraphError("a node has a negative duration or release time");
    if (inOffsets.size() != nodes.size() + 1 || inEdgeIds.size() != edges.size())
        throw GraphError("graph adjacency is out of date");
    NodeId c = findCycleNode(*this);
    if (c != kNoNode)
        throw GraphError("the execution graph has a cycle through '" + std::string(nodeName(c)) +
                         "' on rank " + std::to_string(trace->ranks[nodes[c].rank].rank));
}

ExecutionGraph buildExecutionGraph(const TraceSet& set, const GraphOptions& options) {
    // Without a measured timeline (Chakra input) the graph comes from the file's own dependencies.
    if (isUnmeasuredSet(set)) return buildChakraGraph(set, options);
    ExecutionGraph g;
    g.trace = &set;
    graph_build::Builder b(set, options, g);
    b.run();
    return g;
}

} // namespace sl
