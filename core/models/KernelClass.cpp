#include "models/KernelClass.h"

namespace sl {

namespace {

// The event class whose name pattern a kernel class uses (Other: none).
constexpr EventClass kPatternClass[kKernelClassCount] = {EventClass::Gemm,         EventClass::Attention,
                                                         EventClass::Elementwise,  EventClass::Reduction,
                                                         EventClass::DataMovement, EventClass::OtherKernel};

const char* defaultPattern(KernelClass c) {
    return kDefaultKernelPatterns[static_cast<std::size_t>(kPatternClass[static_cast<std::size_t>(c)])];
}

} // namespace

const std::array<const char*, kKernelClassCount> kDefaultKernelClassPatterns = {
    defaultPattern(KernelClass::Gemm),        defaultPattern(KernelClass::Attention),
    defaultPattern(KernelClass::Elementwise), defaultPattern(KernelClass::Reduction),
    defaultPattern(KernelClass::Memory),      defaultPattern(KernelClass::Other)};

std::string_view kernelClassName(KernelClass c) {
    static constexpr std::array<std::string_view, kKernelClassCount> names = {
        "gemm", "attention", "elementwise", "reduction", "memory", "other"};
    auto i = static_cast<std::size_t>(c);
    return i < names.size() ? names[i] : "other";
}

std::optional<KernelClass> kernelClassFromName(std::string_view name) {
    for (int i = 0; i < kKernelClassCount; ++i)
        if (kernelClassName(static_cast<KernelClass>(i)) == name) return static_cast<KernelClass>(i);
    return std::nullopt;
}

KernelClass kernelClassOf(EventClass c) {
    switch (c) {
    case EventClass::Gemm:
        return KernelClass::Gemm;
    case EventClass::Attention:
        return KernelClass::Attention;
    case EventClass::Elementwise:
        return KernelClass::Elementwise;
    case EventClass::Reduction:
        return KernelClass::Reduction;
    case EventClass::DataMovement:
    case EventClass::EmbeddingLookup:
    case EventClass::Memcpy:
    case EventClass::Memset:
        return KernelClass::Memory;
    default:
        return KernelClass::Other;
    }
}

void KernelClassifier::setPattern(KernelClass c, const std::string& pattern) {
    if (c == KernelClass::Other || c == KernelClass::Count) return;
    events_.setPattern(kPatternClass[static_cast<std::size_t>(c)], pattern);
}

const std::string& KernelClassifier::pattern(KernelClass c) const {
    static const std::string none;
    return c == KernelClass::Other || c == KernelClass::Count
               ? none
               : events_.pattern(kPatternClass[static_cast<std::size_t>(c)]);
}

KernelClass KernelClassifier::classify(std::string_view name, EventKind kind) const {
    // A kernel by its name patterns (communication kernels included, see the header); a GPU copy
    // or set, or anything else, by its event class.
    return kernelClassOf(kind == EventKind::Kernel ? events_.computeKernelClass(name)
                                                   : events_.classify(kind, name));
}

} // namespace sl
