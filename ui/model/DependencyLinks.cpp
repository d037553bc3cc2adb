#include "DependencyLinks.h"

namespace sl::ui {

EventId eventOf(const ExecutionGraph& g, NodeId n) {
    const GraphNode& node = g.nodes[n];
    return {static_cast<int>(node.rank), node.event};
}

SelectionLinks selectionLinks(const ExecutionGraph& graph, EventId selected) {
    SelectionLinks links;
    if (!selected.valid() || static_cast<std::size_t>(selected.rank) >= graph.nodeIndex.size()) return links;
    const auto& tracks = graph.nodeIndex[static_cast<std::size_t>(selected.rank)];
    if (selected.ref.track >= tracks.size() || selected.ref.index >= tracks[selected.ref.track].size())
        return links;
    const NodeId n = graph.nodeOf(static_cast<std::uint32_t>(selected.rank), selected.ref);
    if (n >= graph.nodes.size()) return links;
    auto add = [&](EdgeId id, bool incoming) {
        const GraphEdge& e = graph.edges[id];
        links.edges.push_back({eventOf(graph, e.from), eventOf(graph, e.to), e.kind, e.inferred,
                               e.triggeredByStart(), e.gatesEnd(), incoming});
    };
    for (EdgeId id : graph.inEdges(n))
        add(id, true);
    for (EdgeId id : graph.outEdges(n))
        add(id, false);
    const std::uint32_t c = graph.nodes[n].collective;
    if (c < graph.collectives.size())
        for (NodeId m : graph.collectives[c].members)
            links.collective.push_back(eventOf(graph, m));
    return links;
}

} // namespace sl::ui
