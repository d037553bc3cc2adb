#pragma once
// FLOPs and bytes of a GPU kernel from the shapes of the op that launched it (docs/GpuModel.md).
// PyTorch writes an op's shapes into its Kineto args when the profiler records shapes:
// "Input Dims" (one list per argument, [] for scalars), "Input type" ("float", "c10::BFloat16",
// "Scalar", "TensorList", ...) and, in newer versions, "Concrete Inputs" (scalar values as text).
// A kernel's launching op is the innermost cpu_op with shapes around its launch call (an op recorded
// without them takes those of its linked execution-trace node, Rank::etOpShapes); an op that
// launches several kernels shares its FLOPs and bytes among them by measured duration. Copies and
// memsets carry their byte count on the GPU op itself ("bytes"). The other kernels of a GEMM,
// convolution or attention op that launched a GEMM / attention kernel are auxiliary (no share).
#include "models/GpuTable.h"
#include "models/KernelClass.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

// Element types of "Input type"; Other for names that are not tensor element types.
enum class DType : std::uint8_t { Other, F64, F32, F16, BF16, F8, I64, I32, I16, I8, Bool, C64 };
DType dtypeFromName(std::string_view inputType);
int dtypeBytes(DType t); // 0 for Other

// The shapes of one op, as recorded.
struct OpShapes {
    std::vector<std::vector<std::int64_t>> dims;
    std::vector<std::string> types;
    std::vector<std::string> concrete; // empty when the trace has no "Concrete Inputs"

    // Argument i is a tensor: an element type with dims recorded (a 0-d tensor has []).
    bool isTensor(std::size_t i) const;
    std::int64_t numel(std::size_t i) const; // 1 for a 0-d tensor
    double tensorBytes(std::size_t i) const; // numel x element size; 0 when not a tensor
    DType dtype(std::size_t i) const;
};

// Parses "Input Dims" / "Input type" / "Concrete Inputs" from an event's args JSON text; nullopt
// when there are no "Input Dims" (the trace was recorded without shapes) or they are malformed.
std::optional<OpShapes> parseOpShapes(std::string_view argsJson);

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
