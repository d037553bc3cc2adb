#pragma once
// Kernel classes for compute.speedup.<class> (docs/ARCHITECTURE.md, "Simulator"): gemm, attention,
// elementwise, reduction, memory, other. memcpy / memset GPU ops are always "memory". A kernel's
// class comes from its name (case-insensitive, a leading "void " ignored), in three steps:
//  1. Triton (torch.compile / Inductor) kernels by their prefix: triton_poi_ (pointwise) and
//     triton_for_ (foreach) -> elementwise; triton_red_ / triton_per_ (persistent reduction) ->
//     reduction; triton_tem_ (templates) -> attention if the attention pattern matches, else gemm;
//     any other triton_ name with an mm / bmm / addmm / baddbmm / matmul / gemm part -> gemm. The
//     prefix wins over words in the rest of the name (triton_poi_fused_convolution_relu_0 is
//     elementwise), unless the pattern of the class it picks has been replaced.
//  2. One regular expression per class, tried in the order
//       attention, gemm, reduction, memory, elementwise   (first match wins).
//     The defaults (kDefaultKernelClassPatterns) cover cuBLAS / CUTLASS / cuDNN GEMMs and
//     convolutions, rocBLAS / hipBLASLt / Tensile (Cijk_) GEMMs, Composable Kernel GEMMs (also
//     ck_tile flatmm) and convolutions, MIOpen convolutions (MIOpenConv*, naive_conv_*, *AsmConv*, winograd),
//     flash / fused / CK fmha attention, PyTorch's elementwise, reduction, norm and softmax kernels and copy
//     / fill / index kernels. Each is replaceable with the knob kernel.class.<class>=<regex> (ECMAScript,
//     searched anywhere in the name). Patterns made only of letters, digits, '_' and
//     '|' are matched as plain substrings (fast path); anything else goes through std::regex.
//  3. Names no pattern matched: Composable Kernel (ck::) and MIOpen kernels other than pooling,
//     activation, LRN and tensor ops -> gemm, while the gemm pattern is the default.
//  Anything else is "other". Communication kernels (NCCL, DeepEP, ...) are not told apart here:
//  see isCommunicationKernelName in trace/Collective.h.
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

enum class KernelClass : std::uint8_t { Gemm, Attention, Elementwise, Reduction, Memory, Other, Count };
constexpr int kKernelClassCount = static_cast<int>(KernelClass::Count);

// "gemm", "attention", "elementwise", "reduction", "memory", "other".
std::string_view kernelClassName(KernelClass c);
// The class named by text, if any.
std::optional<KernelClass> kernelClassFromName(std::string_view name);

// Default pattern of each class (indexed by KernelClass; "other" has none).
extern const std::array<const char*, kKernelClassCount> kDefaultKernelClassPatterns;

class KernelClassifier {
public:
    KernelClassifier(); // the default patterns
    // Replaces the pattern of a class (not Other). Throws std::regex_error for an invalid one.
    void setPattern(KernelClass c, const std::string& pattern);
    const std::string& pattern(KernelClass c) const { return patterns_[static_cast<std::size_t>(c)]; }
    KernelClass classify(std::string_view name, EventKind kind) const;

private:
    // Step 1 above: the class a Triton kernel name gives, if any (name in lower case).
    std::optional<KernelClass> tritonClass(std::string_view lowerName) const;

    struct Matcher {
        std::vector<std::string> literals; // fast path: any of these substrings (lower case)
        std::shared_ptr<const std::regex> regex;
        bool matches(std::string_view lowerName, std::string_view name) const;
    };
    std::array<std::string, kKernelClassCount> patterns_;
    std::array<Matcher, kKernelClassCount> matchers_;
    std::array<bool, kKernelClassCount> isDefault_{}; // the class still has its default pattern
};

} // namespace sl
