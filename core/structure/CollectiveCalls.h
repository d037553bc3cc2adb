#pragma once
// The collectives of an execution graph as the cost model sees them: each collective kernel with
// its type, size, group and whether that group is data-parallel, and the calibration of the
// collective model (models/CollectiveModel.h) from their measured transfers.
#include "graph/ExecutionGraph.h"
#include "models/CollectiveModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

// One collective kernel of the graph, as the cost model sees it.
struct CollectiveCall {
    NodeId node = kNoNode;
    CollectiveType type = CollectiveType::Unknown;
    std::int64_t bytes = -1;         // per participant, -1 when unknown
    int groupSize = 0;               // process group size
    std::vector<std::int32_t> ranks; // member rank ids when known (else empty)
    bool matched = false;            // part of a complete CollectiveGroup (transfer is simulated)
    bool dataParallel = false;       // belongs to the data-parallel group (dp.scale)
    TimeNs transfer = 0;             // the graph's duration: transfer time (matched) or kernel time
    std::string processGroup;        // key of the process group
    // True when the members span more than one node of gpusPerNode GPUs.
    bool spansNodes(int gpusPerNode) const;
};

// Every collective kernel node of the graph (matched or not). The data-parallel group: process
// groups whose description names data parallelism (trace/GroupRole.h); without such
// descriptions, the all-reduces of the largest group (plain DDP over the default group).
std::vector<CollectiveCall> collectiveCalls(const ExecutionGraph& graph);

// Fits bandwidth and latency from the measured transfers: one sample per matched collective (the
// mean transfer of its members) and per unmatched collective kernel with known bytes.
Calibration calibrate(const ExecutionGraph& graph, int gpusPerNode);

} // namespace sl
