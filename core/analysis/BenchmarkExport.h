#pragma once
// One rank's GPU work as a standalone PyTorch benchmark script (Mystique-style; docs/Chakra.md,
// "Benchmark export"). The operators are the innermost aten:: CPU ops (with their recorded
// Input Dims / Input type) that launched the rank's GPU ops, in launch order, on the stream they
// ran on; collective kernels become torch.distributed calls of the same type and size.
#include "trace/TraceSet.h"

#include <string>
#include <vector>

namespace sl {

struct BenchOp {
    std::string name;        // "aten::mm", or the collective type for collectives
    std::string inputDims;   // JSON text of Input Dims ("[[64, 32], [32, 16]]")
    std::string inputTypes;  // JSON text of Input type ("[\"float\", \"float\"]")
    std::int64_t stream = 0; // the stream of its (first) GPU op
    bool collective = false;
    CollectiveType type = CollectiveType::Unknown;
    std::int64_t bytes = -1; // collectives: per participant, -1 unknown
    int gpuOps = 0;          // GPU ops it launched in the trace
};

struct BenchPlan {
    int rank = 0;
    int worldSize = 1;
    std::vector<BenchOp> ops;
    std::int64_t gpuOps = 0;              // GPU ops of the rank
    std::int64_t gpuOpsWithoutAtenOp = 0; // launched outside any aten:: op with shapes (not re-created)
    std::int64_t collectivesWithoutSize = 0;
};

// The innermost aten:: CPU op with recorded Input Dims around the call that launched a GPU op (its
// operator, shapes and dtypes), or an invalid ref when there is none.
EventRef shapedOpOf(const Rank& rank, EventRef gpuOp);

// The plan of one rank (index into TraceSet::ranks).
BenchPlan benchmarkPlan(const TraceSet& set, std::uint32_t rankIndex);

// The Python script (runs with `torchrun --nproc_per_node=N bench.py`, or plain python for one rank).
std::string benchmarkScript(const BenchPlan& plan, const std::string& source);

} // namespace sl
