#pragma once
// The transformer a trace ran, read from the shapes the profiler recorded (record_shapes): the layer
// (or RMS) norms give the hidden size H, the tokens of a micro-batch and the activations' element
// size; the attention ops the heads per rank; the embedding lookups the vocabulary rows. tp.degree
// (sim/TensorShards.h) re-shards the kernels of this model; pp.degree sizes its stage-to-stage
// transfers from it (docs/Layouts.md).
#include "models/KernelCost.h"
#include "trace/TraceSet.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace sl {

struct ModelShape {
    bool recognised = false; // norms and attention with recorded shapes were found
    std::int64_t hidden = 0;
    std::int64_t tokens = 0; // of one micro-batch (with sequence parallelism: of the whole sequence)
    std::int64_t headsPerRank = 0;
    std::int64_t vocabPerRank = 0; // rows of the embedding table [V / T, H]; 0 when none was found
    int elementBytes = 0;          // of the norms' input (BF16: 2); 0 when its type is unknown
    bool sequenceParallel = false; // the norms see tokens / T (Megatron's sequence parallelism)
};

// kernelCosts() of every rank of the set, in rank order.
std::vector<std::vector<KernelCostEntry>> kernelCostsOf(const TraceSet& set);

// The model of `set`, traced at tensor-parallel degree tracedTp; `costs` are kernelCostsOf(set).
ModelShape recognizeModelShape(const TraceSet& set, int tracedTp,
                               const std::vector<std::vector<KernelCostEntry>>& costs);

// Helpers of the shape readers: an op's name without "aten::"; the product of all but the last dim;
// M, K, N of a GEMM op whose argument order is known (addmm, mm, matmul, linear), nullopt otherwise.
std::string_view bareOpName(std::string_view op);
std::int64_t leadingDims(const std::vector<std::int64_t>& d);
using GemmDims = std::array<std::int64_t, 3>;
std::optional<GemmDims> gemmDims(std::string_view op, const OpShapes& s);

} // namespace sl
