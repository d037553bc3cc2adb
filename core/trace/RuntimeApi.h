#pragma once
// What a CUDA / HIP runtime or driver call does to the GPU, from its name. One table for both
// vendors, so the graph and the analyses never spell API names themselves:
//
//   KernelLaunch       cudaLaunchKernel, cudaLaunchKernelExC, cudaLaunchCooperativeKernel(MultiDevice),
//                      cudaLaunch (CUDA < 10), cuLaunchKernel(Ex), cuLaunchCooperativeKernel,
//                      hipLaunchKernel, hipLaunchKernelExC, hipExtLaunchKernel, hipModuleLaunchKernel,
//                      hipExtModuleLaunchKernel, hipHccModuleLaunchKernel, hipLaunchCooperativeKernel
//                      (MultiDevice), hipModuleLaunchCooperativeKernel(MultiDevice),
//                      hipExtLaunchMultiKernelMultiDevice, hipDrvLaunchKernelEx, hipLaunchByPtr
//   GraphLaunch        cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch
//   Memcpy             cudaMemcpy*, cuMemcpy*, hipMemcpy* (async = the name contains "Async")
//   Memset             cudaMemset*, cuMemset*, hipMemset* (async likewise)
//   EventRecord        cudaEventRecord(WithFlags), cuEventRecord(WithFlags), hipEventRecord(WithFlags)
//   StreamWaitEvent    cudaStreamWaitEvent, cuStreamWaitEvent, hipStreamWaitEvent
//   DeviceSynchronize  cudaDeviceSynchronize, cudaThreadSynchronize, cuCtxSynchronize,
//                      hipDeviceSynchronize, hipCtxSynchronize
//   StreamSynchronize  cudaStreamSynchronize, cuStreamSynchronize, hipStreamSynchronize
//   EventSynchronize   cudaEventSynchronize, cuEventSynchronize, hipEventSynchronize
//   Other              everything else (cudaGetDevice, hipMalloc, cudaLaunchHostFunc, ...)
//
// Suffixes for per-thread default streams and API versions (_ptsz, _ptds, _spt, _v2, _v11060) are
// ignored: hipLaunchKernel_spt is a kernel launch, cuMemcpyHtoDAsync_v2 an async memcpy,
// cudaStreamWaitEvent_v3020 a stream wait (CUPTI of CUDA 12 writes such versioned names).
#include <cstdint>
#include <string_view>

namespace sl {

enum class RuntimeApi : std::uint8_t {
    Other,
    KernelLaunch,
    GraphLaunch,
    Memcpy,
    Memset,
    EventRecord,
    StreamWaitEvent,
    DeviceSynchronize,
    StreamSynchronize,
    EventSynchronize,
    Count
};

struct RuntimeApiInfo {
    RuntimeApi api = RuntimeApi::Other;
    bool async = false; // Memcpy / Memset: the *Async form (a plain cudaMemcpy / hipMemcpy blocks the host)
    bool hip = false;   // a HIP (ROCm) name
};

// Classifies a runtime / driver call by its name (case-sensitive, as the runtimes spell them).
RuntimeApiInfo runtimeApiInfo(std::string_view callName);
inline RuntimeApi runtimeApi(std::string_view callName) {
    return runtimeApiInfo(callName).api;
}

// Stable lower-case names: "other", "kernel_launch", "graph_launch", "memcpy", "memset",
// "event_record", "stream_wait_event", "device_synchronize", "stream_synchronize",
// "event_synchronize".
std::string_view runtimeApiName(RuntimeApi api);

// Calls that enqueue GPU work linked to them by correlation (kernels, graphs, copies, sets).
constexpr bool launchesGpuWork(RuntimeApi a) {
    return a == RuntimeApi::KernelLaunch || a == RuntimeApi::GraphLaunch || a == RuntimeApi::Memcpy ||
           a == RuntimeApi::Memset;
}
// Calls after which the host has waited for GPU work: the three synchronize calls and a blocking
// (non-Async) memcpy. Async copies to pageable memory also block in practice; the name cannot tell.
constexpr bool waitsForGpu(const RuntimeApiInfo& i) {
    return i.api == RuntimeApi::DeviceSynchronize || i.api == RuntimeApi::StreamSynchronize ||
           i.api == RuntimeApi::EventSynchronize || (i.api == RuntimeApi::Memcpy && !i.async);
}

} // namespace sl
