#pragma once
// Execution graph -> Chakra execution traces, one .et per rank (docs/Chakra.md, "Export"), so that
// a measured workload can be fed to ASTRA-sim or re-imported. Every graph node becomes a node:
// CPU calls COMP with is_cpu_op, GPU ops COMP on their stream ("tid"), collectives COMM_COLL with
// comm_type, comm_size and pg_name (send / recv: COMM_SEND / COMM_RECV). The graph's edges within
// the rank become data dependencies; time the graph keeps on an edge (CPU work between calls, a
// wait) becomes a COMP node of that duration on the same processor, and a boundary release (a
// rank's or a thread's first start, a pre-window op) a leading COMP node on its processor.
#include "graph/ExecutionGraph.h"
#include "io/chakra/ChakraReader.h"

#include <string>
#include <vector>

namespace sl {

struct ChakraExportStats {
    std::int64_t nodes = 0;        // graph nodes written
    std::int64_t delayNodes = 0;   // COMP nodes standing for edge delays and releases
    std::int64_t collectives = 0;  // COMM_* nodes
    std::int64_t unsized = 0;      // collectives without a size (written without comm_size)
    std::int64_t droppedDelay = 0; // edges across processors whose delay could not be kept (ns summed)
    std::int64_t droppedEdges = 0; // ... and how many
};

// One rank (index into TraceSet::ranks) as a Chakra file.
ChakraFile chakraFromGraph(const ExecutionGraph& g, std::uint32_t rankIndex,
                           ChakraExportStats* stats = nullptr);

} // namespace sl
