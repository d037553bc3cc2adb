#pragma once
// The execution graph of a trace set without measured times (a Chakra execution trace loaded by
// io/chakra/ChakraTraceSet.h; docs/Chakra.md). buildExecutionGraph calls it for such sets.
//
// Nodes: every event (one per Chakra node). Edges: the file's data dependencies (same processor:
// thread / stream order; across processors: cross-stream), plus the order of each processor (a
// topological order of the dependencies, file order where free). Collectives: the k-th sized
// communication node of a process group on each rank, as one collective. Durations: the file's;
// a collective without one takes the alpha-beta time of its type and size (defaults below, the
// comm.* knobs re-time it like any collective).
#include "graph/ExecutionGraph.h"

namespace sl {

// Cost model defaults for collectives whose file gives no duration (per-GPU bus bandwidth of an
// NVLink-class node and of a 200 Gb/s network, NCCL-like latency).
constexpr double kChakraIntraNodeGBps = 150.0;
constexpr double kChakraInterNodeGBps = 25.0;
constexpr double kChakraLatencyUs = 5.0;
constexpr int kChakraGpusPerNode = 8;

// True when the set's ranks carry no measured timeline (Rank::hasMeasuredTimes).
bool isUnmeasuredSet(const TraceSet& set);

// Throws GraphError for a step window (Chakra has none) or an inconsistent collective order.
ExecutionGraph buildChakraGraph(const TraceSet& set, const GraphOptions& options = {});

} // namespace sl
