#pragma once
// FLOPs and bytes of a GPU kernel from the shapes of the op that launched it (docs/GpuModel.md).
// The shapes are trace/OpShapes.h's, read through Rank::opShapes: the op's Kineto args ("Input
// Dims", "Input type", "Concrete Inputs") or, for an op recorded without them, those of its linked
// execution-trace node (Rank::etOpShapes). A kernel's launching op is the innermost cpu_op with
// shapes around its launch call; an op that launches several kernels shares its FLOPs and bytes
// among them by measured duration. Copies and memsets carry their byte count on the GPU op itself
// ("bytes"). The other kernels of a GEMM, convolution or attention op that launched a GEMM /
// attention kernel are auxiliary (no share).
#include "models/GpuTable.h"
#include "models/KernelClass.h"
#include "trace/OpShapes.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

enum class OpFamily : std::uint8_t {
    Gemm,
    Conv,
    Attention,
    Elementwise,
    Reduction,
    Embedding,
    Copy,
    Unknown
};
std::string_view opFamilyName(OpFamily f); // "gemm", "conv", "attention", "elementwise", ...

struct OpCost {
    OpFamily family = OpFamily::Unknown;
    double flops = 0;
    double bytes = 0;
    // Tensor-core math (GEMM, convolution, attention) uses the matrix peak of `peak`; everything
    // else the vector FP32 peak.
    bool matrix = false;
    PeakType peak = PeakType::Fp32;
};

// FLOPs and bytes of one op from its shapes (name with or without the "aten::" prefix). Families:
// mm / addmm / bmm / baddbmm / matmul / linear; convolutions and their backward; scaled-dot-product
// and flash / efficient attention and their backward; elementwise; reductions, softmax and norms;
// embedding lookups and index_select; copies and fills. nullopt for ops of no known family or
// without the tensor arguments a family needs. `kernelClass`: the class of the kernel it launched;
// an op of no known family whose kernel is elementwise gets the elementwise cost (read every
// tensor argument, write the largest).
std::optional<OpCost> opCost(std::string_view opName, const OpShapes& shapes,
                             KernelClass kernelClass = KernelClass::Other);

// Why a kernel has no cost.
enum class CostMissing : std::uint8_t {
    None,
    NoLaunch,  // no launch call in the trace (launched before the window, or no correlation)
    NoShapes,  // no enclosing op with "Input Dims" (recorded without shapes)
    UnknownOp, // the launching op is of no known family
    HostCopy,  // a host <-> device copy: bound by the host link, not by the GPU
    Auxiliary, // a non-matrix kernel of a GEMM / convolution / attention op (bias copy, split-K reduce)
};

// "none", "no_launch", "no_shapes", "unknown_op", "host_copy", "auxiliary_of_matrix_op".
std::string_view costMissingName(CostMissing m);

// The cost of one GPU op (kernel, memcpy, memset) of a rank.
struct KernelCostEntry {
    EventRef gpuOp;
    EventRef op; // the launching op (invalid when none)
    KernelClass cls = KernelClass::Other;
    OpCost cost; // this kernel's share (by duration) of the op's FLOPs and bytes
    CostMissing missing = CostMissing::None;
    bool shapesFromEt = false; // the op's shapes came from an attached execution trace (Rank::etOpShapes)
    bool known() const { return missing == CostMissing::None; }
};

// Every GPU op of the rank but communication kernels, in track order. `classifier` classes the
// kernels (the default patterns when null).
std::vector<KernelCostEntry> kernelCosts(const Rank& rank, const KernelClassifier* classifier = nullptr);

} // namespace sl
