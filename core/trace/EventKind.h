#pragma once
#include <cstdint>
#include <string_view>

namespace sl {

enum class EventKind : std::uint8_t {
    CpuOp,
    UserAnnotation,
    PythonFunction,
    Runtime, // cuda_runtime, hip runtime
    Driver,  // cuda_driver
    Kernel,
    GpuMemcpy,
    GpuMemset,
    GpuUserAnnotation,
    CudaSync,
    Instant,
    Other,
    GpuEvent, // cuda_event (Kineto 2.6+): where a cudaEventRecord landed on a stream; not an op
    Count
};

constexpr int kEventKindCount = static_cast<int>(EventKind::Count);

// Stable lower-case names used in JSON output ("cpu_op", "kernel", ...).
std::string_view eventKindName(EventKind kind);

// Maps a Kineto category ("cat") to a kind. Accepts the spellings of several PyTorch versions
// (e.g. "Kernel", "Runtime", "Memcpy") and ROCm: Kineto built with roctracer or rocprofiler-sdk
// writes HIP API calls as "cuda_runtime" and GPU work as "kernel" / "gpu_memcpy" / "gpu_memset";
// "hip_runtime", "hip_api" and "hip_driver" are accepted too. Unknown categories map to Other and
// set *known=false.
EventKind eventKindFromCategory(std::string_view category, bool* known = nullptr);

// GPU operations that occupy a stream (kernels, copies, sets); annotations are not ops.
constexpr bool isGpuOp(EventKind k) {
    return k == EventKind::Kernel || k == EventKind::GpuMemcpy || k == EventKind::GpuMemset;
}
constexpr bool isGpuKind(EventKind k) {
    return isGpuOp(k) || k == EventKind::GpuUserAnnotation || k == EventKind::CudaSync ||
           k == EventKind::GpuEvent;
}
constexpr bool isRuntimeCall(EventKind k) {
    return k == EventKind::Runtime || k == EventKind::Driver;
}

} // namespace sl
