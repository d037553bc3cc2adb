#pragma once
// comm.overlap=false as a graph transform (docs/ARCHITECTURE.md, "comm.overlap=false"): the edges
// that serialize every collective kernel with the compute streams of its device, laid over a
// finished ExecutionGraph (an EdgeOverlay) instead of living in it, so one graph serves every run.
#include "graph/ExecutionGraph.h"

#include <memory>
#include <string>

namespace sl {

struct NoOverlapEdges {
    // Every collective kernel waits for the op before it (by effective measured start) on each
    // compute stream of its device, and the next op there waits for the collective's end: kind
    // CrossStream, delay 0, triggered by the end of `from`, gating the start of `to`.
    EdgeOverlay overlay;
    // Set when `overlay` is empty: why comm.overlap=false changes nothing on this graph (no
    // collective beside compute, Chakra input, or serializing would deadlock).
    std::string unavailable;
};

// Builds the serialization edges of `graph` (never changes it).
NoOverlapEdges buildNoOverlapEdges(const ExecutionGraph& graph);

// The same, computed once per graph and kept with it (ExecutionGraph::derived): the GUI
// re-simulates one graph on every knob change. Thread-safe.
std::shared_ptr<const NoOverlapEdges> noOverlapEdgesFor(const ExecutionGraph& graph);

} // namespace sl
