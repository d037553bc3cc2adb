#pragma once
// Kernel classes for compute.speedup.<class> (DESIGN.md, "Simulator"): gemm, attention,
// elementwise, reduction, memory, other. A kernel's class comes from its name, matched
// case-insensitively against one regular expression per class, tried in the order
//   attention, gemm, reduction, memory, elementwise   (first match wins; none: other).
// memcpy / memset GPU ops are always "memory". The default patterns (kDefaultKernelClassPatterns)
// cover cuBLAS / CUTLASS / cuDNN GEMMs and convolutions, flash / fused attention, PyTorch's
// elementwise, reduction, norm and softmax kernels and copy / fill / index kernels. Each is
// replaceable with the knob kernel.class.<class>=<regex> (ECMAScript, searched anywhere in the
// name). Patterns made only of letters, digits, '_' and '|' are matched as plain substrings
// (fast path); anything else goes through std::regex.
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
    struct Matcher {
        std::vector<std::string> literals; // fast path: any of these substrings (lower case)
        std::shared_ptr<const std::regex> regex;
        bool matches(std::string_view lowerName, std::string_view name) const;
    };
    std::array<std::string, kKernelClassCount> patterns_;
    std::array<Matcher, kKernelClassCount> matchers_;
};

} // namespace sl
