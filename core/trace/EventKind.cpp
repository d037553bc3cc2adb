#include "trace/EventKind.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace sl {

std::string_view eventKindName(EventKind kind) {
    static constexpr std::array<std::string_view, kEventKindCount> names = {
        "cpu_op",  "user_annotation", "python_function", "cuda_runtime",        "cuda_driver",
        "kernel",  "gpu_memcpy",      "gpu_memset",      "gpu_user_annotation", "cuda_sync",
        "instant", "other",           "cuda_event"};
    auto i = static_cast<std::size_t>(kind);
    return i < names.size() ? names[i] : "other";
}

EventKind eventKindFromCategory(std::string_view category, bool* known) {
    std::string c(category);
    std::transform(c.begin(), c.end(), c.begin(), [](unsigned char ch) { return std::tolower(ch); });
    struct Entry {
        std::string_view cat;
        EventKind kind;
    };
    static constexpr Entry table[] = {
        {"cpu_op", EventKind::CpuOp},
        {"operator", EventKind::CpuOp}, // PyTorch 1.8 - 1.9
        {"user_annotation", EventKind::UserAnnotation},
        {"python_function", EventKind::PythonFunction},
        {"python", EventKind::PythonFunction},
        {"cuda_runtime", EventKind::Runtime},
        {"runtime", EventKind::Runtime},
        {"hip_runtime", EventKind::Runtime},
        {"hip_api", EventKind::Runtime},
        {"xpu_runtime", EventKind::Runtime},
        {"privateuse1_runtime", EventKind::Runtime},
        {"mtia_runtime", EventKind::Runtime},
        {"cuda_driver", EventKind::Driver},
        {"hip_driver", EventKind::Driver},
        {"xpu_driver", EventKind::Driver},
        {"privateuse1_driver", EventKind::Driver},
        {"kernel", EventKind::Kernel},
        {"mtia_ccp_events", EventKind::Kernel},
        {"gpu_memcpy", EventKind::GpuMemcpy},
        {"memcpy", EventKind::GpuMemcpy},
        {"gpu_memset", EventKind::GpuMemset},
        {"memset", EventKind::GpuMemset},
        {"gpu_user_annotation", EventKind::GpuUserAnnotation},
        {"cuda_sync", EventKind::CudaSync},
        {"cuda_event", EventKind::GpuEvent},
        {"cpu_instant_event", EventKind::Instant},
    };
    for (const auto& e : table) {
        if (e.cat == c) {
            if (known) *known = true;
            return e.kind;
        }
    }
    if (known) *known = false;
    return EventKind::Other;
}

} // namespace sl
