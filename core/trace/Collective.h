#pragma once
#include "trace/StringTable.h"
#include "trace/Track.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace sl {

enum class CollectiveType : std::uint8_t {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    Broadcast,
    Reduce,
    SendRecv,
    Send,
    Recv,
    Unknown,
    Count
};

std::string_view collectiveTypeName(CollectiveType t);

// True for NCCL / RCCL collective kernels (ncclKernel_*, ncclDevKernel_*, rccl*, and RCCL's MSCCL
// kernels mscclKernel_*): the kernels matched across ranks as one collective.
bool isCollectiveKernelName(std::string_view kernelName);
// True for every kernel that moves data between GPUs: the collective kernels above, plus kernels
// that communicate without NCCL and keep SMs busy while they do, by one rule table
// (Collective.cpp): every DeepEP kernel (deep_ep::, dpsk::ep::, but not deep_ep::layout::),
// NVSHMEM / rocSHMEM kernels, MSCCL and MSCCL++, custom all-reduce (cross_device_reduce_*), and any
// *::intranode:: / *::internode:: dispatch, combine or notify kernel. These count as communication, not
// compute, but are not matched across ranks (they carry no collective metadata).
bool isCommunicationKernelName(std::string_view kernelName);
// The collective type from a kernel name such as "ncclDevKernel_AllGather_RING_LL(...)".
CollectiveType collectiveTypeFromKernelName(std::string_view kernelName);
// The collective type from metadata ("allreduce", "all_gather", "_allgather_base", "send", ...).
CollectiveType collectiveTypeFromMetadata(std::string_view collectiveName);
// Bytes per element of a PyTorch dtype name ("Float", "BFloat16", "c10::Half", ...); 0 if unknown.
int dtypeSize(std::string_view dtype);

// Communication metadata of one collective kernel. Fields are -1 / 0 when the trace lacks them.
struct CollectiveMeta {
    EventRef kernel;
    CollectiveType type = CollectiveType::Unknown;
    bool hasMetadata = false; // true when Collective name / msg sizes were found
    std::int64_t inNelems = -1;
    std::int64_t outNelems = -1;
    std::int32_t groupSize = -1;
    StringId dtype = 0;
    StringId processGroupName = 0;
    std::vector<std::int32_t> processGroupRanks;

    // max(In, Out msg nelems) x dtype size, or -1 when unknown.
    std::int64_t bytes(const StringTable& strings) const;
};

// A cuda_sync record (Kineto >= 2.3): which stream / event record a wait refers to.
struct SyncMeta {
    EventRef event;
    StringId syncKind = 0; // "Stream Wait Event", "Event Sync", "Context Sync", ...
    std::int64_t waitOnStream = -1;
    std::int64_t waitOnEventRecordCorrelation = -1;
    std::int64_t waitOnCudaEventId =
        -1;                   // "wait_on_cuda_event_id" (newer Kineto): the event_id of a cuda_event
    std::int64_t stream = -1; // the stream that waits (-1: the host waits)
    std::int64_t device = -1;
};

} // namespace sl
