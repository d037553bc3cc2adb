#pragma once
// Kernel classes for the knobs compute.speedup.<class> and kernel.class.<class>
// (docs/ARCHITECTURE.md, "Event taxonomy"): groups of the event classes of trace/EventClass.h,
// whose one classifier decides. gemm, attention, elementwise, reduction: the event classes of the
// same name; "memory": data-movement kernels and the GPU's memcpy / memset ops (the group's name is
// kept for the knob keys and the reports that use it); "other": any other compute kernel.
// Communication kernels are not told apart here: callers set them aside first
// (isCommunicationKernelName, trace/Collective.h); classify() gives them their name patterns' group.
#include "trace/EventClass.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sl {

enum class KernelClass : std::uint8_t { Gemm, Attention, Elementwise, Reduction, Memory, Other, Count };
constexpr int kKernelClassCount = static_cast<int>(KernelClass::Count);

// "gemm", "attention", "elementwise", "reduction", "memory", "other".
std::string_view kernelClassName(KernelClass c);
// The class named by text, if any.
std::optional<KernelClass> kernelClassFromName(std::string_view name);

// The group of an event class (host events and communication kernels: Other).
KernelClass kernelClassOf(EventClass c);

// Default pattern of each class (indexed by KernelClass; "other" has none): the event classifier's
// pattern of the class it stands for (memory: data movement).
extern const std::array<const char*, kKernelClassCount> kDefaultKernelClassPatterns;

class KernelClassifier {
public:
    // Replaces the pattern of a class (not Other). Throws std::regex_error for an invalid one.
    void setPattern(KernelClass c, const std::string& pattern);
    const std::string& pattern(KernelClass c) const;
    KernelClass classify(std::string_view name, EventKind kind) const;
    const EventClassifier& events() const { return events_; }

private:
    EventClassifier events_;
};

} // namespace sl
