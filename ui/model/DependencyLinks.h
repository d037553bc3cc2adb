#pragma once
#include "Selection.h"
#include "graph/ExecutionGraph.h"

#include <vector>

namespace sl::ui {

// A graph edge of the selected event, between two events, for drawing an arrow.
struct DependencyLink {
    EventId from;
    EventId to;
    EdgeKind kind = EdgeKind::ThreadOrder;
    bool inferred = false;
    bool fromStart = false; // triggered by the start of `from` (launch, collective), else its end
    bool toEnd = false;     // gates the end of `to` (sync, collective), else its start
    bool incoming = false;  // `to` is the selected event
};

// What the panes draw for a selection: its incoming and outgoing edges, and when it is a collective
// kernel, the participants of that collective on every rank (the selection included).
struct SelectionLinks {
    std::vector<DependencyLink> edges;
    std::vector<EventId> collective;
    bool empty() const { return edges.empty() && collective.empty(); }
};

SelectionLinks selectionLinks(const ExecutionGraph& graph, EventId selected);

// The event a graph node stands for.
EventId eventOf(const ExecutionGraph& g, NodeId n);

} // namespace sl::ui
