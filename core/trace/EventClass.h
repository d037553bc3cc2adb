#pragma once
// What an event is (docs/ARCHITECTURE.md, "Event taxonomy"): one class per event, from its kind
// (the trace category) and its name, and one meaning per word. Every other grouping is a mapping
// of it: the kernel classes of the compute.speedup.<class> knobs (models/KernelClass.h), the op
// classes of the HTA breakdown (analysis/Breakdown.h), the timeline's colour categories
// (ui/model/Palette.h) and the synthetic generator's kernels (synth/CostModel.h).
//
// Words: "memcpy" / "memset" are the GPU copy and set operations (not kernels); "data movement"
// is a kernel that copies, fills, indexes, gathers, scatters, embeds or transposes; "communication"
// is a collective library's kernel or the host op that issues it. "Memory-bound" is a cost
// property (models/KernelCost.h), never a class.
#include "trace/EventKind.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

enum class EventClass : std::uint8_t {
    // GPU kernels that compute, by what they compute (the name patterns below):
    Gemm,         // matrix multiplies and convolutions
    Attention,    // fused attention
    Elementwise,  // pointwise, activation, dropout, foreach and optimizer kernels
    Reduction,    // reductions, norms, softmax, losses
    DataMovement, // copy, fill, index, gather / scatter, transpose kernels
    // Embedding-table lookups, forward and backward (FBGEMM's table-batched embedding kernels,
    // aten's embedding_bag / embedding backward kernels: trace/EmbeddingWork.h); named "embedding
    // lookup" in views, grouped with data movement in the knobs' "memory" class.
    EmbeddingLookup,
    OtherKernel, // a kernel no pattern claims
    // Other GPU events:
    CommKernel,    // a communication kernel (NCCL / RCCL / MSCCL, DeepEP, NVSHMEM, ...)
    Memcpy,        // a GPU copy (cudaMemcpy*'s op on the stream)
    Memset,        // a GPU set
    GpuAnnotation, // gpu_user_annotation
    GpuEvent,      // where a cudaEventRecord landed on a stream (not an op)
    Sync,          // cuda_sync: a stream or host waiting for an event
    // Host events:
    CpuOp,       // an operator (aten::..., record_function ranges the profiler lists as cpu_op)
    CommOp,      // a host op or range that issues communication (nccl:..., c10d::..., record_param_comms)
    Python,      // python_function
    Annotation,  // user_annotation (ProfilerStep#N, forward, ...)
    RuntimeCall, // CUDA / HIP runtime or driver call
    Instant,     // an instant event
    Other,
    Count
};
constexpr int kEventClassCount = static_cast<int>(EventClass::Count);
// Gemm .. OtherKernel: the classes the name patterns choose among.
constexpr int kComputeKernelClassCount = static_cast<int>(EventClass::OtherKernel) + 1;

constexpr bool isComputeKernel(EventClass c) {
    return static_cast<int>(c) < kComputeKernelClassCount;
}

// Stable lower-case names: "gemm", "attention", "elementwise", "reduction", "data_movement",
// "embedding_lookup", "other_kernel", "comm_kernel", "memcpy", "memset", "gpu_annotation", "gpu_event",
// "sync", "cpu_op", "comm_op", "python", "annotation", "runtime_call", "instant", "other".
std::string_view eventClassName(EventClass c);

// A host op / range name that stands for communication: a collective kernel name, or c10d::...,
// nccl:..., record_param_comms. (Kernels use isCommunicationKernelName, trace/Collective.h.)
bool isCommunicationOpName(std::string_view name);

// The class as far as the kind and whether the name is a communication name (for a kernel:
// isCommunicationKernelName; for a host op: isCommunicationOpName) tell: a compute kernel comes
// back as OtherKernel. EventClassifier::classify refines it with the name patterns; views that only
// tell compute from communication (the timeline colours) use this directly.
EventClass eventClassByKind(EventKind kind, bool communicationName);

// Default name pattern of each compute kernel class (indexed by EventClass; OtherKernel has none).
extern const std::array<const char*, kComputeKernelClassCount> kDefaultKernelPatterns;

// The classifier. A compute kernel's class comes from its name (case-insensitive, a leading "void "
// ignored), in three steps:
//  1. Triton (torch.compile / Inductor) kernels by their prefix: triton_poi_ (pointwise) and
//     triton_for_ (foreach) -> elementwise; triton_red_ / triton_per_ (persistent reduction) ->
//     reduction; triton_tem_ (templates) -> attention if the attention pattern matches, else gemm;
//     any other triton_ name with an mm / bmm / addmm / baddbmm / matmul / gemm part -> gemm. The
//     prefix wins over words in the rest of the name (triton_poi_fused_convolution_relu_0 is
//     elementwise), unless the pattern of the class it picks has been replaced.
//  2. One regular expression per class, tried in the order
//       embedding_lookup, attention, gemm, reduction, data_movement, elementwise   (first match wins).
//     The defaults cover cuBLAS / CUTLASS / cuDNN GEMMs and convolutions, rocBLAS / hipBLASLt /
//     Tensile (Cijk_) GEMMs, Composable Kernel GEMMs (also ck_tile flatmm) and convolutions, MIOpen
//     convolutions (MIOpenConv*, naive_conv_*, *AsmConv*, winograd), flash / fused / CK fmha
//     attention, PyTorch's elementwise, reduction, norm and softmax kernels and copy / fill / index
//     kernels. Each is replaceable (the knob kernel.class.<class>=<regex>: ECMAScript, searched
//     anywhere in the name). Patterns made only of letters, digits, '_' and '|' are matched as
//     plain substrings (fast path); anything else goes through std::regex.
//  3. Names no pattern matched: Composable Kernel (ck::) and MIOpen kernels other than pooling,
//     activation, LRN and tensor ops -> gemm, while the gemm pattern is the default.
//  Anything else is OtherKernel.
class EventClassifier {
public:
    EventClassifier(); // the default patterns
    // Replaces the pattern of a compute kernel class (not OtherKernel; other classes are ignored).
    // Throws std::regex_error for an invalid one.
    void setPattern(EventClass c, const std::string& pattern);
    const std::string& pattern(EventClass c) const;

    EventClass classify(EventKind kind, std::string_view name) const;
    // Steps 1-3 above for a kernel known to compute (not communication): Gemm .. OtherKernel.
    EventClass computeKernelClass(std::string_view name) const;

private:
    std::optional<EventClass> tritonClass(std::string_view lowerName) const;

    struct Matcher {
        std::vector<std::string> literals; // fast path: any of these substrings (lower case)
        std::shared_ptr<const std::regex> regex;
        bool matches(std::string_view lowerName, std::string_view name) const;
    };
    std::array<std::string, kComputeKernelClassCount> patterns_;
    std::array<Matcher, kComputeKernelClassCount> matchers_;
    std::array<bool, kComputeKernelClassCount> isDefault_{}; // the class still has its default pattern
};

// classify() with the default patterns.
EventClass eventClassOf(EventKind kind, std::string_view name);

} // namespace sl
