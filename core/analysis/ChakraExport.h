#pragma once
// Execution graph -> Chakra execution traces, one .et per rank (docs/Chakra.md, "Export"), so that
// a measured workload can be fed to ASTRA-sim or re-imported. Every graph node becomes a node:
// CPU calls COMP with is_cpu_op, GPU ops COMP on their stream ("tid"), collectives COMM_COLL with
// comm_type, comm_size and an integer pg_name (send / recv: COMM_SEND / COMM_RECV with comm_src,
// comm_dst, comm_tag). The graph's edges within
// the rank become data dependencies; time the graph keeps on an edge (CPU work between calls, a
// wait) becomes a COMP node of that duration on the same processor, and a boundary release (a
// rank's or a thread's first start, a pre-window op) a leading COMP node on its processor.
#include "graph/ExecutionGraph.h"
#include "io/chakra/ChakraReader.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace sl {

// What the export decides across ranks before writing any file (docs/Chakra.md, "Export"):
// ASTRA-sim needs integer process groups, send / receive peers and tags, and a size on every
// collective, all of which have to agree between the ranks' files.
struct ChakraCommGroup {
    int id = 0;             // pg_name written on the nodes, a key of the comm-group JSON
    std::vector<int> ranks; // NPU ids (the rank numbers of the files), sorted
    std::string key;        // the graph's process group key
};
struct ChakraP2p {
    int src = -1, dst = -1, tag = -1; // NPU ids and the k-th message from src to dst
    std::int64_t bytes = -1;
};
struct ChakraExportPlan {
    // pg_name per process group key: "" for a group of every rank (ASTRA-sim's default
    // communicator), else the id of its entry in `groups`.
    std::map<std::string, std::string> pgNameOf;
    std::vector<ChakraCommGroup> groups;       // the comm-group JSON, ids from 1
    std::unordered_map<NodeId, ChakraP2p> p2p; // matched sends and receives
    // Collectives without a size in the trace: bytes estimated from the measured transfer time.
    std::unordered_map<NodeId, std::int64_t> estimatedBytes;
    bool estimateCalibrated = false;                // bandwidth fitted from the set's sized collectives
    double estimateGBps = 0, estimateLatencyUs = 0; // the intra-node values used (for the message)
    std::int64_t unmatchedP2p = 0;                  // sends / receives without a peer: written as GPU compute
};

// The plan for every rank of the graph.
ChakraExportPlan planChakraExport(const ExecutionGraph& g);

// ASTRA-sim's --comm-group-configuration file: {"1": [0, 1], "2": [2, 3]} ("{}" without groups).
std::string chakraCommGroupJson(const ChakraExportPlan& plan);

struct ChakraExportStats {
    std::int64_t nodes = 0;        // graph nodes written
    std::int64_t delayNodes = 0;   // COMP nodes standing for edge delays and releases
    std::int64_t collectives = 0;  // COMM_* nodes
    std::int64_t estimated = 0;    // collectives whose comm_size is estimated (no size in the trace)
    std::int64_t unmatchedP2p = 0; // sends / receives without a peer (written as GPU compute)
    std::int64_t droppedDelay = 0; // edges across processors whose delay could not be kept (ns summed)
    std::int64_t droppedEdges = 0; // ... and how many
};

// One rank (index into TraceSet::ranks) as a Chakra file.
ChakraFile chakraFromGraph(const ExecutionGraph& g, std::uint32_t rankIndex, const ChakraExportPlan& plan,
                           ChakraExportStats* stats = nullptr);

} // namespace sl
