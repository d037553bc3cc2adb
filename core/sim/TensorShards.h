#pragma once
// tp.degree's kernels (docs/Layouts.md): which kernels of a transformer trace the tensor-parallel
// degree re-shards and how long each takes at the new degree.
//
// The layers are read from the shapes the profiler recorded (record_shapes): the layer (or RMS) norms give
// the hidden size H and the tokens of a micro-batch, the attention ops the heads per rank. A GEMM
// whose dims are the tokens, H and one other feature size f is a sharded linear (column-parallel:
// QKV, MLP up, LM head; row-parallel: attention output, MLP down), and f becomes f x T / N;
// attention keeps its batch and sequence and gets heads x T / N; elementwise ops on sharded
// activations (GeLU of the MLP, the vocabulary-parallel softmax) scale with their sharded size; the
// optimizer updates parameters / N instead of / T. Each kernel's new time is its measured time x
// the roofline ratio of the new shapes to the old on the trace's GPU, so a kernel the model
// misjudges keeps its measured efficiency.
#include "graph/ExecutionGraph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

struct TensorShards {
    std::vector<double> nodeFactor; // per graph node: 1 for every node the degree does not re-shard
    std::int64_t hidden = 0, tokens = 0, heads = 0; // the model as recognised (heads of the whole layer)
    std::int64_t vocab = 0; // the vocabulary-parallel GEMM's features x the traced degree (0: none found)
    std::int64_t gemms = 0, attention = 0, activations = 0, optimizer = 0; // kernels re-shaped
    // Megatron's sequence parallelism: the norms see tokens / T; their ops and the residual adds on
    // the sequence split (sequenceOps) take T / N.
    bool sequenceParallel = false;
    std::int64_t sequenceOps = 0;
    std::int64_t withoutShapes = 0; // compute kernels without shapes, kept as measured
    // From T = 1: tensor-parallel all-reduces the trace lacks, each added to the GEMM it follows
    // (sim/TensorShards.cpp, insertAllReduces), and the time of one.
    std::int64_t insertedAllReduces = 0;
    double insertedUs = 0;
    std::string insertedFrom; // what timed them
    std::string gpu;          // the GPU whose roofline gives the ratios
};

// The kernels of `g` at tensor-parallel degree newTp, traced at tracedTp. Throws KnobError (one line
// naming tp.degree) when the trace has no recognisable transformer layers, when newTp does not
// divide the heads or the hidden size, or when the trace's GPU is unknown (gpu.source names it);
// from T = 1, also when the new group would span nodes of gpusPerNode GPUs.
// insertComm = false (tp.resize_comm=false): no all-reduces are added from T = 1; reshape = false
// (tp.reshape=false): every kernel keeps its traced time (an inserted all-reduce is still added).
TensorShards planTensorShards(const ExecutionGraph& g, int tracedTp, int newTp, const std::string& gpuSource,
                              int gpusPerNode, bool insertComm = true, bool reshape = true);

} // namespace sl
